//! The run's report: every trial's verdict (krb-verify's records, one JSON line each) summed
//! into one table, and the same as JSON.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Result};
use krb_common::trial_log::FaultKind;
use krb_verify::faults::{Counts, Stats};
use krb_verify::record::{self, Record};
use serde::Serialize;

/// One kind's faults in a run.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct KindTotal {
    /// How many were injected.
    pub injected: u64,
    /// Duplicate processings they caused.
    pub duplicates: u64,
    /// The sum of their bounds.
    pub bound: u64,
    /// Their slowest recovery, in seconds.
    pub slowest_recovery: Option<f64>,
}

/// The slowest recovery of a run: how long, after which fault, in which trial.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Slowest {
    /// Seconds from the fault until every partition was processed again.
    pub seconds: f64,
    /// The fault's kind.
    pub kind: String,
    /// Its target.
    pub target: String,
    /// The trial's group.
    pub group: String,
}

/// A run's totals.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Summary {
    /// Trials checked.
    pub trials: u64,
    /// Trials whose every statement held.
    pub held: u64,
    /// The groups of those that did not.
    pub failed: Vec<String>,
    /// Seconds per trial (the script's, setup and check included), on average.
    pub mean_seconds: f64,
    /// The longest trial, in seconds.
    pub max_seconds: f64,
    /// What the trials counted, summed.
    #[serde(flatten)]
    pub counts: Counts,
    /// Per fault kind, in the report's order.
    pub kinds: BTreeMap<String, KindTotal>,
    /// The slowest recovery.
    pub slowest: Option<Slowest>,
    /// The trial to look at first: the first that failed, else the slowest to recover.
    pub worst: Option<String>,
}

/// Reads a records file (krb-verify faults --record): one trial a line.
pub fn read(path: &Path) -> Result<Vec<Record>> {
    let records = record::read(path)?;
    if let Some((i, r)) = records.iter().enumerate().find(|(_, r)| r.lab != 7) {
        bail!(
            "{}:{}: a record of lab {} {}, not of a fault trial",
            path.display(),
            i + 1,
            r.lab,
            r.name
        );
    }
    Ok(records)
}

/// Sums the trials.
pub fn summarise(trials: &[Record]) -> Summary {
    let mut s = Summary {
        trials: trials.len() as u64,
        ..Summary::default()
    };
    let mut seconds = 0.0;
    for (i, r) in trials.iter().enumerate() {
        let group = r.verdict.as_ref().map(|v| v.group.clone());
        if r.held() {
            s.held += 1;
        } else {
            s.failed.push(group.clone().unwrap_or_else(|| {
                format!("trial {} ({})", i + 1, r.reason.clone().unwrap_or_default())
            }));
        }
        if let (Some(t), Some(group)) = (r.verdict.as_ref().and_then(|v| v.trial.as_ref()), group) {
            add(&mut s, &group, t);
        }
        seconds += r.seconds;
        s.max_seconds = s.max_seconds.max(r.seconds);
    }
    if s.trials > 0 {
        s.mean_seconds = seconds / s.trials as f64;
    }
    s.worst = s
        .failed
        .first()
        .cloned()
        .or_else(|| s.slowest.as_ref().map(|w| w.group.clone()));
    s
}

fn add(s: &mut Summary, group: &str, t: &Stats) {
    s.counts.add(&t.counts);
    for f in &t.faults {
        let k = s.kinds.entry(f.kind.clone()).or_default();
        k.injected += 1;
        k.duplicates += f.duplicates;
        k.bound += f.bound;
        if let Some(r) = f.recovery {
            k.slowest_recovery = Some(k.slowest_recovery.map_or(r, |w| w.max(r)));
            if s.slowest.as_ref().is_none_or(|w| r > w.seconds) {
                s.slowest = Some(Slowest {
                    seconds: r,
                    kind: f.kind.clone(),
                    target: f.target.clone(),
                    group: group.to_string(),
                });
            }
        }
    }
}

/// Kinds in the report's order, those never injected left out.
fn kinds(s: &Summary) -> Vec<(&'static str, &KindTotal)> {
    FaultKind::ALL
        .iter()
        .filter_map(|k| s.kinds.get(k.name()).map(|t| (k.name(), t)))
        .collect()
}

