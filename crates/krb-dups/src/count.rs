//! Reading a log's completion lines into [`Counts`], one byte range per thread.

use std::path::Path;

use anyhow::{bail, Context, Result};
use krb_log::fastpath::{commit_prefix, parse_processed_prefix};
use krb_log::logline::{LogLine, Offset, ParseError, Partition};
use krb_log::reader::{for_each_line_in, parse_bytes, Range, Remark, Skipped, Workers};

use crate::counts::Counts;

/// A completion line's worker, partition and offset as the full parser reads them, for the
/// lines the fast path leaves: `Ok(None)` for any other line, `Err` for one that looks like a
/// worker's line but does not parse.
pub(crate) fn full_parse(line: &[u8]) -> Result<Option<(String, Partition, Offset)>, ParseError> {
    Ok(parse_bytes(line)?
        .and_then(|LogLine { event, name, .. }| event.completion().map(|(p, o)| (name, p, o))))
}

/// Files larger than this are counted by several threads, one byte range each.
const CHUNK: u64 = 16 << 20;

/// What the reader said of one file: the lines it skipped (that look like worker lines but do
/// not parse, a last line cut short) and what is wrong with the file (another worker's lines
/// in it, or none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileNotes {
    pub skipped: Vec<Skipped>,
    pub remarks: Vec<Remark>,
}

/// Adds one file's completion lines to `counts`, and says what the reader found wrong in it.
pub fn count_file(path: &Path, counts: &mut Counts) -> Result<FileNotes> {
    let len = krb_log::reader::open(path)
        .and_then(|f| f.metadata())
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get() as u64)
        .min(len / CHUNK + 1);
    let results: Vec<Result<_>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|i| {
                let (from, to) = (len * i / threads, len * (i + 1) / threads);
                let to = if i + 1 == threads { u64::MAX } else { to };
                scope.spawn(move || count_range(path, from, to))
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| bail!("a counting thread failed"))
            })
            .collect()
    });
    let mut lines_before = 0;
    let mut notes = FileNotes::default();
    let mut workers = Workers::default();
    for result in results {
        let (range_counts, range, errors, range_workers) = result?;
        notes
            .skipped
            .extend(errors.into_iter().map(|(n, reason)| Skipped {
                path: path.to_path_buf(),
                line: lines_before + n,
                reason,
            }));
        if range.cut_short {
            notes
                .skipped
                .push(Skipped::cut_short(path, lines_before + range.lines + 1));
        }
        workers.then(&range_workers, lines_before);
        lines_before += range.lines;
        counts.merge(range_counts);
    }
    notes.remarks = workers.remarks(path);
    Ok(notes)
}

/// One byte range's counts, its lines (how many, and whether the file's last one is cut
/// short), its parse errors by line within the range, and whose lines it holds.
type RangeCount = (Counts, Range, Vec<(u64, String)>, Workers);

