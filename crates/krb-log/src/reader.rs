//! The one reader of worker logs: every tool reads a log's lines through this module, so none
//! can skip, split or number lines differently from another. A line that looks like a worker's
//! but does not parse, or a last line cut short, is [`Skipped`]: tools report it as
//! `FILE:LINE: skipped: why` and go on.

use std::fmt;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::logline::{Event, LogLine};
use krb_cli::lang::Lang;
use krb_cli::namespace::Namespace;

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
    pub fn at(dir: &Path) -> Logs {
        let dir = dir.to_path_buf();
        Logs { dir }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    /// From 1.
    pub line: u64,
    pub reason: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (path, line, reason) = (shown(&self.path), self.line, &self.reason);
        write!(f, "{path}:{line}: skipped: {reason}")
    }
}

impl Skipped {
    pub fn new(path: &Path, line: u64, reason: String) -> Skipped {
        let path = path.to_path_buf();
        Skipped { path, line, reason }
    }

    /// Line `line`, the file's last, has no newline: its writer was killed mid-line, so it may
    /// say less than was meant (`p0 offset 12` of `p0 offset 123`). It is not read.
    pub fn cut_short(path: &Path, line: u64) -> Skipped {
        let reason = "the last line has no newline: cut short by its writer, not read";
        Skipped::new(path, line, reason.into())
    }
}

/// `text` safe to print on a terminal: each control character (ESC, NUL, a newline...) as Rust
/// quotes it (`\u{1b}`, `\0`, `\n`), the rest (Hangul included) as it is. Every name and text a
/// tool took from a file prints through it: a worker named with ESC would drive the terminal.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    let each = |c: char| match c.is_control() {
        true => c.escape_debug().to_string(),
        false => c.to_string(),
    };
    text.chars().map(each).collect::<String>().into()
}

/// A file's path as text, named whatever its bytes: each byte that is not UTF-8 written `\xff`
/// (the system's own display writes U+FFFD, one for any byte, so two such logs read alike),
/// each control character as [`printable`] writes it.
pub fn shown(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::new();
    for chunk in path.as_os_str().as_bytes().utf8_chunks() {
        out.push_str(&printable(chunk.valid()));
        out.extend(chunk.invalid().iter().map(|b| format!("\\x{b:02x}")));
    }
    out
}

/// What is wrong with a file whose lines are read all the same, at one line or the whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remark {
    pub path: PathBuf,
    /// From 1; `None` for the whole file.
    pub line: Option<u64>,
    pub what: String,
}

impl fmt::Display for Remark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = self.line.map(|l| format!(":{l}")).unwrap_or_default();
        write!(f, "{}{line}: {}", shown(&self.path), self.what)
    }
}

/// Whose lines a log holds: one worker's (`start NAME` appends to `NAME.log`), the one its first
/// line names. [`Workers::see`] is told each line's name, or only the names that change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Workers {
    first: Option<(Vec<u8>, u64)>,
    other: Option<(Vec<u8>, u64)>,
}

impl Workers {
    pub fn see(&mut self, line: u64, name: &[u8]) {
        match &self.first {
            None => self.first = Some((name.to_vec(), line)),
            Some((first, _)) if self.other.is_none() && first != name => {
                self.other = Some((name.to_vec(), line))
            }
            _ => {}
        }
    }

    /// Adds what `later` saw of the lines after these, its line 1 being line `before + 1`
    /// here: the byte ranges of one file read apart, put together in order.
    pub fn then(&mut self, later: &Workers, before: u64) {
        for (name, line) in later.first.iter().chain(&later.other) {
            self.see(before + line, name);
        }
    }

