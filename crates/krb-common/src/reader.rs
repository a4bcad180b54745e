//! The one reader of worker logs: every tool reads a log's lines through this module, so none
//! can skip, split or number lines differently from another.
//!
//! - [`for_each_line_in`] reads a file, or one byte range of it, in large blocks and hands each
//!   line over as bytes, numbered from 1 (krb-dups counts with it, in parallel ranges).
//! - [`group_files`] finds a group's logs, `DIR/GROUP-*.log`, and leaves out those whose worker
//!   says it is in another group (group `a`'s `a-*.log` also matches group `a-b`'s logs, and a
//!   worker in a namespace names its group as Kafka knows it: `alice-a`).
//! - [`Skipped`] is a line that looks like a worker's but does not parse: tools report it as
//!   `FILE:LINE: skipped: why` and go on.

use std::fmt;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::logline::{Event, LogLine};
use crate::namespace::Namespace;

/// The folder of the logs, an option of every tool that reads them.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct Logs {
    /// The folder of the logs (KRB_LOGS sets it when this option is absent; scripts/common.sh
    /// exports it).
    #[arg(
        long = "logs",
        value_name = "DIR",
        env = "KRB_LOGS",
        hide_env = true,
        default_value = "logs"
    )]
    pub dir: PathBuf,
}

impl Logs {
    /// The logs in `dir`.
    pub fn at(dir: &Path) -> Logs {
        Logs {
            dir: dir.to_path_buf(),
        }
    }
}

/// A line left out because it looks like a worker line but does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Its line number, from 1.
    pub line: u64,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: skipped: {}",
            self.path.display(),
            self.line,
            self.reason
        )
    }
}

/// Parses one line read as bytes: invalid UTF-8 is read as U+FFFD, as every tool reads it.
pub fn parse_bytes(line: &[u8]) -> Result<Option<LogLine>, crate::logline::ParseError> {
    LogLine::parse(&String::from_utf8_lossy(line))
}

/// Calls `each(line_number, line)` for every line of `path`, reading it in large blocks.
pub fn for_each_line(path: &Path, each: impl FnMut(u64, &[u8])) -> Result<()> {
    for_each_line_in(path, 0, u64::MAX, |_| None, each).map(|_| ())
}

/// Reads the lines of `path` that start at a byte in `from..to`, in large blocks, and returns
/// how many there were. At each line start `fast` may take the line itself, reading it before
/// anyone has looked for its end, and say how long it was (its newline included); every other
/// line goes to `each(n, line)`, `n` counting from 1 within the range.
pub fn for_each_line_in(
    path: &Path,
    from: u64,
    to: u64,
    mut fast: impl FnMut(&[u8]) -> Option<usize>,
    mut each: impl FnMut(u64, &[u8]),
) -> Result<u64> {
    let cannot = || format!("cannot read {}", path.display());
    let mut file = File::open(path).with_context(cannot)?;
    // A range that starts inside a line leaves that line to the range before it: start one byte
    // early and drop everything up to the first newline.
    let mut skip_partial = from > 0;
    let mut position = from.saturating_sub(1);
    file.seek(SeekFrom::Start(position)).with_context(cannot)?;
    let mut buf = vec![0u8; 1 << 20];
    let mut filled = 0;
    let mut number = 0u64;
    loop {
        if filled == buf.len() {
            // A line longer than the buffer: make room for it.
            buf.resize(buf.len() * 2, 0);
        }
        let n = file.read(&mut buf[filled..]).with_context(cannot)?;
        if n == 0 {
            if filled > 0 && !skip_partial && position < to {
                number += 1;
                each(number, &buf[..filled]);
            }
            return Ok(number);
        }
        let end = filled + n;
        let mut start = 0;
        loop {
            if !skip_partial && position >= to {
                return Ok(number);
            }
            let taken = if skip_partial {
                None
            } else {
                fast(&buf[start..end])
            };
            let len = match taken {
                Some(len) => len,
                None => {
                    let Some(nl) = memchr::memchr(b'\n', &buf[start..end]) else {
                        break;
                    };
                    if !skip_partial {
                        each(number + 1, &buf[start..start + nl]);
                    }
                    nl + 1
                }
            };
            if skip_partial {
                skip_partial = false;
            } else {
                number += 1;
            }
            position += len as u64;
            start += len;
        }
        buf.copy_within(start..end, 0);
        filled = end - start;
    }
}

