//! `--effect kafka-eos`: Kafka's own exactly-once read-process-write, librdkafka's
//! examples/transactions.c pattern. Each processing's effect is a message to the output topic
//! inside a transaction; the consumed positions go into the same transaction with the
//! consumer's group metadata, so that a member the group has expelled is fenced: its
//! transaction is refused and aborted, its output never seen by a read_committed reader.

use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use krb_common::kafka_error::{error_description, render};
use krb_common::logline::{Offset, Partition};
use krb_common::rdlog::StderrLog;
use krb_effect::kafka::value;
use rdkafka::consumer::ConsumerGroupMetadata;
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::producer::{BaseRecord, Producer, ThreadedProducer};
use rdkafka::TopicPartitionList;

use crate::Args;

/// How long a transaction's calls may wait for the broker.
const TIMEOUT: Duration = Duration::from_secs(30);

/// The transactional producer of a worker's effects.
pub struct Eos {
    /// Its own thread serves delivery reports, which every transaction call waits for.
    producer: ThreadedProducer<StderrLog>,
    output: String,
    open: bool,
}

/// A transaction that did not commit.
pub enum Failed {
    /// The broker refused it (a fenced member, an aborted transaction): it was aborted, and the
    /// worker goes on from its last committed positions. The rendered error.
    Aborted(String),
    /// The producer cannot go on (another producer with its transactional.id).
    Fatal(anyhow::Error),
}

/// A transaction error as the log writes Kafka errors.
fn rendered(err: &KafkaError) -> String {
    match err {
        KafkaError::Transaction(e) => render(e.code() as i32, &e.string()),
        other => match other.rdkafka_error_code() {
            Some(code) => render(code as i32, &other.to_string()),
            None => render(-1, &other.to_string()),
        },
    }
}

fn is_fatal(err: &KafkaError) -> bool {
    matches!(err, KafkaError::Transaction(e) if e.is_fatal())
}

impl Eos {
    /// Starts the worker's transactional producer (transactional.id `krb-GROUP-NAME`, GROUP as
    /// Kafka knows it) for the topic `output` (as the lab calls it), which must exist.
    pub fn start(args: &Args, output: &str) -> Result<Eos> {
        let client_id = format!("{}-eos", args.name);
        let producer: ThreadedProducer<StderrLog> = args
            .broker
            .config(
                &client_id,
                &[(
                    "transactional.id",
                    format!("krb-{}-{}", args.broker.name(&args.group), args.name),
                )],
            )
            .create_with_context(StderrLog {
                // Created before the worker's consumer: the process's first producer.
                name: format!("{client_id}#producer-1"),
            })
            .context("cannot create the transactional producer")?;
        args.broker.topic_partitions(producer.client(), output)?;
        producer
            .init_transactions(TIMEOUT)
            .map_err(|e| anyhow!("cannot start transactions: {}", rendered(&e)))?;
        Ok(Eos {
            producer,
            output: args.broker.name(output),
            open: false,
        })
    }

    /// Produces the effect of processing `offset` of `partition` of `topic`, in the open
    /// transaction (begun first if none is).
    pub fn produce(
        &mut self,
        worker: &str,
        topic: &str,
        partition: Partition,
        offset: Offset,
    ) -> Result<()> {
        if !self.open {
            self.producer
                .begin_transaction()
                .map_err(|e| anyhow!("cannot begin a transaction: {}", rendered(&e)))?;
            self.open = true;
        }
        let value = value(topic, partition, offset);
        let mut record = BaseRecord::to(&self.output).key(worker).payload(&value);
        loop {
            match self.producer.send(record) {
                Ok(()) => break,
                // The producer's queue is full: wait for its thread to deliver and try again.
                Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), r)) => {
                    record = r;
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err((e, _)) => return Err(anyhow!("cannot produce to {}: {e}", self.output)),
            }
        }
        Ok(())
    }

    /// Commits the open transaction with the consumed `positions` (next offsets) of `topic`.
    pub fn commit(
        &mut self,
        topic: &str,
        positions: &[(Partition, Offset)],
        group: &ConsumerGroupMetadata,
    ) -> Result<(), Failed> {
        if !self.open {
            self.producer.begin_transaction().map_err(|e| {
                Failed::Fatal(anyhow!("cannot begin a transaction: {}", rendered(&e)))
            })?;
            self.open = true;
        }
        let mut offsets = TopicPartitionList::new();
        for (p, o) in positions {
            // A position is always a valid offset; add_partition_offset only fails for INVALID.
            let _ = offsets.add_partition_offset(topic, *p, rdkafka::Offset::Offset(*o));
        }
        let done = self
            .producer
            .send_offsets_to_transaction(&offsets, group, TIMEOUT)
            .and_then(|()| self.producer.commit_transaction(TIMEOUT));
        match done {
            Ok(()) => {
                self.open = false;
                Ok(())
            }
            Err(e) if is_fatal(&e) => Err(Failed::Fatal(anyhow!(
                "fatal transaction error, the worker cannot go on: {}",
                rendered(&e)
            ))),
            Err(e) => {
                self.abort()?;
                Err(Failed::Aborted(rendered(&e)))
            }
        }
    }

    /// Aborts the open transaction, if there is one: its output and offsets are discarded.
    /// Returns whether there was one.
    pub fn abort(&mut self) -> Result<bool, Failed> {
        if !self.open {
            return Ok(false);
        }
        self.open = false;
        self.producer.abort_transaction(TIMEOUT).map_err(|e| {
            Failed::Fatal(anyhow!("cannot abort the transaction: {}", rendered(&e)))
        })?;
        Ok(true)
    }
}

/// Why a transaction is aborted when the group took the worker's partitions away.
pub fn lost_reason() -> String {
    let code = RDKafkaErrorCode::AssignmentLost as i32;
    render(code, &error_description(code))
}
