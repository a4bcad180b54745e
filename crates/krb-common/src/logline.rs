//! The worker's log grammar: every line the worker writes, and the parser that reads it back.
//!
//! A line is `HH:MM:SS.mmm NAME EVENT`, local time first so that `sort` orders the lines of
//! several workers by time, as the article does:
//!
//! ```text
//! 09:13:29.854 nocommit-a p1 offset 481
//! 09:14:36.172 slow-a p0 offset 3 slow start
//! 09:13:29.861 nocommit-a assigned [0]
//! 09:13:29.854 nocommit-a revoked [0, 1]
//! 09:14:51.682 slow-a lost [0]
//! 09:13:56.072 revcommit-a commit p1=490
//! 09:14:51.682 slow-a commit failed: KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str="..."}
//! 09:14:51.682 slow-a poll error: KafkaError{code=_MAX_POLL_EXCEEDED,val=-147,str="..."}
//! 09:13:27.038 start nocommit-b      (common.sh's start and stop, verb first as the article shows)
//! 09:13:31.002 stop nocommit-b
//! ```
//!
//! Writing and parsing live side by side so that a change to one line kind is one change here,
//! checked by the round-trip tests below; the worker, krb-dups and the labs cannot drift apart.

use std::fmt;
use std::sync::OnceLock;

use chrono::{NaiveTime, Timelike};
use regex::Regex;

/// A partition number, as librdkafka numbers them.
pub type Partition = i32;
/// A message offset within a partition.
pub type Offset = i64;

/// One event of a worker, the part of a log line after the worker's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Processing of a message ended: `p1 offset 481`. Only these count as processed.
    Processed {
        /// The message's partition.
        partition: Partition,
        /// The message's offset.
        offset: Offset,
    },
    /// Processing of the `--slow-at` message began: `p0 offset 3 slow start`.
    SlowStart {
        /// The message's partition.
        partition: Partition,
        /// The message's offset.
        offset: Offset,
    },
    /// The group gave the worker these partitions: `assigned [0, 1]`.
    Assigned(Vec<Partition>),
    /// The worker handed these partitions back in a clean rebalance: `revoked [0, 1]`.
    Revoked(Vec<Partition>),
    /// The worker lost these partitions without handing them back: `lost [0]`.
    Lost(Vec<Partition>),
    /// A synchronous commit succeeded with these next positions: `commit p0=512 p1=490`.
    Commit(Vec<(Partition, Offset)>),
    /// A commit failed; the text is a rendered Kafka error.
    CommitFailed(String),
    /// `poll()` returned an error; the text is a rendered Kafka error.
    PollError(String),
    /// common.sh's `start` launched the worker: `09:13:27.038 start nocommit-b`, the line the
    /// article's script echoes, also written to the worker's log.
    Start,
    /// common.sh's `stop` sent it SIGTERM: `09:13:31.002 stop nocommit-b`.
    Stop,
}

/// A whole log line: when, who, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// Local wall-clock time, kept to the millisecond.
    pub time: NaiveTime,
    /// The worker's name (`nocommit-a`); never contains white space.
    pub name: String,
    /// What happened.
    pub event: Event,
}

/// Formats a time the way every log line starts: `09:13:29.854`.
pub fn format_time(time: NaiveTime) -> String {
    time.format("%H:%M:%S%.3f").to_string()
}

/// The current local time, truncated to the millisecond as it is written.
pub fn now() -> NaiveTime {
    let t = chrono::Local::now().time();
    t.with_nanosecond(t.nanosecond() / 1_000_000 * 1_000_000)
        .unwrap_or(t)
}

/// Python's list style, which the article's logs show: `[]`, `[0]`, `[0, 1]`.
fn write_list(f: &mut fmt::Formatter<'_>, partitions: &[Partition]) -> fmt::Result {
    f.write_str("[")?;
    for (i, p) in partitions.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{p}")?;
    }
    f.write_str("]")
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Processed { partition, offset } => write!(f, "p{partition} offset {offset}"),
            Event::SlowStart { partition, offset } => {
                write!(f, "p{partition} offset {offset} slow start")
            }
            Event::Assigned(ps) => {
                f.write_str("assigned ")?;
                write_list(f, ps)
            }
            Event::Revoked(ps) => {
                f.write_str("revoked ")?;
                write_list(f, ps)
            }
            Event::Lost(ps) => {
                f.write_str("lost ")?;
                write_list(f, ps)
            }
            Event::Commit(positions) => {
                f.write_str("commit")?;
                for (p, o) in positions {
                    write!(f, " p{p}={o}")?;
                }
                Ok(())
            }
            Event::CommitFailed(err) => write!(f, "commit failed: {err}"),
            Event::PollError(err) => write!(f, "poll error: {err}"),
            Event::Start => f.write_str("start"),
            Event::Stop => f.write_str("stop"),
        }
    }
}

