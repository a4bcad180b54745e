//! Commits: Kafka's offsets (synchronous) or, with kafka-eos, the open transaction with them;
//! what an aborted transaction leaves to do (go back to the committed positions); and, with
//! kafka-eos, where an assigned partition starts (its committed offset, read here).

use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use krb_kafka::kafka_error::render_commit_error;
use krb_log::logline::{Event, Offset, Partition};
use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer};
use rdkafka::error::KafkaResult;
use rdkafka::{Offset as KafkaOffset, TopicPartitionList};

use crate::eos::{lost_reason, Failed};
use crate::positions::Positions;
use crate::{emit, lines, lock, Worker};

/// How long reading the committed offsets and seeking to them may take.
const REWIND_TIMEOUT: Duration = Duration::from_secs(10);

/// How long kafka-eos waits for the committed offsets its new partitions start from. Another
/// producer's open transaction that holds offsets of them makes the broker answer "unstable"
/// until it ends: at the latest when the broker's transaction timeout (librdkafka's default,
/// 60 s) aborts it.
const START_TIMEOUT: Duration = Duration::from_secs(70);

impl Worker {
    /// Commits, synchronously, the advanced positions or, when handing `leaving` partitions
    /// back, every position processed on them (so the hand-over is always on record), and logs
    /// it. With kafka-eos the open transaction commits them, whatever is leaving. Nothing is
    /// committed once a write, flush or transaction failed, nor when the effects cannot be
    /// stored first.
    pub(crate) fn commit(&self, consumer: &BaseConsumer<Worker>, leaving: Option<&[Partition]>) {
        if self.broken.load(Ordering::SeqCst) {
            return;
        }
        // A commit covers the work whose effects are stored and settled: its positions are
        // read after the flush.
        if let Err(e) = self.flush_effects(consumer, leaving.unwrap_or_default()) {
            self.fail(e);
            return;
        }
        // Every line of the work a commit covers is written before the commit.
        lines::flush();
        let mut positions = lock(&self.positions);
        let pending = match leaving {
            Some(ps) if self.eos.is_none() => positions.of(ps),
            _ => positions.uncommitted(),
        };
        let open = self.eos.as_ref().is_some_and(|e| lock(e).is_open());
        if pending.is_empty() && !open {
            return;
        }
        let mut offsets = TopicPartitionList::new();
        for (p, o) in &pending {
            // A position is always a valid offset; add_partition_offset only fails for INVALID.
            let _ = offsets.add_partition_offset(&self.topic, *p, KafkaOffset::Offset(*o));
        }
        let done = match &self.eos {
            None => match consumer.commit(&offsets, CommitMode::Sync) {
                Ok(()) => Ok(()),
                Err(e) => return emit(&self.name, Event::CommitFailed(render_commit_error(&e))),
            },
            Some(eos) => match consumer.group_metadata() {
                Some(group) => lock(eos).commit(&offsets, &group),
                None => Err(Failed::Fatal(anyhow!(
                    "the consumer has no group metadata to commit with"
                ))),
            },
        };
        match done {
            Ok(()) => {
                positions.committed(&pending);
                emit(&self.name, Event::Commit(pending));
            }
            Err(Failed::Aborted(why)) => {
                emit(&self.name, Event::TxnAborted(why));
                self.rewind(consumer, &mut positions, leaving.unwrap_or_default());
            }
            Err(Failed::Fatal(e)) => self.fail(e),
        }
    }

    /// After an aborted transaction its messages' output is gone: the worker goes back to its
    /// last committed positions and processes them again. Partitions `leaving` are not sought:
    /// their next owner starts at the commit. A rewind that cannot be done ends the worker, as
    /// in transactions.c: going on would let a later transaction commit offsets past the
    /// aborted messages.
    pub(crate) fn rewind(
        &self,
        consumer: &BaseConsumer<Worker>,
        positions: &mut Positions,
        leaving: &[Partition],
    ) {
        positions.rewind();
        if let Err(e) = seek_to_committed(consumer, &self.topic, leaving) {
            self.fail(e);
        }
    }