    /// What is wrong with `path`, a whole file read: a line of a second worker (the first
    /// such), or no worker line at all.
    pub fn remarks(&self, path: &Path) -> Vec<Remark> {
        let text = |name: &[u8]| printable(&String::from_utf8_lossy(name)).into_owned();
        let (line, what) = match (&self.first, &self.other) {
            (None, _) => (None, "no worker line in it: the log is empty".into()),
            (Some((first, _)), Some((other, line))) => (Some(*line), format!(
                "a line of worker {}, in the log of worker {}: a log holds one worker's lines (read all the same)",
                text(other),
                text(first)
            )),
            (Some(_), None) => return Vec::new(),
        };
        let path = path.to_path_buf();
        vec![Remark { path, line, what }]
    }
}

/// Opens `path` to read it, only a regular file (or a link to one): a FIFO, a device or a
/// folder is refused, and a FIFO is never opened (opening one blocks until something writes
/// to it, and reading it never ends).
pub fn open(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata(path)?.file_type();
    let what = match kind {
        _ if kind.is_file() => return File::open(path),
        _ if kind.is_fifo() => "a FIFO",
        _ if kind.is_dir() => "a folder",
        _ if kind.is_socket() => "a socket",
        _ => "a device",
    };
    let why = format!("it is {what}, not a regular file");
    Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, why))
}

/// The whole text of `path`, a regular file (see [`open`]) of at most `limit` bytes; `what`
/// names it in the error. Every file a tool reads whole goes through this: a FIFO would block
/// the tool for good, and a file too large for what it is would fill the memory.
pub fn read_text(path: &Path, what: &str, limit: u64) -> Result<String> {
    let (mut text, name) = (String::new(), shown(path));
    open(path)
        .and_then(|f| f.take(limit.saturating_add(1)).read_to_string(&mut text))
        .with_context(|| format!("cannot read {what} {name}"))?;
    if text.len() as u64 > limit {
        bail!("cannot read {what} {name}: larger than {limit} bytes, more than it can be");
    }
    Ok(text)
}

/// One line read as bytes. A worker writes UTF-8 only: a worker's line with bytes that are not
/// (read as U+FFFD), in its name, its event or its time, is an error.
pub fn parse_bytes(line: &[u8]) -> Result<Option<LogLine>, crate::logline::ParseError> {
    if let Ok(text) = std::str::from_utf8(line) {
        return LogLine::parse(text);
    }
    let text = String::from_utf8_lossy(line);
    match LogLine::parse(&text)? {
        None => Ok(None),
        Some(_) => Err(crate::logline::bad(format!(
            "bytes that are not UTF-8 (read as U+FFFD) in {:?}",
            text.trim_end_matches(['\r', '\n'])
        ))),
    }
}

/// Calls `each(line_number, line)` for every line of `path`, as a [`Follow`] that reads it to
/// its end. Returns its last line when it has no newline, which is not read.
pub fn for_each_line(path: &Path, each: impl FnMut(u64, &[u8])) -> Result<Option<Skipped>> {
    Follow::new(path).read_to_end(each).map(|(_, cut)| cut)
}

/// Reads the lines of `path` that start at a byte in `from..to` (krb-dups counts in parallel
/// ranges), `n` from 1 in the range. At each line start `fast(n, text)` may take the line before
/// its end is looked for and say its length, newline included; every other line goes to
/// `each(n, line)`. A last line without a newline goes to neither (see [`Range::cut_short`]).
pub fn for_each_line_in(
    path: &Path,
    from: u64,
    to: u64,
    fast: impl FnMut(u64, &[u8]) -> Option<usize>,
    each: impl FnMut(u64, &[u8]),
) -> Result<Range> {
    let mut file = open(path).with_context(|| format!("cannot read {}", shown(path)))?;
    read_lines(&mut file, path, from, to, Last::Read, fast, each).map(|(range, _, _)| range)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub lines: u64,
    /// The file's last line, line `lines + 1` of the range, has no newline: it was not read
    /// (see [`Skipped::cut_short`]).
    pub cut_short: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    /// Say it is there: the file is whole, and its writer stopped in the middle of the line.
    Read,
    /// Leave it: its writer may not have finished it.
    Leave,
}

