//! Lab 7's statements, held on a crafted trial that keeps them all and reported FAILED on one
//! that breaks each: a killed with p0 offset 2 and p1 offset 1 done but not committed, b taking
//! both partitions over and doing them again.

use krb_common::logline::{Offset, Partition};
use krb_common::trial_log::{fault_line, FaultKind, FaultLog};
use krb_effect::Kind;

use super::{parse_witness, verdict, Stats, Trial};
use crate::tests::{all_held, clock, effects, fails, Logs};
use crate::Verdict;

const LOST: &str = "nothing lost: every message the broker acknowledged was processed";
const UP: &str = "within one assignment a worker's offsets of a partition only go up";
const AHEAD: &str = "no worker committed past what it had processed";
const BACKWARDS: &str = "the group's committed offsets never moved backwards";
const FINAL: &str = "after the final stop each partition's committed offset is the one after its last processed, for librdkafka and for Kafka's own tool";
const EXPLAINED: &str = "every duplicate is explained by a fault, within that fault's bound";
const EFFECTS: &str = "no effect is in the store twice";

fn logs() -> Logs {
    let mut l = Logs::default();
    l.mark(0, "start", "g-a")
        .at(10, "g-a", "consumes g in group g")
        .at(100, "g-a", "assigned [0, 1]");
    l.offsets(1000, "g-a", 0, 0, 2);
    l.offsets(1010, "g-a", 1, 0, 1);
    l.at(1020, "g-a", "commit p0=2 p1=1")
        .at(1030, "g-a", "p0 offset 2")
        .at(1040, "g-a", "p1 offset 1")
        .mark(3000, "start", "g-a")
        .at(3010, "g-a", "consumes g in group g")
        .at(5000, "g-a", "assigned []")
        .mark(8000, "stop", "g-a")
        .at(8010, "g-a", "revoked []");
    l.mark(500, "start", "g-b")
        .at(510, "g-b", "consumes g in group g")
        .at(5000, "g-b", "assigned [0, 1]");
    l.offsets(5100, "g-b", 0, 2, 4);
    l.offsets(5110, "g-b", 1, 1, 4);
    l.at(5200, "g-b", "commit p0=4 p1=4")
        .mark(8000, "stop", "g-b")
        .at(8010, "g-b", "revoked [0, 1]");
    l
}

/// A faults file from 0 to `end` ms: each fault (kind, target, injected, healed, in ms).
fn fault_log(end: i64, faults: &[(FaultKind, &str, i64, i64)]) -> FaultLog {
    let time = |ms| clock(ms).format("%H:%M:%S%.3f").to_string();
    let mut lines = vec![format!("{} begin trial 1 seed 1", time(0))];
    for &(kind, target, at, healed) in faults {
        lines.push(fault_line(false, kind, target, clock(at)));
        lines.push(fault_line(true, kind, target, clock(healed)));
    }
    lines.push(format!("{} end", time(end)));
    FaultLog::parse(&lines.join("\n")).unwrap()
}

/// The good trial's faults: `kind` on a from 2 s to 3 s, or none.
fn faults(kind: Option<FaultKind>) -> FaultLog {
    match kind {
        Some(kind) => fault_log(9000, &[(kind, "g-a", 2000, 3000)]),
        None => fault_log(9000, &[]),
    }
}

/// Each fault's kind and the duplicates given to it (and its bound).
fn per_fault(stats: &Stats) -> Vec<(&str, u64, u64)> {
    stats
        .faults
        .iter()
        .map(|f| (f.kind.as_str(), f.duplicates, f.bound))
        .collect()
}

fn acks() -> Vec<(Partition, Offset)> {
    (0..2).flat_map(|p| (0..4).map(move |o| (p, o))).collect()
}

fn trial(logs: &Logs, change: impl FnOnce(&mut Trial)) -> (Verdict, Stats) {
    let end = vec![(0, Some(4)), (1, Some(4))];
    let mut t = Trial {
        run: logs.run("g"),
        acks: acks(),
        faults: faults(Some(FaultKind::Kill)),
        samples: vec![vec![(0, 2), (1, 1)], vec![(0, 4), (1, 4)]],
        committed: end.clone(),
        witness: end,
        effects: None,
        commit_every: 2,
        effect: Kind::None,
    };
    change(&mut t);
    verdict(&t)
}

