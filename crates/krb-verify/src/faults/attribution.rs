//! Which fault explains which duplicate, and each fault's bound, both read from the logs.
//!
//! A fault explains only work its own victim had in flight, work a later owner had to do
//! again because nobody had committed it:
//!
//! - a kill or a pause: its victim's processings since its last successful commit of their
//!   partition, in the assignment it held when the fault came; a pause also what its zombie
//!   processed from the pause until its next rebalance event (the work it did again, or did
//!   first and a new owner did again);
//! - a node's failure or a rolling restart: the processings in flight at a `lost`, `commit
//!   failed` or `transaction aborted` line of any worker within the fault's window (from the
//!   fault until [`AFTERMATH_SEC`] after it was healed), those of the partitions it lost for a
//!   `lost` line;
//! - a clean stop, join or leave: the processings in flight at a `commit failed` or
//!   `transaction aborted` line of any worker in its window (the rebalance it causes ends a
//!   generation, and what was sent with the old one is refused); with `--revoke-commit` the
//!   victim commits what it hands over;
//! - the group's forming, before any fault: the workers that start with the trial join one
//!   after another, and each rebalance ends a generation, as a join does; the processings in
//!   flight at a `commit failed` or `transaction aborted` line within [`FORMING_SEC`] of an
//!   `assigned` or `revoked` line before the first fault (but the group's first assignment,
//!   which ends none);
//! - a store's fault: the processings in flight at the exit of each worker that exited on a
//!   store failure it caused (see [`store_victim`]), from its last commit to its restart; the
//!   output topic's leader killed (kafka-eos) also what a node's failure explains, since the
//!   node may lead input partitions or coordinate the group. A node's failure or a rolling
//!   restart may cause a kafka-eos store failure too: a node coordinates each worker's
//!   transactions, so it explains the exits that the output's leader's death would.
//!
//! A fault's bound is the size of what it may explain, so a fault on a worker that owned
//! nothing explains nothing. A worker that exited on its own (the runner's `exited` lines) and
//! that no store fault explains is itself unexplained: a worker that gives up is a finding.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{NaiveDateTime, TimeDelta};
use krb_log::logline::{Event, Offset, Partition};
use krb_log::trial_log::{Exit, Fault, FaultKind, FaultLog};
use krb_log::worker_log::{Entry, WorkerLog};

use super::invariants::{ends_assignment, Commits, Held};
use super::Processing;

/// How long after a node's fault is healed a worker may still lose its partitions or fail a
/// commit because of it: the group finds its coordinator again and rebalances.
const AFTERMATH_SEC: i64 = 10;

/// How far from a rebalance's `assigned` or `revoked` line a commit of the generation it ended
/// may be refused: the workers send their next transaction's offsets (every 20 messages in
/// lab 7) within a second of it, and the line may come a few milliseconds after they learn of
/// it.
const FORMING_SEC: i64 = 1;

/// One processing, as a place in the logs: (log, line).
type Place = (usize, usize);

/// Duplicates per fault (with each fault's bound) and those no fault explains; the exits no
/// store fault explains, each said in a line.
pub(super) struct Blame {
    pub(super) per_fault: Vec<(u64, u64)>,
    pub(super) unexplained: u64,
    pub(super) first_unexplained: Option<String>,
    pub(super) unexplained_exits: Vec<String>,
}

/// What one fault may explain: processings its victim or the workers it disturbed had in
/// flight, each with when it was cut short (a later processing of the message redoes it), and
/// for a pause the zombie's window: its log, from, to, and the partitions it held at the pause.
#[derive(Default)]
struct Explains {
    in_flight: BTreeMap<Place, NaiveDateTime>,
    zombie: Option<(usize, NaiveDateTime, NaiveDateTime, Held)>,
    zombie_work: u64,
    exits: BTreeSet<usize>,
}

