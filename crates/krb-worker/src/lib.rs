//! The lab's manual-commit consumer (the article's worker.py).
//!
//! Auto-commit is off. A message counts as processed when its processing ends; every
//! `--commit-every` processed messages the worker commits, synchronously, the next position of
//! every partition it still owns whose position advanced. Rebalances are logged as they happen,
//! and with `--revoke-commit` the worker commits inside the revoke callback before handing its
//! partitions back. Every line follows [`krb_common::logline`].

mod args;
mod effect;
mod eos;
mod lines;
mod positions;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use args::seconds;
pub use args::Args;
use effect::Effects;
use eos::{Eos, Failed};
pub use krb_common::group::{Assignor, GroupProtocol};
use krb_common::kafka_error::{code_of, error_description, render, render_commit_error};
use krb_common::logline::{format_time, Event, Line, Partition};
use krb_common::out::stderr_line;
use krb_common::rdlog::{LogThread, MAXPOLL};
use krb_effect::{Outcome, Row};
pub use positions::Positions;
use rdkafka::client::ClientContext;
use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer, ConsumerContext, Rebalance};
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::message::Message;
use rdkafka::{Offset as KafkaOffset, TopicPartitionList};

/// Writes one log line to stdout, whole and at once (so `tail -f` is live).
fn emit(name: &str, event: Event) {
    lines::line(&Line {
        time: krb_common::logline::now(),
        name,
        event: &event,
    });
}

/// The consumer's context: the rebalance callbacks, the positions they commit and the effects
/// whose positions (db-offsets) say where an assigned partition starts.
pub struct Worker {
    name: String,
    topic: String,
    revoke_commit: bool,
    positions: Mutex<Positions>,
    effects: Mutex<Effects>,
    /// `--effect kafka-eos`: the transactional producer its commits go through.
    eos: Option<Mutex<Eos>>,
    /// An error met inside a rebalance callback, which cannot return it, for the loop to end on.
    failed: Mutex<Option<anyhow::Error>>,
}

/// Locks a mutex; a panic elsewhere while it was held leaves its value usable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl ClientContext for Worker {}

fn partitions(tpl: &TopicPartitionList) -> Vec<Partition> {
    let mut ps: Vec<Partition> = tpl.elements().iter().map(|e| e.partition()).collect();
    ps.sort_unstable();
    ps
}

impl Worker {
    fn effects(&self) -> MutexGuard<'_, Effects> {
        lock(&self.effects)
    }

    /// Keeps the first error met in a rebalance callback for the loop.
    fn fail(&self, err: anyhow::Error) {
        lock(&self.failed).get_or_insert(err);
    }

    /// The error met in a rebalance callback, once.
    fn take_failure(&self) -> Option<anyhow::Error> {
        lock(&self.failed).take()
    }

    /// Commits, synchronously, the advanced positions or, when handing `revoked` partitions
    /// back, every position processed on them (so the hand-over is always on record), and logs it.
    /// With kafka-eos the open transaction commits them, whatever was revoked.
    fn commit(&self, consumer: &BaseConsumer<Worker>, revoked: Option<&[Partition]>) {
        // Every line of the work a commit covers is written before the commit.
        lines::flush();
        let mut positions = lock(&self.positions);
        let pending = match revoked {
            Some(ps) if self.eos.is_none() => positions.of(ps),
            _ => positions.uncommitted(),
        };
        if pending.is_empty() {
            return;
        }
        if let Err(e) = self.effects().flush() {
            self.fail(e);
            return;
        }
        if let Some(eos) = &self.eos {
            let Some(group) = consumer.group_metadata() else {
                self.fail(anyhow::anyhow!(
                    "the consumer has no group metadata to commit with"
                ));
                return;
            };
            let done = lock(eos).commit(&self.topic, &pending, &group);
            match done {
                Ok(()) => {
                    positions.committed(&pending);
                    emit(&self.name, Event::Commit(pending));
                }
                Err(Failed::Aborted(why)) => {
                    emit(&self.name, Event::TxnAborted(why));
                    rewind(consumer, &mut positions);
                }
                Err(Failed::Fatal(e)) => self.fail(e),
            }
            return;
        }
        let mut tpl = TopicPartitionList::new();
        for (p, o) in &pending {
            // A position is always a valid offset; add_partition_offset only fails for INVALID.
            let _ = tpl.add_partition_offset(&self.topic, *p, KafkaOffset::Offset(*o));
        }
        match consumer.commit(&tpl, CommitMode::Sync) {
            Ok(()) => {
                positions.committed(&pending);
                emit(&self.name, Event::Commit(pending));
            }
            Err(e) => emit(&self.name, Event::CommitFailed(render_commit_error(&e))),
        }
    }

    /// kafka-eos, on losing partitions: the open transaction holds their output, which the new
    /// owner produces again; abort it.
    fn abort_lost(&self, consumer: &BaseConsumer<Worker>) {
        let Some(eos) = &self.eos else {
            return;
        };
        let aborted = lock(eos).abort();
        match aborted {
            Ok(false) => {}
            Ok(true) => {
                emit(&self.name, Event::TxnAborted(eos::lost_reason()));
                rewind(consumer, &mut lock(&self.positions));
            }
            Err(Failed::Aborted(why)) => emit(&self.name, Event::TxnAborted(why)),
            Err(Failed::Fatal(e)) => self.fail(e),
        }
    }
}

