//! Reading a log's completion lines into [`Counts`], one byte range per thread.

use std::path::Path;

use anyhow::{bail, Context, Result};
use krb_common::fastpath::{commit_prefix, parse_processed_prefix};
use krb_common::logline::{LogLine, Offset, ParseError, Partition};
use krb_common::reader::{for_each_line_in, parse_bytes, Skipped};

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

/// Adds one file's completion lines to `counts`, and returns the lines that look like worker
/// lines but do not parse, which it skipped.
pub fn count_file(path: &Path, counts: &mut Counts) -> Result<Vec<Skipped>> {
    let len = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get() as u64)
        .min(len / CHUNK + 1);
    let results: Vec<Result<RangeCount>> = std::thread::scope(|scope| {
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
    let mut skipped = Vec::new();
    for result in results {
        let (part, lines, errors) = result?;
        skipped.extend(errors.into_iter().map(|(n, reason)| Skipped {
            path: path.to_path_buf(),
            line: lines_before + n,
            reason,
        }));
        lines_before += lines;
        counts.merge(part);
    }
    Ok(skipped)
}

/// One byte range's counts, its number of lines, and its parse errors by line within the range.
type RangeCount = (Counts, u64, Vec<(u64, String)>);

/// Counts the lines of one byte range.
fn count_range(path: &Path, from: u64, to: u64) -> Result<RangeCount> {
    let mut counts = Counts::new();
    let mut errors = Vec::new();
    // Both readers below add to the counts, one at a time.
    let counts_cell = std::cell::RefCell::new(&mut counts);
    let lines = for_each_line_in(
        path,
        from,
        to,
        |text| {
            let mut counts = counts_cell.borrow_mut();
            let line_end = |len: usize| match &text[len..] {
                [b'\n', ..] => Some(len + 1),
                [b'\r', b'\n', ..] => Some(len + 2),
                _ => None,
            };
            let Some(line) = parse_processed_prefix(text, counts.last_name()) else {
                // A well-formed commit line counts nothing and needs no full parse.
                return line_end(commit_prefix(text, counts.last_name())?);
            };
            let len = line_end(line.len)?;
            if line.known {
                counts.add_by_last(line.partition, line.offset);
            } else {
                counts.add(line.name, line.partition, line.offset);
            }
            Some(len)
        },
        |number, line| match full_parse(line) {
            Ok(Some((name, partition, offset))) => {
                counts_cell
                    .borrow_mut()
                    .add(name.as_bytes(), partition, offset)
            }
            Ok(None) => {}
            Err(e) => errors.push((number, e.to_string())),
        },
    )?;
    Ok((counts, lines, errors))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::analyse;
    use std::path::PathBuf;

    fn temp_logs(files: &[(&str, &[u8])]) -> PathBuf {
        krb_common::scratch::scratch_dir("dups", files)
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
            for i in 0..parts {
                let to = if i + 1 == parts {
                    u64::MAX
                } else {
                    len * (i + 1) / parts
                };
                let (c, n, e) = count_range(&path, len * i / parts, to).unwrap();
                counts.merge(c);
                errors.extend(e.into_iter().map(|(l, _)| l + lines));
                lines += n;
            }
            let r = analyse(&mut counts, None);
            assert_eq!((r.unique, r.duplicates()), (1001, 0), "{parts} parts");
            assert_eq!(lines, 1000 + 10 + 2, "{parts} parts");
            assert_eq!(errors, vec![1011], "{parts} parts: the bad line's number");
        }
        std::fs::remove_dir_all(dir).unwrap();
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
        text.extend_from_slice(b"\n09:00:00.000 g-a p1 offset 0");
        let dir = temp_logs(&[("g-a.log", &text)]);
        let mut c = Counts::new();
        count_file(&dir.join("g-a.log"), &mut c).unwrap();
        let r = analyse(&mut c, None);
        assert_eq!(r.unique, expected as u64 + 1);
        assert_eq!(r.duplicates(), 0);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
