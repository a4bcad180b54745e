//! krb-dups: count duplicate processing in a group's worker logs (the article's dups.py).
//!
//! A message counts as processed when its worker logged the completion line
//! (`NAME pP offset O`); a duplicate is the same partition and offset processed more than once.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Parser;
use krb_common::logline::{Event, LogLine, Offset, Partition};

/// krb-dups: count the messages a consumer group processed more than once.
///
/// Reads every logs/GROUP-*.log written by krb-worker, counts each completion line
/// (`NAME pP offset O`), and prints, as the article's dups.py does:
///
///   processed 1082, unique 1000, duplicates 82
///     p1: offset 400..481 (82) processed twice
///
/// One line per run of consecutive offsets processed the same number of times, by partition
/// then offset. Exit 2 when no log file matches.
#[derive(Parser, Debug)]
#[command(name = "krb-dups", version, verbatim_doc_comment)]
pub struct Args {
    /// The consumer group: its workers' logs are DIR/GROUP-*.log.
    pub group: String,
    /// The folder of the logs.
    #[arg(long, value_name = "DIR", default_value = "logs")]
    pub logs: PathBuf,
}

/// How many times each (partition, offset) was processed.
pub type Counts = BTreeMap<(Partition, Offset), u32>;

/// A run of consecutive offsets of one partition, each processed `times` times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The partition.
    pub partition: Partition,
    /// First offset of the run.
    pub first: Offset,
    /// Last offset of the run.
    pub last: Offset,
    /// How many times each offset of the run was processed (2 or more).
    pub times: u32,
}

/// The analysis of a group's logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Completion lines counted.
    pub processed: u64,
    /// Distinct (partition, offset) pairs.
    pub unique: u64,
    /// The runs of offsets processed more than once.
    pub runs: Vec<Run>,
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

/// Adds one file's completion lines to `counts`. Lines that look like worker lines but do not
/// parse are reported on stderr with file and line number, and skipped.
pub fn count_file(path: &Path, counts: &mut Counts) -> Result<()> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut buf = Vec::new();
    let mut number = 0u64;
    loop {
        buf.clear();
        let n = reader
            .read_until(b'\n', &mut buf)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            return Ok(());
        }
        number += 1;
        let line = String::from_utf8_lossy(&buf);
        match LogLine::parse(&line) {
            Ok(Some(LogLine {
                event: Event::Processed { partition, offset },
                ..
            })) => *counts.entry((partition, offset)).or_insert(0) += 1,
            Ok(_) => {}
            Err(e) => eprintln!("krb-dups: {}:{number}: skipped: {e}", path.display()),
        }
    }
}

/// Finds the runs of consecutive offsets with the same count above one.
pub fn analyse(counts: &Counts) -> Report {
    let mut runs: Vec<Run> = Vec::new();
    for (&(partition, offset), &times) in counts {
        if times < 2 {
            continue;
        }
        match runs.last_mut() {
            Some(run)
                if run.partition == partition && run.last + 1 == offset && run.times == times =>
            {
                run.last = offset
            }
            _ => runs.push(Run {
                partition,
                first: offset,
                last: offset,
                times,
            }),
        }
    }
    Report {
        processed: counts.values().map(|&n| u64::from(n)).sum(),
        unique: counts.len() as u64,
        runs,
    }
}

fn times_word(times: u32) -> String {
    match times {
        2 => "twice".to_string(),
        n => format!("{n} times"),
    }
}

impl Report {
    /// Processed minus unique: every processing beyond the first.
    pub fn duplicates(&self) -> u64 {
        self.processed - self.unique
    }

    /// The article's output.
    pub fn render(&self) -> String {
        let mut out = format!(
            "processed {}, unique {}, duplicates {}\n",
            self.processed,
            self.unique,
            self.duplicates()
        );
        for run in &self.runs {
            let span = if run.first == run.last {
                format!("{}", run.first)
            } else {
                format!("{}..{}", run.first, run.last)
            };
            let _ = writeln!(
                out,
                "  p{}: offset {span} ({}) processed {}",
                run.partition,
                run.last - run.first + 1,
                times_word(run.times)
            );
        }
        out
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

/// Reads the group's logs and returns the rendered report.
pub fn run(args: &Args) -> Result<String> {
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
    Ok(analyse(&counts).render())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(items: &[((Partition, Offset), u32)]) -> Counts {
        items.iter().copied().collect()
    }

    #[test]
    fn the_articles_nocommit_result() {
        let mut c = Counts::new();
        for o in 0..500 {
            c.insert((0, o), 1);
            c.insert((1, o), if (400..=481).contains(&o) { 2 } else { 1 });
        }
        assert_eq!(
            analyse(&c).render(),
            "processed 1082, unique 1000, duplicates 82\n  p1: offset 400..481 (82) processed twice\n"
        );
    }

    #[test]
    fn three_times_single_offsets_and_several_partitions() {
        let c = counts(&[
            ((0, 3), 2),
            ((0, 4), 3),
            ((0, 5), 3),
            ((0, 7), 2),
            ((1, 0), 1),
            ((2, 8), 2),
            ((2, 9), 2),
        ]);
        assert_eq!(
            analyse(&c).render(),
            "processed 15, unique 7, duplicates 8\n\
             \x20 p0: offset 3 (1) processed twice\n\
             \x20 p0: offset 4..5 (2) processed 3 times\n\
             \x20 p0: offset 7 (1) processed twice\n\
             \x20 p2: offset 8..9 (2) processed twice\n"
        );
    }

    #[test]
    fn no_duplicates() {
        let c = counts(&[((0, 0), 1), ((0, 1), 1)]);
        assert_eq!(
            analyse(&c).render(),
            "processed 2, unique 2, duplicates 0\n"
        );
    }

    #[test]
    fn counts_completion_lines_only_and_skips_junk() {
        let dir = std::env::temp_dir().join(format!("krb-dups-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("g-a.log"),
            b"09:00:00.000 g-a assigned [0]\n\
             09:00:00.001 g-a p0 offset 3 slow start\n\
             09:00:00.002 g-a p0 offset 3\n\
             %4|1790813686.528|MAXPOLL|g-a#consumer-1| [thrd:main]: x\n\
             09:00:00.003 g-a p0 offset x\n\
             \xff\xfe garbage\n\
             09:00:00.004 g-a commit p0=4\n",
        )
        .unwrap();
        std::fs::write(dir.join("g-b.log"), "09:00:01.000 g-b p0 offset 3\n").unwrap();
        std::fs::write(dir.join("gg-a.log"), "09:00:01.000 gg-a p0 offset 9\n").unwrap();
        let args = Args {
            group: "g".into(),
            logs: dir.clone(),
        };
        let out = run(&args).unwrap();
        assert_eq!(
            out,
            "processed 2, unique 1, duplicates 1\n  p0: offset 3 (1) processed twice\n"
        );
        let missing = Args {
            group: "nogroup".into(),
            logs: dir.clone(),
        };
        assert!(run(&missing)
            .unwrap_err()
            .downcast_ref::<NoLogs>()
            .is_some());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
