//! The worker's log grammar (`HH:MM:SS.mmm NAME EVENT`, local time first so that `sort` orders
//! several workers' lines by time, as the article does): each line kind's writer and reader side
//! by side, held together by the round-trip tests below, so the worker, krb-dups and the labs
//! cannot drift apart. Every kind with an example: docs/en/reference.md, "The log line grammar".

use std::cell::RefCell;
use std::fmt;
use std::sync::LazyLock;

use chrono::format::{Item, Parsed, StrftimeItems};
use chrono::{NaiveTime, Timelike};
use regex::Regex;

pub type Partition = i32;
pub type Offset = i64;

/// One event of a worker, the part of a log line after the worker's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Processing of a message ended. Only these count as processed.
    Processed {
        partition: Partition,
        offset: Offset,
    },
    /// Processing ended and found its effect already there (`--effect idempotent`): a
    /// processing all the same, krb-dups counts it.
    AlreadyApplied {
        partition: Partition,
        offset: Offset,
    },
    /// Processing ended, its transaction rolled back (`--effect db-offsets`: the partition's
    /// position in the database had moved on since this worker read it); krb-dups counts it.
    Refused {
        partition: Partition,
        offset: Offset,
    },
    /// Processing of the `--slow-at` message began.
    SlowStart {
        partition: Partition,
        offset: Offset,
    },
    /// The worker's first line. A group's logs are `GROUP-*.log`; this line tells group `a`'s
    /// logs from group `a-b`'s.
    Consumes {
        topic: String,
        group: String,
    },
    Assigned(Vec<Partition>),
    /// Handed back in a clean rebalance.
    Revoked(Vec<Partition>),
    /// Lost without being handed back.
    Lost(Vec<Partition>),
    /// A synchronous commit succeeded with these next positions.
    Commit(Vec<(Partition, Offset)>),
    /// The texts below are rendered Kafka errors.
    CommitFailed(String),
    PollError(String),
    /// `--effect kafka-eos`: the open transaction was aborted, its output and its offsets
    /// discarded (`_ASSIGNMENT_LOST` when the partitions were lost).
    TxnAborted(String),
    ShareConsumes {
        topic: String,
        group: String,
    },
    Acquired {
        partition: Partition,
        offset: Offset,
        /// How many times the broker has delivered it, this time included.
        delivery: u16,
    },
    /// Acknowledged to the broker, not yet committed.
    Acknowledged {
        partition: Partition,
        offset: Offset,
        ack: Ack,
    },
    /// The broker took these acknowledgements of one partition (ranges inclusive).
    AcksCommitted {
        partition: Partition,
        /// Ascending.
        offsets: Vec<Offset>,
    },
    AcksFailed {
        partition: Partition,
        /// Ascending.
        offsets: Vec<Offset>,
        error: String,
    },
    /// common.sh's `start` launched the worker: the line the article's script echoes, also
    /// written to the worker's log.
    Start,
    /// common.sh's `stop` sent it SIGTERM.
    Stop,
}

/// How a share consumer acknowledges a record (KIP-932's types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ack {
    /// Processed: never delivered again.
    Accept,
    /// Not processed: delivered again, to any member, its delivery count up.
    Release,
    /// Never to be processed: archived at once.
    Reject,
}

impl Ack {
    pub fn word(self) -> &'static str {
        match self {
            Ack::Accept => "accepted",
            Ack::Release => "released",
            Ack::Reject => "rejected",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// Local wall-clock time, kept to the millisecond.
    pub time: NaiveTime,
    /// The worker's name (`nocommit-a`); never contains white space.
    pub name: String,
    pub event: Event,
}

pub fn format_time(time: NaiveTime) -> String {
    Time(time).to_string()
}

/// A time as every log line starts with it, `09:13:29.854` (`%H:%M:%S%.3f`, what
/// [`TIME_FORMAT`] reads), written digit by digit: the worker writes one a message, and chrono's
/// format string, parsed again for each, was a sixth of its time.
pub struct Time(pub NaiveTime);

impl Time {
    fn text(&self) -> [u8; 12] {
        let t = self.0;
        // chrono keeps a leap second as second 59 with more than 10^9 nanoseconds.
        let (second, nanos) = match t.nanosecond() {
            n if n >= 1_000_000_000 => (t.second() + 1, n - 1_000_000_000),
            n => (t.second(), n),
        };
        let numbers = [
            (0, t.hour(), 2),
            (3, t.minute(), 2),
            (6, second, 2),
            (9, nanos / 1_000_000, 3),
        ];
        let mut text = *b"00:00:00.000";
        for (at, n, digits) in numbers {
            for k in 0..digits {
                text[at + digits - 1 - k] = b'0' + (n / 10u32.pow(k as u32) % 10) as u8;
            }
        }
        text
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Only ASCII digits and separators: always UTF-8.
        f.write_str(std::str::from_utf8(&self.text()).map_err(|_| fmt::Error)?)
    }
}

/// A line being written, borrowing its parts: [`LogLine`]'s text without its copies.
pub struct Line<'a> {
    pub time: NaiveTime,
    pub name: &'a str,
    pub event: &'a Event,
}

