//! Which fault explains which duplicate (only work in flight that a later owner did again because
//! nobody had committed it), and each fault's bound, the size of what it may explain, both read
//! from the logs: each kind's rule, and why, in docs/en/internals/lab7-analysis.md ("Which fault
//! explains a duplicate"). An exit no store fault explains is itself unexplained.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{NaiveDateTime, TimeDelta};
use krb_log::logline::{format_time, Event, Offset, Partition};
use krb_log::reader::printable;
use krb_log::trial_log::{Exit, Fault, FaultKind, FaultLog};
use krb_log::worker_log::{Entry, WorkerLog};

use super::invariants::{ends_assignment, Commits, Held};
use super::Processing;

/// How long after a node's fault is healed a worker may still lose its partitions or fail a
/// commit because of it: the group finds its coordinator again and rebalances.
const AFTERMATH_SEC: i64 = 10;

/// How far from a rebalance's `assigned` or `revoked` line a commit of the generation it ended may
/// be refused: the workers send their next transaction's offsets (every 20 messages in lab 7)
/// within a second of it, and the line may come a few milliseconds after they learn of it.
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

/// What every fault's explanation reads, each read once, so that a faults file far longer than
/// the logs costs time linear in both: the logs by name, the work in flight at each line that
/// shows it cut short, and the runs the exits ended.
struct Trial<'a> {
    logs: &'a [WorkerLog],
    named: HashMap<&'a str, usize>,
    disturbances: Vec<Disturbance>,
    exits: &'a [Exit],
    runs: Vec<Option<Run>>,
    /// The exits with a run, by when they were found.
    found: Vec<usize>,
}

/// A `commit failed`, `transaction aborted` or `lost` line, and the work in flight at it (of
/// the partitions a `lost` line names).
struct Disturbance {
    at: NaiveDateTime,
    log: usize,
    lost: bool,
    in_flight: Vec<usize>,
}

