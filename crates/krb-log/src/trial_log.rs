//! Lab 7's files beside the workers' logs (examples: docs/en/reference.md, "The log line
//! grammar"): `GROUP.acks` (krb-produce's `--acks FILE`, `p3 offset 17`), `GROUP.faults`
//! (07-faults.sh's, verb first) and `GROUP.committed` (krb-trial watch's samples). A line of the
//! first two that does not parse, or a last line cut short, is an error naming file and line: our
//! own tools write them, and a check that skipped one could call a lost message kept. A line of
//! the samples that is no sample is skipped and named, as in a log.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use anyhow::{bail, Context, Result};
use chrono::{NaiveDateTime, NaiveTime};

use crate::logline::{Event, LogLine, Offset, Partition};
use crate::reader::{for_each_line, parse_bytes, read_text, shown, Skipped};
use crate::worker_log::{nearest, place};

/// The largest trial file read (an acks file of a million messages is 20 MB).
pub const TRIAL_FILE_LIMIT: u64 = 256 << 20;

/// librdkafka's offset for a delivery reported without one (`RD_KAFKA_OFFSET_INVALID`).
pub const NO_OFFSET: Offset = -1001;

pub fn ack_line(partition: Partition, offset: Offset) -> String {
    format!("p{partition} offset {offset}")
}

/// `p3 offset 17`: a partition from 0, and a message's offset (0 to `i64::MAX - 1`: one past
/// it is an offset too) or [`NO_OFFSET`].
fn parse_ack(line: &str) -> Option<(Partition, Offset)> {
    let (p, o) = line.strip_prefix('p')?.split_once(" offset ")?;
    let p: Partition = p.parse().ok().filter(|p| *p >= 0)?;
    let o: Offset = o
        .parse()
        .ok()
        .filter(|o| (0..Offset::MAX).contains(o) || *o == NO_OFFSET)?;
    Some((p, o))
}

/// The text of `path` (see [`read_text`]), an error when it ends with a line that has no newline.
fn read_whole(path: &Path, what: &str) -> Result<String> {
    let text = read_text(path, what, TRIAL_FILE_LIMIT)?;
    if text.is_empty() || text.ends_with('\n') {
        return Ok(text);
    }
    bail!(
        "{}:{}: the last line has no newline: cut short by its writer",
        shown(path),
        text.lines().count()
    )
}

/// Every acknowledged (partition, offset), in file order.
pub fn read_acks(path: &Path) -> Result<Vec<(Partition, Offset)>> {
    let text = read_whole(path, "the producer's acknowledgements")?;
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            parse_ack(line).with_context(|| {
                format!(
                    "{}:{}: expected pP offset O (P from 0; O from 0 to {}, or {NO_OFFSET} for none), found {line:?}",
                    shown(path),
                    i + 1,
                    Offset::MAX - 1
                )
            })
        })
        .collect()
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Samples {
    pub samples: Vec<Vec<(Partition, Offset)>>,
    /// When each sample was read (its line's time): a commit the sampler saw is committed from
    /// then, though the worker that made it was killed before it could say so.
    pub times: Vec<NaiveTime>,
    /// The lines left out: lines that do not parse, that are no sample, a last line cut short.
    pub skipped: Vec<Skipped>,
}

/// Reads krb-trial watch's samples, `GROUP.committed`: each a `commit` line of the workers'
/// grammar. Every other line is skipped and named.
pub fn read_samples(path: &Path) -> Result<Samples> {
    let mut read = Samples::default();
    let cut = for_each_line(path, |number, bytes| {
        let reason = match parse_bytes(bytes) {
            Ok(Some(LogLine {
                time,
                event: Event::Commit(positions),
                ..
            })) => {
                read.times.push(time);
                return read.samples.push(positions);
            }
            Ok(_) => "not a sample: the sampler writes only lines `TIME sampler commit pP=O ...`"
                .to_string(),
            Err(e) => e.reason,
        };
        read.skipped.push(Skipped::new(path, number, reason));
    })
    .context("cannot read the sampler's committed offsets")?;
    read.skipped.extend(cut);
    Ok(read)
}