impl Line<'_> {
    /// Appends what [`Display`](fmt::Display) writes and a newline, a message's line without the
    /// formatting machinery (a tenth of a worker's time at full speed).
    pub fn write_to(&self, out: &mut Vec<u8>) {
        match self.event {
            Event::Processed { partition, offset } => {
                out.extend_from_slice(&Time(self.time).text());
                out.push(b' ');
                out.extend_from_slice(self.name.as_bytes());
                out.extend_from_slice(b" p");
                crate::decimal::push_signed(out, i64::from(*partition));
                out.extend_from_slice(b" offset ");
                crate::decimal::push_signed(out, *offset);
            }
            // Writing to a Vec cannot fail.
            _ => {
                let _ = std::io::Write::write_fmt(out, format_args!("{self}"));
            }
        }
        out.push(b'\n');
    }
}

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let time = Time(self.time);
        match self.event {
            // The script's own lines put the verb first, as the article's output shows.
            Event::Start | Event::Stop => write!(f, "{time} {} {}", self.event, self.name),
            _ => write!(f, "{time} {} {}", self.name, self.event),
        }
    }
}

const TIME_FORMAT: &str = "%H:%M:%S%.3f";

/// The current local time, truncated to the millisecond as it is written.
pub fn now() -> NaiveTime {
    local_time(chrono::Utc::now())
}

fn local_time(utc: chrono::DateTime<chrono::Utc>) -> NaiveTime {
    use chrono::{Offset, TimeZone};
    thread_local! {
        static OFFSET: RefCell<Option<(i64, chrono::FixedOffset)>> = const { RefCell::new(None) };
    }
    let offset = OFFSET.with_borrow_mut(|cache| {
        cached_offset(cache, utc, |utc| {
            chrono::Local
                .offset_from_utc_datetime(&utc.naive_utc())
                .fix()
        })
    });
    let t = utc.with_timezone(&offset).time();
    t.with_nanosecond(t.nanosecond() / 1_000_000 * 1_000_000)
        .unwrap_or(t)
}

/// The local offset of the current minute. Looked up once a minute (offsets change on whole
/// minutes): chrono's lookup read the clock a second time and was a tenth of a worker's time
/// at full speed, line by line.
fn cached_offset(
    cache: &mut Option<(i64, chrono::FixedOffset)>,
    utc: chrono::DateTime<chrono::Utc>,
    lookup: impl FnOnce(chrono::DateTime<chrono::Utc>) -> chrono::FixedOffset,
) -> chrono::FixedOffset {
    let minute = utc.timestamp().div_euclid(60);
    match *cache {
        Some((m, offset)) if m == minute => offset,
        _ => cache.insert((minute, lookup(utc))).1,
    }
}

/// Ascending offsets as inclusive ranges: `[0..3, 7]`.
struct Ranges<'a>(&'a [Offset]);

impl fmt::Display for Ranges<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        let mut rest = self.0;
        let mut sep = "";
        while let Some((&first, _)) = rest.split_first() {
            let run = rest.windows(2).take_while(|w| w[1] == w[0] + 1).count();
            match run {
                0 => write!(f, "{sep}{first}")?,
                n => write!(f, "{sep}{first}..{}", rest[n])?,
            }
            rest = &rest[run + 1..];
            sep = ", ";
        }
        f.write_str("]")
    }
}

/// A message's offset as a line writes it: one past it, the position after it, is an offset too.
fn offset(text: &str) -> Option<Offset> {
    text.parse().ok().filter(|o| (0..Offset::MAX).contains(o))
}

/// The most offsets one acknowledgement line may hold.
pub const MAX_RANGE: i64 = 1 << 20;

/// The text inside `[...]`, or an error that shows `example`.
fn bracketed<'a>(text: &'a str, example: &str) -> Result<&'a str, ParseError> {
    text.strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| bad(format!("expected {example}, found {text:?}")))
}