/// Gives each duplicate processing to a fault, in the order lab7-analysis.md gives: the latest
/// pause whose zombie did it, the earliest worker fault that cut short the processing it redoes,
/// the pause whose zombie did that one, the earliest node's fault that cut that one short.
pub(super) fn attribute(
    logs: &[WorkerLog],
    log: &FaultLog,
    commits: &Commits,
    processings: &BTreeMap<(Partition, Offset), Vec<Processing>>,
) -> Blame {
    let (faults, exits) = (&log.faults, &log.exits);
    let t = Trial::new(logs, exits);
    let mut explains = t.victims(faults);
    for (f, x) in faults.iter().zip(&mut explains) {
        t.explains(f, commits, x);
    }
    // The group's forming's, which a worker's fault's come before.
    explains.push(t.forming(faults));
    let on_worker = |i: usize| faults.get(i).is_none_or(|f| f.kind.on_worker());
    let explained: BTreeSet<_> = explains.iter().flat_map(|x| &x.exits).collect();
    let unexplained_exits = exits
        .iter()
        .enumerate()
        .filter(|(i, _)| !explained.contains(i))
        .map(|(_, e)| {
            // Both from the faults file, as a worker wrote them: printed as text.
            let (worker, last) = (printable(&e.worker), printable(&e.last_line));
            let found = format_time(e.found.time());
            format!("{worker} exited ({last}), found at {found}")
        })
        .collect();
    let mut per_fault: Vec<(u64, u64)> = explains
        .iter()
        .map(|x| (0, x.in_flight.len() as u64 + x.zombie_work))
        .collect();
    let zombies = zombies(&explains, processings);
    // Which faults cut each place short, and when, the earliest fault first.
    let mut cuts: HashMap<Place, Vec<(usize, NaiveDateTime)>> = HashMap::new();
    for (i, x) in explains.into_iter().enumerate() {
        for (place, at) in x.in_flight {
            cuts.entry(place).or_default().push((i, at));
        }
    }
    let (mut unexplained, mut first_unexplained) = (0, None);
    for ((p, o), list) in processings {
        let zombie_of = |k: usize| zombies.get(&list[k].place).copied();
        // A zombie's processing is a side branch: the owner's work goes on from its own
        // last processing, so a redo is matched with the latest earlier processing no zombie
        // did (owner, zombie, redo after a kill: the kill cut the owner's).
        let mut owner = None;
        for k in 1..list.len() {
            if zombie_of(k - 1).is_none() {
                owner = Some(k - 1);
            }
            let (again, b) = (&list[k], owner.unwrap_or(k - 1));
            let before = &list[b];
            let cut = |worker: bool| {
                cuts.get(&before.place)?
                    .iter()
                    .find(|&&(i, at)| on_worker(i) == worker && again.at >= at)
                    .map(|&(i, _)| i)
            };
            // A zombie's own processing is its pause's (its bound counts it), even of work a
            // kill cut before: the kill's is the owner's redo (owner, zombie, redo).
            match zombie_of(k).or(cut(true)).or(zombie_of(b)).or(cut(false)) {
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

/// The pause (the latest) whose zombie did each duplicated processing in its window, of a
/// partition it held: one pass over each log's processings in time order, beside the windows
/// begun.
fn zombies(
    explains: &[Explains],
    processings: &BTreeMap<(Partition, Offset), Vec<Processing>>,
) -> HashMap<Place, usize> {
    let mut windows: Vec<_> = explains
        .iter()
        .enumerate()
        .filter_map(|(i, x)| {
            let (log, from, to, held) = x.zombie.as_ref()?;
            Some((*log, *from, i, *to, held))
        })
        .collect();
    windows.sort_unstable_by_key(|w| (w.0, w.1, w.2));
    let mut asked: Vec<_> = processings
        .iter()
        .filter(|(_, list)| list.len() > 1)
        .flat_map(|((p, _), list)| list.iter().map(move |x| (x.place.0, x.at, *p, x.place)))
        .collect();
    asked.sort_unstable();
    let (mut found, mut open, mut next, mut current) = (HashMap::new(), BTreeMap::new(), 0, None);
    for (log, at, p, place) in asked {
        if current.replace(log) != Some(log) {
            open.clear();
        }
        while let Some(&(l, _, i, to, held)) = windows.get(next).filter(|w| (w.0, w.1) <= (log, at))
        {
            if l == log {
                open.insert(i, (to, held));
            }
            next += 1;
        }
        // A window that ended before `at` is over for every later processing of this log.
        let mut over = Vec::new();
        for (&i, &(to, held)) in open.iter().rev() {
            if to < at {
                over.push(i);
            } else if held.owns(p) {
                found.insert(place, i);
                break;
            }
        }
        for i in over {
            open.remove(&i);
        }
    }
    found
}

impl<'a> Trial<'a> {
    fn new(logs: &'a [WorkerLog], exits: &'a [Exit]) -> Trial<'a> {
        let named: HashMap<&str, usize> = logs
            .iter()
            .enumerate()
            .rev()
            .map(|(i, l)| (l.name.as_str(), i))
            .collect();
        let mut disturbances = Vec::new();
        let mut wanted = Vec::new();
        for (w, log) in logs.iter().enumerate() {
            for (i, e) in log.lines.iter().enumerate() {
                if let Event::Lost(_) | Event::CommitFailed(_) | Event::TxnAborted(_) = e.event {
                    wanted.push((w, i, disturbances.len()));
                    disturbances.push(Disturbance {
                        at: e.at,
                        log: w,
                        lost: matches!(e.event, Event::Lost(_)),
                        in_flight: Vec::new(),
                    });
                }
            }
        }
        sweep(logs, wanted, |k, (_, upto), flight| {
            let d = &mut disturbances[k];
            d.in_flight = match &logs[d.log].lines[upto].event {
                Event::Lost(ps) => flight.lines(Some(ps)),
                _ => flight.lines(None),
            };
        });
        disturbances.sort_by_key(|d| d.at);
        let mut starts: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut runs: Vec<Option<Run>> = exits
            .iter()
            .map(|e| {
                let log = *named.get(e.worker.as_str())?;
                let lines = &logs[log].lines;
                let starts = starts.entry(log).or_insert_with(|| {
                    (0..lines.len())
                        .filter(|&i| lines[i].event == Event::Start)
                        .collect()
                });
                // The runner writes its `exited` line, then starts the worker, whose log opens
                // with `start`.
                let next = starts.partition_point(|&s| lines[s].at < e.found);
                let restart = starts.get(next).copied().unwrap_or(lines.len());
                let began = lines.get(next.checked_sub(1).map_or(0, |s| starts[s]))?.at;
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
                    in_flight: Vec::new(),
                })
            })
            .collect();
        let ends: Vec<_> = runs
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().map(|r| (r.log, r.restart, i)))
            .collect();
        let mut found: Vec<usize> = ends.iter().map(|&(.., i)| i).collect();
        found.sort_by_key(|&i| exits[i].found);
        sweep(logs, ends, |i, _, flight| {
            if let Some(r) = runs[i].as_mut() {
                r.in_flight = flight.lines(None);
            }
        });
        Trial {
            logs,
            named,
            disturbances,
            exits,
            runs,
            found,
        }
    }

    /// What each kill and pause may explain of its victim's work (the rest of each fault's
    /// explanation is added by [`Trial::explains`]): its work in flight when the fault came, of
    /// the partitions it held or was handing back (killed inside its revoke commit); for a pause
    /// its zombie's window and work, of those it held.
    fn victims(&self, faults: &[Fault]) -> Vec<Explains> {
        let mut explains: Vec<Explains> = faults.iter().map(|_| Explains::default()).collect();
        let wanted: Vec<_> = faults
            .iter()
            .enumerate()
            .filter(|(_, f)| matches!(f.kind, FaultKind::Kill | FaultKind::Pause))
            .filter_map(|(i, f)| {
                let v = *self.named.get(f.target.as_str())?;
                Some((v, self.logs[v].lines.partition_point(|e| e.at <= f.at), i))
            })
            .collect();
        let mut awake: HashMap<usize, Awake> = HashMap::new();
        sweep(self.logs, wanted, |i, (v, upto), flight| {
            let (f, x) = (&faults[i], &mut explains[i]);
            x.in_flight
                .extend(flight.lines(None).into_iter().map(|line| ((v, line), f.at)));
            if f.kind == FaultKind::Pause {
                let lines = &self.logs[v].lines;
                let awake = awake.entry(v).or_insert_with(|| Awake::new(lines));
                let (end, work) = awake.window(lines, upto, f.healed, &flight.held);
                x.zombie_work = work;
                x.zombie = Some((v, f.at, end, flight.held.clone()));
            }
        });
        explains
    }

    /// Adds to `x` (its victim's part done) what fault `f` may explain of the other workers'
    /// work. Work below what was committed when the fault came (`commits`: by any worker, or
    /// seen by the sampler) was in nobody's flight.
    fn explains(&self, f: &Fault, commits: &Commits, x: &mut Explains) {
        // A node's failure cuts short the work in flight at any worker's `lost`, `commit
        // failed` or `transaction aborted` line in its window; a worker's fault, at the last two
        // only: it ends a generation, and what was sent with that one is refused
        // (ILLEGAL_GENERATION).
        let until = f.healed + TimeDelta::seconds(AFTERMATH_SEC);
        self.disturbed(f.at, until, !f.kind.on_worker(), x);
        if !f.kind.on_worker() {
            let from = self.found.partition_point(|&i| self.exits[i].found < f.at);
            for &i in &self.found[from..] {
                let run = self.runs[i].as_ref();
                if let Some(r) = run.filter(|r| store_victim(f, &self.exits[i], r)) {
                    x.exits.insert(i);
                    for &line in &r.in_flight {
                        x.in_flight.entry((r.log, line)).or_insert(f.at);
                    }
                }
            }
        }
        x.in_flight.retain(|&(w, line), _| {
            self.logs[w].lines[line]
                .event
                .completion()
                .is_none_or(|(p, o)| {
                    commits
                        .high(p, f.at)
                        .is_none_or(|(committed, _)| o >= committed)
                })
        });
    }

    /// What the group's forming may explain: the work in flight at each `commit failed` and
    /// `transaction aborted` line within [`FORMING_SEC`] of any `assigned` or `revoked` line before
    /// the first fault but the group's first assignment, which ends no generation.
    fn forming(&self, faults: &[Fault]) -> Explains {
        let first_fault = faults.iter().map(|f| f.at).min();
        let mut rebalances: Vec<(NaiveDateTime, bool)> = self
            .logs
            .iter()
            .flat_map(|l| &l.lines)
            .filter(|e| first_fault.is_none_or(|f| e.at < f))
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
            self.disturbed(at - near, until, false, &mut x);
        }
        x
    }

    /// Adds to `x` the work in flight at each `commit failed` and `transaction aborted` line
    /// (and, with `lost_too`, each `lost` line, for the partitions it names) of any worker from
    /// `from` until `until`, cut short at `from`: a worker stuck or cut off learns it lost its
    /// partitions after their new owner redid its work.
    fn disturbed(
        &self,
        from: NaiveDateTime,
        until: NaiveDateTime,
        lost_too: bool,
        x: &mut Explains,
    ) {
        let first = self.disturbances.partition_point(|d| d.at < from);
        let within = self.disturbances[first..]
            .iter()
            .take_while(|d| d.at <= until);
        for d in within.filter(|d| lost_too || !d.lost) {
            for &line in &d.in_flight {
                x.in_flight.entry((d.log, line)).or_insert(from);
            }
        }
    }
}

