//! The analysis of a group's counts: duplicate runs, gaps, who processed what, and the
//! article's text and JSON for it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Result;
use krb_log::fastpath::parse_processed;
use krb_log::logline::{Offset, Partition};
use krb_log::reader::{for_each_line, printable, shown, Remark, Skipped};
use serde::Serialize;

use crate::count::full_parse;
use crate::counts::Counts;

/// A run of consecutive offsets of one partition, each processed `times` times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Run {
    pub partition: Partition,
    pub first: Offset,
    pub last: Offset,
    /// How many times each offset of the run was processed (2 or more; 0 for a gap).
    pub times: u32,
}

impl Run {
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
    /// The runs of offsets never processed (`times` 0), the first [`GAPS_LISTED`] of them.
    pub gaps: Vec<Run>,
    /// Runs of offsets never processed beyond those listed, and how many offsets they hold.
    pub gaps_not_listed: (u64, u64),
    pub consumers: BTreeMap<String, u64>,
    /// With `-v`: who processed each run of `runs`, in the same order.
    pub run_consumers: Vec<Vec<String>>,
    /// Lines that looked like worker lines but did not parse, and last lines cut short, left
    /// out of the counts.
    pub skipped: Vec<Skipped>,
    /// What is wrong with files whose lines were counted all the same: another worker's lines
    /// in a log, or none.
    pub remarks: Vec<Remark>,
    /// Files that matched `GROUP-*.log` but whose worker said it is in another group.
    pub other_groups: Vec<(PathBuf, String)>,
}

/// How many runs of offsets never processed a report lists; the others are counted. A log of
/// offsets far apart (a compacted topic's, a transactional one's) has a hole after nearly every
/// offset, and listing them all would cost more than the counts themselves.
pub const GAPS_LISTED: usize = 1000;

/// Finds the runs of consecutive offsets with the same count above one, and the gaps: offsets
/// never processed between a partition's lowest and highest processed offset, or up to `end`.
pub fn analyse(counts: &mut Counts, end: Option<&BTreeMap<Partition, Offset>>) -> Report {
    let mut runs: Vec<Run> = Vec::new();
    let mut gaps: Vec<Run> = Vec::new();
    let mut not_listed = (0u64, 0u64);
    let mut processed = 0u64;
    let mut unique = 0u64;
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
    // Each partition's lowest and highest processed offset so far, by partition.
    let mut seen: Vec<(Partition, Offset, Offset)> = Vec::new();
    counts.for_each_run(|partition, first, last, times| {
        let len = (last - first + 1) as u64;
        processed += u64::from(times) * len;
        unique += len;
        if times >= 2 {
            extend(&mut runs, partition, first, last, times);
        }
        match seen.last_mut() {
            Some((p, _, o)) if *p == partition => {
                // A gap never continues the one before: offset o was processed.
                if first > *o + 1 && gaps.len() < GAPS_LISTED {
                    extend(&mut gaps, partition, *o + 1, first - 1, 0);
                } else if first > *o + 1 {
                    not_listed.0 += 1;
                    not_listed.1 += (first - 1 - *o) as u64;
                }
                *o = last;
            }
            _ => seen.push((partition, first, last)),
        }
    });
    if let Some(end) = end {
        for (&partition, &next) in end {
            // Each gap is before or after the partition's processed offsets: none joins another.
            let mut gap = |first: Offset, last: Offset| {
                if first <= last {
                    extend(&mut gaps, partition, first, last, 0);
                }
            };
            // A partition never processed has one gap, to its end.
            let (low, high) = seen
                .binary_search_by_key(&partition, |s| s.0)
                .map_or((next, next - 1), |i| (seen[i].1, seen[i].2));
            gap(0, low.min(next) - 1);
            gap(high + 1, next - 1);
        }
        gaps.sort_by_key(|g| (g.partition, g.first));
    }
    Report {
        processed,
        unique,
        runs,
        gaps,
        gaps_not_listed: not_listed,
        consumers: counts.consumers(),
        run_consumers: Vec::new(),
        skipped: Vec::new(),
        remarks: Vec::new(),
        other_groups: Vec::new(),
    }
}

