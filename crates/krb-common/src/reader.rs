//! The one reader of worker logs: every tool reads a log's lines through this module, so none
//! can skip, split or number lines differently from another.
//!
//! - [`for_each_line_in`] reads a file, or one byte range of it, in large blocks and hands each
//!   line over as bytes, numbered from 1 (krb-dups counts with it, in parallel ranges).
//! - [`Follow`] reads a log as it grows, its finished lines only, through the same block loop;
//!   [`for_each_line`] is a follow that reads a whole file at once.
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

/// Calls `each(line_number, line)` for every line of `path`, reading it in large blocks: the
/// whole file at once, as a [`Follow`] that reads it to its end.
pub fn for_each_line(path: &Path, each: impl FnMut(u64, &[u8])) -> Result<()> {
    Follow::new(path).read_to_end(each).map(|_| ())
}

/// Reads the lines of `path` that start at a byte in `from..to`, in large blocks, and returns
/// how many there were. At each line start `fast` may take the line itself, reading it before
/// anyone has looked for its end, and say how long it was (its newline included); every other
/// line goes to `each(n, line)`, `n` counting from 1 within the range.
pub fn for_each_line_in(
    path: &Path,
    from: u64,
    to: u64,
    fast: impl FnMut(&[u8]) -> Option<usize>,
    each: impl FnMut(u64, &[u8]),
) -> Result<u64> {
    let mut file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    read_lines(&mut file, path, from, to, Last::Read, fast, each).map(|read| read.lines)
}

/// What to do with a last line that has no newline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    /// Read it: the file is whole (a log whose worker was killed mid-line ends so).
    Read,
    /// Leave it: its writer may not have finished it.
    Leave,
}

/// What [`read_lines`] read.
struct Lines {
    /// How many lines.
    lines: u64,
    /// Where the first line it left starts: after the last newline it read.
    end: u64,
}

