//! `--effect kafka-eos`: Kafka's own exactly-once read-process-write, librdkafka's
//! examples/transactions.c pattern. Each processing's effect is a message to the output topic
//! inside a transaction; the consumed positions go into the same transaction with the
//! consumer's group metadata, so that a member the group has expelled is fenced: its
//! transaction is refused and aborted, its output never seen by a read_committed reader.
//!
//! Its errors are handled as in transactions.c ([`next`]), and every blocking call is watched
//! ([`crate::watchdog`]).

use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};
use krb_effect::kafka::value;
use krb_kafka::kafka_error::{code_of, error_description, render};
use krb_kafka::rdlog::StderrLog;
use krb_log::logline::{Offset, Partition};
use rdkafka::consumer::ConsumerGroupMetadata;
use rdkafka::error::{KafkaError, KafkaResult, RDKafkaErrorCode};
use rdkafka::producer::{BaseRecord, Producer, ThreadedProducer};
use rdkafka::TopicPartitionList;

use crate::watchdog::Watchdog;
use crate::Args;

/// How long a transaction's calls may wait for the broker.
const TIMEOUT: Duration = Duration::from_secs(30);

/// How long past [`TIMEOUT`] a call may take before the watchdog ends the worker.
const GRACE: Duration = Duration::from_secs(10);

/// How long a transaction stays open at most, whatever `--commit-every` says: an idle worker
/// commits its last messages instead of leaving them to the broker's transaction timeout (60 s)
/// (transactions.c's 5 s).
pub const OPEN_AT_MOST: Duration = Duration::from_secs(5);

/// The transactional producer's first retry backoff (librdkafka's default is 100 ms, doubling
/// up to 1 s): while the broker still writes the last transaction's markers (5-30 ms) it answers
/// the next one's AddOffsetsToTxn with CONCURRENT_TRANSACTIONS, and at 100 ms every transaction
/// waited 100 ms (docs/en/internals/benchmarks.md). Produce retries back off from 5 ms too.
const RETRY_BACKOFF_MS: u32 = 5;

/// How many times a retriable error is retried before it ends the worker.
const RETRIES: u32 = 3;

pub struct Eos {
    /// Its own thread serves delivery reports, which every transaction call waits for.
    producer: ThreadedProducer<StderrLog>,
    output: String,
    /// When the open transaction began; `None` when none is open.
    opened: Option<Instant>,
    watchdog: Watchdog,
}

/// A transaction that did not commit.
#[derive(Debug)]
pub enum Failed {
    /// The broker refused it (a fenced member, an aborted transaction): it was aborted, and the
    /// worker goes on from its last committed positions. The rendered error.
    Aborted(String),
    /// The producer cannot go on (another producer with its transactional.id, an abort that
    /// failed).
    Fatal(anyhow::Error),
}

/// A transaction error as the log writes Kafka errors.
fn rendered(err: &KafkaError) -> String {
    match err {
        KafkaError::Transaction(e) => render(e.code() as i32, &e.string()),
        other => render(code_of(other).unwrap_or(-1), &other.to_string()),
    }
}

/// What to do after a transactional call failed, as librdkafka's error says.
#[derive(Debug, PartialEq, Eq)]
enum Next {
    Retry,
    Abort,
    Exit,
}

fn next(err: &KafkaError) -> Next {
    match err {
        KafkaError::Transaction(e) if e.is_fatal() => Next::Exit,
        KafkaError::Transaction(e) if e.txn_requires_abort() => Next::Abort,
        KafkaError::Transaction(e) if e.is_retriable() => Next::Retry,
        // A message refused because the transaction already failed (an earlier delivery's
        // abortable error): `_STATE`, which the abort clears.
        KafkaError::MessageProduction(RDKafkaErrorCode::State) => Next::Abort,
        _ => Next::Exit,
    }
}

impl Eos {
    /// Starts the worker's transactional producer (transactional.id `krb-GROUP-NAME` in the
    /// namespace, `NS-krb-GROUP-NAME`: under the prefix a room's ACLs give NS) for the topic
    /// `output` (as the lab calls it), which must exist.
    pub fn start(args: &Args, output: &str) -> Result<Eos> {
        let client_id = format!("{}-eos", args.worker.name);
        let producer: ThreadedProducer<StderrLog> = args
            .broker
            .config(
                &client_id,
                &[
                    (
                        "transactional.id",
                        args.broker
                            .name(&format!("krb-{}-{}", args.worker.group, args.worker.name)),
                    ),
                    ("retry.backoff.ms", RETRY_BACKOFF_MS.to_string()),
                ],
            )
            .create_with_context(StderrLog {
                // Created before the worker's consumer: the process's first producer.
                name: format!("{client_id}#producer-1"),
            })
            .context("cannot create the transactional producer")?;
        args.broker.topic_partitions(producer.client(), output)?;
        let watchdog = Watchdog::start(&args.worker.name, TIMEOUT + GRACE);
        watchdog
            .guard("init_transactions", || producer.init_transactions(TIMEOUT))
            .map_err(|e| anyhow!("cannot start transactions: {}", rendered(&e)))?;
        Ok(Eos {
            producer,
            output: args.broker.name(output),
            opened: None,
            watchdog,
        })
    }