/// After an aborted transaction its messages' output is gone: the worker goes back to its last
/// committed positions (Kafka's, for partitions it never committed) and processes them again.
fn rewind(consumer: &BaseConsumer<Worker>, positions: &mut Positions) {
    positions.rewind();
    let Ok(committed) = consumer.committed(Duration::from_secs(10)) else {
        return;
    };
    let mut seek = TopicPartitionList::new();
    for e in committed.elements() {
        let at = match e.offset() {
            KafkaOffset::Offset(o) => KafkaOffset::Offset(o),
            _ => KafkaOffset::Beginning,
        };
        let _ = seek.add_partition_offset(e.topic(), e.partition(), at);
    }
    // A partition being taken away cannot be sought; its new owner starts at the commit anyway.
    let _ = consumer.seek_partitions(seek, Duration::from_secs(10));
}

impl ConsumerContext for Worker {
    fn pre_rebalance(&self, consumer: &BaseConsumer<Self>, rebalance: &Rebalance<'_>) {
        match rebalance {
            Rebalance::Assign(tpl) => {
                let ps = partitions(tpl);
                emit(&self.name, Event::Assigned(ps.clone()));
                let starts = self.effects().starts(&self.topic, &ps);
                let starts = starts.unwrap_or_else(|e| {
                    self.fail(e);
                    Vec::new()
                });
                // Set in the list that is assigned next, so fetching starts there.
                for mut e in tpl.elements() {
                    if let Some((_, o)) = starts.iter().find(|(p, _)| *p == e.partition()) {
                        let _ = e.set_offset(KafkaOffset::Offset(*o));
                    }
                }
            }
            Rebalance::Revoke(tpl) => {
                let ps = partitions(tpl);
                // The next owner reads what this worker applied: the effects go in first.
                if let Err(e) = self.effects().flush() {
                    self.fail(e);
                }
                // librdkafka reports a lost assignment through the same revoke event.
                if consumer.assignment_lost() {
                    emit(&self.name, Event::Lost(ps.clone()));
                    self.abort_lost(consumer);
                } else {
                    emit(&self.name, Event::Revoked(ps.clone()));
                    if self.revoke_commit || self.eos.is_some() {
                        self.commit(consumer, Some(&ps));
                    }
                }
                lock(&self.positions).forget(&ps);
                self.effects().forget(&ps);
            }
            Rebalance::Error(e) => stderr_line(&format!("{}: rebalance error: {e}", self.name)),
        }
    }
}

/// The text of a poll error as librdkafka wrote it. rust-rdkafka keeps only the code of a poll
/// error; for `_MAX_POLL_EXCEEDED` librdkafka wrote the same text, with the same numbers, in
/// its MAXPOLL warning, which the log thread saw first.
fn poll_error_text(code: i32, log: &LogThread<'_>) -> String {
    if code == RDKafkaErrorCode::PollExceeded as i32 {
        if let Some(text) = log.last_text(MAXPOLL) {
            return text.split(" (adjust").next().unwrap_or(&text).to_string();
        }
    }
    error_description(code)
}