impl fmt::Display for LogLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let time = format_time(self.time);
        match self.event {
            // The script's own lines put the verb first, as the article's output shows.
            Event::Start | Event::Stop => write!(f, "{time} {} {}", self.event, self.name),
            _ => write!(f, "{time} {} {}", self.name, self.event),
        }
    }
}

/// Why a line that looks like a worker line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong with the line, for a message that names file and line number.
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for ParseError {}

fn offset_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^p(-?\d+) offset (-?\d+)( slow start)?$").expect("the offset pattern is valid")
    })
}

fn parse_list(text: &str) -> Result<Vec<Partition>, ParseError> {
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| {
            bad(format!(
                "expected a partition list like [0, 1], found {text:?}"
            ))
        })?;
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    inner
        .split(',')
        .map(|p| {
            p.trim()
                .parse()
                .map_err(|_| bad(format!("{:?} is not a partition number", p.trim())))
        })
        .collect()
}

fn parse_positions(text: &str) -> Result<Vec<(Partition, Offset)>, ParseError> {
    text.split_whitespace()
        .map(|item| {
            let (p, o) = item
                .strip_prefix('p')
                .and_then(|rest| rest.split_once('='))
                .ok_or_else(|| bad(format!("expected pP=OFFSET, found {item:?}")))?;
            let p = p
                .parse()
                .map_err(|_| bad(format!("{p:?} is not a partition number")))?;
            let o = o
                .parse()
                .map_err(|_| bad(format!("{o:?} is not an offset")))?;
            Ok((p, o))
        })
        .collect()
}

fn bad(reason: String) -> ParseError {
    ParseError { reason }
}

impl Event {
    /// Parses the part of a line after the worker's name.
    ///
    /// `Ok(None)` means the text is no event of ours at all; `Err` means it starts like one
    /// (`pN offset`, `assigned [`, `commit`, ...) but does not parse.
    pub fn parse(text: &str) -> Result<Option<Event>, ParseError> {
        if text.starts_with('p') && text.contains(" offset ") {
            let caps = offset_regex()
                .captures(text)
                .ok_or_else(|| bad(format!("malformed processing event {text:?}")))?;
            let partition = caps[1]
                .parse()
                .map_err(|_| bad(format!("partition out of range in {text:?}")))?;
            let offset = caps[2]
                .parse()
                .map_err(|_| bad(format!("offset out of range in {text:?}")))?;
            return Ok(Some(if caps.get(3).is_some() {
                Event::SlowStart { partition, offset }
            } else {
                Event::Processed { partition, offset }
            }));
        }
        if let Some(rest) = text.strip_prefix("assigned ") {
            return parse_list(rest).map(|l| Some(Event::Assigned(l)));
        }
        if let Some(rest) = text.strip_prefix("revoked ") {
            return parse_list(rest).map(|l| Some(Event::Revoked(l)));
        }
        if let Some(rest) = text.strip_prefix("lost ") {
            return parse_list(rest).map(|l| Some(Event::Lost(l)));
        }
        if let Some(rest) = text.strip_prefix("commit failed: ") {
            return Ok(Some(Event::CommitFailed(rest.to_string())));
        }
        if let Some(rest) = text.strip_prefix("poll error: ") {
            return Ok(Some(Event::PollError(rest.to_string())));
        }
        if let Some(rest) = text.strip_prefix("commit ") {
            return parse_positions(rest).map(|p| Some(Event::Commit(p)));
        }
        Ok(None)
    }
}

impl LogLine {
    /// A line stamped with the current local time.
    pub fn now(name: &str, event: Event) -> LogLine {
        LogLine {
            time: now(),
            name: name.to_string(),
            event,
        }
    }