/// A trial of `l` with these acknowledgements, faults and samples, whose final committed
/// offsets, librdkafka's and Kafka's own tool's, are `end`.
fn crafted(
    l: &Logs,
    acks: Vec<(Partition, Offset)>,
    faults: FaultLog,
    samples: Vec<Vec<(Partition, Offset)>>,
    end: &[(Partition, Offset)],
) -> (Verdict, Stats) {
    let end: Vec<_> = end.iter().map(|&(p, o)| (p, Some(o))).collect();
    trial(l, |t| {
        t.acks = acks;
        t.faults = faults;
        t.samples = samples;
        t.committed = end.clone();
        t.witness = end;
    })
}

/// Asserts that `statement`, and only it, FAILED.
fn only_fails(v: &Verdict, statement: &str, broken: &str) {
    fails(v, statement, broken);
    let others: Vec<_> = v
        .checks
        .iter()
        .filter(|c| !c.held && c.statement != statement)
        .map(|c| &c.statement)
        .collect();
    assert!(
        others.is_empty(),
        "{broken} also broke {others:?}:\n{}",
        v.render()
    );
}

#[test]
fn a_trial_that_keeps_every_statement() {
    let (v, stats) = trial(&logs(), |_| {});
    all_held(&v);
    assert_eq!(v.checks.len(), 6, "{}", v.render());
    let c = &stats.counts;
    assert_eq!((c.produced, c.lost, c.duplicates), (8, 0, 2));
    let kill = &stats.faults[0];
    assert_eq!(
        (kill.kind.as_str(), kill.duplicates, kill.bound),
        ("kill", 2, 4)
    );
    // b's first p0 at 5.100 s and first p1 at 5.110 s, 2 s after the kill at 2 s.
    assert_eq!(kill.recovery, Some(3.11));
    assert_eq!(stats.seconds, 9.0);
}

#[test]
fn each_statement_fails_when_its_invariant_is_broken() {
    only_fails(
        &trial(&logs(), |t| t.acks.push((1, 4))).0,
        LOST,
        "p1 offset 4 was acknowledged and never processed",
    );
    let mut swapped = logs();
    swapped
        .replace("g-b", "p0 offset 2", "p0 offset X")
        .replace("g-b", "p0 offset 3", "p0 offset 2")
        .replace("g-b", "p0 offset X", "p0 offset 3");
    only_fails(&trial(&swapped, |_| {}).0, UP, "b did p0 offset 3 before 2");
    let mut ahead = logs();
    ahead.replace("g-a", "commit p0=2 p1=1", "commit p0=3 p1=1");
    only_fails(
        &trial(&ahead, |_| {}).0,
        AHEAD,
        "a committed p0=3 having done p0 up to 1",
    );
    only_fails(
        &trial(&logs(), |t| t.samples = vec![vec![(0, 4)], vec![(0, 2)]]).0,
        BACKWARDS,
        "p0's committed offset went from 4 to 2",
    );
    only_fails(
        &trial(&logs(), |t| t.committed[1] = (1, Some(3))).0,
        FINAL,
        "librdkafka reads p1 committed at 3",
    );
    only_fails(
        &trial(&logs(), |t| t.witness[1] = (1, None)).0,
        FINAL,
        "ConsumerGroupCommand reads no offset for p1",
    );
    only_fails(
        &trial(&logs(), |t| t.faults = faults(None)).0,
        EXPLAINED,
        "two duplicates and no fault",
    );
    only_fails(
        &trial(&logs(), |t| t.faults = faults(Some(FaultKind::Stop))).0,
        EXPLAINED,
        "a clean stop (bound 0) caused two duplicates",
    );
}