/// How much of a log's start is searched for the worker's `consumes TOPIC in group GROUP` line.
const HEAD: u64 = 64 << 10;

/// The group a log's worker said it joined, from the first `consumes` line near its start;
/// `None` for a log without one (written by hand, or by an older worker).
pub fn group_of(path: &Path) -> Result<Option<String>> {
    let mut head = Vec::new();
    File::open(path)
        .and_then(|f| f.take(HEAD).read_to_end(&mut head))
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(head
        .split(|&b| b == b'\n')
        .find_map(|line| match parse_bytes(line) {
            Ok(Some(LogLine {
                event: Event::Consumes { group, .. },
                ..
            })) => Some(group),
            _ => None,
        }))
}

/// Log files that matched a group's pattern but whose worker is in another group, with that group.
pub type OtherGroups = Vec<(PathBuf, String)>;

/// A group's logs: `DIR/GROUP-*.log` sorted by name, and those of them whose worker said it is in
/// another group than `ns`'s name of GROUP, which are not the group's.
pub fn group_files(dir: &Path, group: &str, ns: &Namespace) -> Result<(Vec<PathBuf>, OtherGroups)> {
    let prefix = format!("{group}-");
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the log folder {}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".log"))
        })
        .collect();
    files.sort();
    let kafka_group = ns.name(group);
    let (mut ours, mut others) = (Vec::new(), Vec::new());
    for file in files {
        match group_of(&file)? {
            Some(g) if g != kafka_group => others.push((file, g)),
            _ => ours.push(file),
        }
    }
    Ok((ours, others))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::scratch::scratch_dir;

    fn temp_dir(files: &[(&str, &[u8])]) -> PathBuf {
        scratch_dir("reader", files)
    }

    #[test]
    fn a_group_does_not_take_a_longer_groups_logs() {
        let dir = temp_dir(&[
            (
                "a-x.log",
                b"09:00:00.000 start a-x\n09:00:00.001 a-x consumes t in group a\n",
            ),
            (
                "a-b-x.log",
                b"09:00:00.000 start a-b-x\n09:00:00.001 a-b-x consumes t in group a-b\n",
            ),
            ("a-old.log", b"09:00:00.000 a-old p0 offset 1\n"),
            ("ab-x.log", b""),
        ]);
        let none = Namespace::default();
        let (ours, others) = group_files(&dir, "a", &none).unwrap();
        let names = |ps: Vec<PathBuf>| {
            ps.iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(ours), vec!["a-old.log", "a-x.log"]);
        assert_eq!(others.len(), 1);
        assert_eq!(others[0].1, "a-b");
        let (ours, others) = group_files(&dir, "a-b", &none).unwrap();
        assert_eq!(names(ours), vec!["a-b-x.log"]);
        assert!(others.is_empty());
        // In namespace a, group b is Kafka's a-b: a-b-x.log's worker is in it, a-x's is not.
        let (ours, others) = group_files(&dir, "b", &Namespace::new(Some("a"))).unwrap();
        assert!(ours.is_empty() && others.is_empty());
        std::fs::rename(dir.join("a-b-x.log"), dir.join("b-x.log")).unwrap();
        let (ours, others) = group_files(&dir, "b", &Namespace::new(Some("a"))).unwrap();
        assert_eq!(names(ours), vec!["b-x.log"]);
        assert!(others.is_empty());
        let (ours, others) = group_files(&dir, "b", &none).unwrap();
        assert!(ours.is_empty());
        assert_eq!(others[0].1, "a-b");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn lines_are_numbered_and_the_last_needs_no_newline() {
        let dir = temp_dir(&[("g-a.log", b"one\r\ntwo\n\nfour")]);
        let mut seen = Vec::new();
        for_each_line(&dir.join("g-a.log"), |n, l| seen.push((n, l.to_vec()))).unwrap();
        assert_eq!(
            seen,
            vec![
                (1, b"one\r".to_vec()),
                (2, b"two".to_vec()),
                (3, b"".to_vec()),
                (4, b"four".to_vec())
            ]
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
