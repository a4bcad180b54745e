//! The loop: poll, process one message at a time, commit as `--commit-every` and
//! `--commit-interval-ms` say. No database transaction stays open while the worker waits, for a
//! message or for a processing's time: another worker on the same database (SQLite's write
//! lock, PostgreSQL's row locks) would wait for it.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use krb_effect::Row;
use krb_kafka::kafka_error::{code_of, error_description, render};
use krb_kafka::rdlog::{LogThread, MAXPOLL};
use krb_log::logline::{format_time, Event, Partition};
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::message::{Message, OwnedMessage};

use crate::cadence::SinceCommit;
use crate::eos::Failed;
use crate::rebalance::partitions;
use crate::{emit, lines, lock, Args, Worker};

/// How long a poll waits for a message once none is waiting.
const POLL: Duration = Duration::from_millis(100);

/// Consumes until `stop`, the end of every partition (-e) or an error.
pub fn consume(
    consumer: &BaseConsumer<Worker>,
    args: &Args,
    log: &LogThread<'_>,
    stop: &AtomicBool,
) -> Result<()> {
    let worker = consumer.context();
    let cadence = args.cadence();
    let mut since_commit = SinceCommit::new(Instant::now());
    // -e: the partitions read to their end since their last message.
    let mut at_end = BTreeSet::new();
    // --test-zombie: the message held back, until the zombie has processed one after a revoke.
    let mut held: Option<OwnedMessage> = None;
    let mut zombie = args.test_zombie;
    let commit_if_due = |since_commit: &mut SinceCommit| {
        // kafka-eos: a transaction open for [`crate::eos::OPEN_AT_MOST`] is due too.
        let open_too_long = worker.eos.as_ref().is_some_and(|e| lock(e).due());
        if since_commit.due(cadence, Instant::now()) || open_too_long {
            worker.commit(consumer, None);
            since_commit.committed(Instant::now());
        }
    };
    while !stop.load(Ordering::Relaxed) {
        let polled = match consumer.poll(Duration::ZERO) {
            Some(polled) => Some(polled),
            None => {
                // Nothing is waiting: what was applied goes in before the worker waits.
                worker.flush_effects(consumer, &[])?;
                lines::flush();
                commit_if_due(&mut since_commit);
                consumer.poll(POLL)
            }
        };
        if let Some(e) = worker.take_failure() {
            return Err(e);
        }
        let revoked = std::mem::take(&mut *lock(&worker.revoked));
        if let Some(h) = held.take_if(|_| !revoked.is_empty()) {
            let p = h.partition();
            match zombie_step(p, assigned(consumer)?.contains(&p), &revoked) {
                ZombieStep::Process => {
                    zombie = false;
                    process(consumer, args, h)?;
                }
                ZombieStep::Hold => held = Some(h),
                ZombieStep::Drop => {}
            }
        }
        let message = match polled {
            None => continue,
            Some(Err(KafkaError::PartitionEOF(p))) => {
                at_end.insert(p);
                let assigned = assigned(consumer)?;
                if !assigned.is_empty() && assigned.iter().all(|p| at_end.contains(p)) {
                    break;
                }
                continue;
            }
            Some(Err(e)) => {
                poll_error(consumer, args, log, &e)?;
                continue;
            }
            Some(Ok(m)) => m,
        };
        at_end.remove(&message.partition());
        if zombie {
            match held.replace(message.detach()) {
                Some(h) => process(consumer, args, h)?,
                None => continue,
            }
        } else {
            process(consumer, args, message)?;
        }
        since_commit.processed();
        commit_if_due(&mut since_commit);
        if let Some(e) = worker.take_failure() {
            return Err(e);
        }
    }
    Ok(())
}

pub(crate) fn assigned(consumer: &BaseConsumer<Worker>) -> Result<Vec<Partition>> {
    let assigned = consumer.assignment();
    Ok(partitions(&assigned.context("cannot read the assignment")?))
}

/// What `--test-zombie` does with the message it holds once revoke callbacks have run.
#[derive(Debug, PartialEq)]
enum ZombieStep {
    /// Its partition is no longer the worker's: the zombie's one processing, outside its
    /// assignment.
    Process,
    /// Its partition was not revoked: it stays the worker's, held until the next message.
    Hold,
    /// Revoked and assigned again in the same poll (eager): it comes again from the committed
    /// position, and the zombie waits for a revoke that takes its partition away.
    Drop,
}