/// The block loop under [`for_each_line_in`] and [`Follow`] (see the first). Beside the range
/// read it says where the first line it left starts (after the last newline it read) and
/// whether it read to the file's end, not stopping at the range's.
fn read_lines(
    file: &mut File,
    path: &Path,
    from: u64,
    to: u64,
    last: Last,
    mut fast: impl FnMut(u64, &[u8]) -> Option<usize>,
    mut each: impl FnMut(u64, &[u8]),
) -> Result<(Range, u64, bool)> {
    let cannot = || format!("cannot read {}", shown(path));
    // A range that starts inside a line leaves that line to the range before it: start one byte
    // early and drop everything up to the first newline.
    let mut skip_partial = from > 0;
    let mut position = from.saturating_sub(1);
    file.seek(SeekFrom::Start(position)).with_context(cannot)?;
    let mut buf = vec![0u8; 1 << 20];
    let mut filled = 0;
    let mut lines = 0u64;
    loop {
        if filled == buf.len() {
            // A line longer than the buffer: make room for it.
            buf.resize(buf.len() * 2, 0);
        }
        let n = file.read(&mut buf[filled..]).with_context(cannot)?;
        if n == 0 {
            let cut_short = filled > 0 && !skip_partial && position < to && last == Last::Read;
            return Ok((Range { lines, cut_short }, position, true));
        }
        let end = filled + n;
        let mut start = 0;
        loop {
            if !skip_partial && position >= to {
                let cut_short = false;
                return Ok((Range { lines, cut_short }, position, false));
            }
            let taken = match skip_partial {
                true => None,
                false => fast(lines + 1, &buf[start..end]),
            };
            let len = match taken {
                Some(len) => len,
                None => {
                    let Some(nl) = memchr::memchr(b'\n', &buf[start..end]) else {
                        break;
                    };
                    if !skip_partial {
                        each(lines + 1, &buf[start..start + nl]);
                    }
                    nl + 1
                }
            };
            lines += u64::from(!skip_partial);
            skip_partial = false;
            position += len as u64;
            start += len;
        }
        buf.copy_within(start..end, 0);
        filled = end - start;
    }
}

/// A log read as it grows, its lines numbered from 1 across reads: a line its worker is still
/// writing is read once its newline is there, never in two pieces.
#[derive(Clone, Debug, Default)]
pub struct Follow {
    path: PathBuf,
    /// Where the first line not yet read starts.
    position: u64,
    lines: u64,
    /// The file read so far, (device, inode), to tell a file written anew under the same name
    /// (a lab run again deletes its old logs) from one that grew.
    file: Option<(u64, u64)>,
    /// How far the line at `position`, still unfinished, has been searched for its newline:
    /// a long last line is searched once, not again from its start at every read.
    searched: u64,
}