/// The run of a worker that ended in an exit: its log, where the run began (its `start`
/// line's time), the line of the restart that followed the exit (the log's end if none), the
/// time of the worker's own last line before it (not the runner's `stop`: a worker stuck
/// in a call may end on its own while it is being stopped), and its work in flight then.
struct Run {
    log: usize,
    began: NaiveDateTime,
    restart: usize,
    last: Option<NaiveDateTime>,
    in_flight: Vec<usize>,
}

/// Whether the exit `e` (its run `r`) is fault `f`'s doing: the worker said it failed on the
/// store `f` broke, its run was under way while it was broken, it exited after the fault came
/// and, for a node's fault, its last line is within the fault's window: a cut database connection
/// is found at its next use, however late, a node's death disturbs only the calls made around it.
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

/// A paused worker's log read for its zombies' windows: where each assignment ends, and how
/// many completions of partitions it held came before each line.
struct Awake {
    ends: Vec<usize>,
    owned: Vec<u64>,
}

impl Awake {
    fn new(lines: &[Entry]) -> Awake {
        let (mut held, mut ends, mut owned) = (Held::default(), Vec::new(), vec![0]);
        for (i, e) in lines.iter().enumerate() {
            held.apply(&e.event);
            if ends_assignment(&e.event) {
                ends.push(i);
            }
            let mine = e.event.completion().is_some_and(|(p, _)| held.owns(p));
            owned.push(owned[i] + u64::from(mine) * u64::from(e.times));
        }
        Awake { ends, owned }
    }