/// Reads the files again to find who processed each duplicate run (the `-v` attribution).
pub fn attribute(files: &[PathBuf], report: &mut Report) -> Result<()> {
    let mut names: Vec<BTreeSet<String>> = vec![BTreeSet::new(); report.runs.len()];
    for file in files {
        // count_file named what the reader left out of these files.
        let _cut_short = for_each_line(file, |_, line| {
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

impl Report {
    /// Every processing beyond the first.
    pub fn duplicates(&self) -> u64 {
        self.processed - self.unique
    }

    /// What the reader left out or found wrong, one line each: skipped lines, remarks on
    /// files, and other groups' files.
    pub fn notes(&self) -> Vec<String> {
        self.skipped
            .iter()
            .map(|s| s.to_string())
            .chain(self.remarks.iter().map(|r| r.to_string()))
            .chain(self.other_groups.iter().map(|(path, group)| {
                format!(
                    "{}: not read: its worker is in group {}",
                    shown(path),
                    printable(group)
                )
            }))
            .collect()
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
            let span = match run.first == run.last {
                true => run.first.to_string(),
                false => format!("{}..{}", run.first, run.last),
            };
            let times = match run.times {
                0 => "never processed".to_string(),
                2 => "processed twice".to_string(),
                n => format!("processed {n} times"),
            };
            let who = who.map_or(String::new(), |w| {
                let names: Vec<_> = w.iter().map(|n| printable(n)).collect();
                format!(" ({})", names.join(", "))
            });
            let _ = writeln!(
                out,
                "  p{}: offset {span} ({}) {times}{who}",
                run.partition,
                run.len(),
            );
        }
        let (runs, offsets) = self.gaps_not_listed;
        if runs > 0 {
            let _ = writeln!(
                out,
                "  ... and {runs} more runs of offsets never processed ({offsets} offsets), not listed"
            );
        }
        out
    }

    /// The analysis as one JSON document, each key once.
    pub fn json(&self) -> String {
        #[derive(Serialize)]
        struct NotListed {
            runs: u64,
            offsets: u64,
        }
        #[derive(Serialize)]
        struct Doc<'a> {
            processed: u64,
            unique: u64,
            duplicates: u64,
            runs: &'a [Run],
            gaps: &'a [Run],
            #[serde(skip_serializing_if = "Option::is_none")]
            gaps_not_listed: Option<NotListed>,
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
            gaps_not_listed: (self.gaps_not_listed.0 > 0).then_some(NotListed {
                runs: self.gaps_not_listed.0,
                offsets: self.gaps_not_listed.1,
            }),
            consumers: &self.consumers,
            run_consumers: &self.run_consumers,
        })
        .unwrap_or_default()
    }
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
            analyse(&mut c, None).render(),
            "processed 1082, unique 1000, duplicates 82\n  p1: offset 400..481 (82) processed twice\n"
        );
    }

    #[test]
    fn three_times_single_offsets_and_several_partitions() {
        let mut c = counts(&[
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
            analyse(&mut c, None).render(),
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
            analyse(&mut c, Some(&end)).render(),
            "processed 13, unique 13, duplicates 0\n\
             \x20 p0: offset 2..11 (10) never processed\n\
             \x20 p0: offset 21..24 (4) never processed\n\
             \x20 p2: offset 0..1 (2) never processed\n\
             \x20 p3: offset 0..1 (2) never processed\n"
        );
        // Without --end only the holes between processed offsets count.
        assert_eq!(analyse(&mut c, None).gaps.len(), 1);
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
                (0..3i32, proptest::prop_oneof![0..200i64, 5000..5004i64, -3..0i64, (1i64 << 40)..(1i64 << 40) + 3, 1_000_000i64..1_100_000i64]),
                0..400,
            ),
        ) {
            // With a check after every block too, so that blocks are thinned out to pairs.
            for mut c in [Counts::new(), Counts::checking_every(1)] {
                for &(p, o) in &items {
                    c.add(b"w", p, o);
                }
                let r = analyse(&mut c, None);
                proptest::prop_assert_eq!((r.processed, r.unique, r.runs, r.gaps), naive(&items));
            }
        }
    }

    #[test]
    fn sparse_offsets_count_like_dense_ones() {
        let mut c = counts(&[((0, -5), 2), ((0, 3), 1), ((0, (1 << 40) + 7), 2)]);
        let r = analyse(&mut c, None);
        assert_eq!((r.processed, r.unique, r.duplicates()), (5, 3, 2));
        assert_eq!(r.runs.len(), 2);
        assert_eq!(c.get(0, (1 << 40) + 7), 2);
    }

    #[test]
    fn gaps_beyond_the_listed_ones_are_counted() {
        let extra = 5;
        let mut c = counts(
            &(0..(GAPS_LISTED + extra + 1) as i64)
                .map(|i| ((0, i * 10), 1))
                .collect::<Vec<_>>(),
        );
        let r = analyse(&mut c, None);
        assert_eq!(r.gaps.len(), GAPS_LISTED);
        assert_eq!(r.gaps_not_listed, (extra as u64, 9 * extra as u64));
        assert!(r.render().ends_with(
            "  ... and 5 more runs of offsets never processed (45 offsets), not listed\n"
        ));
        let json: serde_json::Value = serde_json::from_str(&r.json()).unwrap();
        assert_eq!(json["gaps_not_listed"]["runs"], 5);
    }

    #[test]
    fn no_duplicates() {
        let mut c = counts(&[((0, 0), 1), ((0, 1), 1)]);
        assert_eq!(
            analyse(&mut c, None).render(),
            "processed 2, unique 2, duplicates 0\n"
        );
    }
}