/// How many bytes of lines a [`Follow::read`] reads at most (the line that crosses the
/// bound included).
pub const FOLLOW_CHUNK: u64 = 4 << 20;

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
    pub fn new(path: &Path) -> Follow {
        Follow {
            path: path.to_path_buf(),
            ..Follow::default()
        }
    }

    /// Calls `each(line_number, line)` for each line finished since the last read that starts in
    /// the next [`FOLLOW_CHUNK`] bytes, so a reader far behind keeps no more than that at once;
    /// read again at once while lines come.
    pub fn read(&mut self, each: impl FnMut(u64, &[u8])) -> Result<Growth> {
        self.read_lines(Last::Leave, each).map(|(growth, _)| growth)
    }

    /// Reads to the end of the file, as [`Follow::read`] does, for a file that is whole: a
    /// last line that has no newline is not read but returned, cut short (see
    /// [`Skipped::cut_short`]). A later read reads it once its newline is there. A file gone is
    /// an error.
    pub fn read_to_end(
        &mut self,
        each: impl FnMut(u64, &[u8]),
    ) -> Result<(Growth, Option<Skipped>)> {
        match self.read_lines(Last::Read, each)? {
            (Growth::Gone, _) => bail!("cannot read {}: no such file", shown(&self.path)),
            read => Ok(read),
        }
    }

    fn read_lines(
        &mut self,
        last: Last,
        mut each: impl FnMut(u64, &[u8]),
    ) -> Result<(Growth, Option<Skipped>)> {
        use std::os::unix::fs::MetadataExt;
        let cannot = || format!("cannot read {}", shown(&self.path));
        let mut file = match open(&self.path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Growth::Gone, None)),
            file => file.with_context(cannot)?,
        };
        let meta = file.metadata().with_context(cannot)?;
        let id = (meta.dev(), meta.ino());
        if self.file.is_some_and(|f| f != id) || meta.len() < self.position {
            return Ok((Growth::Replaced, None));
        }
        self.file = Some(id);
        if last == Last::Leave
            && self.searched > self.position
            && !newline_after(&mut file, self.searched).with_context(cannot)?
        {
            self.searched = self.searched.max(meta.len());
            return Ok((Growth::Lines(0), None));
        }
        let before = self.lines;
        let to = match last {
            Last::Leave => self.position.saturating_add(FOLLOW_CHUNK),
            Last::Read => u64::MAX,
        };
        let (read, end, to_end) = read_lines(
            &mut file,
            &self.path,
            self.position,
            to,
            last,
            |_, _| None,
            |n, line| each(before + n, line),
        )?;
        self.lines += read.lines;
        self.position = end;
        if to_end {
            self.searched = meta.len().max(end);
        }
        let cut = read
            .cut_short
            .then(|| Skipped::cut_short(&self.path, self.lines + 1));
        Ok((Growth::Lines(read.lines), cut))
    }
}

fn newline_after(file: &mut File, from: u64) -> std::io::Result<bool> {
    file.seek(SeekFrom::Start(from))?;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf)? {
            0 => return Ok(false),
            n if memchr::memchr(b'\n', &buf[..n]).is_some() => return Ok(true),
            _ => {}
        }
    }
}

/// How much of a log's start is searched for the worker's `consumes` line.
const HEAD: u64 = 64 << 10;

/// The group a log's worker said it joined, from the first `consumes` line near its start;
/// `None` for a log without one (written by hand, or by an older worker).
pub fn group_of(path: &Path) -> Result<Option<String>> {
    let mut head = Vec::new();
    open(path)
        .and_then(|f| f.take(HEAD).read_to_end(&mut head))
        .with_context(|| format!("cannot read {}", shown(path)))?;
    Ok(head
        .split(|&b| b == b'\n')
        .find_map(|line| match parse_bytes(line).ok()??.event {
            Event::Consumes { group, .. } | Event::ShareConsumes { group, .. } => Some(group),
            _ => None,
        }))
}

krb_cli::msgs! { ;
    /// A log folder that cannot be read (`why`: the system's reason).
    NO_LOG_FOLDER = "cannot read the log folder {dir}: {why}", "로그 폴더 {dir}을 읽을 수 없습니다: {why}";
    /// A group without a log: a group name mistyped, or a folder other than the lab's.
    NO_LOGS = "no log file {dir}/{group}-*.log: run the group's workers first, or pass --logs DIR",
        "로그 파일 {dir}/{group}-*.log가 없습니다: 먼저 그룹의 워커를 띄우거나, --logs DIR로 로그 \
         폴더를 주세요";
}

pub fn no_logs(dir: &Path, group: &str) -> String {
    let dir = shown(dir);
    NO_LOGS.fill(Lang::of_process(), &[("dir", &dir), ("group", &group)])
}

/// Log files that matched a group's pattern but whose worker is in another group, with that group.
pub type OtherGroups = Vec<(PathBuf, String)>;