/// The block loop under [`for_each_line_in`] and [`Follow`] (see the first).
fn read_lines(
    file: &mut File,
    path: &Path,
    from: u64,
    to: u64,
    last: Last,
    mut fast: impl FnMut(&[u8]) -> Option<usize>,
    mut each: impl FnMut(u64, &[u8]),
) -> Result<Lines> {
    let cannot = || format!("cannot read {}", path.display());
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
            if filled > 0 && !skip_partial && position < to && last == Last::Read {
                number += 1;
                each(number, &buf[..filled]);
                position += filled as u64;
            }
            return Ok(Lines {
                lines: number,
                end: position,
            });
        }
        let end = filled + n;
        let mut start = 0;
        loop {
            if !skip_partial && position >= to {
                return Ok(Lines {
                    lines: number,
                    end: position,
                });
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

/// A log read as it grows, its lines numbered from 1 across reads. Each [`Follow::read`] reads
/// the lines finished since the one before: a line its worker is still writing is read once
/// its newline is there, so no line is ever read in two pieces.
#[derive(Clone, Debug)]
pub struct Follow {
    path: PathBuf,
    /// Where the first line not yet read starts.
    position: u64,
    /// How many lines were read.
    lines: u64,
    /// The file read so far, (device, inode), to tell a file written anew under the same name
    /// (a lab run again deletes its old logs) from one that grew.
    file: Option<(u64, u64)>,
}

/// What a [`Follow::read`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Growth {
    /// This many lines were added (maybe none).
    Lines(u64),
    /// The file is not the one read so far: a new file by that name, or it was cut shorter.
    /// Nothing was read; what was read before belongs to a file that is no more.
    Replaced,
    /// There is no file by that name (any more).
    Gone,
}

impl Follow {
    /// Follows `path`, from its first line.
    pub fn new(path: &Path) -> Follow {
        Follow {
            path: path.to_path_buf(),
            position: 0,
            lines: 0,
            file: None,
        }
    }

    /// The file followed.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Calls `each(line_number, line)` for each line finished since the last read.
    pub fn read(&mut self, each: impl FnMut(u64, &[u8])) -> Result<Growth> {
        self.read_lines(Last::Leave, each)
    }

    /// Reads to the end of the file, as [`Follow::read`] does, and reads a last line that has
    /// no newline as well: for a file that is whole. A later read goes on after that line's
    /// end; should the line go on after all, its rest is dropped up to its newline.
    pub fn read_to_end(&mut self, each: impl FnMut(u64, &[u8])) -> Result<Growth> {
        self.read_lines(Last::Read, each)
    }

    fn read_lines(&mut self, last: Last, mut each: impl FnMut(u64, &[u8])) -> Result<Growth> {
        use std::os::unix::fs::MetadataExt;
        let cannot = || format!("cannot read {}", self.path.display());
        let mut file = match File::open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Growth::Gone),
            Err(e) => return Err(e).with_context(cannot),
        };
        let meta = file.metadata().with_context(cannot)?;
        let id = (meta.dev(), meta.ino());
        if self.file.is_some_and(|f| f != id) || meta.len() < self.position {
            return Ok(Growth::Replaced);
        }
        self.file = Some(id);
        let before = self.lines;
        let read = read_lines(
            &mut file,
            &self.path,
            self.position,
            u64::MAX,
            last,
            |_| None,
            |n, line| each(before + n, line),
        )?;
        self.lines += read.lines;
        self.position = read.end;
        Ok(Growth::Lines(read.lines))
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

    #[test]
    fn a_followed_file_is_read_up_to_its_last_finished_line() {
        let dir = temp_dir(&[("g-a.log", b"one\ntw")]);
        let path = dir.join("g-a.log");
        let mut follow = Follow::new(&path);
        let mut seen = Vec::new();
        let read = |follow: &mut Follow, seen: &mut Vec<(u64, String)>| {
            follow
                .read(|n, l| seen.push((n, String::from_utf8_lossy(l).into_owned())))
                .unwrap()
        };
        assert_eq!(read(&mut follow, &mut seen), Growth::Lines(1));
        assert_eq!(seen, vec![(1, "one".to_string())]);
        // Nothing finished since: nothing read, and "tw" is not read as a line.
        assert_eq!(read(&mut follow, &mut seen), Growth::Lines(0));
        let append = |text: &[u8]| {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            f.write_all(text).unwrap();
        };
        append(b"o\nthree\nfo");
        assert_eq!(read(&mut follow, &mut seen), Growth::Lines(2));
        append(b"ur\n");
        assert_eq!(read(&mut follow, &mut seen), Growth::Lines(1));
        let lines: Vec<(u64, &str)> = seen.iter().map(|(n, l)| (*n, l.as_str())).collect();
        assert_eq!(
            lines,
            vec![(1, "one"), (2, "two"), (3, "three"), (4, "four")]
        );
        // The whole-file reader reads the same lines, and a last one without its newline.
        append(b"five");
        let mut whole = Vec::new();
        for_each_line(&path, |n, l| whole.push((n, l.to_vec()))).unwrap();
        assert_eq!(whole.len(), 5);
        assert_eq!(whole[4], (5, b"five".to_vec()));
        assert_eq!(read(&mut follow, &mut seen), Growth::Lines(0));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_followed_file_written_anew_or_removed_is_said_to_be() {
        let dir = temp_dir(&[("g-a.log", b"one\ntwo\n")]);
        let path = dir.join("g-a.log");
        let mut follow = Follow::new(&path);
        assert_eq!(follow.read(|_, _| {}).unwrap(), Growth::Lines(2));
        // Cut shorter in place.
        std::fs::write(&path, b"x\n").unwrap();
        assert_eq!(
            follow.read(|_, _| panic!("read")).unwrap(),
            Growth::Replaced
        );
        // Removed, then a new, longer file by the same name: not the file read so far.
        let mut follow = Follow::new(&path);
        assert_eq!(follow.read(|_, _| {}).unwrap(), Growth::Lines(1));
        // Written before the old one goes, so that it cannot take the old one's inode.
        std::fs::write(dir.join("other"), b"a\nb\nc\n").unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(follow.read(|_, _| panic!("read")).unwrap(), Growth::Gone);
        std::fs::rename(dir.join("other"), &path).unwrap();
        assert_eq!(
            follow.read(|_, _| panic!("read")).unwrap(),
            Growth::Replaced
        );
        // A file that only grew is not replaced.
        let mut follow = Follow::new(&path);
        assert_eq!(follow.read(|_, _| {}).unwrap(), Growth::Lines(3));
        std::fs::write(&path, b"a\nb\nc\nd\n").unwrap();
        assert_eq!(follow.read(|_, _| {}).unwrap(), Growth::Lines(1));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
