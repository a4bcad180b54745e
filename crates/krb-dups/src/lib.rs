//! krb-dups: count duplicate processing in a group's worker logs (the article's dups.py).
//!
//! A message counts as processed when its worker logged the completion line
//! (`NAME pP offset O`); a duplicate is the same partition and offset processed more than once.
//! Beyond the article it also finds gaps (offsets never processed), names who processed each
//! duplicate (`-v`) and writes the analysis as JSON (`--json`).
//!
//! Logs are read in large blocks and completion lines go through krb-common's byte-level fast
//! path; counts are kept in one dense array per partition, so memory follows the distinct
//! (partition, offset) pairs, not the number of lines.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Parser;
use krb_common::logline::{
    parse_processed, parse_processed_prefix, Event, LogLine, Offset, ParseError, Partition,
};
use serde::Serialize;

/// krb-dups: count the messages a consumer group processed more than once.
///
/// Reads every logs/GROUP-*.log written by krb-worker, counts each completion line
/// (`NAME pP offset O`), and prints, as the article's dups.py does:
///
///   processed 1082, unique 1000, duplicates 82
///     p1: offset 400..481 (82) processed twice
///
/// One line per run of consecutive offsets processed the same number of times, by partition
/// then offset. Offsets never processed (between a partition's lowest and highest processed
/// offset, or below --end) follow as `never processed`, only when there are any.
/// Exit 2 when no log file matches.
#[derive(Parser, Debug)]
#[command(name = "krb-dups", version, verbatim_doc_comment)]
pub struct Args {
    /// The consumer group: its workers' logs are DIR/GROUP-*.log.
    pub group: String,
    /// The folder of the logs.
    #[arg(long, value_name = "DIR", default_value = "logs")]
    pub logs: PathBuf,
    /// Name who processed each duplicate run: `... processed twice (nocommit-a, nocommit-b)`.
    #[arg(short, long)]
    pub verbose: bool,
    /// Print the analysis as one JSON document (counts, runs, gaps, consumers).
    #[arg(long)]
    pub json: bool,
    /// The end of each partition (its next offset), to find messages never processed at the
    /// end: --end p0=500,p1=500.
    #[arg(long, value_name = "pP=N,...", value_parser = parse_end)]
    pub end: Option<BTreeMap<Partition, Offset>>,
}

/// Parses `p0=500,p1=500`: partitions and ends are numbers from 0, each partition named once.
pub fn parse_end(s: &str) -> Result<BTreeMap<Partition, Offset>, String> {
    let mut end = BTreeMap::new();
    for item in s.split(',') {
        let (p, o) = item
            .trim()
            .strip_prefix('p')
            .and_then(|r| r.split_once('='))
            .ok_or_else(|| format!("expected pP=N such as p0=500, got {item:?}"))?;
        let p: Partition = p
            .parse()
            .ok()
            .filter(|p| *p >= 0)
            .ok_or_else(|| format!("{p:?} is not a partition (0 to {})", Partition::MAX))?;
        let o: Offset = o
            .parse()
            .ok()
            .filter(|o| *o >= 0)
            .ok_or_else(|| format!("{o:?} is not an end offset (0 to {})", Offset::MAX))?;
        if end.insert(p, o).is_some() {
            return Err(format!("p{p} is named twice"));
        }
    }
    Ok(end)
}

/// Offsets above this are counted in a map instead of a dense array (they would make the array
/// as large as the offset, not as the number of offsets seen).
const DENSE_LIMIT: Offset = 1 << 26;

/// Counts of consecutive offsets from `base`: a byte range of a log (one thread's share)
/// starts at its own offsets, so the array covers those, not everything below them.
#[derive(Debug, Default)]
struct Dense {
    base: usize,
    counts: Vec<u32>,
}

impl Dense {
    fn add(&mut self, offset: usize, n: u32) {
        if self.counts.is_empty() {
            self.base = offset;
        } else if offset < self.base {
            // Rare (a re-read below the first offset seen): grow at the front by half again.
            let grow = (self.base - offset)
                .max(self.counts.len() / 2)
                .min(self.base);
            self.counts.splice(0..0, std::iter::repeat_n(0, grow));
            self.base -= grow;
        }
        let i = offset - self.base;
        if i >= self.counts.len() {
            let len = self.counts.len();
            self.counts.resize((i + 1).max(len + len / 2), 0);
        }
        self.counts[i] += n;
    }

