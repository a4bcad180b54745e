//! The completion line (`NAME pP offset O`), the kind that fills a log, read straight from bytes
//! for krb-dups: every trick for speed lives here, held to [`crate::logline`]'s readable grammar
//! by the property tests below (docs/en/internals/fast-path.md).

use crate::logline::{Offset, Partition};

/// The number `bytes` start with and its length; `None` when there is none, it does not fit `T`
/// or has more than 18 digits (left to the full parser). `SIGNED`: a leading `-` is read (a
/// partition's); an offset's is left to the full parser, which says why it is no offset.
#[inline(always)]
fn number_prefix<T: TryFrom<i64>, const SIGNED: bool>(bytes: &[u8]) -> Option<(T, usize)> {
    let start = usize::from(SIGNED && bytes.first() == Some(&b'-'));
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

const fn splat(b: u8) -> u64 {
    u64::from_le_bytes([b; 8])
}

/// The high bit of each byte of `x` that is 10 or more. Carry-free: each byte is tested on
/// its own.
fn at_least_ten(x: u64) -> u64 {
    (((x & splat(0x7f)) + splat(0x80 - 10)) | x) & splat(0x80)
}

/// Whether `HH:MM:SS.mmm ` opens the text, a valid time of day (a leap second is left to the
/// full parser). Read as two overlapping words, `HH:MM:SS` and `:SS.mmm `, rather than byte by
/// byte: it is the first thing every line meets.
#[inline(always)]
fn time_of_day_prefix(text: &[u8]) -> bool {
    let Some(head) = text.first_chunk::<13>() else {
        return false;
    };
    let word = |from: usize| u64::from_le_bytes(*head[from..].first_chunk().expect("13 bytes"));
    // Each byte XOR its pattern byte: a digit becomes its value, a separator zero.
    let hms = word(0) ^ u64::from_le_bytes(*b"00:00:00");
    let tail = word(5) ^ u64::from_le_bytes(*b":00.000 ");
    const HMS_SEPARATORS: u64 = 0x0000_ff00_00ff_0000;
    const TAIL_SEPARATORS: u64 = 0xff00_0000_ff00_00ff;
    if (at_least_ten(hms) | at_least_ten(tail)) != 0
        || ((hms & HMS_SEPARATORS) | (tail & TAIL_SEPARATORS)) != 0
    {
        return false;
    }
    let two = |at: u32| ((hms >> (8 * at)) & 0xff) * 10 + ((hms >> (8 * at + 8)) & 0xff);
    two(0) < 24 && two(3) < 60 && two(6) < 60
}

/// `Some((name, partition, offset))`, the name ASCII, only for a line that [`LogLine::parse`]
/// reads as [`Event::Processed`] (a property test holds the two together); `None` for anything
/// else, which the caller hands to [`LogLine::parse`].
pub fn parse_processed(line: &[u8]) -> Option<(&[u8], Partition, Offset)> {
    let newlines = line.iter().rev().take_while(|b| matches!(b, b'\n' | b'\r'));
    let end = line.len() - newlines.count();
    let c = parse_processed_prefix(&line[..end], b"")?;
    (c.len == end).then_some((c.name, c.partition, c.offset))
}

/// Whether `text` starts with `prefix`. A worker's name is 4 to 16 bytes as a rule: two
/// overlapping words compare it without a call to memcmp.
#[inline(always)]
fn starts_with(text: &[u8], prefix: &[u8]) -> bool {
    let n = prefix.len();
    if text.len() < n {
        return false;
    }
    let long = |b: &[u8], at: usize| u64::from_ne_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    let short =
        |b: &[u8], at: usize| u32::from_ne_bytes(b[at..at + 4].try_into().expect("4 bytes"));
    match n {
        8..=16 => long(text, 0) == long(prefix, 0) && long(text, n - 8) == long(prefix, n - 8),
        4..=7 => short(text, 0) == short(prefix, 0) && short(text, n - 4) == short(prefix, n - 4),
        _ => text.starts_with(prefix),
    }
}

/// A line's time of day and name: the name's length and whether it is `known` (see
/// [`parse_processed_prefix`]); `None` when the line does not start that way.
#[inline(always)]
fn head(text: &[u8], known: &[u8]) -> Option<(usize, bool)> {
    if !time_of_day_prefix(text) {
        return None;
    }
    let rest = &text[13..];
    if !known.is_empty() && rest.get(known.len()) == Some(&b' ') && starts_with(rest, known) {
        return Some((known.len(), true));
    }
    // The name ends at its first byte that is not ASCII and visible, which must be a space.
    let end = rest.iter().position(|b| !b.is_ascii_graphic())?;
    (end > 0 && rest[end] == b' ').then_some((end, false))
}

/// A commit line (`NAME commit p0=512 p1=490`), the other kind a log is full of, recognised
/// without the full parser as [`parse_processed_prefix`] reads a completion: only a line that
/// [`LogLine::parse`](crate::logline::LogLine::parse) reads as a commit (a property test holds
/// the two together), its length up to its last number.
#[inline]
pub fn commit_prefix<'a>(text: &'a [u8], known: &[u8]) -> Option<CommitLine<'a>> {
    let (name_end, is_known) = head(text, known)?;
    let event_at = 13 + name_end + 1;
    text[event_at..].strip_prefix(b"commit")?;
    let mut len = event_at + b"commit".len();
    let mut positions = 0;
    while let Some(item) = text[len..].strip_prefix(b" p") {
        let (_, p_len) = number_prefix::<Partition, true>(item)?;
        let value = item[p_len..].strip_prefix(b"=")?;
        let (_, o_len) = number_prefix::<Offset, false>(value)?;
        len += 2 + p_len + 1 + o_len;
        positions += 1;
    }
    (positions > 0).then_some(CommitLine {
        name: &text[13..13 + name_end],
        len,
        known: is_known,
    })
}