/// Reads what [`Ranges`] writes; the offsets must ascend.
fn parse_ranges(text: &str) -> Result<Vec<Offset>, ParseError> {
    let inner = bracketed(text, "offsets like [0..3, 7]")?;
    let mut offsets: Vec<Offset> = Vec::new();
    if inner.trim().is_empty() {
        return Ok(offsets);
    }
    let number = |t: &str| {
        offset(t).ok_or_else(|| bad(format!("{t:?} is not an offset (0 to {})", Offset::MAX - 1)))
    };
    for item in inner.split(", ") {
        let (first, last) = item.split_once("..").unwrap_or((item, item));
        let (first, last) = (number(first)?, number(last)?);
        if first > last || offsets.last().is_some_and(|&l| l >= first) {
            return Err(bad(format!("offsets out of order in {text:?}")));
        }
        // No batch holds more (a partition's record locks are at most a few thousand): a
        // line that says so is no member's, and read as offsets it would fill the memory.
        // Counted before the range is added, the ranges before it included.
        if last - first >= MAX_RANGE - offsets.len() as i64 {
            return Err(bad(format!("more than {MAX_RANGE} offsets in {text:?}")));
        }
        offsets.extend(first..=last);
    }
    Ok(offsets)
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Processed { partition, offset } => write!(f, "p{partition} offset {offset}"),
            Event::SlowStart { partition, offset } => {
                write!(f, "p{partition} offset {offset} slow start")
            }
            Event::AlreadyApplied { partition, offset } => {
                write!(f, "p{partition} offset {offset} already applied")
            }
            Event::Refused { partition, offset } => {
                write!(f, "p{partition} offset {offset} refused")
            }
            Event::Consumes { topic, group } => write!(f, "consumes {topic} in group {group}"),
            // Python's list style, which the article's logs show, is a Vec's Debug: `[]`, `[0, 1]`.
            Event::Assigned(ps) => write!(f, "assigned {ps:?}"),
            Event::Revoked(ps) => write!(f, "revoked {ps:?}"),
            Event::Lost(ps) => write!(f, "lost {ps:?}"),
            Event::Commit(ps) => {
                f.write_str("commit")?;
                ps.iter().try_for_each(|(p, o)| write!(f, " p{p}={o}"))
            }
            Event::CommitFailed(err) => write!(f, "commit failed: {err}"),
            Event::PollError(err) => write!(f, "poll error: {err}"),
            Event::TxnAborted(err) => write!(f, "transaction aborted: {err}"),
            Event::ShareConsumes { topic, group } => {
                write!(f, "consumes {topic} in share group {group}")
            }
            Event::Acquired {
                partition: p,
                offset: o,
                delivery: d,
            } => write!(f, "acquired p{p} offset {o} delivery {d}"),
            Event::Acknowledged {
                partition,
                offset,
                ack,
            } => write!(f, "{} p{partition} offset {offset}", ack.word()),
            Event::AcksCommitted { partition, offsets } => {
                write!(f, "acks committed p{partition} {}", Ranges(offsets))
            }
            Event::AcksFailed {
                partition,
                offsets,
                error,
            } => write!(f, "acks failed p{partition} {}: {error}", Ranges(offsets)),
            Event::Start => f.write_str("start"),
            Event::Stop => f.write_str("stop"),
        }
    }
}

impl fmt::Display for LogLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (time, name, event) = (self.time, &self.name, &self.event);
        Line { time, name, event }.fmt(f)
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

static OFFSET_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^p(-?\d+) offset (-?\d+)( slow start| already applied| refused)?$")
        .expect("the offset pattern is valid")
});

fn partition(text: &str) -> Result<Partition, ParseError> {
    text.parse()
        .map_err(|_| bad(format!("{text:?} is not a partition number")))
}

fn parse_list(text: &str) -> Result<Vec<Partition>, ParseError> {
    let inner = bracketed(text, "a partition list like [0, 1]")?;
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    inner.split(',').map(|p| partition(p.trim())).collect()
}

fn parse_positions(text: &str) -> Result<Vec<(Partition, Offset)>, ParseError> {
    // A commit of nothing is written `commit`, which is no event: `commit ` read as one would
    // be written back as another line.
    if text.trim().is_empty() {
        let what = "pP=OFFSET after commit";
        return Err(bad(format!("expected {what}, found {text:?}")));
    }
    text.split_whitespace()
        .map(|item| {
            let (p, o) = item
                .strip_prefix('p')
                .and_then(|rest| rest.split_once('='))
                .ok_or_else(|| bad(format!("expected pP=OFFSET, found {item:?}")))?;
            let p = partition(p)?;
            let o = o
                .parse()
                .ok()
                .filter(|o| *o >= 0)
                .ok_or_else(|| bad(format!("{o:?} is not an offset (0 to {})", Offset::MAX)))?;
            Ok((p, o))
        })
        .collect()
}