    fn get(&self, offset: usize) -> u32 {
        offset
            .checked_sub(self.base)
            .and_then(|i| self.counts.get(i))
            .copied()
            .unwrap_or(0)
    }

    fn merge(&mut self, other: Dense) {
        if other.counts.is_empty() {
            return;
        }
        let (first, last) = (other.base, other.base + other.counts.len() - 1);
        // Reserve both ends first, so the element-wise add is one pass.
        self.add(first, 0);
        self.add(last, 0);
        let from = first - self.base;
        for (ours, theirs) in self.counts[from..].iter_mut().zip(other.counts) {
            *ours += theirs;
        }
    }

    /// Calls `f(first, last, n)` for each longest run of consecutive offsets counted `n` times,
    /// `n` above zero, ascending.
    fn for_each_run(&self, mut f: impl FnMut(usize, usize, u32)) {
        let mut i = 0;
        while i < self.counts.len() {
            let n = self.counts[i];
            let end = i + 1 + same_prefix(&self.counts[i + 1..], n);
            if n > 0 {
                f(self.base + i, self.base + end - 1, n);
            }
            i = end;
        }
    }
}

/// How many of the first `counts` equal `n`. Runs of ones are most of a log, so whole blocks
/// are compared first, in a form the compiler turns into vector compares.
fn same_prefix(counts: &[u32], n: u32) -> usize {
    const BLOCK: usize = 16;
    let len = counts
        .chunks_exact(BLOCK)
        .take_while(|block| block.iter().fold(true, |all, &c| all & (c == n)))
        .count()
        * BLOCK;
    len + counts[len..].iter().take_while(|&&c| c == n).count()
}

/// How many times each (partition, offset) was processed, and by how many lines each worker.
#[derive(Debug, Default)]
pub struct Counts {
    /// Offsets 0..DENSE_LIMIT, one array per partition; lines of one partition come in runs,
    /// so the last one used is looked up first.
    dense: Vec<(Partition, Dense)>,
    last_dense: usize,
    sparse: BTreeMap<(Partition, Offset), u32>,
    /// Completion lines per worker, the last one used looked up first.
    consumers: Vec<(Vec<u8>, u64)>,
    last_consumer: usize,
}

impl Counts {
    /// An empty count.
    pub fn new() -> Counts {
        Counts::default()
    }

    /// Counts one completion of (partition, offset) by the worker `name`.
    pub fn add(&mut self, name: &[u8], partition: Partition, offset: Offset) {
        if name != self.last_name() {
            self.last_consumer = match self.consumers.iter().position(|(n, _)| n == name) {
                Some(i) => i,
                None => {
                    self.consumers.push((name.to_vec(), 0));
                    self.consumers.len() - 1
                }
            };
        }
        self.add_by_last(partition, offset);
    }

    /// The worker whose completion was counted last; empty before the first.
    fn last_name(&self) -> &[u8] {
        self.consumers
            .get(self.last_consumer)
            .map_or(&[], |(n, _)| n.as_slice())
    }

    /// Counts one completion of (partition, offset) by the worker counted last, the one
    /// [`Counts::last_name`] names: a log's lines come in long runs of one worker.
    fn add_by_last(&mut self, partition: Partition, offset: Offset) {
        if let Some((_, count)) = self.consumers.get_mut(self.last_consumer) {
            *count += 1;
        }
        if !(0..DENSE_LIMIT).contains(&offset) {
            *self.sparse.entry((partition, offset)).or_insert(0) += 1;
            return;
        }
        let slot = match self.dense.get(self.last_dense) {
            Some((p, _)) if *p == partition => self.last_dense,
            _ => match self.dense.iter().position(|(p, _)| *p == partition) {
                Some(i) => i,
                None => {
                    self.dense.push((partition, Dense::default()));
                    self.dense.len() - 1
                }
            },
        };
        self.last_dense = slot;
        self.dense[slot].1.add(offset as usize, 1);
    }

    /// Adds another count of other lines to this one.
    pub fn merge(&mut self, other: Counts) {
        for (name, n) in other.consumers {
            match self.consumers.iter_mut().find(|(c, _)| *c == name) {
                Some((_, count)) => *count += n,
                None => self.consumers.push((name, n)),
            }
        }
        for (partition, theirs) in other.dense {
            match self.dense.iter_mut().find(|(p, _)| *p == partition) {
                Some((_, ours)) => ours.merge(theirs),
                None => self.dense.push((partition, theirs)),
            }
        }
        for (key, n) in other.sparse {
            *self.sparse.entry(key).or_insert(0) += n;
        }
    }

