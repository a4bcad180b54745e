//! krb-dups: count duplicate processing in a group's worker logs (the article's dups.py).
//! Beyond the article it also finds gaps (offsets never processed), names who processed each
//! duplicate (`-v`) and writes the analysis as JSON (`--json`).

pub mod count;
pub mod counts;
pub mod report;

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use clap::Parser;
use krb_cli::namespace::Namespace;
use krb_log::logline::{Offset, Partition};
use krb_log::reader::{group_files, Logs};

pub use count::{count_file, FileNotes};
pub use counts::Counts;
pub use report::{analyse, attribute, Report, Run};

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
    #[command(flatten)]
    pub logs: Logs,
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
    #[command(flatten)]
    pub namespace: Namespace,
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

/// Error raised when no log file matches; main exits 2 for it.
#[derive(Debug)]
pub struct NoLogs(pub String);

impl std::fmt::Display for NoLogs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NoLogs {}

pub fn report(args: &Args) -> Result<Report> {
    let (files, other_groups) = group_files(&args.logs.dir, &args.group, &args.namespace)?;
    if files.is_empty() {
        return Err(NoLogs(krb_log::reader::no_logs(&args.logs.dir, &args.group)).into());
    }
    let mut counts = Counts::new();
    let (mut skipped, mut remarks) = (Vec::new(), Vec::new());
    for file in &files {
        let notes = count_file(file, &mut counts)?;
        skipped.extend(notes.skipped);
        remarks.extend(notes.remarks);
    }
    let mut report = analyse(&mut counts, args.end.as_ref());
    report.skipped = skipped;
    report.remarks = remarks;
    report.other_groups = other_groups;
    if args.verbose {
        attribute(&files, &mut report)?;
    }
    Ok(report)
}

/// Reads the group's logs and returns the report and its output: the article's text, or JSON.
pub fn run(args: &Args) -> Result<(Report, String)> {
    let report = report(args)?;
    let text = match args.json {
        true => report.json() + "\n",
        false => report.render(),
    };
    Ok((report, text))
}

impl Args {
    /// krb-dups' defaults for one group's logs in `dir`.
    pub fn at(dir: &Path, group: &str, ns: &Namespace) -> Args {
        Args {
            group: group.to_string(),
            logs: Logs::at(dir),
            verbose: false,
            json: false,
            end: None,
            namespace: ns.clone(),
        }
    }
}

/// Reads one group's logs in `dir` with krb-dups' defaults (for the other tools).
pub fn read_group(dir: &Path, group: &str, ns: &Namespace) -> Result<Report> {
    report(&Args::at(dir, group, ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_processing_that_found_its_effect_counts_as_one() {
        let dir = temp_logs(&[
            ("g-a.log", &b"09:00:00.000 g-a p0 offset 3\n"[..]),
            ("g-b.log", b"09:00:01.000 g-b p0 offset 3 already applied\n"),
        ]);
        let report = read_group(&dir, "g", &Namespace::default()).unwrap();
        assert_eq!((report.processed, report.unique), (2, 1));
        assert!(report.skipped.is_empty());
    }

    #[test]
    fn a_name_with_control_characters_is_printed_escaped() {
        let dir = temp_logs(&[(
            "g-a.log",
            &b"09:00:00.000 g-\x1b[2J\x07 p0 offset 3\n09:00:00.001 g-\x1b[2J\x07 p0 offset 3\n"[..],
        )]);
        let args = Args {
            verbose: true,
            ..Args::at(&dir, "g", &Namespace::default())
        };
        let (_, out) = run(&args).unwrap();
        assert!(
            out.ends_with("p0: offset 3 (1) processed twice (g-\\u{1b}[2J\\u{7})\n"),
            "{out:?}"
        );
        assert!(!out.contains('\u{1b}'), "{out:?}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_log_whose_file_name_is_not_utf8_is_read() {
        use std::os::unix::ffi::OsStrExt;
        let dir = temp_logs(&[("g-a.log", &b"09:00:00.000 g-a p0 offset 1\n"[..])]);
        let odd = dir.join(std::ffi::OsStr::from_bytes(b"g-\xff.log"));
        std::fs::write(&odd, b"09:00:00.000 g-b p0 offset 2\n").unwrap();
        let report = read_group(&dir, "g", &Namespace::default()).unwrap();
        assert_eq!(report.processed, 2);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn end_offsets_are_numbers_from_zero() {
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

    fn temp_logs(files: &[(&str, &[u8])]) -> krb_testutil::Scratch {
        krb_testutil::scratch_dir("dups", files)
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
            verbose: true,
            ..Args::at(&dir, "g", &Namespace::default())
        };
        assert_eq!(
            run(&args).unwrap().1,
            "processed 5, unique 3, duplicates 2\n  \
             p0: offset 3 (1) processed twice (g-a, g-b)\n  \
             p1: offset 1 (1) processed twice (g-\u{e9})\n"
        );
        let json: serde_json::Value =
            serde_json::from_str(&run(&Args { json: true, ..args }).unwrap().1).unwrap();
        assert_eq!(json["duplicates"], 2);
        assert_eq!(json["consumers"]["g-\u{e9}"], 3);
        assert_eq!(json["runs"][0]["first"], 3);
        assert_eq!(json["runs"][0]["times"], 2);
        assert_eq!(json["consumers"]["g-b"], 1);
        assert_eq!(json["run_consumers"][0][1], "g-b");
        assert_eq!(json["gaps"].as_array().unwrap().len(), 0);
        let missing = Args::at(&dir, "nogroup", &Namespace::default());
        assert!(run(&missing)
            .unwrap_err()
            .downcast_ref::<NoLogs>()
            .is_some());
    }
}