/// Declares [`FaultKind`], each kind with its word in the files, the runner and the report, and
/// `FaultKind::ALL`, every kind in the report's order.
macro_rules! fault_kinds {
    ($($(#[$doc:meta])* $kind:ident = $name:literal,)*) => {
        /// What a fault does.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum FaultKind {
            $($(#[$doc])* $kind,)*
        }

        impl FaultKind {
            pub const ALL: [FaultKind; [$($name),*].len()] = [$(FaultKind::$kind),*];

            pub fn name(self) -> &'static str {
                match self {
                    $(FaultKind::$kind => $name,)*
                }
            }
        }
    };
}

fault_kinds! {
    /// A worker killed with SIGKILL, later started again.
    Kill = "kill",
    /// A worker stopped with SIGSTOP past its session timeout, later resumed (SIGCONT).
    Pause = "pause",
    /// A worker stopped cleanly (SIGTERM), later started again.
    Stop = "stop",
    /// A new worker started.
    Join = "join",
    /// A worker stopped cleanly for good.
    Leave = "leave",
    /// The node that coordinates the group killed, later started again.
    KillCoordinator = "kill-coordinator",
    /// The node that leads a partition killed, later started again.
    KillLeader = "kill-leader",
    /// Every node restarted cleanly, one at a time.
    Roll = "roll",
    /// The effects' PostgreSQL database stopped (its connections cut), later started again.
    RestartDb = "restart-db",
    /// The node that leads kafka-eos's output topic killed, later started again.
    KillOutputLeader = "kill-output-leader",
}

impl FaultKind {
    pub fn parse(name: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// A fault of the effects' store: a worker that exits on a store failure is its victim.
    pub fn on_store(self) -> bool {
        matches!(self, FaultKind::RestartDb | FaultKind::KillOutputLeader)
    }

    /// A fault of a worker (the others are the cluster's or the store's).
    pub fn on_worker(self) -> bool {
        use FaultKind::*;
        matches!(self, Kill | Pause | Stop | Join | Leave)
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    /// A worker's name, `node-N` or `db`.
    pub target: String,
    pub at: NaiveDateTime,
    /// When it was undone; `at` for a fault with nothing to undo.
    pub healed: NaiveDateTime,
}

/// A worker the runner found gone without having stopped it, and started again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    pub worker: String,
    /// When the runner found it gone, just before it started it again.
    pub found: NaiveDateTime,
    /// The last line of its log: why it exited, in its words (`krb-worker: cannot ...`).
    pub last_line: String,
}

/// A faults file read back, its faults and exits each in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultLog {
    pub begin: NaiveDateTime,
    /// The `end` line's time (the last line's when the trial did not end).
    pub end: NaiveDateTime,
    pub faults: Vec<Fault>,
    pub exits: Vec<Exit>,
}

impl FaultLog {
    /// Reads a faults file. Times are placed on days as the workers' are (see
    /// [`crate::worker_log`]); [`FaultLog::align`] puts them beside a group's.
    pub fn read(path: &Path) -> Result<FaultLog> {
        let text = read_whole(path, "the trial's faults")?;
        FaultLog::parse(&text).with_context(|| format!("in {}", shown(path)))
    }

    /// Moves every time by whole days so that `begin` is within 12 hours of `near` (a group's
    /// first log line), as [`crate::worker_log::WorkerLog::read_group`] aligns a group's logs.
    pub fn align(&mut self, near: NaiveDateTime) {
        let shift = nearest(near, self.begin.time()) - self.begin;
        self.begin += shift;
        self.end += shift;
        for f in &mut self.faults {
            f.at += shift;
            f.healed += shift;
        }
        self.exits.iter_mut().for_each(|e| e.found += shift);
    }

    pub fn parse(text: &str) -> Result<FaultLog> {
        let (mut begin, mut end, mut exits) = (None, None, Vec::new());
        let mut faults: Vec<Fault> = Vec::new();
        // The latest fault of each kind and target, which a `healed` line undoes.
        let mut latest: HashMap<(&str, &str), usize> = HashMap::new();
        let mut previous: Option<NaiveDateTime> = None;
        for (i, line) in text.lines().enumerate() {
            let number = i + 1;
            let mut words = line.split_whitespace();
            let (Some(time), Some(verb)) = (words.next(), words.next()) else {
                bail!("line {number}: expected TIME VERB ..., found {line:?}");
            };
            let time = NaiveTime::parse_from_str(time, "%H:%M:%S%.3f")
                .with_context(|| format!("line {number}: {time:?} is not a time HH:MM:SS.mmm"))?;
            let at = place(previous, time);
            previous = Some(at);
            let rest: Vec<&str> = words.collect();
            match (verb, rest.as_slice()) {
                ("begin", _) => begin = Some(at),
                ("end", []) => end = Some(at),
                ("fault", [kind, target]) => {
                    faults.push(Fault {
                        kind: FaultKind::parse(kind)
                            .with_context(|| format!("line {number}: no fault kind {kind:?}"))?,
                        target: target.to_string(),
                        at,
                        healed: at,
                    });
                    latest.insert((kind, target), faults.len() - 1);
                }
                ("healed", [kind, target]) => {
                    let i = latest.get(&(*kind, *target)).with_context(|| {
                        format!("line {number}: healed {kind} {target} was never injected")
                    })?;
                    faults[*i].healed = at;
                }
                ("exited", [worker, ..]) => exits.push(Exit {
                    worker: worker.to_string(),
                    found: at,
                    last_line: rest[1..].join(" "),
                }),
                _ => bail!(
                    "line {number}: expected begin, end, fault KIND TARGET, healed KIND TARGET or exited WORKER LAST-LINE, found {line:?}"
                ),
            }
        }
        let begin = begin.context("no begin line: the trial never started")?;
        Ok(FaultLog {
            begin,
            end: end.or(previous).unwrap_or(begin),
            faults,
            exits,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveTime;

    #[test]
    fn an_ack_line_reads_back() {
        let dir = krb_testutil::scratch_dir(
            "acks",
            &[(
                "g.acks",
                format!("{}\n{}\n", ack_line(3, 17), ack_line(0, 0)),
            )],
        );
        assert_eq!(
            read_acks(&dir.join("g.acks")).unwrap(),
            vec![(3, 17), (0, 0)]
        );
    }

    #[test]
    fn a_bad_ack_line_is_an_error_naming_its_line() {
        let dir = krb_testutil::scratch_dir("acks", &[("g.acks", "p3 offset 17\np3 offst 18\n")]);
        let err = read_acks(&dir.join("g.acks")).unwrap_err().to_string();
        assert!(err.contains("g.acks:2: expected pP offset O"), "{err}");
    }

    #[test]
    fn an_ack_at_the_limits_of_i64_or_cut_short_is_an_error() {
        for (text, line) in [
            ("p0 offset 1\np0 offset 9223372036854775807\n", 2),
            ("p0 offset -1\n", 1),
            ("p0 offset -9223372036854775808\n", 1),
            ("p-1 offset 3\n", 1),
        ] {
            let dir = krb_testutil::scratch_dir("acks", &[("g.acks", text)]);
            let err = read_acks(&dir.join("g.acks")).unwrap_err().to_string();
            assert!(
                err.contains(&format!("g.acks:{line}: expected pP offset O (P from 0; O from 0 to 9223372036854775806, or -1001 for none)")),
                "{text:?}: {err}"
            );
        }
        let dir = krb_testutil::scratch_dir(
            "acks",
            &[
                ("g.acks", "p0 offset 9223372036854775806\np1 offset -1001\n"),
                ("cut.acks", "p0 offset 16\np0 offset 1"),
            ],
        );
        assert_eq!(
            read_acks(&dir.join("g.acks")).unwrap(),
            vec![(0, Offset::MAX - 1), (1, NO_OFFSET)]
        );
        let err = read_acks(&dir.join("cut.acks")).unwrap_err().to_string();
        assert!(
            err.ends_with("cut.acks:2: the last line has no newline: cut short by its writer"),
            "{err}"
        );
    }

    #[test]
    fn a_sampler_line_that_is_no_sample_is_skipped_and_named() {
        let text = b"10:00:00.000 sampler commit p0=1 p1=2\n\
                     10:00:00.250 sampler commit p0=x\n\
                     10:00:00.500 sampler p0 offset 3\n\
                     sampled nothing\n\
                     10:00:00.750 sampler commit p0=2 p1=\xff\n\
                     10:00:01.000 sampler commit p0=3 p1=3\n\
                     10:00:01.250 sampler commit p0=3 p1=";
        let dir = krb_testutil::scratch_dir("samples", &[("g.committed", &text[..])]);
        let path = dir.join("g.committed");
        let read = read_samples(&path).unwrap();
        assert_eq!(
            read.samples,
            vec![vec![(0, 1), (1, 2)], vec![(0, 3), (1, 3)]]
        );
        let time = |s| NaiveTime::parse_from_str(s, "%H:%M:%S%.3f").unwrap();
        assert_eq!(read.times, vec![time("10:00:00.000"), time("10:00:01.000")]);
        let skipped: Vec<String> = read.skipped.iter().map(|s| s.to_string()).collect();
        let at = |n: u64, why: &str| format!("{}:{n}: skipped: {why}", path.display());
        let no_sample =
            "not a sample: the sampler writes only lines `TIME sampler commit pP=O ...`";
        assert_eq!(
            skipped,
            vec![
                at(2, "\"x\" is not an offset (0 to 9223372036854775807)"),
                at(3, no_sample),
                at(4, no_sample),
                at(
                    5,
                    "\"\u{fffd}\" is not an offset (0 to 9223372036854775807)"
                ),
                at(
                    7,
                    "the last line has no newline: cut short by its writer, not read"
                ),
            ]
        );
        let err = read_samples(&dir.join("none.committed")).unwrap_err();
        assert!(
            format!("{err:#}").ends_with("none.committed: no such file"),
            "{err:#}"
        );
    }

    #[test]
    fn a_faults_file_reads_back_with_its_heals() {
        let text = [
            "10:02:11.410 begin trial 3 seed 7".to_string(),
            "10:02:14.002 fault kill g-b".to_string(),
            "10:02:15.000 fault join g-d".to_string(),
            "10:02:16.120 healed kill g-b".to_string(),
            "10:02:21.533 fault kill-coordinator node-2".to_string(),
            "10:02:30.250 exited g-a krb-worker: cannot commit the effects to postgres://h/db: gone"
                .to_string(),
            "10:02:41.007 end".to_string(),
        ]
        .join("\n");
        let log = FaultLog::parse(&text).unwrap();
        assert_eq!(log.faults.len(), 3);
        let kill = &log.faults[0];
        assert_eq!((kill.kind, kill.target.as_str()), (FaultKind::Kill, "g-b"));
        assert_eq!((kill.healed - kill.at).num_milliseconds(), 2118);
        assert_eq!(log.faults[1].healed, log.faults[1].at);
        assert_eq!(log.faults[2].kind, FaultKind::KillCoordinator);
        assert_eq!((log.end - log.begin).num_milliseconds(), 29_597);
        let exit = &log.exits[0];
        assert_eq!(
            (exit.worker.as_str(), exit.last_line.as_str()),
            (
                "g-a",
                "krb-worker: cannot commit the effects to postgres://h/db: gone"
            )
        );
        assert_eq!((exit.found - log.begin).num_milliseconds(), 18_840);
    }

    #[test]
    fn a_bad_faults_line_is_an_error() {
        for bad in [
            "10:02:11.410 begin\n10:02:12.000 fault explode g-b",
            "10:02:11.410 begin\n10:02:12.000 healed kill g-b",
            "10:02:11.410 begin\nnoon fault kill g-b",
            "10:02:11.410 begin\n10:02:12.000 exited",
            "10:02:12.000 fault kill g-b",
        ] {
            assert!(FaultLog::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_heal_finds_its_fault_in_time_linear_in_the_file() {
        // 200,000 faults on as many targets, then their heals: each heal searched every fault
        // before it (quadratic, minutes); with a map it takes well under a second.
        let n = 200_000;
        let mut text = String::from("10:00:00.000 begin\n");
        for (second, verb) in [(1, "fault"), (2, "healed")] {
            for k in 0..n {
                text.push_str(&format!("10:00:0{second}.000 {verb} kill w{k}\n"));
            }
        }
        let started = std::time::Instant::now();
        let log = FaultLog::parse(&text).unwrap();
        assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
        assert_eq!(log.faults.len(), n);
        assert!(log
            .faults
            .iter()
            .all(|f| (f.healed - f.at).num_seconds() == 1));
    }

    #[test]
    fn every_kind_has_a_name_that_reads_back() {
        for kind in FaultKind::ALL {
            assert_eq!(FaultKind::parse(kind.name()), Some(kind));
        }
    }
}