    fn dense_of(&self, partition: Partition) -> Option<&Dense> {
        self.dense
            .iter()
            .find(|(p, _)| *p == partition)
            .map(|(_, c)| c)
    }

    /// Completion lines per worker, by name.
    pub fn consumers(&self) -> BTreeMap<String, u64> {
        self.consumers
            .iter()
            .map(|(n, c)| (String::from_utf8_lossy(n).into_owned(), *c))
            .collect()
    }

    /// Calls `f(partition, first, last, count)` for runs of consecutive offsets processed the
    /// same number of times, at least once, ascending; all of a partition's dense offsets in
    /// one pass, so this costs little even for millions of distinct pairs.
    pub fn for_each_run(&self, mut f: impl FnMut(Partition, Offset, Offset, u32)) {
        let partitions: BTreeSet<Partition> = self
            .dense
            .iter()
            .map(|(p, _)| *p)
            .chain(self.sparse.keys().map(|(p, _)| *p))
            .collect();
        for p in partitions {
            for (&(_, o), &n) in self.sparse.range((p, Offset::MIN)..(p, 0)) {
                f(p, o, o, n);
            }
            if let Some(dense) = self.dense_of(p) {
                dense.for_each_run(|first, last, n| f(p, first as Offset, last as Offset, n));
            }
            for (&(_, o), &n) in self.sparse.range((p, DENSE_LIMIT)..=(p, Offset::MAX)) {
                f(p, o, o, n);
            }
        }
    }

    /// How many times (partition, offset) was processed.
    pub fn get(&self, partition: Partition, offset: Offset) -> u32 {
        if (0..DENSE_LIMIT).contains(&offset) {
            self.dense_of(partition)
                .map_or(0, |d| d.get(offset as usize))
        } else {
            self.sparse.get(&(partition, offset)).copied().unwrap_or(0)
        }
    }
}

/// A run of consecutive offsets of one partition, each processed `times` times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Run {
    /// The partition.
    pub partition: Partition,
    /// First offset of the run.
    pub first: Offset,
    /// Last offset of the run.
    pub last: Offset,
    /// How many times each offset of the run was processed (2 or more; 0 for a gap).
    pub times: u32,
}

impl Run {
    /// How many offsets the run spans.
    pub fn len(&self) -> Offset {
        self.last - self.first + 1
    }

    /// A run always spans at least one offset.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// The analysis of a group's logs ([`Report::json`] writes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Completion lines counted.
    pub processed: u64,
    /// Distinct (partition, offset) pairs.
    pub unique: u64,
    /// The runs of offsets processed more than once.
    pub runs: Vec<Run>,
    /// The runs of offsets never processed (`times` 0).
    pub gaps: Vec<Run>,
    /// Completion lines per worker.
    pub consumers: BTreeMap<String, u64>,
    /// With `-v`: who processed each run of `runs`, in the same order.
    pub run_consumers: Vec<Vec<String>>,
}

/// The log files of `group` in `dir`: `GROUP-*.log`, sorted by name.
pub fn log_files(dir: &Path, group: &str) -> Result<Vec<PathBuf>> {
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
    Ok(files)
}

/// Calls `each(line_number, line)` for every line of `path`, reading it in large blocks.
fn for_each_line(path: &Path, each: impl FnMut(u64, &[u8])) -> Result<()> {
    for_each_line_in(path, 0, u64::MAX, |_| None, each).map(|_| ())
}