/// A commit line read by [`commit_prefix`], its fields as [`Completion`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommitLine<'a> {
    pub name: &'a [u8],
    pub len: usize,
    pub known: bool,
}

/// A completion line read by [`parse_processed_prefix`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion<'a> {
    /// The worker's name: ASCII, unless it is the `known` name the caller passed.
    pub name: &'a [u8],
    pub partition: Partition,
    pub offset: Offset,
    /// Where the line's last number ends: the length of the line, when the text is one line.
    pub len: usize,
    /// Whether the name is the `known` name the caller passed.
    pub known: bool,
}

/// [`parse_processed`] on text that may go on past the line, read before its end is looked for.
/// `known` is empty or a name read before (so free of white space): a log repeats its name line
/// after line, and one equal to `known` is taken by one comparison, not checked byte by byte.
#[inline]
pub fn parse_processed_prefix<'a>(text: &'a [u8], known: &[u8]) -> Option<Completion<'a>> {
    let (name_end, is_known) = head(text, known)?;
    let event_at = 13 + name_end + 1;
    let event = text[event_at..].strip_prefix(b"p")?;
    let (partition, p_len) = number_prefix::<Partition, true>(event)?;
    // One 8-byte comparison rather than a call to memcmp.
    let word: [u8; 8] = event.get(p_len..p_len + 8)?.try_into().ok()?;
    if u64::from_ne_bytes(word) != u64::from_ne_bytes(*b" offset ") {
        return None;
    }
    let (offset, o_len) = number_prefix::<Offset, false>(&event[p_len + 8..])?;
    Some(Completion {
        name: &text[13..13 + name_end],
        partition,
        offset,
        len: event_at + 1 + p_len + 8 + o_len,
        known: is_known,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_with_agrees_with_the_slice_method() {
        let text = b"nocommit-abcdefgh p1 offset 3";
        for n in 0..text.len() {
            let prefix = &text[..n];
            assert!(starts_with(text, prefix), "{n}");
            let mut other = prefix.to_vec();
            if let Some(last) = other.last_mut() {
                *last ^= 1;
                assert!(!starts_with(text, &other), "{n}");
            }
            if let Some(first) = other.first_mut() {
                *first ^= 2;
                assert!(!starts_with(text, &other), "{n}");
            }
        }
        assert!(!starts_with(b"short", b"shorter-name"));
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
        use crate::logline::{Event, LogLine};
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
                    // The fast path declines non-ASCII names, numbers written with more than 18
                    // digits (leading zeros count) and leap seconds.
                ) if name.is_ascii()
                    && line.get(6..8) != Some("60")
                    && line
                        .rsplit(' ')
                        .next()
                        .map_or(0, |o| o.trim_start_matches('-').len())
                        <= 18
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

        /// A commit line the fast path takes whole is one the grammar reads as a commit.
        fn commit_agrees(line: &str) {
            let core = line.trim_end_matches(['\r', '\n']);
            let followed = format!("{core}\n09:00:00.000 x p0 offset 1\n");
            let grammar = LogLine::parse(line);
            for known in [&b""[..], b"a", b"w-a"] {
                if let Some(c) = commit_prefix(followed.as_bytes(), known) {
                    if c.len == core.len() {
                        match &grammar {
                            Ok(Some(LogLine {
                                event: Event::Commit(_),
                                name,
                                ..
                            })) => assert_eq!(
                                (c.name, c.known),
                                (name.as_bytes(), name.as_bytes() == known),
                                "{line:?} {known:?}"
                            ),
                            _ => panic!(
                                "fast path took {line:?} as a commit, the grammar says {grammar:?}"
                            ),
                        }
                    }
                }
            }
            // And a well-formed commit line of ASCII names and short numbers is taken.
            if let Ok(Some(LogLine {
                event: Event::Commit(ps),
                name,
                ..
            })) = &grammar
            {
                let canonical = format!("{} {name} {}", &core[..12], Event::Commit(ps.clone()));
                let short = ps
                    .iter()
                    .all(|(p, o)| *p > i32::MIN && o.unsigned_abs() < 10u64.pow(18));
                if name.is_ascii() && short && canonical == core && core.get(6..8) != Some("60") {
                    let taken = commit_prefix(followed.as_bytes(), b"").map(|c| c.len);
                    assert_eq!(taken, Some(core.len()), "{line:?}");
                }
            }
        }

        /// The clock's bounds, which the generated lines reach too rarely to hold.
        #[test]
        fn the_clock_s_bounds_agree_with_the_grammar() {
            for clock in [
                "23:59:59.999",
                "24:00:00.000",
                "00:60:00.000",
                "00:00:60.000",
            ] {
                agrees(&format!("{clock} a p0 offset 1\n"));
                commit_agrees(&format!("{clock} a commit p0=1\n"));
            }
        }

        proptest! {
            #[test]
            fn commit_lines_agree_with_the_grammar(
                h in 0u8..30, m in 0u8..70, s in 0u8..70, ms in 0u16..1000,
                name in "[a-z!~-]{0,6}|\\PC{1,3}",
                word in "commit|commi|commit failed:|commits",
                items in "( p-?[0-9]{1,20}=-?[0-9]{1,20}| p[0-9]x=1| p=| p1=| p1){0,3}",
                tail in "|\r|\n|\r\n| |x",
            ) {
                commit_agrees(&format!("{h:02}:{m:02}:{s:02}.{ms:03} {name} {word}{items}{tail}"));
            }

            #[test]
            fn commit_lines_agree_on_any_text(line in "\\PC{0,40}") {
                commit_agrees(&line);
            }

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