#[test]
fn a_pause_is_bound_by_the_zombies_work_in_flight() {
    let (v, stats) = trial(&logs(), |t| t.faults = faults(Some(FaultKind::Pause)));
    all_held(&v);
    // p0 offset 2 and p1 offset 1: done after a's last commit, before the pause.
    assert_eq!((stats.faults[0].duplicates, stats.faults[0].bound), (2, 2));
    let mut more = logs();
    more.at(5300, "g-b", "p0 offset 1");
    let (v, stats) = trial(&more, |t| {
        t.faults = faults(Some(FaultKind::Pause));
        t.samples.clear();
    });
    assert_eq!(stats.faults[0].duplicates, 3);
    fails(&v, EXPLAINED, "the pause caused 3 duplicates, 2 in flight");
}

#[test]
fn effects_twice_in_the_store_fail_except_plain_ones() {
    let all: Vec<_> = logs()
        .run("g")
        .logs
        .iter()
        .flat_map(|l| l.processed())
        .collect();
    let with = |kind: Kind, once: bool| {
        trial(&logs(), |t| {
            t.effect = kind;
            t.effects = Some(effects(&all, once));
        })
        .0
    };
    all_held(&with(Kind::Idempotent, true));
    only_fails(
        &with(Kind::Idempotent, false),
        EFFECTS,
        "a row per processing",
    );
    only_fails(
        &with(Kind::KafkaEos, false),
        EFFECTS,
        "an output per processing",
    );
    let plain = with(Kind::Plain, false);
    all_held(&plain);
    assert!(plain.check_of(EFFECTS).is_none());
}

#[test]
fn kafkas_own_table_reads_as_committed_offsets() {
    let text = "\nConsumer group 'g' has no active members.\n\n\
        GROUP TOPIC PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID HOST CLIENT-ID\n\
        g     g     1          3107            3107            0    -           -    -\n\
        g     g     0          -               3108            -    -           -    -\n\
        g-b   g-b   0          9               9               0    -           -    -\n";
    assert_eq!(parse_witness(text, "g"), vec![(0, None), (1, Some(3107))]);
}

#[test]
fn work_a_kill_cut_short_is_the_kills_though_a_pause_follows() {
    let log = fault_log(
        9000,
        &[
            (FaultKind::Kill, "g-a", 2000, 3000),
            (FaultKind::Pause, "g-a", 4000, 4500),
        ],
    );
    let (v, stats) = trial(&logs(), |t| t.faults = log);
    all_held(&v);
    assert_eq!(per_fault(&stats), vec![("kill", 2, 4), ("pause", 0, 2)]);
}

#[test]
fn a_zombies_window_ends_at_its_next_rebalance_event() {
    // a paused at 2 s, learns it lost p0 at 3 s; later a node's failure makes a lose p0 again
    // and redo offset 4, its own work: the node's duplicate, not the long-gone pause's.
    let mut l = Logs::default();
    l.mark(0, "start", "g-a").at(100, "g-a", "assigned [0]");
    l.offsets(1000, "g-a", 0, 0, 2);
    l.at(1010, "g-a", "commit p0=2")
        .at(3000, "g-a", "lost [0]")
        .at(3100, "g-a", "assigned [0]");
    l.offsets(3200, "g-a", 0, 2, 4);
    l.at(3300, "g-a", "commit p0=4")
        .at(3400, "g-a", "p0 offset 4")
        .at(4000, "g-a", "lost [0]")
        .at(4100, "g-a", "assigned [0]")
        .at(4200, "g-a", "p0 offset 4")
        .at(4300, "g-a", "commit p0=5");
    let log = fault_log(
        5000,
        &[
            (FaultKind::Pause, "g-a", 2000, 2500),
            (FaultKind::KillCoordinator, "node-2", 3500, 4500),
        ],
    );
    let samples = vec![vec![(0, 2)], vec![(0, 5)]];
    let (v, stats) = crafted(
        &l,
        (0..5).map(|o| (0, o)).collect(),
        log,
        samples,
        &[(0, 5)],
    );
    all_held(&v);
    assert_eq!(
        per_fault(&stats),
        vec![("pause", 0, 0), ("kill-coordinator", 1, 2)]
    );
}