/// Gives each duplicate processing to a fault, looking past the earlier processings a zombie did
/// (one may come between the work a kill cut short and its redo) to the latest that none did:
/// first the pause whose zombie did this one in its window (the latest), then a worker fault
/// whose victim had that one in flight (the earliest fault), then a pause whose zombie did that
/// one, then a node's fault in whose window that one was in flight at a `lost` or failed commit
/// (the earliest); else it is unexplained.
pub(super) fn attribute(
    logs: &[WorkerLog],
    log: &FaultLog,
    commits: &Commits,
    processings: &BTreeMap<(Partition, Offset), Vec<Processing>>,
) -> Blame {
    let (faults, exits) = (&log.faults, &log.exits);
    let runs: Vec<Option<Run>> = exits.iter().map(|e| run(logs, e)).collect();
    // The faults' explanations, then the group's forming's, which a worker's fault's come
    // before.
    let mut explains: Vec<Explains> = faults
        .iter()
        .map(|f| explains(logs, f, exits, &runs, commits))
        .collect();
    explains.push(forming(logs, faults));
    let on_worker = |i: usize| faults.get(i).is_none_or(|f| f.kind.on_worker());
    let unexplained_exits = exits
        .iter()
        .enumerate()
        .filter(|(i, _)| !explains.iter().any(|x| x.exits.contains(i)))
        .map(|(_, e)| {
            format!(
                "{} exited ({}), found at {}",
                e.worker,
                e.last_line,
                krb_log::logline::format_time(e.found.time())
            )
        })
        .collect();
    let mut per_fault: Vec<(u64, u64)> = explains
        .iter()
        .map(|x| (0, x.in_flight.len() as u64 + x.zombie_work))
        .collect();
    let mut unexplained = 0;
    let mut first_unexplained = None;
    for ((p, o), list) in processings {
        // The pause (the latest) whose zombie did `x` in its window, of a partition it held.
        let zombie_of = |x: &Processing| {
            (0..faults.len()).rev().find(|&i| {
                explains[i]
                    .zombie
                    .as_ref()
                    .is_some_and(|(log, from, to, held)| {
                        held.owns(*p) && x.place.0 == *log && x.at >= *from && x.at <= *to
                    })
            })
        };
        for k in 1..list.len() {
            let again = &list[k];
            // A zombie's processing is a side branch: the owner's work goes on from its own
            // last processing, so a redo is matched with the latest earlier processing no zombie
            // did (owner, zombie, redo after a kill: the kill cut the owner's).
            let before = list[..k]
                .iter()
                .rev()
                .find(|x| zombie_of(x).is_none())
                .unwrap_or(&list[k - 1]);
            let cut = |i: usize| {
                explains[i]
                    .in_flight
                    .get(&before.place)
                    .is_some_and(|at| again.at >= *at)
            };
            let by_worker = (0..explains.len()).find(|&i| on_worker(i) && cut(i));
            let zombie = zombie_of(again).or_else(|| zombie_of(before));
            let by_node = (0..faults.len()).find(|&i| !on_worker(i) && cut(i));
            // A zombie's own processing is its pause's (its bound counts it), even of work a
            // kill cut before: the kill's is the owner's redo (owner, zombie, redo).
            match zombie_of(again).or(by_worker).or(zombie).or(by_node) {
                Some(i) => per_fault[i].0 += 1,
                None => {
                    unexplained += 1;
                    first_unexplained.get_or_insert_with(|| {
                        format!(
                            "p{p} offset {o}: {} then {}",
                            logs[before.place.0].name, logs[again.place.0].name
                        )
                    });
                }
            }
        }
    }
    // The forming's count is last: within its bound by construction (each duplicate it takes
    // is one of its in-flight processings), and no fault's row.
    per_fault.truncate(faults.len());
    Blame {
        per_fault,
        unexplained,
        first_unexplained,
        unexplained_exits,
    }
}

/// The run of a worker that ended in an exit: its log, where the run began (its `start`
/// line's time), the line of the restart that followed the exit (the log's end if none), and
/// the time of the worker's own last line before it (not the runner's `stop`: a worker stuck
/// in a call may end on its own while it is being stopped).
struct Run {
    log: usize,
    began: NaiveDateTime,
    restart: usize,
    last: Option<NaiveDateTime>,
}

/// The run `e` ended, if the worker has a log with lines before the exit.
fn run(logs: &[WorkerLog], e: &Exit) -> Option<Run> {
    let log = logs.iter().position(|l| l.name == e.worker)?;
    let lines = &logs[log].lines;
    // The runner writes its `exited` line, then starts the worker, whose log opens with `start`.
    let restart = (0..lines.len())
        .find(|&i| lines[i].event == Event::Start && lines[i].at >= e.found)
        .unwrap_or(lines.len());
    let began = lines[..restart]
        .iter()
        .rev()
        .find(|l| l.event == Event::Start)
        .or(lines.first())?
        .at;
    let last = lines[..restart]
        .iter()
        .rev()
        .find(|l| !matches!(l.event, Event::Start | Event::Stop))
        .map(|l| l.at);
    Some(Run {
        log,
        began,
        restart,
        last,
    })
}