/// The table, in Markdown, as the README shows it.
pub fn render(s: &Summary) -> String {
    let mut rows: Vec<(String, String)> = vec![
        ("trials".into(), format!("{} ({} held)", s.trials, s.held)),
        (
            "time per trial".into(),
            format!(
                "{:.1} s on average, {:.1} s the longest",
                s.mean_seconds, s.max_seconds
            ),
        ),
        (
            "faults injected".into(),
            kinds(s)
                .iter()
                .map(|(k, t)| format!("{k} {}", t.injected))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        (
            "messages acknowledged".into(),
            s.counts.produced.to_string(),
        ),
        ("lost (must be 0)".into(), s.counts.lost.to_string()),
        (
            "duplicate processings by cause (bound)".into(),
            kinds(s)
                .iter()
                .map(|(k, t)| format!("{k} {} (≤ {})", t.duplicates, t.bound))
                .chain([format!("no fault {} (≤ 0)", s.counts.unexplained)])
                .collect::<Vec<_>>()
                .join(", "),
        ),
    ];
    if let Some(d) = s.counts.effect_duplicates {
        rows.push(("duplicate effects in the store".into(), d.to_string()));
    }
    rows.push((
        "slowest recovery by kind".into(),
        kinds(s)
            .iter()
            .map(|(k, t)| match t.slowest_recovery {
                Some(r) => format!("{k} {r:.1} s"),
                None => format!("{k} -"),
            })
            .collect::<Vec<_>>()
            .join(", "),
    ));
    if let Some(w) = &s.slowest {
        rows.push((
            "slowest recovery".into(),
            format!(
                "{:.1} s ({} {} in {})",
                w.seconds, w.kind, w.target, w.group
            ),
        ));
    }
    if !s.failed.is_empty() {
        rows.push(("FAILED trials".into(), s.failed.join(", ")));
    }
    let mut text = String::from("| lab 7 | faults |\n|---|---|\n");
    for (k, v) in rows {
        text += &format!("| {k} | {v} |\n");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use krb_verify::faults::FaultStat;
    use krb_verify::Verdict;

    fn trial(group: &str, held: bool, faults: Vec<FaultStat>) -> Record {
        let mut v = Verdict::new(7, "faults", "none", group, "-");
        v.check("nothing lost", held, "");
        v.trial = Some(Stats {
            seconds: 40.0,
            counts: Counts {
                produced: 1000,
                processed: 1010,
                duplicates: faults.iter().map(|f| f.duplicates).sum(),
                ..Counts::default()
            },
            faults,
        });
        Record {
            seconds: 40.0,
            status: "checked".into(),
            lab: 7,
            name: "faults".into(),
            variant: "none".into(),
            reason: None,
            verdict: Some(v),
            ended: None,
            namespace: None,
        }
    }

    fn fault(kind: &str, recovery: f64, duplicates: u64) -> FaultStat {
        FaultStat {
            kind: kind.into(),
            target: "g-b".into(),
            at: 3.0,
            recovery: Some(recovery),
            duplicates,
            bound: 20,
        }
    }

    #[test]
    fn trials_sum_by_kind_and_the_worst_is_named() {
        let s = summarise(&[
            trial(
                "t1",
                true,
                vec![fault("kill", 1.5, 7), fault("pause", 4.0, 2)],
            ),
            trial("t2", true, vec![fault("kill", 2.5, 3)]),
        ]);
        assert_eq!(
            (s.trials, s.held, s.counts.produced, s.counts.duplicates),
            (2, 2, 2000, 12)
        );
        let kill = &s.kinds["kill"];
        assert_eq!((kill.injected, kill.duplicates, kill.bound), (2, 10, 40));
        assert_eq!(kill.slowest_recovery, Some(2.5));
        assert_eq!(s.worst.as_deref(), Some("t1"));
        let table = render(&s);
        assert!(
            table.contains("| faults injected | kill 2, pause 1 |"),
            "{table}"
        );
        assert!(
            table.contains("kill 10 (≤ 40), pause 2 (≤ 20), no fault 0 (≤ 0)"),
            "{table}"
        );
        assert!(
            table.contains("| slowest recovery | 4.0 s (pause g-b in t1) |"),
            "{table}"
        );
    }

    #[test]
    fn a_failed_trial_is_the_worst_and_listed() {
        let s = summarise(&[
            trial("t1", true, vec![fault("pause", 9.0, 0)]),
            trial("t2", false, vec![fault("kill", 1.0, 0)]),
        ]);
        assert_eq!(s.failed, vec!["t2".to_string()]);
        assert_eq!(s.worst.as_deref(), Some("t2"));
        assert!(render(&s).contains("| FAILED trials | t2 |"));
    }

    #[test]
    fn a_trial_without_a_verdict_failed() {
        let mut r = trial("t1", true, vec![]);
        r.verdict = None;
        r.reason = Some("group faults-1-1: the producer failed".into());
        let s = summarise(&[r]);
        assert_eq!(s.held, 0);
        assert_eq!(
            s.worst.as_deref(),
            Some("trial 1 (group faults-1-1: the producer failed)")
        );
    }

    #[test]
    fn another_labs_record_is_refused() {
        let mut r = trial("t1", true, vec![]);
        r.lab = 1;
        let dir = krb_common::scratch::scratch_dir(
            "report",
            &[("r.jsonl", serde_json::to_string(&r).unwrap())],
        );
        let err = read(&dir.join("r.jsonl")).unwrap_err().to_string();
        assert!(err.contains("not of a fault trial"), "{err}");
    }
}