    pub fn is_open(&self) -> bool {
        self.opened.is_some()
    }

    /// Whether the open transaction has been open for [`OPEN_AT_MOST`].
    pub fn due(&self) -> bool {
        self.opened.is_some_and(|t| t.elapsed() >= OPEN_AT_MOST)
    }

    fn begin(&mut self) -> Result<(), Failed> {
        if self.opened.is_none() {
            self.producer.begin_transaction().map_err(|e| {
                Failed::Fatal(anyhow!("cannot begin a transaction: {}", rendered(&e)))
            })?;
            self.opened = Some(Instant::now());
        }
        Ok(())
    }

    /// Produces the effect of processing `offset` of `partition` of `topic`, in the open
    /// transaction (begun first if none is). A refusal that requires an abort aborts it.
    pub fn produce(
        &mut self,
        worker: &str,
        topic: &str,
        partition: Partition,
        offset: Offset,
    ) -> Result<(), Failed> {
        self.begin()?;
        let value = value(topic, partition, offset);
        let mut record = BaseRecord::to(&self.output).key(worker).payload(&value);
        loop {
            match self.producer.send(record) {
                Ok(()) => return Ok(()),
                // The producer's queue is full: wait for its thread to deliver and try again.
                Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), r)) => {
                    record = r;
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err((e, _)) if next(&e) == Next::Abort => return self.aborted(&e),
                Err((e, _)) => {
                    return Err(Failed::Fatal(anyhow!(
                        "cannot produce to {}: {}",
                        self.output,
                        rendered(&e)
                    )))
                }
            }
        }
    }

    /// Runs a transactional call, retrying it while its error is retriable.
    fn call(
        &self,
        what: &'static str,
        call: impl Fn(&ThreadedProducer<StderrLog>) -> KafkaResult<()>,
    ) -> KafkaResult<()> {
        let mut tries = 0;
        loop {
            match self.watchdog.guard(what, || call(&self.producer)) {
                Err(e) if next(&e) == Next::Retry && tries < RETRIES => tries += 1,
                done => return done,
            }
        }
    }

    /// Commits the open transaction (begun first if none is) with the consumed `offsets` (next
    /// offsets).
    pub fn commit(
        &mut self,
        offsets: &TopicPartitionList,
        group: &ConsumerGroupMetadata,
    ) -> Result<(), Failed> {
        self.begin()?;
        let done = self
            .call("send_offsets_to_transaction", |p| {
                p.send_offsets_to_transaction(offsets, group, TIMEOUT)
            })
            .and_then(|()| self.delivered())
            .and_then(|()| self.call("commit_transaction", |p| p.commit_transaction(TIMEOUT)));
        match done {
            Ok(()) => {
                self.opened = None;
                Ok(())
            }
            Err(e) if next(&e) == Next::Abort => self.aborted(&e),
            Err(e) => Err(Failed::Fatal(anyhow!(
                "transaction error, the worker cannot go on: {}",
                rendered(&e)
            ))),
        }
    }

    /// Waits until every message produced has its delivery report, served by the producer's
    /// own thread: rust-rdkafka's `commit_transaction` flushes first, polling for up to 100 ms
    /// for reports that thread takes (docs/en/internals/benchmarks.md).
    fn delivered(&self) -> KafkaResult<()> {
        let deadline = Instant::now() + TIMEOUT;
        while self.producer.in_flight_count() > 0 {
            if Instant::now() >= deadline {
                return Err(KafkaError::Flush(RDKafkaErrorCode::MessageTimedOut));
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        Ok(())
    }

    /// Aborts the open transaction after `err`, which required it.
    fn aborted(&mut self, err: &KafkaError) -> Result<(), Failed> {
        self.abort().map_err(Failed::Fatal)?;
        Err(Failed::Aborted(rendered(err)))
    }

    /// Aborts the open transaction, if there is one: its output and offsets are discarded.
    /// Returns whether there was one.
    pub fn abort(&mut self) -> Result<bool> {
        if self.opened.take().is_none() {
            return Ok(false);
        }
        self.call("abort_transaction", |p| p.abort_transaction(TIMEOUT))
            .map_err(|e| anyhow!("cannot abort the transaction: {}", rendered(&e)))?;
        Ok(true)
    }
}

/// Why a transaction is aborted when the group took the worker's partitions away.
pub fn lost_reason() -> String {
    let code = RDKafkaErrorCode::AssignmentLost as i32;
    render(code, &error_description(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_message_in_a_failed_transaction_aborts_other_errors_end_the_worker() {
        assert_eq!(
            next(&KafkaError::MessageProduction(RDKafkaErrorCode::State)),
            Next::Abort
        );
        assert_eq!(
            next(&KafkaError::MessageProduction(RDKafkaErrorCode::Fatal)),
            Next::Exit
        );
        assert_eq!(
            next(&KafkaError::MessageProduction(
                RDKafkaErrorCode::UnknownTopic
            )),
            Next::Exit
        );
    }
}