/// Reads the lines of `path` that start at a byte in `from..to`, in large blocks, and returns
/// how many there were. At each line start `fast` may take the line itself, reading it before
/// anyone has looked for its end, and say how long it was (its newline included); every other
/// line goes to `each(n, line)`, `n` counting from 1 within the range.
fn for_each_line_in(
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

/// A completion line's worker, partition and offset as the full parser reads them, for the
/// lines the fast path leaves: `Ok(None)` for any other line, `Err` for one that looks like a
/// worker's line but does not parse.
fn full_parse(line: &[u8]) -> Result<Option<(String, Partition, Offset)>, ParseError> {
    Ok(match LogLine::parse(&String::from_utf8_lossy(line))? {
        Some(LogLine {
            event: Event::Processed { partition, offset },
            name,
            ..
        }) => Some((name, partition, offset)),
        _ => None,
    })
}

/// Files larger than this are counted by several threads, one byte range each.
const CHUNK: u64 = 16 << 20;

/// Adds one file's completion lines to `counts`. Lines that look like worker lines but do not
/// parse are reported on stderr with file and line number, and skipped.
pub fn count_file(path: &Path, counts: &mut Counts) -> Result<()> {
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
    for result in results {
        let (part, lines, errors) = result?;
        for (n, e) in errors {
            eprintln!(
                "krb-dups: {}:{}: skipped: {e}",
                path.display(),
                lines_before + n
            );
        }
        lines_before += lines;
        counts.merge(part);
    }
    Ok(())
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
            let line = parse_processed_prefix(text, counts.last_name())?;
            let len = match &text[line.len..] {
                [b'\n', ..] => line.len + 1,
                [b'\r', b'\n', ..] => line.len + 2,
                _ => return None,
            };
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

/// Finds the runs of consecutive offsets with the same count above one, and the gaps: offsets
/// never processed between a partition's lowest and highest processed offset, or up to `end`.
pub fn analyse(counts: &Counts, end: Option<&BTreeMap<Partition, Offset>>) -> Report {
    let mut runs: Vec<Run> = Vec::new();
    let mut gaps: Vec<Run> = Vec::new();
    let mut processed = 0u64;
    let mut unique = 0u64;
    let mut previous: Option<(Partition, Offset)> = None;
    let extend = |list: &mut Vec<Run>, partition, first, last, times| match list.last_mut() {
        Some(run) if run.partition == partition && run.last + 1 == first && run.times == times => {
            run.last = last
        }
        _ => list.push(Run {
            partition,
            first,
            last,
            times,
        }),
    };
    // Lowest and highest processed offset of each partition, for --end.
    let mut seen: BTreeMap<Partition, (Offset, Offset)> = BTreeMap::new();
    counts.for_each_run(|partition, first, last, times| {
        let len = (last - first + 1) as u64;
        processed += u64::from(times) * len;
        unique += len;
        if times >= 2 {
            extend(&mut runs, partition, first, last, times);
        }
        match previous {
            Some((p, o)) if p == partition => {
                if first > o + 1 {
                    gaps.push(Run {
                        partition,
                        first: o + 1,
                        last: first - 1,
                        times: 0,
                    });
                }
            }
            _ => {
                if let Some((p, o)) = previous {
                    seen.entry(p).or_insert((o, o)).1 = o;
                }
                seen.insert(partition, (first, first));
            }
        }
        previous = Some((partition, last));
    });
    if let Some((p, o)) = previous {
        seen.entry(p).or_insert((o, o)).1 = o;
    }
    if let Some(end) = end {
        for (&partition, &next) in end {
            let mut gap = |first: Offset, last: Offset| {
                if first <= last {
                    gaps.push(Run {
                        partition,
                        first,
                        last,
                        times: 0,
                    });
                }
            };
            match seen.get(&partition) {
                Some(&(low, high)) => {
                    gap(0, low.min(next) - 1);
                    gap(high + 1, next - 1);
                }
                None => gap(0, next - 1),
            }
        }
        gaps.sort_by_key(|g| (g.partition, g.first));
    }
    Report {
        processed,
        unique,
        runs,
        gaps,
        consumers: counts.consumers(),
        run_consumers: Vec::new(),
    }
}

/// Reads the files again to find who processed each duplicate run (the `-v` attribution).
pub fn attribute(files: &[PathBuf], report: &mut Report) -> Result<()> {
    let mut names: Vec<BTreeSet<String>> = vec![BTreeSet::new(); report.runs.len()];
    for file in files {
        for_each_line(file, |_, line| {
            let parsed = parse_processed(line)
                .map(|(n, p, o)| (String::from_utf8_lossy(n).into_owned(), p, o))
                .or_else(|| full_parse(line).ok().flatten());
            if let Some((name, p, o)) = parsed {
                let i = report
                    .runs
                    .partition_point(|r| (r.partition, r.last) < (p, o));
                if let Some(run) = report.runs.get(i) {
                    if run.partition == p && run.first <= o {
                        names[i].insert(name);
                    }
                }
            }
        })?;
    }
    report.run_consumers = names.into_iter().map(|s| s.into_iter().collect()).collect();
    Ok(())
}

fn times_word(times: u32) -> String {
    match times {
        0 => "never processed".to_string(),
        2 => "processed twice".to_string(),
        n => format!("processed {n} times"),
    }
}

impl Report {
    /// Processed minus unique: every processing beyond the first.
    pub fn duplicates(&self) -> u64 {
        self.processed - self.unique
    }

    /// The totals, the first line of the article's output: `processed 1082, unique 1000,
    /// duplicates 82`.
    pub fn totals(&self) -> String {
        format!(
            "processed {}, unique {}, duplicates {}",
            self.processed,
            self.unique,
            self.duplicates()
        )
    }

    /// The article's output (then gaps, and with `-v` the consumers of each run).
    pub fn render(&self) -> String {
        let mut out = self.totals() + "\n";
        let mut lines: Vec<(&Run, Option<&Vec<String>>)> = self
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| (r, self.run_consumers.get(i)))
            .chain(self.gaps.iter().map(|g| (g, None)))
            .collect();
        lines.sort_by_key(|(r, _)| (r.partition, r.first));
        for (run, who) in lines {
            let span = if run.first == run.last {
                format!("{}", run.first)
            } else {
                format!("{}..{}", run.first, run.last)
            };
            let who = who.map_or(String::new(), |w| format!(" ({})", w.join(", ")));
            let _ = writeln!(
                out,
                "  p{}: offset {span} ({}) {}{who}",
                run.partition,
                run.len(),
                times_word(run.times)
            );
        }
        out
    }

    /// The analysis as one JSON document, each key once.
    pub fn json(&self) -> String {
        #[derive(Serialize)]
        struct Doc<'a> {
            processed: u64,
            unique: u64,
            duplicates: u64,
            runs: &'a [Run],
            gaps: &'a [Run],
            consumers: &'a BTreeMap<String, u64>,
            #[serde(skip_serializing_if = "<[_]>::is_empty")]
            run_consumers: &'a [Vec<String>],
        }
        serde_json::to_string(&Doc {
            processed: self.processed,
            unique: self.unique,
            duplicates: self.duplicates(),
            runs: &self.runs,
            gaps: &self.gaps,
            consumers: &self.consumers,
            run_consumers: &self.run_consumers,
        })
        .unwrap_or_default()
    }
}