/// Whether the exit `e` (its run `r`) is fault `f`'s doing: the worker said it failed on the
/// store `f` broke, its run was under way while the store was broken, and it exited after the
/// fault came. A stopped PostgreSQL cuts every connection, and a worker finds out at its next
/// use of the database, however late (one that owned nothing, at its next assignment): a run
/// that began before the database was back may exit at any time after. A node's death (the
/// output's leader, or any node: each coordinates some transactions) only disturbs the
/// transactional calls made around it: the worker's last line is within the fault's window.
fn store_victim(f: &Fault, e: &Exit, r: &Run) -> bool {
    let said = |words: &[&str]| {
        e.last_line.starts_with("krb-worker: ") && words.iter().any(|w| e.last_line.contains(w))
    };
    let under_way = r.began < f.healed && e.found >= f.at;
    match f.kind {
        // Every error the worker makes of its database names the database's URL.
        FaultKind::RestartDb => under_way && said(&["postgres://"]),
        // The transactional calls (init, begin, send offsets, commit, abort, and the
        // watchdog's line naming the stuck call) and the output's produce.
        FaultKind::KillOutputLeader
        | FaultKind::KillCoordinator
        | FaultKind::KillLeader
        | FaultKind::Roll => {
            under_way
                && said(&["transaction", "cannot produce to "])
                && r.last
                    .is_none_or(|at| at <= f.healed + TimeDelta::seconds(AFTERMATH_SEC))
        }
        _ => false,
    }
}

/// What fault `f` may explain; `runs` are the runs `exits` ended. Work below what was
/// committed when the fault came (`commits`: by any worker, or seen by the sampler) was in
/// nobody's flight.
fn explains(
    logs: &[WorkerLog],
    f: &Fault,
    exits: &[Exit],
    runs: &[Option<Run>],
    commits: &Commits,
) -> Explains {
    let mut x = Explains::default();
    let victim = logs.iter().position(|l| l.name == f.target);
    if let (FaultKind::Kill | FaultKind::Pause, Some(v)) = (f.kind, victim) {
        let lines = &logs[v].lines;
        let upto = lines.partition_point(|e| e.at <= f.at);
        // The victim's work in flight is of the partitions it held or was handing back
        // (killed inside its revoke commit); its zombie's, of those it held.
        let held = Held::before(lines, upto);
        for line in in_flight(lines, upto, None) {
            x.in_flight.insert((v, line), f.at);
        }
        if f.kind == FaultKind::Pause {
            let end = lines[upto..]
                .iter()
                .find(|e| ends_assignment(&e.event))
                .map_or(f.healed, |e| e.at);
            x.zombie_work = lines[upto..]
                .iter()
                .take_while(|e| e.at <= end)
                .filter(|e| e.event.completion().is_some_and(|(p, _)| held.owns(p)))
                .map(|e| u64::from(e.times))
                .sum();
            x.zombie = Some((v, f.at, end, held));
        }
    }
    // A node's failure cuts short the work in flight at a `lost`, `commit failed` or
    // `transaction aborted` line of any worker in its window. A worker's fault makes the group
    // rebalance and so ends a generation: under cooperative-sticky and KIP-848 the workers that
    // keep their partitions go on across it, and a commit or a transaction's offsets sent with
    // the generation that ended are refused (ILLEGAL_GENERATION), so it cuts short the work in
    // flight at their `commit failed` and `transaction aborted` lines in its window.
    let until = f.healed + TimeDelta::seconds(AFTERMATH_SEC);
    disturbed(logs, f.at, until, !f.kind.on_worker(), &mut x);
    if !f.kind.on_worker() {
        for (i, (e, r)) in exits.iter().zip(runs).enumerate() {
            let Some(r) = r.as_ref().filter(|r| store_victim(f, e, r)) else {
                continue;
            };
            x.exits.insert(i);
            if r.last.is_none() {
                continue;
            }
            for line in in_flight(&logs[r.log].lines, r.restart, None) {
                x.in_flight.entry((r.log, line)).or_insert(f.at);
            }
        }
    }
    x.in_flight.retain(|&(w, line), _| {
        logs[w].lines[line].event.completion().is_none_or(|(p, o)| {
            commits
                .high(p, f.at)
                .is_none_or(|(committed, _)| o >= committed)
        })
    });
    x
}

