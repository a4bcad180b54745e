//! The run's report: every trial's verdict (krb-verify's records, one JSON line each) summed
//! into one table, and the same as JSON.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Result};
use krb_cli::lang::{Lang, Msg};
use krb_log::trial_log::FaultKind;
use krb_verify::faults::{Counts, Stats};
use krb_verify::record::{self, Record};
use serde::Serialize;

/// One kind's faults in a run; the slowest recovery in seconds.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct KindTotal {
    pub injected: u64,
    pub duplicates: u64,
    pub bound: u64,
    pub slowest_recovery: Option<f64>,
}

/// The slowest recovery of a run: how long, after which fault, in which trial.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Slowest {
    /// Seconds from the fault until every partition was processed again.
    pub seconds: f64,
    pub kind: String,
    pub target: String,
    /// The trial's group.
    pub group: String,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Summary {
    pub trials: u64,
    /// Trials whose every statement held.
    pub held: u64,
    /// The groups of those that did not.
    pub failed: Vec<String>,
    /// Seconds per trial (the script's, setup and check included), on average.
    pub mean_seconds: f64,
    /// The longest trial, in seconds.
    pub max_seconds: f64,
    #[serde(flatten)]
    pub counts: Counts,
    /// Per fault kind, in the report's order.
    pub kinds: BTreeMap<String, KindTotal>,
    pub slowest: Option<Slowest>,
    /// The trial to look at first: the first that failed, else the slowest to recover.
    pub worst: Option<String>,
}

/// Reads a records file (krb-verify faults --record): one trial a line.
pub fn read(path: &Path) -> Result<Vec<Record>> {
    let records = record::read(path)?;
    if let Some((i, r)) = records.iter().enumerate().find(|(_, r)| r.lab != 7) {
        let (path, line, lab, name) = (path.display(), i + 1, r.lab, &r.name);
        bail!("{path}:{line}: a record of lab {lab} {name}, not of a fault trial");
    }
    Ok(records)
}

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
    s.mean_seconds = seconds / s.trials.max(1) as f64;
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

/// `say` of each kind, in the report's order, those never injected left out.
fn each(s: &Summary, say: impl Fn(&str, &KindTotal) -> String) -> Vec<String> {
    let kinds = FaultKind::ALL.iter().map(|k| k.name());
    kinds
        .filter_map(|k| Some(say(k, s.kinds.get(k)?)))
        .collect()
}

/// The table's words, English and Korean; fault kinds and groups are names, shown as they are.
mod words {
    krb_cli::msgs! { ALL;
        HEAD = "| lab 7 | faults |", "| 실습 7 | faults |";
        TRIALS = "trials", "시험";
        TRIALS_HELD = "{trials} ({held} held)", "{trials}번 ({held}번 성립)";
        TIME = "time per trial", "시험 한 번의 시간";
        TIME_VALUE = "{mean} s on average, {max} s the longest", "평균 {mean}초, 가장 길게 {max}초";
        INJECTED = "faults injected", "넣은 장애";
        ACKNOWLEDGED = "messages acknowledged", "브로커가 확인한 메시지";
        LOST = "lost (must be 0)", "잃은 메시지 (0이어야 함)";
        BY_CAUSE = "duplicate processings by cause (bound)", "원인별 중복 처리 (한도)";
        NO_FAULT = "no fault {count} (≤ 0)", "장애 없음 {count} (≤ 0)";
        EFFECTS = "duplicate effects in the store", "저장소에 두 번 반영된 것";
        BY_KIND = "slowest recovery by kind", "종류별로 가장 느린 회복";
        KIND_SECONDS = "{kind} {seconds} s", "{kind} {seconds}초";
        SLOWEST = "slowest recovery", "가장 느린 회복";
        SLOWEST_VALUE = "{seconds} s ({kind} {target} in {group})", "{seconds}초 ({group}의 {kind} {target})";
        FAILED = "FAILED trials", "실패한 시험";
    }
}