#[test]
fn an_acknowledgement_without_an_offset_counts_in_its_partition() {
    // librdkafka's -1001: delivered, offset unknown. p1 has 4 distinct offsets processed.
    let unknown = |t: &mut Trial| {
        t.acks.retain(|m| *m != (1, 3));
        t.acks.push((1, -1001));
    };
    all_held(&trial(&logs(), unknown).0);
    only_fails(
        &trial(&logs(), |t| t.acks.push((1, -1001))).0,
        LOST,
        "p1 has 5 acknowledgements and 4 offsets processed",
    );
}

#[test]
fn work_lost_while_the_coordinator_was_away_is_the_nodes_though_a_leave_follows() {
    // b processes p0 offsets 2 and 3 past its commit p0=2; the coordinator dies, b's session runs
    // out (`lost [0]`, no commit), b gets p0 back, then leaves cleanly before it fetched again;
    // a redoes them. The leave cut nothing short: the node's failure did (seen in a real run).
    let mut l = Logs::default();
    l.mark(0, "start", "g-b").at(100, "g-b", "assigned [0]");
    l.offsets(1000, "g-b", 0, 0, 2);
    l.at(1010, "g-b", "commit p0=2");
    l.offsets(1100, "g-b", 0, 2, 4);
    l.at(3000, "g-b", "lost [0]")
        .at(6000, "g-b", "assigned [0]")
        .mark(7000, "stop", "g-b")
        .at(7010, "g-b", "revoked [0]");
    l.mark(0, "start", "g-a").at(100, "g-a", "assigned []");
    l.at(7100, "g-a", "assigned [0]");
    l.offsets(7200, "g-a", 0, 2, 6);
    l.at(7300, "g-a", "commit p0=6");
    let log = fault_log(
        9000,
        &[
            (FaultKind::KillCoordinator, "node-1", 1500, 5000),
            (FaultKind::Leave, "g-b", 7000, 7000),
        ],
    );
    let samples = vec![vec![(0, 2)], vec![(0, 6)]];
    let (v, stats) = crafted(
        &l,
        (0..6).map(|o| (0, o)).collect(),
        log,
        samples,
        &[(0, 6)],
    );
    all_held(&v);
    assert_eq!(
        per_fault(&stats),
        vec![("kill-coordinator", 2, 2), ("leave", 0, 0)]
    );
}

#[test]
fn work_lost_to_a_node_and_redone_after_a_pause_is_the_nodes() {
    // a loses p0 (offsets 2 and 3 not committed) when a node dies, gets it back, commits on p1
    // and is paused; only after it wakes does it redo 2 and 3. The pause had nothing in flight:
    // the duplicates are the node's (seen in a real run, where the pause was charged).
    let mut l = Logs::default();
    l.mark(0, "start", "g-a").at(100, "g-a", "assigned [0, 1]");
    l.offsets(1000, "g-a", 0, 0, 2);
    l.at(1020, "g-a", "commit p0=2");
    l.offsets(1100, "g-a", 0, 2, 4);
    l.at(2000, "g-a", "lost [0, 1]")
        .at(3000, "g-a", "assigned [0, 1]")
        .at(3100, "g-a", "p1 offset 0")
        .at(3200, "g-a", "commit p1=1")
        .at(4600, "g-a", "lost [0, 1]")
        .at(4700, "g-a", "assigned [0, 1]");
    l.offsets(4800, "g-a", 0, 2, 4);
    l.at(4900, "g-a", "commit p0=4 p1=1");
    let log = fault_log(
        9000,
        &[
            (FaultKind::KillLeader, "node-1", 1500, 2500),
            (FaultKind::Pause, "g-a", 3500, 4500),
        ],
    );
    let acks = vec![(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)];
    let samples = vec![vec![(0, 2)], vec![(0, 2), (1, 1)], vec![(0, 4), (1, 1)]];
    let (v, stats) = crafted(&l, acks, log, samples, &[(0, 4), (1, 1)]);
    all_held(&v);
    assert_eq!(
        per_fault(&stats),
        vec![("kill-leader", 2, 4), ("pause", 0, 0)]
    );
}