/// `pP offset O` at the end of a share line, for `what` (`acquired`, `accepted`, ...).
fn record(text: &str, what: &str) -> Result<(Partition, Offset), ParseError> {
    let malformed = || bad(format!("malformed {what} event {text:?}"));
    let (p, o) = text
        .strip_prefix('p')
        .and_then(|t| t.split_once(" offset "))
        .ok_or_else(malformed)?;
    Ok((
        p.parse().map_err(|_| malformed())?,
        offset(o).ok_or_else(malformed)?,
    ))
}

/// A share consumer's own lines (`acquired`, `accepted`, `acks committed`, ...); `Ok(None)` for
/// any other.
fn parse_share(text: &str) -> Result<Option<Event>, ParseError> {
    let malformed = |what| bad(format!("malformed {what} event {text:?}"));
    if let Some(rest) = text.strip_prefix("acquired ") {
        let (head, delivery) = rest
            .rsplit_once(" delivery ")
            .ok_or_else(|| malformed("acquired"))?;
        let (partition, offset) = record(head, "acquired")?;
        let delivery = delivery
            .parse()
            .ok()
            .filter(|d| *d > 0)
            .ok_or_else(|| bad(format!("{delivery:?} is no delivery count in {text:?}")))?;
        return Ok(Some(Event::Acquired {
            partition,
            offset,
            delivery,
        }));
    }
    let (word, rest) = text.split_once(' ').unwrap_or_default();
    let ack_kinds = [Ack::Accept, Ack::Release, Ack::Reject];
    if let Some(ack) = ack_kinds.into_iter().find(|a| a.word() == word) {
        let (partition, offset) = record(rest, word)?;
        return Ok(Some(Event::Acknowledged {
            partition,
            offset,
            ack,
        }));
    }
    let acks = |rest: &str| -> Result<(Partition, Vec<Offset>), ParseError> {
        let (p, list) = rest
            .strip_prefix('p')
            .and_then(|t| t.split_once(' '))
            .ok_or_else(|| malformed("acknowledgement"))?;
        let partition = p
            .parse()
            .map_err(|_| bad(format!("{p:?} is not a partition number in {text:?}")))?;
        Ok((partition, parse_ranges(list)?))
    };
    if let Some(rest) = text.strip_prefix("acks committed ") {
        let (partition, offsets) = acks(rest)?;
        return Ok(Some(Event::AcksCommitted { partition, offsets }));
    }
    let Some(rest) = text.strip_prefix("acks failed ") else {
        return Ok(None);
    };
    let (head, error) = rest
        .split_once("]: ")
        .ok_or_else(|| malformed("acks failed"))?;
    let (partition, offsets) = acks(&format!("{head}]"))?;
    let error = error.to_string();
    Ok(Some(Event::AcksFailed {
        partition,
        offsets,
        error,
    }))
}

pub(crate) fn bad(reason: String) -> ParseError {
    ParseError { reason }
}

impl Event {
    /// The message whose processing ended, whatever its effect did: krb-dups counts these.
    pub fn completion(&self) -> Option<(Partition, Offset)> {
        match *self {
            Event::Processed { partition, offset }
            | Event::AlreadyApplied { partition, offset }
            | Event::Refused { partition, offset } => Some((partition, offset)),
            _ => None,
        }
    }