/// What the group's forming may explain: the work in flight at each `commit failed` and
/// `transaction aborted` line within [`FORMING_SEC`] of an `assigned` or `revoked` line of any
/// worker before the first fault (each a rebalance that took a starting worker in; under
/// cooperative-sticky a second one gives out what the first revoked), but the group's first
/// assignment, which ends no generation.
fn forming(logs: &[WorkerLog], faults: &[Fault]) -> Explains {
    let first_fault = faults.iter().map(|f| f.at).min();
    let before_faults = |at: &NaiveDateTime| first_fault.is_none_or(|f| *at < f);
    let mut rebalances: Vec<(NaiveDateTime, bool)> = logs
        .iter()
        .flat_map(|l| &l.lines)
        .filter(|e| before_faults(&e.at))
        .filter_map(|e| match e.event {
            Event::Assigned(_) => Some((e.at, true)),
            Event::Revoked(_) => Some((e.at, false)),
            _ => None,
        })
        .collect();
    rebalances.sort_unstable();
    if let Some(first) = rebalances.iter().position(|&(_, assigned)| assigned) {
        rebalances.remove(first);
    }
    let near = TimeDelta::seconds(FORMING_SEC);
    let mut x = Explains::default();
    for (at, _) in rebalances {
        let until = first_fault.map_or(at + near, |f| (at + near).min(f));
        disturbed(logs, at - near, until, false, &mut x);
    }
    x
}

/// Adds to `x` the work in flight at each `commit failed` and `transaction aborted` line (and,
/// with `lost_too`, each `lost` line, for the partitions it names) of any worker from `from`
/// until `until`, cut short at `from`.
fn disturbed(
    logs: &[WorkerLog],
    from: NaiveDateTime,
    until: NaiveDateTime,
    lost_too: bool,
    x: &mut Explains,
) {
    for (w, log) in logs.iter().enumerate() {
        for (i, e) in log.lines.iter().enumerate() {
            if e.at < from || e.at > until {
                continue;
            }
            let only = match &e.event {
                Event::Lost(ps) if lost_too => Some(ps),
                Event::CommitFailed(_) | Event::TxnAborted(_) => None,
                _ => continue,
            };
            // Cut short by the fault, not by the line that shows it: a worker stuck or cut off
            // learns it lost its partitions after their new owner redid its work.
            for line in in_flight(&log.lines, i, only) {
                x.in_flight.entry((w, line)).or_insert(from);
            }
        }
    }
}

/// The lines of the completions a worker had in flight just before `lines[upto]`: since its
/// last successful commit past them, in the assignment it still held (or was handing back), of the partitions `only`
/// names (all for `None`). An assignment ends at a restart, a `lost` line, and an aborted
/// transaction (kafka-eos rewinds to the committed offsets; what it redoes was cut short by
/// what made it abort); a `revoked` one after the revoke commit that follows it (its failure
/// leaves the work in flight at that `commit failed` line).
fn in_flight(lines: &[Entry], upto: usize, only: Option<&Vec<Partition>>) -> Vec<usize> {
    let mut open: BTreeMap<Partition, Vec<(Offset, usize)>> = BTreeMap::new();
    let mut handing: BTreeSet<Partition> = BTreeSet::new();
    let mut held = Held::default();
    for (i, e) in lines[..upto].iter().enumerate() {
        held.apply(&e.event);
        let drop_handed = !matches!(
            e.event,
            Event::Commit(_) | Event::CommitFailed(_) | Event::TxnAborted(_)
        );
        if drop_handed {
            for p in std::mem::take(&mut handing) {
                open.remove(&p);
            }
        }
        match &e.event {
            Event::Start | Event::TxnAborted(_) => open.clear(),
            Event::Lost(ps) => ps.iter().for_each(|p| {
                open.remove(p);
            }),
            Event::Revoked(ps) => handing.extend(ps),
            Event::Commit(positions) => {
                for (p, next) in positions {
                    if let Some(list) = open.get_mut(p) {
                        list.retain(|(o, _)| o >= next);
                    }
                }
            }
            event => {
                // Work on a partition the worker did not hold is nobody's to have in flight.
                if let Some((p, o)) = event.completion().filter(|(p, _)| held.owns(*p)) {
                    open.entry(p).or_default().push((o, i));
                }
            }
        }
    }
    open.into_iter()
        .filter(|(p, _)| only.is_none_or(|ps| ps.contains(p)))
        .flat_map(|(_, list)| list.into_iter().map(|(_, i)| i))
        .collect()
}