    /// kafka-eos, on losing its partitions: the open transaction holds their output, which the
    /// new owner produces again; abort it. A lost assignment is the whole assignment: there is
    /// nothing left to seek.
    pub(crate) fn abort_lost(&self) {
        let Some(eos) = &self.eos else {
            return;
        };
        let aborted = lock(eos).abort();
        match aborted {
            Ok(false) => {}
            Ok(true) => {
                emit(&self.name, Event::TxnAborted(lost_reason()));
                lock(&self.positions).rewind();
            }
            Err(e) => self.fail(e),
        }
    }

    /// db-offsets: `partition`'s effect was refused at `refused` (its first refused offset), so
    /// its stored position moved away from where this worker read it (another owner applied
    /// that message). Reads it again and goes on from there while the partition is this
    /// worker's; without it every later message of the partition would be refused until the next
    /// rebalance. A position that cannot be gone on from ends the worker, committing nothing more:
    /// none at all (the table emptied under the worker: taken as caught up, its next message
    /// would place a new position and a commit would pass the refused ones), or one past the
    /// topic's end (the topic made again, the database not: the seek is out of range, the fetch
    /// starts again from the earliest offset, which is refused, and so on for ever).
    pub(crate) fn catch_up(
        &self,
        consumer: &BaseConsumer<Worker>,
        partition: Partition,
        refused: Offset,
    ) -> Result<()> {
        let Some(at) = self.effects().reread(&self.topic, partition)? else {
            bail!(
                "the database lost its position of p{partition} after refusing offset {refused} \
                 (its positions emptied under the worker): it stops without committing past it"
            );
        };
        // Asked only after a refusal, and judged only when answered: a broker that cannot say
        // leaves the worker to seek as before.
        if let Ok((_, end)) = consumer.fetch_watermarks(&self.topic, partition, REWIND_TIMEOUT) {
            if at > end {
                bail!(
                    "the database's position {at} of p{partition} is past the topic's end {end}: \
                     run krb-effects init {}",
                    self.effects().url()
                );
            }
        }
        if let Err(e) = consumer.seek(
            &self.topic,
            partition,
            KafkaOffset::Offset(at),
            REWIND_TIMEOUT,
        ) {
            if crate::consume::assigned(consumer)?.contains(&partition) {
                bail!("cannot go on from p{partition}'s stored position {at}: {e}");
            }
        }
        Ok(())
    }
}

/// Seeks every assigned partition of `topic` but those `leaving` to its committed offset (the
/// beginning where none was committed).
fn seek_to_committed(
    consumer: &BaseConsumer<Worker>,
    topic: &str,
    leaving: &[Partition],
) -> Result<()> {
    let assigned = consumer
        .assignment()
        .context("cannot read the assignment to go back to after an aborted transaction")?;
    let mut owned = TopicPartitionList::new();
    for e in assigned.elements() {
        if !leaving.contains(&e.partition()) {
            owned.add_partition(e.topic(), e.partition());
        }
    }
    if owned.count() == 0 {
        return Ok(());
    }
    let committed = consumer
        .committed_offsets(owned, REWIND_TIMEOUT)
        .map_err(|e| {
            anyhow!(
                "cannot read the committed offsets to go back to after an aborted transaction: {e}"
            )
        })?;
    let mut seek = TopicPartitionList::new();
    for (p, at) in answer(&committed, "go back to", "after an aborted transaction")? {
        let at = at.map_or(KafkaOffset::Beginning, KafkaOffset::Offset);
        seek.add_partition_offset(topic, p, at)?;
    }
    let sought = consumer
        .seek_partitions(seek, REWIND_TIMEOUT)
        .map_err(|e| {
            anyhow!("cannot go back to the committed offsets after an aborted transaction: {e}")
        })?;
    for e in sought.elements() {
        if let Err(err) = e.error() {
            bail!(
                "cannot go back to p{}'s committed offset after an aborted transaction: {err}",
                e.partition()
            );
        }
    }
    Ok(())
}