    /// Parses one line of a worker's log file.
    ///
    /// `Ok(None)` for lines that are not the worker's (librdkafka's `%4|...` warnings, a
    /// script's `start NAME`, blank lines); `Err` for a line that starts with a time and a
    /// name and looks like an event but does not parse.
    pub fn parse(line: &str) -> Result<Option<LogLine>, ParseError> {
        let Some((time, name, text)) = split_line(line)? else {
            return Ok(None);
        };
        let mark = match name {
            "start" => Some(Event::Start),
            "stop" => Some(Event::Stop),
            _ => None,
        };
        if let Some(event) = mark {
            if !text.is_empty() && !text.contains(char::is_whitespace) {
                return Ok(Some(LogLine {
                    time,
                    name: text.to_string(),
                    event,
                }));
            }
        }
        Ok(Event::parse(text)?.map(|event| LogLine {
            time,
            name: name.to_string(),
            event,
        }))
    }
}

/// A line's time, name and the text after the name: `HH:MM:SS.mmm NAME TEXT`, NAME free of
/// white space. `Ok(None)` for a line of another shape; `Err` when the time is no time of day.
fn split_line(line: &str) -> Result<Option<(NaiveTime, &str, &str)>, ParseError> {
    let line = line.trim_end_matches(['\r', '\n']);
    let Some((hours, minutes, seconds, millis)) = clock_prefix(line.as_bytes()) else {
        return Ok(None);
    };
    let rest = &line[13..];
    let (name, text) = rest.split_at(rest.find(char::is_whitespace).unwrap_or(rest.len()));
    let Some(text) = text.strip_prefix(' ') else {
        return Ok(None);
    };
    if name.is_empty() || text.contains('\n') {
        return Ok(None);
    }
    // Second 60 is a leap second, which chrono keeps as second 59 plus a second of millis.
    let (seconds, millis) = if seconds == 60 {
        (59, millis + 1000)
    } else {
        (seconds, millis)
    };
    let time = NaiveTime::from_hms_milli_opt(hours, minutes, seconds, millis)
        .ok_or_else(|| bad(format!("{:?} is not a time of day", &line[..12])))?;
    Ok(Some((time, name, text)))
}

/// Reads an ASCII number as the regex `-?\d+` does at the start of `bytes`, for the fast path:
/// the value and how many bytes it took; `None` when there is none, it does not fit `T`, or it
/// has more than 18 digits (those go to the full parser).
#[inline(always)]
fn number_prefix<T: TryFrom<i64>>(bytes: &[u8]) -> Option<(T, usize)> {
    let start = usize::from(bytes.first() == Some(&b'-'));
    let mut value: i64 = 0;
    let mut i = start;
    while let Some(d) = bytes.get(i).map(|b| b.wrapping_sub(b'0')) {
        if d > 9 {
            break;
        }
        if i - start == 18 {
            return None;
        }
        value = value * 10 + i64::from(d);
        i += 1;
    }
    if i == start {
        return None;
    }
    let value = if start == 1 { -value } else { value };
    Some((T::try_from(value).ok()?, i))
}

/// Every byte of a word set to `b`.
const fn splat(b: u8) -> u64 {
    u64::from_le_bytes([b; 8])
}

/// The high bit of each byte of `x` that is 10 or more. Carry-free: each byte is tested on
/// its own.
fn at_least_ten(x: u64) -> u64 {
    (((x & splat(0x7f)) + splat(0x80 - 10)) | x) & splat(0x80)
}

/// `HH:MM:SS.mmm ` at the start of the text, ASCII digits: its hours, minutes, seconds and
/// milliseconds, in any range (the shape only). Read as two overlapping words, `HH:MM:SS` and
/// `:SS.mmm `, rather than byte by byte: it is the first thing every line meets.
fn clock_prefix(text: &[u8]) -> Option<(u32, u32, u32, u32)> {
    let head = text.first_chunk::<13>()?;
    let word = |from: usize| u64::from_le_bytes(*head[from..].first_chunk().expect("13 bytes"));
    // Each byte XOR its pattern byte: a digit becomes its value, a separator zero.
    let hms = word(0) ^ u64::from_le_bytes(*b"00:00:00");
    let tail = word(5) ^ u64::from_le_bytes(*b":00.000 ");
    const HMS_SEPARATORS: u64 = 0x0000_ff00_00ff_0000;
    const TAIL_SEPARATORS: u64 = 0xff00_0000_ff00_00ff;
    if (at_least_ten(hms) | at_least_ten(tail)) != 0
        || ((hms & HMS_SEPARATORS) | (tail & TAIL_SEPARATORS)) != 0
    {
        return None;
    }
    let digit = |word: u64, at: u32| ((word >> (8 * at)) & 0xff) as u32;
    let two = |at: u32| digit(hms, at) * 10 + digit(hms, at + 1);
    let millis = digit(tail, 4) * 100 + digit(tail, 5) * 10 + digit(tail, 6);
    Some((two(0), two(3), two(6), millis))
}