/// A group's logs, `DIR/GROUP-*.log` sorted by name, less those whose worker said it is in a
/// group other than `ns`'s name of GROUP (group `a`'s `a-*.log` also matches group `a-b`'s, and
/// a worker in a namespace names its group as Kafka knows it: `alice-a`).
pub fn group_files(dir: &Path, group: &str, ns: &Namespace) -> Result<(Vec<PathBuf>, OtherGroups)> {
    use std::os::unix::ffi::OsStrExt;
    let prefix = format!("{group}-");
    let entries = std::fs::read_dir(dir).map_err(|why| {
        anyhow::anyhow!(
            NO_LOG_FOLDER.fill(Lang::of_process(), &[("dir", &shown(dir)), ("why", &why)],)
        )
    })?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        // A name that is not UTF-8 is a log all the same, named as the system shows it.
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                n.as_bytes().starts_with(prefix.as_bytes()) && n.as_bytes().ends_with(b".log")
            })
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

    use krb_testutil::scratch_dir;

    fn temp_dir(files: &[(&str, &[u8])]) -> krb_testutil::Scratch {
        scratch_dir("reader", files)
    }

    #[test]
    fn a_log_whose_name_is_not_utf8_is_named_with_its_bytes_escaped() {
        use std::os::unix::ffi::OsStrExt;
        let dir = temp_dir(&[]);
        let path = dir.join(std::ffi::OsStr::from_bytes(b"g-\xff\x1b.log"));
        std::fs::write(&path, b"09:00:00.000 g-a p0 offset 1").unwrap();
        let cut = for_each_line(&path, |_, _| {})
            .unwrap()
            .unwrap()
            .to_string();
        let name = format!("{}/g-\\xff\\u{{1b}}.log", shown(&dir));
        assert_eq!(
            cut,
            format!("{name}:1: skipped: the last line has no newline: cut short by its writer, not read")
        );
        let err = read_text(&path.with_extension("none"), "the table", 9).unwrap_err();
        assert!(
            format!("{err:#}").contains("g-\\xff\\u{1b}.none"),
            "{err:#}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_file_read_whole_is_bounded() {
        let dir = temp_dir(&[("t", b"0123456789")]);
        let path = dir.join("t");
        assert_eq!(read_text(&path, "the table", 10).unwrap(), "0123456789");
        let err = read_text(&path, "the table", 9).unwrap_err();
        assert_eq!(
            format!("{err:#}"),
            format!(
                "cannot read the table {}: larger than 9 bytes, more than it can be",
                path.display()
            )
        );
        let err = read_text(Path::new("/dev/zero"), "the table", 9).unwrap_err();
        assert_eq!(
            format!("{err:#}"),
            "cannot read the table /dev/zero: it is a device, not a regular file"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert_eq!(printable("g-a"), "g-a");
        assert_eq!(printable("그룹-가"), "그룹-가");
        assert_eq!(
            printable("g\u{1b}[2Jx\u{7}\0\u{9b}"),
            "g\\u{1b}[2Jx\\u{7}\\0\\u{9b}"
        );
        let mut workers = Workers::default();
        workers.see(1, b"g-a");
        workers.see(2, b"g-\x1b]0;owned\x07");
        let remark = workers.remarks(Path::new("g-a.log"))[0].to_string();
        assert!(
            remark.starts_with(
                "g-a.log:2: a line of worker g-\\u{1b}]0;owned\\u{7}, in the log of worker g-a"
            ),
            "{remark}"
        );
    }

    #[test]
    fn the_readers_errors_are_in_both_languages() {
        assert_eq!(
            krb_cli::lang::table_problems(&[NO_LOG_FOLDER, NO_LOGS]),
            Vec::<String>::new()
        );
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
    }

    #[test]
    fn lines_are_numbered_and_a_last_line_without_newline_is_cut_short() {
        let dir = temp_dir(&[("g-a.log", b"one\r\ntwo\n\nfour")]);
        let path = dir.join("g-a.log");
        let mut seen = Vec::new();
        let cut = for_each_line(&path, |n, l| seen.push((n, l.to_vec()))).unwrap();
        assert_eq!(
            seen,
            vec![
                (1, b"one\r".to_vec()),
                (2, b"two".to_vec()),
                (3, b"".to_vec())
            ]
        );
        // "four" may be the start of "fourteen": named, not read.
        let cut = cut.expect("the last line is cut short").to_string();
        assert_eq!(
            cut,
            format!(
                "{}:4: skipped: the last line has no newline: cut short by its writer, not read",
                path.display()
            )
        );
        // The same in byte ranges: only the range the line starts in says so.
        let len = std::fs::metadata(&path).unwrap().len();
        let range = |from, to| for_each_line_in(&path, from, to, |_, _| None, |_, _| {}).unwrap();
        assert_eq!(
            range(0, 5),
            Range {
                lines: 1,
                cut_short: false
            }
        );
        assert_eq!(
            range(5, u64::MAX),
            Range {
                lines: 2,
                cut_short: true
            }
        );
        assert!(!range(0, len - 4).cut_short);
        // A file that ends with its newline has no line cut short.
        std::fs::write(&path, b"one\n").unwrap();
        assert_eq!(for_each_line(&path, |_, _| {}).unwrap(), None);
    }

    #[test]
    fn a_fifo_is_refused_not_waited_on() {
        let dir = temp_dir(&[]);
        let path = dir.join("g-a.log");
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        let expected = format!(
            "cannot read {}: it is a FIFO, not a regular file",
            path.display()
        );
        let err = for_each_line(&path, |_, _| {}).unwrap_err();
        assert_eq!(format!("{err:#}"), expected);
        let err = for_each_line_in(&path, 0, u64::MAX, |_, _| None, |_, _| {}).unwrap_err();
        assert_eq!(format!("{err:#}"), expected);
        let err = Follow::new(&path).read(|_, _| {}).unwrap_err();
        assert_eq!(format!("{err:#}"), expected);
        let err = group_files(&dir, "g", &Namespace::default()).unwrap_err();
        assert_eq!(format!("{err:#}"), expected);
        let err = read_text(&path, "the faults", 1 << 20).unwrap_err();
        assert_eq!(
            format!("{err:#}"),
            format!(
                "cannot read the faults {}: it is a FIFO, not a regular file",
                path.display()
            )
        );
        // A folder by a log's name is refused the same way.
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        let err = for_each_line(&path, |_, _| {}).unwrap_err();
        assert!(format!("{err:#}").ends_with("it is a folder, not a regular file"));
    }

    #[test]
    fn a_worker_line_with_bytes_that_are_not_utf8_is_an_error() {
        // In the name: the line would count for a worker that does not exist.
        let err = parse_bytes(b"09:00:00.000 g-\xff p0 offset 1\n").unwrap_err();
        assert_eq!(
            err.reason,
            "bytes that are not UTF-8 (read as U+FFFD) in \"09:00:00.000 g-\u{fffd} p0 offset 1\""
        );
        assert!(parse_bytes(b"09:00:00.000 start g-\xfe").is_err());
        assert!(parse_bytes(b"09:00:00.000 g-a commit failed: \xff").is_err());
        // Not a worker's line: left alone, as before.
        assert_eq!(parse_bytes(b"\xff\xfe garbage").unwrap(), None);
        assert!(parse_bytes("09:00:00.000 g-\u{e9} p0 offset 1".as_bytes())
            .unwrap()
            .is_some());
    }

    #[test]
    fn a_second_workers_line_and_a_log_without_any_are_remarked() {
        let path = Path::new("logs/g-a.log");
        let mut w = Workers::default();
        assert_eq!(
            w.remarks(path)[0].to_string(),
            "logs/g-a.log: no worker line in it: the log is empty"
        );
        w.see(1, b"g-a");
        w.see(2, b"g-a");
        assert!(w.remarks(path).is_empty());
        w.see(5, b"g-b");
        w.see(6, b"g-c");
        assert_eq!(
            w.remarks(path)[0].to_string(),
            "logs/g-a.log:5: a line of worker g-b, in the log of worker g-a: a log holds one worker's lines (read all the same)"
        );
        // Ranges read apart and put together find the same first line.
        let mut first = Workers::default();
        first.see(1, b"g-a");
        let mut second = Workers::default();
        second.see(1, b"g-a");
        second.see(3, b"g-b");
        let mut third = Workers::default();
        third.see(2, b"g-c");
        first.then(&Workers::default(), 10);
        first.then(&second, 10);
        first.then(&third, 20);
        assert_eq!(first.remarks(path)[0].line, Some(13));
        let mut none = Workers::default();
        none.then(&third, 20);
        assert!(none.remarks(path).is_empty());
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
        // The whole-file reader reads the same lines, and says a last one without its newline
        // is cut short.
        append(b"five");
        let mut whole = Vec::new();
        let cut = for_each_line(&path, |n, l| whole.push((n, l.to_vec()))).unwrap();
        assert_eq!(whole.len(), 4);
        assert_eq!(cut.map(|c| c.line), Some(5));
        assert_eq!(read(&mut follow, &mut seen), Growth::Lines(0));
        // Read to its end, then finished: the line is read once its newline is there.
        let mut to_end = Follow::new(&path);
        let (growth, cut) = to_end.read_to_end(|_, _| {}).unwrap();
        assert_eq!((growth, cut.map(|c| c.line)), (Growth::Lines(4), Some(5)));
        append(b"\n");
        let mut last = Vec::new();
        let (growth, cut) = to_end
            .read_to_end(|n, l| last.push((n, l.to_vec())))
            .unwrap();
        assert_eq!((growth, cut), (Growth::Lines(1), None));
        assert_eq!(last, vec![(5, b"five".to_vec())]);
    }

    /// Bytes this process has read so far, as Linux counts them.
    fn bytes_read() -> u64 {
        let io = std::fs::read_to_string("/proc/self/io").unwrap();
        io.lines()
            .find_map(|l| l.strip_prefix("rchar: "))
            .unwrap()
            .parse()
            .unwrap()
    }

    #[test]
    fn a_long_unfinished_last_line_is_not_read_again_at_every_read() {
        const LONG: usize = 16 << 20;
        let dir = temp_dir(&[("g-a.log", b"one\n")]);
        let path = dir.join("g-a.log");
        let mut text = b"one\n".to_vec();
        text.resize(4 + LONG, b'x');
        std::fs::write(&path, &text).unwrap();
        let mut follow = Follow::new(&path);
        assert_eq!(follow.read(|_, _| {}).unwrap(), Growth::Lines(1));
        let before = bytes_read();
        for _ in 0..10 {
            assert_eq!(follow.read(|_, _| {}).unwrap(), Growth::Lines(0));
        }
        let read = bytes_read() - before;
        // Read once (other tests read alongside, a few kilobytes), not ten times.
        assert!(
            read < 3 * LONG as u64,
            "{read} bytes read for a line of {LONG}"
        );
        text.extend_from_slice(b"\ntwo\n");
        std::fs::write(&path, &text).unwrap();
        // Read on while lines come: a read stops after its chunk's last line.
        let mut lines = Vec::new();
        while follow.read(|n, l| lines.push((n, l.len()))).unwrap() != Growth::Lines(0) {}
        assert_eq!(lines, vec![(2, LONG), (3, 3)]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_follow_far_behind_reads_a_chunk_at_a_time() {
        let line = b"09:00:00.000 g-a p0 offset 1\n";
        let n = 2 * FOLLOW_CHUNK as usize / line.len() + 7;
        let dir = temp_dir(&[("g-a.log", &line.repeat(n))]);
        let mut follow = Follow::new(&dir.join("g-a.log"));
        let mut reads = Vec::new();
        loop {
            match follow.read(|_, _| {}).unwrap() {
                Growth::Lines(0) => break,
                Growth::Lines(k) => reads.push(k),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(reads.iter().sum::<u64>(), n as u64);
        let most = FOLLOW_CHUNK.div_ceil(line.len() as u64);
        assert!(reads.iter().all(|&k| k <= most), "{reads:?}");
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
    }
}