    /// The part of a line after the worker's name: `Ok(None)` for no event of ours at all, `Err`
    /// for a text that starts like one (`pN offset`, `assigned [`, `commit`, ...) but does not parse.
    pub fn parse(text: &str) -> Result<Option<Event>, ParseError> {
        if text.starts_with('p') && text.contains(" offset ") {
            let caps = OFFSET_LINE
                .captures(text)
                .ok_or_else(|| bad(format!("malformed processing event {text:?}")))?;
            let partition = caps[1]
                .parse()
                .map_err(|_| bad(format!("partition out of range in {text:?}")))?;
            let max = Offset::MAX - 1;
            let offset = offset(&caps[2])
                .ok_or_else(|| bad(format!("offset out of range (0 to {max}) in {text:?}")))?;
            return Ok(Some(match caps.get(3).map(|m| m.as_str()) {
                Some(" slow start") => Event::SlowStart { partition, offset },
                Some(" refused") => Event::Refused { partition, offset },
                Some(_) => Event::AlreadyApplied { partition, offset },
                None => Event::Processed { partition, offset },
            }));
        }
        if let Some(event) = parse_share(text)? {
            return Ok(Some(event));
        }
        if let Some(rest) = text.strip_prefix("consumes ") {
            let share = rest.contains(" in share group ");
            let kind = if share { "share group" } else { "group" };
            let what = format!("consumes TOPIC in {kind} GROUP");
            let (topic, group) = rest
                .split_once(&format!(" in {kind} "))
                .filter(|(t, g)| !t.is_empty() && !t.contains(' ') && !g.is_empty())
                .ok_or_else(|| bad(format!("expected {what}, found {text:?}")))?;
            let (topic, group) = (topic.to_string(), group.to_string());
            return Ok(Some(match share {
                true => Event::ShareConsumes { topic, group },
                false => Event::Consumes { topic, group },
            }));
        }
        let lists: [(&str, fn(_) -> _); 3] = [
            ("assigned ", Event::Assigned),
            ("revoked ", Event::Revoked),
            ("lost ", Event::Lost),
        ];
        for (word, event) in lists {
            if let Some(rest) = text.strip_prefix(word) {
                return parse_list(rest).map(|l| Some(event(l)));
            }
        }
        let errors: [(&str, fn(_) -> _); 3] = [
            ("commit failed: ", Event::CommitFailed),
            ("poll error: ", Event::PollError),
            ("transaction aborted: ", Event::TxnAborted),
        ];
        for (words, event) in errors {
            if let Some(rest) = text.strip_prefix(words) {
                return Ok(Some(event(rest.to_string())));
            }
        }
        if let Some(rest) = text.strip_prefix("commit ") {
            return parse_positions(rest).map(|p| Some(Event::Commit(p)));
        }
        Ok(None)
    }
}

impl LogLine {
    /// `Ok(None)` for lines not the worker's (librdkafka's `%4|...`, a script's `start NAME`, a
    /// blank); `Err` for one that looks like an event but does not parse, whose time is no time
    /// (`09:00:00.2xx g-a p0 offset 1`) or whose white space is not one space between words: no
    /// worker writes it so, and left out silently its message would read as never processed.
    pub fn parse(line: &str) -> Result<Option<LogLine>, ParseError> {
        let Some((clock, name, text)) = split_line(line) else {
            return misplaced_space(line);
        };
        let one_word = !text.is_empty() && !text.contains(char::is_whitespace);
        let (name, event) = match (name, one_word) {
            ("start", true) => (text, Event::Start),
            ("stop", true) => (text, Event::Stop),
            _ => match Event::parse(text)? {
                Some(event) => (name, event),
                None => return Ok(None),
            },
        };
        let time = parse_time(clock).ok_or_else(|| {
            bad(format!(
                "{clock:?} is not a time of day HH:MM:SS.mmm in {line:?}",
                line = line.trim_end_matches(['\r', '\n'])
            ))
        })?;
        let name = name.to_string();
        Ok(Some(LogLine { time, name, event }))
    }
}

/// A line of no worker shape (see [`LogLine::parse`]): an error if it reads as a worker's line
/// with its white space made one space between words, `Ok(None)` if not. Only a line whose
/// first word starts with a digit is looked at again (not librdkafka's `%4|...`, nor a blank).
fn misplaced_space(line: &str) -> Result<Option<LogLine>, ParseError> {
    let line = line.trim_end_matches(['\r', '\n']);
    if !line.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        return Ok(None);
    }
    let spaced = line.split_whitespace().collect::<Vec<_>>().join(" ");
    if spaced == line || split_line(&spaced).is_none() {
        return Ok(None);
    }
    match LogLine::parse(&spaced) {
        Ok(None) => Ok(None),
        _ => Err(bad(format!(
            "white space out of place (a worker's line is HH:MM:SS.mmm NAME EVENT, one space between) in {line:?}"
        ))),
    }
}

/// Reads `HH:MM:SS.mmm` with chrono, its format parsed once rather than at every line. Only
/// that shape, digit for digit: chrono alone would also read `9:00:00.000`, which the fast
/// path does not.
fn parse_time(text: &str) -> Option<NaiveTime> {
    let shape = text.len() == 12
        && text.bytes().enumerate().all(|(i, b)| match i {
            2 | 5 => b == b':',
            8 => b == b'.',
            _ => b.is_ascii_digit(),
        });
    if !shape {
        return None;
    }
    static ITEMS: LazyLock<Vec<Item<'static>>> =
        LazyLock::new(|| StrftimeItems::new(TIME_FORMAT).collect());
    let mut parsed = Parsed::new();
    chrono::format::parse(&mut parsed, text, ITEMS.iter()).ok()?;
    parsed.to_naive_time().ok()
}