/// Whether `HH:MM:SS.mmm ` opens the text, a valid time of day (a leap second is left to the
/// full parser).
fn time_of_day_prefix(text: &[u8]) -> bool {
    clock_prefix(text).is_some_and(|(h, m, s, _)| h < 24 && m < 60 && s < 60)
}

/// The fast path for the line kind that fills a log: a completion line, read straight from
/// bytes. `Some((name, partition, offset))` only for a line that [`LogLine::parse`] reads as
/// [`Event::Processed`] (a property test holds the two together); `None` for anything else,
/// which the caller hands to [`LogLine::parse`] to tell other events, foreign lines and errors
/// apart. The name it returns is ASCII.
pub fn parse_processed(line: &[u8]) -> Option<(&[u8], Partition, Offset)> {
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    let c = parse_processed_prefix(&line[..end], b"")?;
    (c.len == end).then_some((c.name, c.partition, c.offset))
}

/// A completion line read by [`parse_processed_prefix`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion<'a> {
    /// The worker's name: ASCII, unless it is the `known` name the caller passed.
    pub name: &'a [u8],
    /// The message's partition.
    pub partition: Partition,
    /// The message's offset.
    pub offset: Offset,
    /// Where the offset ends: the length of the line, when the text is one line.
    pub len: usize,
    /// Whether the name is the `known` name the caller passed.
    pub known: bool,
}

