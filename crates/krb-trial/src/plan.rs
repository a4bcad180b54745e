//! A trial's fault schedule, drawn from its seed: which faults, on whom, when, for how long.

use std::fmt;

use krb_log::trial_log::FaultKind;

use crate::rng::Rng;

pub const FIRST_WORKERS: [&str; 3] = ["a", "b", "c"];
/// The names a joining worker takes, in order.
const JOINERS: [&str; 3] = ["d", "e", "f"];
/// Fewer running workers than this and no worker leaves; more and none joins.
const FEWEST: usize = 2;
const MOST: usize = 4;

/// How often each kind is drawn. Worker faults are the lab's subject and cost seconds; a node's
/// failure costs about 25 s (a restart and the replicas catching up), a rolling restart a
/// minute, so they are rarer: 100 trials fit in 90 minutes. A store's fault, where the store
/// allows one, is drawn as often as a node's ([`STORE_WEIGHT`]).
const WEIGHTS: [(FaultKind, u64); 8] = [
    (FaultKind::Kill, 6),
    (FaultKind::Pause, 6),
    (FaultKind::Stop, 2),
    (FaultKind::Join, 2),
    (FaultKind::Leave, 2),
    (FaultKind::KillCoordinator, 2),
    (FaultKind::KillLeader, 2),
    (FaultKind::Roll, 1),
];
const STORE_WEIGHT: u64 = 2;

/// One step of a schedule: wait, inject, hold, heal.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Seconds to wait after the previous step ended (its heal).
    pub wait: f64,
    pub kind: FaultKind,
    /// A worker (`b`), a partition whose leader dies (`p4`; of the output topic for
    /// kill-output-leader), `db` (restart-db) or `-` (the coordinator, a roll).
    pub target: String,
    /// Seconds between injecting and healing (0: nothing to heal).
    pub hold: f64,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:.1} {} {} {:.1}",
            self.wait, self.kind, self.target, self.hold
        )
    }
}

/// What a schedule is drawn for.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub faults: usize,
    pub partitions: i32,
    /// The workers' session timeout, in seconds: a pause outlasts it.
    pub session_sec: f64,
    /// The store's fault, if the trial's store has one: `RestartDb` (a PostgreSQL the run
    /// may stop) or `KillOutputLeader` (kafka-eos).
    pub store: Option<FaultKind>,
}