/// A line's time word (starting with a digit), name and event, one space between; `None` for a
/// line of another shape. Whether the word is a time is asked once the rest reads as an event.
fn split_line(line: &str) -> Option<(&str, &str, &str)> {
    let line = line.trim_end_matches(['\r', '\n']);
    let (clock, rest) = line.split_once(' ')?;
    let (name, text) = rest.split_once(' ')?;
    let word = |w: &str| !w.is_empty() && !w.contains(char::is_whitespace);
    let shaped = clock.starts_with(|c: char| c.is_ascii_digit()) && word(clock) && word(name);
    (shaped && !text.contains('\n')).then_some((clock, name, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> NaiveTime {
        NaiveTime::parse_from_str(s, "%H:%M:%S%.3f").unwrap()
    }

    #[test]
    fn the_time_is_local_to_the_millisecond() {
        use chrono::TimeZone;
        let utc = chrono::Utc::now();
        let expected = chrono::Local.from_utc_datetime(&utc.naive_utc()).time();
        let got = local_time(utc);
        assert_eq!(Time(got).to_string(), Time(expected).to_string());
        assert_eq!(
            got.nanosecond() % 1_000_000,
            0,
            "truncated to the millisecond"
        );
    }

    #[test]
    fn the_offset_is_looked_up_again_in_each_new_minute() {
        let base = chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let mut cache = None;
        let mut lookups = 0;
        // A zone whose offset is the minute's number of hours (it changes every minute).
        let mut offset = |s: i64| {
            cached_offset(&mut cache, base + chrono::TimeDelta::seconds(s), |utc| {
                lookups += 1;
                chrono::FixedOffset::east_opt((utc.timestamp() / 60 % 10) as i32 * 3600).unwrap()
            })
        };
        let seconds: Vec<i32> = [0, 30, 59, 60, 61, 3600, -1]
            .map(|s| offset(s).local_minus_utc())
            .to_vec();
        assert_eq!(seconds, [0, 0, 0, 3600, 3600, 0, 9 * 3600]);
        assert_eq!(lookups, 4, "once a minute");
    }

    /// What [`Line::write_to`] writes for `line`.
    fn written_to(line: &LogLine) -> String {
        let mut out = Vec::new();
        Line {
            time: line.time,
            name: &line.name,
            event: &line.event,
        }
        .write_to(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_processed_line_is_written_as_displayed_whatever_its_numbers() {
        let leap = NaiveTime::from_hms_nano_opt(23, 59, 59, 1_999_000_000).unwrap();
        for time in [at("00:00:00.000"), at("09:13:29.854"), leap] {
            for (partition, offset) in [
                (0, 0),
                (7, 10),
                (-1, -1),
                (i32::MAX, i64::MAX),
                (i32::MIN, i64::MIN),
            ] {
                let line = LogLine {
                    time,
                    name: "w".into(),
                    event: Event::Processed { partition, offset },
                };
                assert_eq!(written_to(&line), format!("{line}\n"));
            }
        }
    }

    fn round_trip(text: &str, event: Event) {
        let line = LogLine {
            time: at("09:13:29.854"),
            name: "nocommit-a".into(),
            event,
        };
        let written = line.to_string();
        assert_eq!(written, format!("09:13:29.854 nocommit-a {text}"));
        assert_eq!(written_to(&line), format!("{written}\n"));
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
        round_trip(
            "consumes pay in group no commit",
            Event::Consumes {
                topic: "pay".into(),
                group: "no commit".into(),
            },
        );
        round_trip(
            "p0 offset 3 already applied",
            Event::AlreadyApplied {
                partition: 0,
                offset: 3,
            },
        );
        round_trip(
            "p0 offset 3 refused",
            Event::Refused {
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
        let err =
            r#"KafkaError{code=_ASSIGNMENT_LOST,val=-142,str="Local: Group partitions lost"}"#;
        round_trip(
            &format!("transaction aborted: {err}"),
            Event::TxnAborted(err.into()),
        );
    }

    #[test]
    fn every_share_line_kind_round_trips() {
        round_trip(
            "consumes pay in share group share",
            Event::ShareConsumes {
                topic: "pay".into(),
                group: "share".into(),
            },
        );
        round_trip(
            "acquired p1 offset 481 delivery 2",
            Event::Acquired {
                partition: 1,
                offset: 481,
                delivery: 2,
            },
        );
        for ack in [Ack::Accept, Ack::Release, Ack::Reject] {
            round_trip(
                &format!("{} p0 offset 3", ack.word()),
                Event::Acknowledged {
                    partition: 0,
                    offset: 3,
                    ack,
                },
            );
        }
        for (text, offsets) in [
            ("[]", vec![]),
            ("[7]", vec![7]),
            ("[0..3]", vec![0, 1, 2, 3]),
            ("[0..3, 7]", vec![0, 1, 2, 3, 7]),
            ("[0, 2..3, 5, 9..10]", vec![0, 2, 3, 5, 9, 10]),
        ] {
            round_trip(
                &format!("acks committed p0 {text}"),
                Event::AcksCommitted {
                    partition: 0,
                    offsets: offsets.clone(),
                },
            );
            let err = r#"KafkaError{code=INVALID_RECORD_STATE,val=121,str="Broker: Invalid record state"}"#;
            round_trip(
                &format!("acks failed p0 {text}: {err}"),
                Event::AcksFailed {
                    partition: 0,
                    offsets,
                    error: err.into(),
                },
            );
        }
    }

    #[test]
    fn broken_share_lines_are_errors() {
        for text in [
            "acquired p0 offset 3",
            "acquired p0 offset 3 delivery 0",
            "acquired p0 offset 3 delivery x",
            "acquired p0 offset -1 delivery 1",
            "accepted p0 offset",
            "released px offset 3",
            "rejected p0 offset 9223372036854775807",
            "acks committed p0 [3, 1]",
            "acks committed p0 [3..1]",
            "acks committed p0 [1, 1]",
            "acks committed p0 3",
            "acks committed p0 [0..9223372036854775806]",
            // Each range below the bound, the line's offsets twice it.
            "acks committed p0 [0..1048575, 2000000..3048574]",
            "acks committed p0 [0..1048575, 2000000]",
            "acks failed p0 [3]",
            "consumes pay in share group ",
        ] {
            let line = format!("09:00:00.000 s-a {text}");
            assert!(LogLine::parse(&line).is_err(), "{line} parsed");
        }
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
            "1000 messages sent to pay",
            "09:00:00.2xx bl-a said hello",
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
            "09:13:29.854 a commit ",
            "09:13:29.854 a commit \t",
            "09:13:29.854 a consumes pay",
            "09:13:29.854 a consumes two words in group g",
            "25:13:29.854 a p1 offset 3",
            "09:13:29.854 a p1 offset 99999999999999999999",
            "09:13:29.854 a p1 offset 9223372036854775807",
            "09:13:29.854 a p1 offset -1",
            "09:13:29.854 a p1 offset -9223372036854775808 refused",
            "09:13:29.854 a commit p0=-1",
            "09:13:29.854 a commit p0=4 p1=-9223372036854775808",
            "09:00:00.2xx bl-a p0 offset 1",
            "9:13:29.854 a p1 offset 3",
            "09:13:29 a commit p0=4",
            "09:13:29.854.1 a lost [0]",
            "09:13:2x.854 start a",
        ] {
            assert!(LogLine::parse(line).is_err(), "{line}");
        }
        let err = LogLine::parse("09:00:00.2xx bl-a p0 offset 1").unwrap_err();
        assert_eq!(
            err.reason,
            r#""09:00:00.2xx" is not a time of day HH:MM:SS.mmm in "09:00:00.2xx bl-a p0 offset 1""#
        );
    }

    #[test]
    fn an_offset_at_the_limits_of_i64_is_an_error_not_a_wrap() {
        // One past i64::MAX is no offset: the checks that add one would wrap.
        let err = LogLine::parse("09:13:29.854 a p1 offset 9223372036854775807").unwrap_err();
        assert_eq!(
            err.reason,
            r#"offset out of range (0 to 9223372036854775806) in "p1 offset 9223372036854775807""#
        );
        let top = LogLine::parse("09:13:29.854 a p1 offset 9223372036854775806").unwrap();
        assert_eq!(
            top.unwrap().event.completion(),
            Some((1, 9223372036854775806))
        );
        let err = LogLine::parse("09:13:29.854 a commit p0=-9223372036854775808").unwrap_err();
        assert_eq!(
            err.reason,
            r#""-9223372036854775808" is not an offset (0 to 9223372036854775807)"#
        );
        let top = LogLine::parse("09:13:29.854 a commit p0=9223372036854775807").unwrap();
        assert_eq!(top.unwrap().event, Event::Commit(vec![(0, Offset::MAX)]));
    }

    #[test]
    fn a_worker_line_with_white_space_out_of_place_is_an_error() {
        for line in [
            "09:13:29.854\ta p1 offset 3",
            " 09:13:29.854 a p1 offset 3",
            "\t09:13:29.854 a p1 offset 3",
            "09:13:29.854  a p1 offset 3",
            "09:13:29.854 a\tp1 offset 3",
            "09:13:29.854\ta assigned [0]",
            " 09:13:27.038 start a",
        ] {
            let err = LogLine::parse(line).unwrap_err();
            assert_eq!(
                err.reason,
                format!("white space out of place (a worker's line is HH:MM:SS.mmm NAME EVENT, one space between) in {line:?}"),
            );
        }
        // Lines of no worker stay foreign, however they are spaced.
        for line in [
            " %4|1790813686.528|MAXPOLL|a#consumer-1| x",
            "  ",
            "\t1000 messages\tsent",
            " 09:13:29.854",
            "09:13:29.854\ta said hello",
        ] {
            assert_eq!(LogLine::parse(line).unwrap(), None, "{line:?}");
        }
    }

    mod round_trip {
        use super::super::*;
        use proptest::prelude::*;

        /// A line the parser accepts reads back as itself once written, and is written the
        /// same by [`Line::write_to`] and by [`fmt::Display`].
        fn round_trips(line: &str) {
            let Ok(Some(parsed)) = LogLine::parse(line) else {
                return;
            };
            let written = parsed.to_string();
            assert_eq!(
                LogLine::parse(&written),
                Ok(Some(parsed.clone())),
                "{line:?} written as {written:?}"
            );
            let mut out = Vec::new();
            Line {
                time: parsed.time,
                name: &parsed.name,
                event: &parsed.event,
            }
            .write_to(&mut out);
            assert_eq!(out, format!("{written}\n").into_bytes(), "{line:?}");
        }

        #[test]
        fn a_commit_of_nothing_is_no_line_that_writes_back_as_another() {
            round_trips("09:13:29.854 a commit ");
            assert!(LogLine::parse("09:13:29.854 a commit ").is_err());
            assert_eq!(LogLine::parse("09:13:29.854 a commit"), Ok(None));
        }

        proptest! {
            #[test]
            fn every_accepted_line_round_trips(
                h in 0u8..30, m in 0u8..70, s in 0u8..70, ms in 0u16..1000,
                name in "[a-z!~-]{1,6}|\\PC{1,3}|start|stop",
                event in concat!(
                    "p-?[0-9]{1,3} offset -?[0-9]{1,3}( slow start| already applied| refused|)",
                    "|consumes [a-z ]{0,4} in (share )?group [a-z ]{0,4}",
                    "|(assigned|revoked|lost) \\[( ?-?[0-9]{1,3},?){0,3} ?\\]",
                    "|commit( {1,2}p-?[0-9]{1,2}=-?[0-9]{1,3}){0,3} ?",
                    "|(commit failed|poll error|transaction aborted): \\PC{0,5}",
                    "|acquired p-?[0-9] offset [0-9]{1,3} delivery [0-9]{1,2}",
                    "|(accepted|released|rejected) p[0-9] offset [0-9]{1,3}",
                    "|acks (committed|failed) p[0-9] \\[([0-9]{1,2}(\\.\\.[0-9]{1,2})?(, ?)?){0,3}\\](: \\PC{0,5})?",
                    "|start|stop|[a-z-]{1,5}",
                ),
                tail in "|\r|\n|\r\n| |\t",
            ) {
                round_trips(&format!("{h:02}:{m:02}:{s:02}.{ms:03} {name} {event}{tail}"));
            }

            #[test]
            fn every_accepted_text_round_trips(line in "\\PC{0,60}") {
                round_trips(&line);
            }
        }
    }

    #[test]
    fn now_is_whole_milliseconds() {
        assert_eq!(now().nanosecond() % 1_000_000, 0);
    }

    #[test]
    fn times_are_written_as_chrono_writes_them() {
        let leap = NaiveTime::from_hms_milli_opt(23, 59, 59, 1_500).unwrap();
        for t in [
            at("00:00:00.000"),
            at("09:03:07.004"),
            at("23:59:59.999"),
            leap,
        ] {
            assert_eq!(format_time(t), t.format(TIME_FORMAT).to_string());
        }
    }
}