    /// The end of the zombie's window of a pause before `lines[upto]`, healed at `healed`,
    /// holding `held` (its next rebalance event's time, else `healed`), and how many
    /// completions of the partitions it held it made in it. Up to that event the worker holds
    /// what it held at the pause, so the counts before each line say it.
    fn window(
        &self,
        lines: &[Entry],
        upto: usize,
        healed: NaiveDateTime,
        held: &Held,
    ) -> (NaiveDateTime, u64) {
        let event = self.ends.get(self.ends.partition_point(|&j| j < upto));
        let end = event.map_or(healed, |&j| lines[j].at);
        let stop = upto + lines[upto..].partition_point(|e| e.at <= end);
        let same = event.map_or(stop, |&j| j.min(stop));
        // Lines after the event at its very time, when the worker holds something else.
        let after = lines[same..stop]
            .iter()
            .filter(|e| e.event.completion().is_some_and(|(p, _)| held.owns(p)))
            .map(|e| u64::from(e.times))
            .sum::<u64>();
        (end, self.owned[same] - self.owned[upto] + after)
    }
}

/// A worker's work in flight, read line by line: the completions since its last successful
/// commit past them, in the assignment it still held or was handing back (lab7-analysis.md). An
/// assignment ends at a restart, a `lost` line and an aborted transaction (kafka-eos rewinds); a
/// `revoked` one after the revoke commit that follows it.
#[derive(Default)]
struct Flight {
    open: BTreeMap<Partition, Vec<(Offset, usize)>>,
    handing: BTreeSet<Partition>,
    held: Held,
    read: usize,
}

impl Flight {
    /// Reads on to just before `lines[upto]`.
    fn read(&mut self, lines: &[Entry], upto: usize) {
        for (i, e) in lines.iter().enumerate().take(upto).skip(self.read) {
            self.held.apply(&e.event);
            let drop_handed = !matches!(
                e.event,
                Event::Commit(_) | Event::CommitFailed(_) | Event::TxnAborted(_)
            );
            if drop_handed {
                for p in std::mem::take(&mut self.handing) {
                    self.open.remove(&p);
                }
            }
            match &e.event {
                Event::Start | Event::TxnAborted(_) => self.open.clear(),
                Event::Lost(ps) => ps.iter().for_each(|p| {
                    self.open.remove(p);
                }),
                Event::Revoked(ps) => self.handing.extend(ps),
                Event::Commit(positions) => {
                    for (p, next) in positions {
                        if let Some(list) = self.open.get_mut(p) {
                            list.retain(|(o, _)| o >= next);
                        }
                    }
                }
                event => {
                    // Work on a partition the worker did not hold is nobody's to have in flight.
                    if let Some((p, o)) = event.completion().filter(|(p, _)| self.held.owns(*p)) {
                        self.open.entry(p).or_default().push((o, i));
                    }
                }
            }
        }
        self.read = self.read.max(upto);
    }

    /// The lines of the work in flight, of the partitions `only` names (all for `None`).
    fn lines(&self, only: Option<&Vec<Partition>>) -> Vec<usize> {
        self.open
            .iter()
            .filter(|(p, _)| only.is_none_or(|ps| ps.contains(p)))
            .flat_map(|(_, list)| list.iter().map(|&(_, i)| i))
            .collect()
    }
}

/// Calls `each` with the tag, the place and the work in flight just before each of `wanted`
/// (log, line, tag), reading each log once.
fn sweep(
    logs: &[WorkerLog],
    mut wanted: Vec<(usize, usize, usize)>,
    mut each: impl FnMut(usize, Place, &Flight),
) {
    wanted.sort_unstable();
    let mut flight = (usize::MAX, Flight::default());
    for (log, upto, tag) in wanted {
        if flight.0 != log {
            flight = (log, Flight::default());
        }
        flight.1.read(&logs[log].lines, upto);
        each(tag, (log, upto), &flight.1);
    }
}