fn zombie_step(partition: Partition, owned: bool, revoked: &[Partition]) -> ZombieStep {
    if !owned {
        ZombieStep::Process
    } else if revoked.contains(&partition) {
        ZombieStep::Drop
    } else {
        ZombieStep::Hold
    }
}

/// Processes one message: its time, its effect, its line. A database that fails ends the worker
/// here, before anything past it is committed. A database's effect is staged: the message's line
/// and position wait for the flush that decides it, at once unless the worker runs flat out, so
/// a worker that waits (for a processing's time, every lab's) never waits with effects staged.
fn process(consumer: &BaseConsumer<Worker>, args: &Args, message: impl Message) -> Result<()> {
    let worker = consumer.context();
    let (partition, offset) = (message.partition(), message.offset());
    let name = &args.worker.name;
    args.worker.process(partition, offset, |e| emit(name, e));
    if worker.effects().stores() {
        return stage(consumer, args, &message);
    }
    drop(message);
    if let Some(eos) = &worker.eos {
        let produced = lock(eos).produce(&args.worker.name, &worker.topic, partition, offset);
        match produced {
            Ok(()) => {}
            // The transaction failed with this message's output in it: it is not processed,
            // and comes again from the committed position with the rest.
            Err(Failed::Aborted(why)) => {
                emit(&args.worker.name, Event::TxnAborted(why));
                worker.rewind(consumer, &mut lock(&worker.positions), &[]);
                return Ok(());
            }
            Err(Failed::Fatal(e)) => return Err(e),
        }
    }
    emit(&args.worker.name, Event::Processed { partition, offset });
    lock(&worker.positions).processed(partition, offset);
    Ok(())
}

/// Stages a processed message's effect in the database, and flushes it at once unless the
/// worker runs flat out and the batch has room.
fn stage(consumer: &BaseConsumer<Worker>, args: &Args, message: &impl Message) -> Result<()> {
    let worker = consumer.context();
    let (partition, offset) = (message.partition(), message.offset());
    if !worker.effects().continues(&worker.topic, partition, offset) {
        // A partition caught up was sought to its stored position: this message, read before
        // the seek, comes again from there, and staged now it would move the position past
        // the messages in between.
        if worker.flush_effects(consumer, &[])?.contains(&partition) {
            return Ok(());
        }
    }
    let at = krb_log::logline::now();
    let row = Row {
        topic: worker.topic.clone(),
        partition,
        offset,
        payload: message
            .payload()
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .unwrap_or_default(),
        worker: args.worker.name.clone(),
        at: format_time(at),
    };
    let full = worker.effects().apply(at, row)?;
    if !args.worker.gathers() || full {
        worker.flush_effects(consumer, &[])?;
    }
    Ok(())
}

/// Logs a poll error; a fatal one (a static member fenced by another with its instance id)
/// leaves the consumer unusable: the worker says so and exits instead of polling forever.
fn poll_error(
    consumer: &BaseConsumer<Worker>,
    args: &Args,
    log: &LogThread<'_>,
    e: &KafkaError,
) -> Result<()> {
    // The staged messages' lines come before this one.
    consumer.context().flush_effects(consumer, &[])?;
    let code = code_of(e).unwrap_or(-1);
    emit(
        &args.worker.name,
        Event::PollError(render(code, &poll_error_text(code, log))),
    );
    if let Some((code, reason)) = consumer.client().fatal_error() {
        bail!(
            "fatal error, the consumer cannot go on: {}",
            render(code as i32, &reason)
        );
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::{zombie_step, ZombieStep};

    #[test]
    fn the_zombie_processes_only_a_message_of_a_partition_it_no_longer_owns() {
        // Eager, revoke and assign in separate polls: nothing is owned after the revoke.
        assert_eq!(zombie_step(1, false, &[0, 1]), ZombieStep::Process);
        // Eager, revoked and given back in one poll: owned again, so not the zombie's work.
        assert_eq!(zombie_step(1, true, &[0, 1]), ZombieStep::Drop);
        // Incremental: another partition left; the held one stays the worker's.
        assert_eq!(zombie_step(1, true, &[0]), ZombieStep::Hold);
    }
}