/// The table in `lang`, in Markdown, as the README shows it.
pub fn render(s: &Summary, lang: Lang) -> String {
    use words::*;
    let t = |msg: Msg| msg.text(lang).to_string();
    let [mean, max] = [s.mean_seconds, s.max_seconds].map(|x| format!("{x:.1}"));
    let mut rows: Vec<(String, String)> = vec![
        (
            t(TRIALS),
            TRIALS_HELD.fill(lang, &[("trials", &s.trials), ("held", &s.held)]),
        ),
        (
            t(TIME),
            TIME_VALUE.fill(lang, &[("mean", &mean), ("max", &max)]),
        ),
        (
            t(INJECTED),
            each(s, |k, t| format!("{k} {}", t.injected)).join(", "),
        ),
        (t(ACKNOWLEDGED), s.counts.produced.to_string()),
        (t(LOST), s.counts.lost.to_string()),
        (
            t(BY_CAUSE),
            [
                each(s, |k, t| format!("{k} {} (≤ {})", t.duplicates, t.bound)),
                vec![NO_FAULT.fill(lang, &[("count", &s.counts.unexplained)])],
            ]
            .concat()
            .join(", "),
        ),
    ];
    if let Some(d) = s.counts.effect_duplicates {
        rows.push((t(EFFECTS), d.to_string()));
    }
    rows.push((
        t(BY_KIND),
        each(s, |k, t| match t.slowest_recovery {
            Some(r) => KIND_SECONDS.fill(lang, &[("kind", &k), ("seconds", &format!("{r:.1}"))]),
            None => format!("{k} -"),
        })
        .join(", "),
    ));
    if let Some(w) = &s.slowest {
        rows.push((
            t(SLOWEST),
            SLOWEST_VALUE.fill(
                lang,
                &[
                    ("seconds", &format!("{:.1}", w.seconds)),
                    ("kind", &w.kind),
                    ("target", &w.target),
                    ("group", &w.group),
                ],
            ),
        ));
    }
    if !s.failed.is_empty() {
        rows.push((t(FAILED), s.failed.join(", ")));
    }
    let mut text = format!("{}\n|---|---|\n", t(HEAD));
    for (k, v) in rows {
        text += &format!("| {k} | {v} |\n");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use krb_verify::faults::{FaultStat, Said};
    use krb_verify::Verdict;

    fn trial(group: &str, held: bool, faults: Vec<FaultStat>) -> Record {
        let mut v = Verdict::new(7, "faults", "none", group, Said::NotInArticle);
        v.check(
            Said::NothingLost,
            held,
            Said::EachEffect { acknowledged: 1000 },
        );
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
        let table = render(&s, Lang::En);
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
        let ko = render(&s, Lang::Ko);
        for row in [
            "| 실습 7 | faults |",
            "| 시험 | 2번 (2번 성립) |",
            "| 원인별 중복 처리 (한도) | kill 10 (≤ 40), pause 2 (≤ 20), 장애 없음 0 (≤ 0) |",
            "| 가장 느린 회복 | 4.0초 (t1의 pause g-b) |",
        ] {
            assert!(ko.contains(row), "no {row:?} in {ko}");
        }
        // Nothing English is left but the fault kinds, the names and `faults`.
        let left: Vec<&str> = ko
            .split(|c: char| !(c.is_ascii_alphabetic() || c == '-'))
            .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
            .filter(|w| !["faults", "kill", "pause", "g-b", "t"].contains(w))
            .collect();
        assert!(left.is_empty(), "{left:?} in {ko}");
        assert!(krb_cli::lang::table_problems(words::ALL).is_empty());
    }

    #[test]
    fn a_failed_trial_is_the_worst_and_listed() {
        let s = summarise(&[
            trial("t1", true, vec![fault("pause", 9.0, 0)]),
            trial("t2", false, vec![fault("kill", 1.0, 0)]),
        ]);
        assert_eq!(s.failed, vec!["t2".to_string()]);
        assert_eq!(s.worst.as_deref(), Some("t2"));
        assert!(render(&s, Lang::En).contains("| FAILED trials | t2 |"));
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
        let dir =
            krb_testutil::scratch_dir("report", &[("r.jsonl", serde_json::to_string(&r).unwrap())]);
        let err = read(&dir.join("r.jsonl")).unwrap_err().to_string();
        assert!(err.contains("not of a fault trial"), "{err}");
    }
}