/// [`parse_processed`] on text that starts with a line and may go on past it, so that a reader
/// can parse a line before it has looked for the line's end.
///
/// `known` is empty or a worker's name read before, by this function or [`LogLine::parse`]
/// (so free of white space): one worker's log repeats its name line after line, and a name
/// equal to `known` is taken by one comparison instead of being checked byte by byte again.
pub fn parse_processed_prefix<'a>(text: &'a [u8], known: &[u8]) -> Option<Completion<'a>> {
    if !time_of_day_prefix(text) {
        return None;
    }
    let rest = &text[13..];
    let is_known =
        !known.is_empty() && rest.get(known.len()) == Some(&b' ') && rest.starts_with(known);
    let name_end = if is_known {
        known.len()
    } else {
        let mut end = 0;
        while end < rest.len() && rest[end] != b' ' {
            if !rest[end].is_ascii_graphic() {
                return None;
            }
            end += 1;
        }
        if end == 0 || end == rest.len() {
            return None;
        }
        end
    };
    let event_at = 13 + name_end + 1;
    let event = text[event_at..].strip_prefix(b"p")?;
    let (partition, p_len) = number_prefix(event)?;
    // One 8-byte comparison rather than a call to memcmp.
    let word: [u8; 8] = event.get(p_len..p_len + 8)?.try_into().ok()?;
    if u64::from_ne_bytes(word) != u64::from_ne_bytes(*b" offset ") {
        return None;
    }
    let (offset, o_len) = number_prefix(&event[p_len + 8..])?;
    Some(Completion {
        name: &rest[..name_end],
        partition,
        offset,
        len: event_at + 1 + p_len + 8 + o_len,
        known: is_known,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> NaiveTime {
        NaiveTime::parse_from_str(s, "%H:%M:%S%.3f").unwrap()
    }

    fn round_trip(text: &str, event: Event) {
        let line = LogLine {
            time: at("09:13:29.854"),
            name: "nocommit-a".into(),
            event,
        };
        let written = line.to_string();
        assert_eq!(written, format!("09:13:29.854 nocommit-a {text}"));
        assert_eq!(LogLine::parse(&written).unwrap(), Some(line));
    }

    #[test]
    fn every_line_kind_round_trips() {
        round_trip(
            "p1 offset 481",
            Event::Processed {
                partition: 1,
                offset: 481,
            },
        );
        round_trip(
            "p0 offset 3 slow start",
            Event::SlowStart {
                partition: 0,
                offset: 3,
            },
        );
        round_trip("assigned [0, 1]", Event::Assigned(vec![0, 1]));
        round_trip("assigned []", Event::Assigned(vec![]));
        round_trip("revoked [0]", Event::Revoked(vec![0]));
        round_trip("lost [0]", Event::Lost(vec![0]));
        round_trip(
            "commit p0=512 p1=490",
            Event::Commit(vec![(0, 512), (1, 490)]),
        );
        let err = r#"KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str="Commit failed: Broker: Unknown member"}"#;
        round_trip(
            &format!("commit failed: {err}"),
            Event::CommitFailed(err.into()),
        );
        let err = r#"KafkaError{code=_MAX_POLL_EXCEEDED,val=-147,str="Application maximum poll interval (10000ms) exceeded by 356ms"}"#;
        round_trip(&format!("poll error: {err}"), Event::PollError(err.into()));
    }

    #[test]
    fn script_marks_round_trip() {
        for (text, event) in [
            ("09:13:27.038 start nocommit-b", Event::Start),
            ("09:13:31.002 stop nocommit-b", Event::Stop),
        ] {
            let line = LogLine::parse(text).unwrap().unwrap();
            assert_eq!((line.name.as_str(), &line.event), ("nocommit-b", &event));
            assert_eq!(line.to_string(), text);
        }
    }

    #[test]
    fn reads_the_articles_lines() {
        let line = LogLine::parse("09:13:56.072 revcommit-a commit p1=490\n")
            .unwrap()
            .unwrap();
        assert_eq!(line.name, "revcommit-a");
        assert_eq!(line.event, Event::Commit(vec![(1, 490)]));
        assert_eq!(format_time(line.time), "09:13:56.072");
    }

    #[test]
    fn foreign_lines_are_not_events() {
        for line in [
            "%4|1790813686.528|MAXPOLL|slow-a#consumer-1| [thrd:main]: Application maximum poll interval (10000ms) exceeded by 356ms",
            "09:13:27.038 start two words",
            "",
            "sent 1000 messages to pay",
        ] {
            assert_eq!(LogLine::parse(line).unwrap(), None, "{line}");
        }
    }

    #[test]
    fn broken_event_lines_are_errors() {
        for line in [
            "09:13:29.854 a p1 offset x",
            "09:13:29.854 a p1 offset 3 slow",
            "09:13:29.854 a assigned [0, x]",
            "09:13:29.854 a revoked 0, 1",
            "09:13:29.854 a commit p0:4",
            "25:13:29.854 a p1 offset 3",
            "09:13:29.854 a p1 offset 99999999999999999999",
        ] {
            assert!(LogLine::parse(line).is_err(), "{line}");
        }
    }

    #[test]
    fn now_is_whole_milliseconds() {
        assert_eq!(now().nanosecond() % 1_000_000, 0);
    }

    mod split {
        use super::super::*;
        use proptest::prelude::*;

        /// The line's shape as a regex and chrono's own time parser say it.
        fn oracle(line: &str) -> Result<Option<(NaiveTime, &str, &str)>, ()> {
            let re = Regex::new(r"^([0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}) (\S+) (.*)$").unwrap();
            let Some(caps) = re.captures(line.trim_end_matches(['\r', '\n'])) else {
                return Ok(None);
            };
            let time = NaiveTime::parse_from_str(&caps[1], "%H:%M:%S%.3f").map_err(|_| ())?;
            let (name, text) = (caps.get(2).unwrap().as_str(), caps.get(3).unwrap().as_str());
            Ok(Some((time, name, text)))
        }

        fn agrees(line: &str) {
            assert_eq!(split_line(line).map_err(|_| ()), oracle(line), "{line:?}");
        }

        proptest! {
            #[test]
            fn splits_as_the_regex_and_chrono_do(
                h in 0u8..30, m in 0u8..70, s in 0u8..70, ms in 0u16..1000,
                name in "[a-z!~-]{0,6}|\\PC{1,3}",
                sep in " |  |\t|\u{a0}",
                text in "\\PC{0,12}|[a-z ]{0,8}\n[a-z]{0,3}",
                tail in "|\r|\n|\r\n| ",
            ) {
                agrees(&format!("{h:02}:{m:02}:{s:02}.{ms:03} {name}{sep}{text}{tail}"));
            }

            #[test]
            fn splits_any_text_as_the_regex_does(line in "\\PC{0,30}") {
                agrees(&line);
            }
        }
    }

    #[test]
    fn a_known_name_is_taken_whole_or_not_at_all() {
        let text = b"09:13:29.854 nocommit-ab p1 offset 481\n";
        let line = |known: &[u8]| parse_processed_prefix(text, known).map(|c| (c.name, c.known));
        assert_eq!(line(b"nocommit-ab"), Some((&b"nocommit-ab"[..], true)));
        for other in [&b"nocommit-a"[..], b"nocommit-abc", b"b", b""] {
            assert_eq!(line(other), Some((&b"nocommit-ab"[..], false)), "{other:?}");
        }
    }

    mod fast_path {
        use super::super::*;
        use proptest::prelude::*;

        fn agrees(line: &str) {
            let fast = parse_processed(line.as_bytes());
            // The prefix form reads the same line with more text after it, up to its end.
            let core = line.trim_end_matches(['\r', '\n']);
            let followed = format!("{core}\n09:00:00.000 x p0 offset 1\n");
            let prefix = parse_processed_prefix(followed.as_bytes(), b"");
            match (&fast, prefix) {
                (Some((n, p, o)), Some(c)) => assert_eq!(
                    (*n, *p, *o, c.len),
                    (c.name, c.partition, c.offset, core.len()),
                    "{line:?}"
                ),
                (Some(_), None) => panic!("prefix form missed {line:?}"),
                (None, Some(c)) => assert_ne!(
                    c.len,
                    core.len(),
                    "prefix form read {line:?} whole, the line form did not"
                ),
                (None, None) => {}
            }
            // A known name changes nothing but the flag that says it was the known one.
            let own = prefix.map_or(&b"own"[..], |c| c.name);
            let shorter = &own[..own.len() - 1];
            for known in [own, shorter, b"a", b"x", b"~"] {
                let with = parse_processed_prefix(followed.as_bytes(), known);
                let unflagged = with.map(|c| Completion { known: false, ..c });
                assert_eq!(unflagged, prefix, "{line:?} {known:?}");
                if let Some(c) = with {
                    assert_eq!(c.known, c.name == known, "{line:?} {known:?}");
                }
            }
            let slow = LogLine::parse(line);
            match (&fast, &slow) {
                (
                    Some((name, partition, offset)),
                    Ok(Some(LogLine {
                        event:
                            Event::Processed {
                                partition: p,
                                offset: o,
                            },
                        name: n,
                        ..
                    })),
                ) => assert_eq!((*name, *partition, *offset), (n.as_bytes(), *p, *o)),
                (Some(_), other) => panic!("fast path read {line:?}, the grammar says {other:?}"),
                (
                    None,
                    Ok(Some(LogLine {
                        event: Event::Processed { partition, offset },
                        name,
                        ..
                    })),
                    // The fast path declines non-ASCII names and numbers of more than 18 digits.
                ) if name.is_ascii()
                    && offset.unsigned_abs() < 10u64.pow(18)
                    && *partition > i32::MIN =>
                {
                    panic!("fast path missed the completion line {line:?}")
                }
                _ => {}
            }
            // Told the name the grammar reads (ASCII or not), the fast path reads what it reads.
            if let Ok(Some(grammar)) = &slow {
                if let Some(c) =
                    parse_processed_prefix(followed.as_bytes(), grammar.name.as_bytes())
                        .filter(|c| c.len == core.len())
                {
                    let read = (c.partition, c.offset);
                    assert!(c.known, "{line:?}");
                    assert_eq!(
                        grammar.event,
                        Event::Processed {
                            partition: read.0,
                            offset: read.1
                        },
                        "{line:?}"
                    );
                }
            }
        }

        proptest! {
            #[test]
            fn agrees_with_the_grammar_on_near_misses(
                h in 0u8..30, m in 0u8..70, s in 0u8..70, ms in 0u16..1000,
                name in "[a-z!~-]{0,6}|\\PC{1,3}|w\u{f6}rker",
                p in "-?[0-9]{1,12}|x|",
                word in "offset|offse|offset slow start|offsets",
                o in "-?[0-9]{1,20}|-|[0-9]+x",
                sep in " |  |\t",
                tail in "|\r|\n|\r\n| ",
            ) {
                agrees(&format!("{h:02}:{m:02}:{s:02}.{ms:03} {name} p{p}{sep}{word} {o}{tail}"));
            }

            #[test]
            fn agrees_with_the_grammar_on_any_text(line in "\\PC{0,40}") {
                agrees(&line);
            }
        }
    }
}