/// kafka-eos: where each partition of a new assignment starts, its committed offset read here
/// (none where none was committed: librdkafka's auto.offset.reset then applies). librdkafka's
/// own read can start it from the beginning while a transaction holds the offset
/// (docs/en/internals/eos-cooperative-restart-at-zero.md); this one waits for the transaction to
/// end, and a start that cannot be read ends the worker.
pub(crate) fn committed_starts(
    consumer: &BaseConsumer<Worker>,
    assigned: &TopicPartitionList,
) -> Result<Vec<(Partition, Offset)>> {
    let mut ask = TopicPartitionList::new();
    for e in assigned.elements() {
        ask.add_partition(e.topic(), e.partition());
    }
    if ask.count() == 0 {
        return Ok(Vec::new());
    }
    let committed = consumer
        .committed_offsets(ask, START_TIMEOUT)
        .map_err(|e| {
            anyhow!(
                "cannot read the committed offsets its new partitions start from within {} s \
                 (a transaction of the group may still hold them): {e}",
                START_TIMEOUT.as_secs()
            )
        })?;
    Ok(answer(&committed, "read", "to start it from")?
        .into_iter()
        .filter_map(|(p, at)| Some((p, at?)))
        .collect())
}

/// Each partition of a committed-offsets answer and its committed offset, `None` where none was
/// committed. A partition the answer holds an error for has no offset either, and taken for one
/// never committed it would be read again from its beginning, its output produced again: the
/// answer is refused instead, and with it the worker (`doing` and `when` say what it could not
/// do: "go back to", "after an aborted transaction").
fn answer(
    committed: &TopicPartitionList,
    doing: &str,
    when: &str,
) -> Result<Vec<(Partition, Option<Offset>)>> {
    judge(
        committed
            .elements()
            .iter()
            .map(|e| (e.partition(), e.error(), e.offset())),
        doing,
        when,
    )
}

/// [`answer`] on each partition's error and offset.
fn judge(
    committed: impl Iterator<Item = (Partition, KafkaResult<()>, KafkaOffset)>,
    doing: &str,
    when: &str,
) -> Result<Vec<(Partition, Option<Offset>)>> {
    committed
        .map(|(p, error, offset)| match (error, offset) {
            (Err(err), _) => bail!(
                "cannot {doing} p{p}'s committed offset {when}: the broker's answer for it is \
                 {err}; the worker stops rather than read it from its beginning"
            ),
            (Ok(()), KafkaOffset::Offset(o)) => Ok((p, Some(o))),
            (Ok(()), _) => Ok((p, None)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdkafka::error::{KafkaError, RDKafkaErrorCode};

    #[test]
    fn a_partition_the_committed_answer_holds_an_error_for_is_not_read_from_its_beginning() {
        let mut committed = TopicPartitionList::new();
        committed
            .add_partition_offset("pay", 0, KafkaOffset::Offset(40))
            .unwrap();
        // Never committed: the answer holds no offset and no error.
        committed.add_partition("pay", 1);
        let read = answer(&committed, "go back to", "after an aborted transaction").unwrap();
        assert_eq!(read, vec![(0, Some(40)), (1, None)]);
        // The answer holds an error for p1 (another producer's transaction holds offsets of it
        // past librdkafka's retries): no offset either, but not one never committed.
        let unstable = KafkaError::OffsetFetch(RDKafkaErrorCode::UnstableOffsetCommit);
        let answered = [
            (0, Ok(()), KafkaOffset::Offset(40)),
            (1, Err(unstable), KafkaOffset::Invalid),
        ];
        let err = judge(answered.into_iter(), "read", "to start it from")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("cannot read p1's committed offset to start it from")
                && err.contains("nstable"),
            "{err}"
        );
    }
}