/// Runs the worker until SIGTERM or SIGINT.
pub fn run(args: Args) -> Result<()> {
    args.validate()?;
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        // The first signal asks for a clean stop; a second one, while the worker still waits
        // (for a slow message, a commit, a broker that does not answer), ends it at once.
        signal_hook::flag::register_conditional_shutdown(signal, FORCED_EXIT, stop.clone())
            .context("cannot install signal handler")?;
        signal_hook::flag::register(signal, stop.clone())
            .context("cannot install signal handler")?;
    }
    let delay = seconds("--delay", args.delay)?;
    let _written = lines::FlushOnDrop;
    if delay.is_zero() && args.slow_at.is_none() {
        lines::gather();
    }
    // The database answers before the worker joins its group, or the worker does not start.
    let effects = Effects::open(args.effect, args.db.as_deref())?;
    let eos = match args.db.as_deref().and_then(krb_effect::kafka_topic) {
        Some(output) if args.effect == krb_effect::Kind::KafkaEos => {
            Some(Mutex::new(Eos::start(&args, output)?))
        }
        _ => None,
    };
    let slow = seconds("--slow-sec", args.slow_sec)?;
    // The names Kafka knows (a namespace prefixes them); the worker's own name is the log's.
    let topic = args.broker.name(&args.topic);
    let group = args.broker.name(&args.group);
    let worker = Worker {
        name: args.name.clone(),
        topic: topic.clone(),
        revoke_commit: args.revoke_commit,
        positions: Mutex::new(Positions::default()),
        effects: Mutex::new(effects),
        eos,
        failed: Mutex::new(None),
    };
    let consumer: BaseConsumer<Worker> = args
        .config()
        .create_with_context(worker)
        .context("cannot create the consumer")?;
    emit(
        &args.name,
        Event::Consumes {
            topic: topic.clone(),
            group: group.clone(),
        },
    );
    let log = LogThread::start(consumer.client());
    args.broker
        .topic_partitions(consumer.client(), &args.topic)?;
    consumer
        .subscribe(&[&topic])
        .with_context(|| format!("cannot subscribe to {topic}"))?;

    let worker = consumer.context().clone();
    let mut since_commit = 0u64;
    // -e: the partitions read to their end since their last message.
    let mut at_end = BTreeSet::new();
    while !stop.load(Ordering::Relaxed) {
        let polled = consumer.poll(Duration::from_millis(100));
        if let Some(e) = worker.take_failure() {
            return Err(e);
        }
        let message = match polled {
            // Nothing to process: the effects applied so far go in while the worker waits.
            None => {
                worker.effects().flush()?;
                lines::flush();
                continue;
            }
            Some(Err(KafkaError::PartitionEOF(p))) => {
                at_end.insert(p);
                let assigned = consumer
                    .assignment()
                    .context("cannot read the assignment")?;
                let assigned: Vec<_> = assigned.elements().iter().map(|e| e.partition()).collect();
                if !assigned.is_empty() && assigned.iter().all(|p| at_end.contains(p)) {
                    break;
                }
                continue;
            }
            Some(Err(e)) => {
                let code = code_of(&e).unwrap_or(-1);
                emit(
                    &args.name,
                    Event::PollError(render(code, &poll_error_text(code, &log))),
                );
                // A fatal error (a static member fenced by another with its instance id) leaves
                // the consumer unusable: say so and exit instead of polling forever.
                if let Some((code, reason)) = consumer.client().fatal_error() {
                    bail!(
                        "fatal error, the consumer cannot go on: {}",
                        render(code as i32, &reason)
                    );
                }
                continue;
            }
            Some(Ok(m)) => m,
        };
        let (partition, offset) = (message.partition(), message.offset());
        at_end.remove(&partition);
        let took = if args.slow_at == Some(offset) {
            emit(&args.name, Event::SlowStart { partition, offset });
            slow
        } else {
            delay
        };
        // No database transaction stays open while the worker waits.
        if !took.is_zero() {
            worker.effects().flush()?;
        }
        std::thread::sleep(took);
        // A database that fails ends the worker here, before anything past it is committed.
        let outcome = worker.effects().apply(|| Row {
            topic: topic.clone(),
            partition,
            offset,
            payload: message
                .payload()
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .unwrap_or_default(),
            worker: args.name.clone(),
            at: format_time(krb_common::logline::now()),
        })?;
        drop(message);
        if let Some(eos) = &worker.eos {
            lock(eos).produce(&args.name, &topic, partition, offset)?;
        }
        emit(
            &args.name,
            match outcome {
                Outcome::Applied => Event::Processed { partition, offset },
                Outcome::AlreadyApplied => Event::AlreadyApplied { partition, offset },
                Outcome::Refused => Event::Refused { partition, offset },
            },
        );
        // A refused effect is not applied: no commit may pass it.
        if outcome != Outcome::Refused {
            lock(&worker.positions).processed(partition, offset);
        }
        since_commit += 1;
        if since_commit >= args.commit_every {
            since_commit = 0;
            worker.commit(&consumer, None);
            if let Some(e) = worker.take_failure() {
                return Err(e);
            }
        }
    }

    // Leave the group: the revoke callback runs inside these polls (and commits with
    // --revoke-commit); messages still arriving are not processed.
    consumer
        .close_queue()
        .context("cannot close the consumer")?;
    let closing = std::time::Instant::now();
    while !consumer.closed() {
        // Short polls: the loop only learns the consumer has closed between two of them.
        let _ = consumer.poll(CLOSE_POLL);
        if closing.elapsed() > CLOSE_TIMEOUT {
            bail!(
                "could not leave group {group} within {} s: is the broker at {} reachable?",
                CLOSE_TIMEOUT.as_secs(),
                args.broker.bootstrap
            );
        }
    }
    drop(log);
    // Whatever a revoke did not flush (there was none to run) goes in before the worker ends.
    let flushed = worker.effects().flush();
    flushed
}

/// The exit status when a second SIGTERM or SIGINT ends the worker before its clean stop.
pub const FORCED_EXIT: i32 = 130;

/// How long each poll of the closing loop waits (at 100 ms, the last one made every worker
/// exit up to 100 ms after it had left its group).
const CLOSE_POLL: Duration = Duration::from_millis(10);

/// How long leaving the group may take before the worker gives up on a clean stop.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(30);