pub fn plan(seed: u64, trial: u64, shape: Shape) -> Vec<Step> {
    let mut rng = Rng::for_trial(seed, trial);
    // Without a store fault the weights are the same list, so every schedule drawn before the
    // store faults existed is drawn again: a seed replays its trials.
    let weights: Vec<(FaultKind, u64)> = WEIGHTS
        .into_iter()
        .chain(shape.store.map(|k| (k, STORE_WEIGHT)))
        .collect();
    let mut running: Vec<&str> = FIRST_WORKERS.to_vec();
    let mut joiners = JOINERS.iter();
    let mut rolled = false;
    let mut steps = Vec::with_capacity(shape.faults);
    while steps.len() < shape.faults {
        let kind = rng.weighted(&weights);
        let wait = rng.seconds(1.5, 3.5);
        let pick = |rng: &mut Rng, running: &[&str]| {
            running[rng.below(running.len() as u64) as usize].to_string()
        };
        let (target, hold) = match kind {
            FaultKind::Kill => (pick(&mut rng, &running), rng.seconds(0.5, 3.0)),
            FaultKind::Stop => (pick(&mut rng, &running), rng.seconds(0.5, 2.0)),
            FaultKind::Pause => (
                pick(&mut rng, &running),
                rng.seconds(shape.session_sec + 0.5, shape.session_sec + 3.0),
            ),
            FaultKind::Join if running.len() < MOST => match joiners.next() {
                Some(name) => {
                    running.push(name);
                    (name.to_string(), 0.0)
                }
                None => continue,
            },
            FaultKind::Leave if running.len() > FEWEST => {
                let i = rng.below(running.len() as u64) as usize;
                (running.remove(i).to_string(), 0.0)
            }
            FaultKind::KillCoordinator => ("-".to_string(), rng.seconds(1.0, 4.0)),
            FaultKind::KillLeader => (
                format!("p{}", rng.below(shape.partitions as u64)),
                rng.seconds(1.0, 4.0),
            ),
            FaultKind::Roll if !rolled => {
                rolled = true;
                ("-".to_string(), 0.0)
            }
            FaultKind::RestartDb => ("db".to_string(), rng.seconds(0.5, 3.0)),
            // The output topic has one partition (krb-effects init).
            FaultKind::KillOutputLeader => ("p0".to_string(), rng.seconds(1.0, 4.0)),
            FaultKind::Join | FaultKind::Leave | FaultKind::Roll => continue,
        };
        steps.push(Step {
            wait,
            kind,
            target,
            hold,
        });
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPE: Shape = Shape {
        faults: 3,
        partitions: 6,
        session_sec: 3.0,
        store: None,
    };

    fn printed(seed: u64, trial: u64, shape: Shape) -> Vec<String> {
        plan(seed, trial, shape)
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn schedules_without_a_store_fault_are_those_of_earlier_releases() {
        // As the release before the store faults printed them (README's seed 2026).
        assert_eq!(
            printed(2026, 29, SHAPE),
            [
                "3.2 kill-leader p3 2.7",
                "2.4 kill-leader p4 1.6",
                "2.5 pause a 4.2"
            ]
        );
        assert_eq!(
            printed(7, 1, Shape { faults: 8, ..SHAPE }),
            [
                "3.4 kill b 2.6",
                "2.0 kill a 1.5",
                "1.6 kill-coordinator - 2.8",
                "2.2 kill-leader p2 1.5",
                "1.7 stop c 0.6",
                "3.0 kill b 2.6",
                "2.1 pause a 4.7",
                "1.7 stop c 1.9",
            ]
        );
    }

    #[test]
    fn a_store_fault_is_drawn_only_where_the_store_allows_it() {
        for store in [FaultKind::RestartDb, FaultKind::KillOutputLeader] {
            let shape = Shape {
                store: Some(store),
                ..SHAPE
            };
            let steps: Vec<Step> = (0..200).flat_map(|t| plan(3, t, shape)).collect();
            let theirs: Vec<&Step> = steps.iter().filter(|s| s.kind == store).collect();
            // Drawn 2 times in 25: about 48 of 600 steps.
            assert!((24..=96).contains(&theirs.len()), "{}", theirs.len());
            for s in theirs {
                let target = if store == FaultKind::RestartDb {
                    "db"
                } else {
                    "p0"
                };
                assert_eq!(s.target, target, "{s}");
                assert!((0.5..4.0).contains(&s.hold), "{s}");
            }
            assert!(steps.iter().all(|s| !s.kind.on_store() || s.kind == store));
        }
        let none = (0..200).flat_map(|t| plan(3, t, SHAPE));
        assert_eq!(none.filter(|s| s.kind.on_store()).count(), 0);
    }

    #[test]
    fn a_seed_replays_its_schedule() {
        assert_eq!(plan(42, 5, SHAPE), plan(42, 5, SHAPE));
        let different = (1..20).filter(|t| plan(42, *t, SHAPE) != plan(42, 5, SHAPE));
        assert!(different.count() >= 18);
    }

    #[test]
    fn schedules_keep_their_bounds() {
        let mut kinds = std::collections::BTreeSet::new();
        for trial in 0..500 {
            let steps = plan(1, trial, SHAPE);
            assert_eq!(steps.len(), 3);
            let mut running: Vec<String> = FIRST_WORKERS.iter().map(|s| s.to_string()).collect();
            for s in &steps {
                kinds.insert(s.kind);
                assert!((1.5..3.5).contains(&s.wait), "{s}");
                match s.kind {
                    FaultKind::Pause => assert!(s.hold > SHAPE.session_sec, "{s}"),
                    FaultKind::Kill | FaultKind::Stop => {
                        assert!(running.contains(&s.target), "{s} not running: {running:?}")
                    }
                    FaultKind::Join => running.push(s.target.clone()),
                    FaultKind::Leave => running.retain(|w| *w != s.target),
                    FaultKind::KillLeader => {
                        let p: i32 = s.target[1..].parse().unwrap();
                        assert!((0..SHAPE.partitions).contains(&p), "{s}");
                    }
                    FaultKind::KillCoordinator | FaultKind::Roll => assert_eq!(s.target, "-"),
                    FaultKind::RestartDb | FaultKind::KillOutputLeader => {
                        panic!("{s}: a store fault with no store")
                    }
                }
                assert!((FEWEST..=MOST).contains(&running.len()), "{running:?}");
            }
            assert!(steps.iter().filter(|s| s.kind == FaultKind::Roll).count() <= 1);
        }
        assert_eq!(kinds.len(), WEIGHTS.len(), "{kinds:?}");
    }

    #[test]
    fn a_step_prints_as_the_runner_reads_it() {
        let step = Step {
            wait: 2.5,
            kind: FaultKind::KillLeader,
            target: "p4".into(),
            hold: 1.25,
        };
        assert_eq!(step.to_string(), "2.5 kill-leader p4 1.2");
    }
}