/// Error raised when no log file matches; main exits 2 for it.
#[derive(Debug)]
pub struct NoLogs(pub String);

impl std::fmt::Display for NoLogs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NoLogs {}

/// Reads the group's logs and returns the report.
pub fn report(args: &Args) -> Result<Report> {
    let files = log_files(&args.logs, &args.group)?;
    if files.is_empty() {
        return Err(NoLogs(format!(
            "no log file {}/{}-*.log: run the group's workers first, or pass --logs DIR",
            args.logs.display(),
            args.group
        ))
        .into());
    }
    let mut counts = Counts::new();
    for file in &files {
        count_file(file, &mut counts)?;
    }
    let mut report = analyse(&counts, args.end.as_ref());
    if args.verbose {
        attribute(&files, &mut report)?;
    }
    Ok(report)
}

/// Reads the group's logs and returns the output: the article's text, or JSON.
pub fn run(args: &Args) -> Result<String> {
    let report = report(args)?;
    if args.json {
        Ok(report.json() + "\n")
    } else {
        Ok(report.render())
    }
}

/// Reads one group's logs in `dir` with krb-dups' defaults (for the other tools).
pub fn read_group(dir: &Path, group: &str) -> Result<Report> {
    report(&Args {
        group: group.to_string(),
        logs: dir.to_path_buf(),
        verbose: false,
        json: false,
        end: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(items: &[((Partition, Offset), u32)]) -> Counts {
        let mut c = Counts::new();
        for &((p, o), n) in items {
            for _ in 0..n {
                c.add(b"w", p, o);
            }
        }
        c
    }

    #[test]
    fn the_articles_nocommit_result() {
        let mut c = Counts::new();
        for o in 0..500 {
            c.add(b"nocommit-a", 0, o);
            c.add(b"nocommit-a", 1, o);
            if (400..=481).contains(&o) {
                c.add(b"nocommit-b", 1, o);
            }
        }
        assert_eq!(
            analyse(&c, None).render(),
            "processed 1082, unique 1000, duplicates 82\n  p1: offset 400..481 (82) processed twice\n"
        );
    }

    #[test]
    fn three_times_single_offsets_and_several_partitions() {
        let c = counts(&[
            ((0, 3), 2),
            ((0, 4), 3),
            ((0, 5), 3),
            ((0, 6), 1),
            ((0, 7), 2),
            ((1, 0), 1),
            ((2, 8), 2),
            ((2, 9), 2),
        ]);
        assert_eq!(
            analyse(&c, None).render(),
            "processed 16, unique 8, duplicates 8\n\
             \x20 p0: offset 3 (1) processed twice\n\
             \x20 p0: offset 4..5 (2) processed 3 times\n\
             \x20 p0: offset 7 (1) processed twice\n\
             \x20 p2: offset 8..9 (2) processed twice\n"
        );
    }

    #[test]
    fn gaps_inside_and_below_the_end() {
        let mut c = counts(&[((0, 0), 1), ((0, 1), 1), ((1, 0), 1), ((3, 2), 1)]);
        for o in 12..=20 {
            c.add(b"w", 0, o);
        }
        let end = BTreeMap::from([(0, 25), (1, 1), (2, 2), (3, 3)]);
        assert_eq!(
            analyse(&c, Some(&end)).render(),
            "processed 13, unique 13, duplicates 0\n\
             \x20 p0: offset 2..11 (10) never processed\n\
             \x20 p0: offset 21..24 (4) never processed\n\
             \x20 p2: offset 0..1 (2) never processed\n\
             \x20 p3: offset 0..1 (2) never processed\n"
        );
        // Without --end only the holes between processed offsets count.
        assert_eq!(analyse(&c, None).gaps.len(), 1);
        assert_eq!(
            parse_end("p0=25, p1=1").unwrap(),
            BTreeMap::from([(0, 25), (1, 1)])
        );
        assert!(parse_end("0=25").is_err());
        for bad in [
            "p0=-9223372036854775808",
            "p0=-1",
            "p0=9223372036854775808",
            "p-1=5",
            "p2147483648=5",
            "p0=5,p0=6",
        ] {
            assert!(parse_end(bad).is_err(), "{bad}");
        }
    }

    /// The analysis written the slow, obvious way: one offset at a time over a sorted map.
    fn naive(items: &[(Partition, Offset)]) -> (u64, u64, Vec<Run>, Vec<Run>) {
        let mut counts: BTreeMap<(Partition, Offset), u32> = BTreeMap::new();
        for &key in items {
            *counts.entry(key).or_insert(0) += 1;
        }
        let (mut runs, mut gaps): (Vec<Run>, Vec<Run>) = (Vec::new(), Vec::new());
        let mut previous: Option<(Partition, Offset)> = None;
        for (&(partition, offset), &times) in &counts {
            if let Some((p, o)) = previous.filter(|&(p, _)| p == partition) {
                if offset > o + 1 {
                    gaps.push(Run {
                        partition: p,
                        first: o + 1,
                        last: offset - 1,
                        times: 0,
                    });
                }
            }
            match runs.last_mut() {
                Some(r)
                    if times >= 2
                        && r.partition == partition
                        && r.last + 1 == offset
                        && r.times == times =>
                {
                    r.last = offset
                }
                _ if times >= 2 => runs.push(Run {
                    partition,
                    first: offset,
                    last: offset,
                    times,
                }),
                _ => {}
            }
            previous = Some((partition, offset));
        }
        let processed = counts.values().map(|&n| u64::from(n)).sum();
        (processed, counts.len() as u64, runs, gaps)
    }

    proptest::proptest! {
        #[test]
        fn analysis_agrees_with_the_obvious_count(
            items in proptest::collection::vec(
                (0..3i32, proptest::prop_oneof![0..200i64, 5000..5004i64, -3..0i64, DENSE_LIMIT..DENSE_LIMIT + 3]),
                0..400,
            ),
        ) {
            let mut c = Counts::new();
            for &(p, o) in &items {
                c.add(b"w", p, o);
            }
            let r = analyse(&c, None);
            proptest::prop_assert_eq!((r.processed, r.unique, r.runs, r.gaps), naive(&items));
        }
    }

    #[test]
    fn dense_counts_grow_both_ways_and_merge() {
        let mut a = Dense::default();
        for o in [100, 105, 90, 3, 104] {
            a.add(o, 1);
        }
        let mut b = Dense::default();
        for o in [200, 2, 105] {
            b.add(o, 1);
        }
        a.merge(b);
        let mut seen = Vec::new();
        a.for_each_run(|first, last, n| seen.push((first, last, n)));
        assert_eq!(
            seen,
            vec![
                (2, 3, 1),
                (90, 90, 1),
                (100, 100, 1),
                (104, 104, 1),
                (105, 105, 2),
                (200, 200, 1)
            ]
        );
        assert_eq!((a.get(105), a.get(1), a.get(1000)), (2, 0, 0));
    }

    #[test]
    fn sparse_offsets_count_like_dense_ones() {
        let c = counts(&[((0, -5), 2), ((0, 3), 1), ((0, DENSE_LIMIT + 7), 2)]);
        let r = analyse(&c, None);
        assert_eq!((r.processed, r.unique, r.duplicates()), (5, 3, 2));
        assert_eq!(r.runs.len(), 2);
        assert_eq!(c.get(0, DENSE_LIMIT + 7), 2);
    }

    #[test]
    fn no_duplicates() {
        let c = counts(&[((0, 0), 1), ((0, 1), 1)]);
        assert_eq!(
            analyse(&c, None).render(),
            "processed 2, unique 2, duplicates 0\n"
        );
    }

    fn temp_logs(files: &[(&str, &[u8])]) -> PathBuf {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "krb-dups-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        dir
    }

    #[test]
    fn counts_completion_lines_only_and_skips_junk() {
        let dir = temp_logs(&[
            (
                "g-a.log",
                b"09:00:00.000 start g-a\n\
                 09:00:00.000 g-a assigned [0]\n\
                 09:00:00.001 g-a p0 offset 3 slow start\n\
                 09:00:00.002 g-a p0 offset 3\n\
                 %4|1790813686.528|MAXPOLL|g-a#consumer-1| [thrd:main]: x\n\
                 09:00:00.003 g-a p0 offset x\n\
                 \xff\xfe garbage\n\
                 09:00:00.004 g-a commit p0=4",
            ),
            ("g-b.log", b"09:00:01.000 g-b p0 offset 3\r\n"),
            ("gg-a.log", b"09:00:01.000 gg-a p0 offset 9\n"),
            // A name the fast path leaves to the full parser, then known by the lines after it.
            (
                "g-\u{e9}.log",
                "09:00:02.000 g-\u{e9} p1 offset 0\n\
                 09:00:02.001 g-\u{e9} p1 offset 1\n\
                 09:00:02.002 g-\u{e9} p1 offset 1\n"
                    .as_bytes(),
            ),
        ]);
        let args = Args {
            group: "g".into(),
            logs: dir.clone(),
            verbose: true,
            json: false,
            end: None,
        };
        assert_eq!(
            run(&args).unwrap(),
            "processed 5, unique 3, duplicates 2\n  \
             p0: offset 3 (1) processed twice (g-a, g-b)\n  \
             p1: offset 1 (1) processed twice (g-\u{e9})\n"
        );
        let json: serde_json::Value =
            serde_json::from_str(&run(&Args { json: true, ..args }).unwrap()).unwrap();
        assert_eq!(json["duplicates"], 2);
        assert_eq!(json["consumers"]["g-\u{e9}"], 3);
        assert_eq!(json["runs"][0]["first"], 3);
        assert_eq!(json["runs"][0]["times"], 2);
        assert_eq!(json["consumers"]["g-b"], 1);
        assert_eq!(json["run_consumers"][0][1], "g-b");
        assert_eq!(json["gaps"].as_array().unwrap().len(), 0);
        let missing = Args {
            group: "nogroup".into(),
            logs: dir.clone(),
            verbose: false,
            json: false,
            end: None,
        };
        assert!(run(&missing)
            .unwrap_err()
            .downcast_ref::<NoLogs>()
            .is_some());
        std::fs::remove_dir_all(dir).unwrap();
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
            let r = analyse(&counts, None);
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
        let r = analyse(&c, None);
        assert_eq!(r.unique, expected as u64 + 1);
        assert_eq!(r.duplicates(), 0);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