fn count_range(path: &Path, from: u64, to: u64) -> Result<RangeCount> {
    let mut counts = Counts::new();
    let mut errors = Vec::new();
    // Both readers below add to the counts, one at a time. Whose lines they are is told to
    // `workers` only when the name is not the last counted one's, which it has been told.
    let state = std::cell::RefCell::new((&mut counts, Workers::default()));
    let range = for_each_line_in(
        path,
        from,
        to,
        |number, text| {
            let mut state = state.borrow_mut();
            let (counts, workers) = &mut *state;
            let line_end = |len: usize| match &text[len..] {
                [b'\n', ..] => Some(len + 1),
                [b'\r', b'\n', ..] => Some(len + 2),
                _ => None,
            };
            let Some(line) = parse_processed_prefix(text, counts.last_name()) else {
                // A well-formed commit line counts nothing and needs no full parse.
                let commit = commit_prefix(text, counts.last_name())?;
                let len = line_end(commit.len)?;
                if !commit.known {
                    workers.see(number, commit.name);
                }
                return Some(len);
            };
            let len = line_end(line.len)?;
            if line.known {
                counts.add_by_last(line.partition, line.offset);
            } else {
                workers.see(number, line.name);
                counts.add(line.name, line.partition, line.offset);
            }
            Some(len)
        },
        |number, line| match parse_bytes(line) {
            Ok(Some(LogLine { name, event, .. })) => {
                let (counts, workers) = &mut *state.borrow_mut();
                workers.see(number, name.as_bytes());
                if let Some((partition, offset)) = event.completion() {
                    counts.add(name.as_bytes(), partition, offset)
                }
            }
            Ok(None) => {}
            Err(e) => errors.push((number, e.to_string())),
        },
    )?;
    let (_, workers) = state.into_inner();
    Ok((counts, range, errors, workers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::analyse;

    fn temp_logs(files: &[(&str, &[u8])]) -> krb_testutil::Scratch {
        krb_testutil::scratch_dir("dups", files)
    }

    #[test]
    fn byte_ranges_split_lines_exactly_once() {
        let mut text = Vec::new();
        for o in 0..1000 {
            let end = if o % 3 == 0 { "\r\n" } else { "\n" };
            text.extend_from_slice(format!("09:00:00.000 g-a p0 offset {o}{end}").as_bytes());
            if o % 100 == 0 {
                text.extend_from_slice(b"09:00:00.000 g-a commit p0=1\n");
            }
        }
        text.extend_from_slice(b"09:00:00.000 g-a p0 offset x\n09:00:00.000 g-a p0 offset 1000");
        let dir = temp_logs(&[("g-a.log", &text)]);
        let path = dir.join("g-a.log");
        let len = text.len() as u64;
        for parts in [1u64, 2, 3, 7, 64] {
            let mut counts = Counts::new();
            let mut lines = 0;
            let mut errors = Vec::new();
            let mut cut = Vec::new();
            for i in 0..parts {
                let to = if i + 1 == parts {
                    u64::MAX
                } else {
                    len * (i + 1) / parts
                };
                let (range_counts, range, range_errors, _) =
                    count_range(&path, len * i / parts, to).unwrap();
                counts.merge(range_counts);
                errors.extend(range_errors.into_iter().map(|(l, _)| l + lines));
                lines += range.lines;
                if range.cut_short {
                    cut.push(lines + 1);
                }
            }
            let r = analyse(&mut counts, None);
            // The last line, with no newline, is cut short: not counted, named once.
            assert_eq!((r.unique, r.duplicates()), (1000, 0), "{parts} parts");
            assert_eq!(lines, 1000 + 10 + 1, "{parts} parts");
            assert_eq!(errors, vec![1011], "{parts} parts: the bad line's number");
            assert_eq!(cut, vec![1012], "{parts} parts: the cut line's number");
        }
    }

    #[test]
    fn lines_across_block_boundaries_and_a_long_line() {
        let mut text = Vec::new();
        let mut expected = 0;
        while text.len() < 3 << 20 {
            text.extend_from_slice(format!("09:00:00.000 g-a p0 offset {expected}\n").as_bytes());
            expected += 1;
        }
        text.extend_from_slice(&vec![b'x'; 3 << 20]);
        text.extend_from_slice(b"\n09:00:00.000 g-a p1 offset 0\n");
        let dir = temp_logs(&[("g-a.log", &text)]);
        let mut c = Counts::new();
        count_file(&dir.join("g-a.log"), &mut c).unwrap();
        let r = analyse(&mut c, None);
        assert_eq!(r.unique, expected as u64 + 1);
        assert_eq!(r.duplicates(), 0);
    }

    /// A file big enough to be counted in several byte ranges, whose `at`th line is `line`.
    fn many_lines_with(at: usize, line: &str) -> Vec<u8> {
        let mut text = Vec::new();
        let mut o = 0;
        while text.len() < (3 * CHUNK) as usize {
            if o == at {
                text.extend_from_slice(line.as_bytes());
            } else {
                text.extend_from_slice(format!("09:00:00.000 g-a p0 offset {o}\n").as_bytes());
            }
            if o % 100 == 50 {
                text.extend_from_slice(b"09:00:00.000 g-a commit p0=1\n");
            }
            o += 1;
        }
        text
    }

    #[test]
    fn another_workers_line_is_named_at_its_line_in_any_range() {
        // Its line number, counting the commit lines written every 100 offsets before it.
        let at = |o: usize| (o + (o + 49) / 100 + 1) as u64;
        for (o, line) in [
            // Read by the fast path: a completion, then a commit.
            (5, "09:00:00.000 g-b p0 offset 5\n"),
            (1_000_000, "09:00:00.000 g-b p0 offset 1000000\n"),
            (1_200_000, "09:00:00.000 g-b commit p0=1\n"),
            // Read by the full parser.
            (1_300_000, "09:00:00.000 g-b assigned [0]\n"),
        ] {
            let dir = temp_logs(&[("g-a.log", &many_lines_with(o, line))]);
            let path = dir.join("g-a.log");
            let mut c = Counts::new();
            let notes = count_file(&path, &mut c).unwrap();
            assert!(notes.skipped.is_empty(), "{:?}", notes.skipped);
            assert_eq!(
                notes.remarks.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
                vec![format!(
                    "{}:{}: a line of worker g-b, in the log of worker g-a: a log holds one worker's lines (read all the same)",
                    path.display(),
                    at(o)
                )],
                "{line:?}"
            );
        }
        // One worker's lines: nothing to say.
        let dir = temp_logs(&[("g-a.log", &many_lines_with(usize::MAX, ""))]);
        let notes = count_file(&dir.join("g-a.log"), &mut Counts::new()).unwrap();
        assert_eq!(notes, FileNotes::default());
    }

    #[test]
    fn a_processing_line_spaced_wrongly_is_named_as_skipped() {
        let dir = temp_logs(&[(
            "g-a.log",
            b"09:00:00.000 g-a p0 offset 0\n09:00:00.001\tg-a p0 offset 1\n 09:00:00.002 g-a p0 offset 2\n09:00:00.003 g-a p0 offset 3\n",
        )]);
        let path = dir.join("g-a.log");
        let mut c = Counts::new();
        let notes = count_file(&path, &mut c).unwrap();
        let skipped: Vec<String> = notes.skipped.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            skipped,
            vec![
                format!("{}:2: skipped: white space out of place (a worker's line is HH:MM:SS.mmm NAME EVENT, one space between) in \"09:00:00.001\\tg-a p0 offset 1\"", path.display()),
                format!("{}:3: skipped: white space out of place (a worker's line is HH:MM:SS.mmm NAME EVENT, one space between) in \" 09:00:00.002 g-a p0 offset 2\"", path.display()),
            ]
        );
        assert_eq!(analyse(&mut c, None).unique, 2);
    }

    #[test]
    fn an_empty_log_and_a_name_not_utf8_are_named() {
        let dir = temp_logs(&[
            ("g-a.log", &b""[..]),
            (
                "g-b.log",
                b"09:00:00.000 g-b p0 offset 0\n09:00:00.001 g-\xff p0 offset 1\n",
            ),
        ]);
        let a = dir.join("g-a.log");
        let notes = count_file(&a, &mut Counts::new()).unwrap();
        assert_eq!(
            notes
                .remarks
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>(),
            vec![format!(
                "{}: no worker line in it: the log is empty",
                a.display()
            )]
        );
        let b = dir.join("g-b.log");
        let mut c = Counts::new();
        let notes = count_file(&b, &mut c).unwrap();
        assert_eq!(
            notes.skipped.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            vec![format!(
                "{}:2: skipped: bytes that are not UTF-8 (read as U+FFFD) in \"09:00:00.001 g-\u{fffd} p0 offset 1\"",
                b.display()
            )]
        );
        assert_eq!(c.consumers().into_keys().collect::<Vec<_>>(), vec!["g-b"]);
    }
}
