//! krb-produce: the article's round-robin producer (produce.py).

mod payloads;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::iter::StepBy;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, ensure, Context, Result};
use clap::Parser;
use krb_cli::lang::Lang;
use krb_kafka::broker::BrokerArgs;
use krb_log::trial_log::ack_line;
use rdkafka::client::ClientContext;
use rdkafka::config::ClientConfig;
use rdkafka::producer::{BaseProducer, DeliveryResult, Producer, ProducerContext};
use rdkafka::Message;

use krb_kafka::produce_batch::Batches;

use crate::payloads::Payloads;

/// krb-produce: send COUNT messages to TOPIC, message i to partition i mod PARTITIONS.
///
/// Waits until every message is delivered, then prints `sent COUNT messages to TOPIC`. Any
/// failed delivery is an error (exit 1) that says how many failed. SIGTERM stops the sending:
/// the messages already sent are waited for, and the line says how many there were.
///
/// The producer is idempotent (enable.idempotence=true, so acks=all): librdkafka's retries
/// neither reorder nor repeat a message, so on an empty topic message i is at offset
/// i div PARTITIONS. -X enable.idempotence=false turns that off (and allows -X acks=1).
#[derive(Parser, Debug)]
#[command(name = "krb-produce", version, verbatim_doc_comment)]
pub struct Args {
    /// The topic (it must exist: see krb-topic).
    pub topic: String,
    /// How many messages to send.
    pub count: u64,
    /// How many partitions to spread them over, round robin.
    #[arg(value_parser = clap::value_parser!(i32).range(1..))]
    pub partitions: i32,
    /// Seconds to wait between two messages.
    #[arg(value_name = "INTERVAL-SEC")]
    pub interval_sec: Option<f64>,
    /// Write each message the broker acknowledged to FILE as it is acknowledged, one line
    /// `pP offset O` each (lab 7 checks that every one of them was processed).
    #[arg(long, value_name = "FILE")]
    pub acks: Option<PathBuf>,
    #[command(flatten)]
    pub broker: BrokerArgs,
}

/// The partition of message `i`.
pub fn partition_of(i: u64, partitions: i32) -> i32 {
    (i % partitions as u64) as i32
}

/// How many messages of one partition go out together when nothing paces the sending.
const RUN: u64 = 1000;

/// The messages `0..count` in the runs they are sent in, each with its partition: message i to
/// partition i mod P, in increasing order, so every message has the same offset. At a pace (labs
/// 3, 7) a run is one message, so the partitions fill side by side; at full speed [`RUN`] of one
/// partition (0, P, 2P, ...) in one librdkafka call, whose batches are then as large as kcat's
/// sticky partitioner makes (one message per partition in turn made them six times smaller).
pub fn runs(
    count: u64,
    partitions: i32,
    paced: bool,
) -> impl Iterator<Item = (i32, StepBy<Range<u64>>)> {
    let p = partitions as u64;
    // A run of one message a partition is the messages in their own order.
    let span = p * if paced { 1 } else { RUN };
    (0..count).step_by(span as usize).flat_map(move |start| {
        let end = (start + span).min(count);
        (start..(start + p).min(end)).map(move |first| {
            (
                partition_of(first, partitions),
                (first..end).step_by(p as usize),
            )
        })
    })
}

/// Counts failed deliveries and keeps the first error for the message; writes the acknowledged
/// ones to `--acks`.
#[derive(Default)]
struct Deliveries {
    failed: Mutex<(u64, Option<String>)>,
    acks: Option<Mutex<BufWriter<File>>>,
}

impl Deliveries {
    fn fail(&self, error: String) {
        let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        failed.0 += 1;
        failed.1.get_or_insert(error);
    }

    /// Writes to --acks, if given: a write that fails is a failed delivery.
    fn write_acks(&self, write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>) {
        let Some(acks) = &self.acks else { return };
        let mut acks = acks.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = write(&mut acks) {
            self.fail(format!("cannot write to --acks: {e}"));
        }
    }
}

impl ClientContext for Deliveries {}

impl ProducerContext for Deliveries {
    type DeliveryOpaque = ();

    fn delivery(&self, result: &DeliveryResult<'_>, _: ()) {
        match result {
            Err((err, _)) => self.fail(err.to_string()),
            Ok(m) => self.write_acks(|w| writeln!(w, "{}", ack_line(m.partition(), m.offset()))),
        }
    }
}

krb_cli::msgs! { ALL;
    /// A message librdkafka refused to queue (`why`: its error).
    NOT_SENT = "cannot send message {i} to {topic}: {why}",
        "메시지 {i}를 {topic} 토픽으로 보낼 수 없어요: {why}";
    /// The send stopped at a refusal: how far it got.
    REFUSED = "{refused} ({delivered} of the {sent} messages sent were delivered)",
        "{refused} (보낸 메시지 {sent}개 중 {delivered}개는 전달됐어요)";
    NOT_IN_TIME = "not every message to {topic} was delivered within {seconds} s",
        "{topic} 토픽으로 보낸 메시지가 {seconds}초 안에 모두 전달되지 않았어요";
    NOT_DELIVERED = "{failed} of {sent} messages to {topic} were not delivered (first error: {why})",
        "{topic} 토픽으로 보낸 메시지 {sent}개 중 {failed}개가 전달되지 않았어요(첫 오류: {why})";
}

const QUEUE_FULL_WAIT: Duration = Duration::from_millis(1);
const FLUSH_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the producer serves delivery reports before it looks again whether any is due.
const FLUSH_STEP: Duration = Duration::from_millis(1);

/// The producer's configuration. Without idempotence a retried batch can land after the one
/// sent behind it, or twice, and message i is no longer at offset i div P.
fn config(args: &Args) -> ClientConfig {
    args.broker
        .config("krb-produce", &[("enable.idempotence", "true".into())])
}

pub fn run(args: &Args) -> Result<()> {
    let interval = args
        .interval_sec
        .map(|s| krb_cli::cli::seconds("INTERVAL-SEC", s))
        .transpose()?;
    let lang = Lang::of_process();
    let acks = args.acks.as_ref().map(|path| {
        let file = File::create(path);
        file.with_context(|| format!("cannot write the acknowledgements to {}", path.display()))
    });
    let acks = acks.transpose()?;
    let stop = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGTERM, Arc::clone(&stop))
        .context("cannot handle SIGTERM")?;
    // Every delivery is reported (librdkafka's default), so this thread frees the messages it
    // made, not librdkafka's broker thread, which sets the pace.
    let producer: BaseProducer<Deliveries> = config(args)
        .create_with_context(Deliveries {
            acks: acks.map(|file| Mutex::new(BufWriter::new(file))),
            ..Deliveries::default()
        })
        .context(
            "cannot create the producer (it is idempotent unless -X enable.idempotence=false)",
        )?;
    let available = args
        .broker
        .topic_partitions(producer.client(), &args.topic)?;
    let topic = args.broker.name(&args.topic);
    ensure!(
        (args.partitions as usize) <= available,
        "topic {topic} has {available} partition(s), fewer than {}: recreate it with krb-topic {} {}",
        args.partitions,
        args.topic,
        args.partitions
    );
    let batches = Batches::new(&producer, &topic)?;
    let mut payloads = Payloads::default();
    let mut sent = 0;
    let mut refused = None;
    'sending: for (partition, indices) in runs(args.count, args.partitions, interval.is_some()) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        payloads.clear();
        indices.clone().for_each(|i| payloads.push(i));
        let mut taken = 0;
        while !payloads.is_empty() {
            match batches.send(partition, payloads.payloads()) {
                Ok(n) => {
                    payloads.consume(n);
                    taken += n;
                    sent += n as u64;
                    if !payloads.is_empty() {
                        // The queue is full: serve what is there, then let the broker's
                        // threads run (rust-rdkafka's poll serves until its whole timeout).
                        producer.poll(Duration::ZERO);
                        std::thread::sleep(QUEUE_FULL_WAIT);
                    }
                }
                Err(e) => {
                    // The messages taken with it are waited for below like the others, so
                    // their deliveries (and --acks) are on record before the error is.
                    sent += e.taken as u64;
                    let i = indices.clone().nth(taken + e.index).unwrap_or_default();
                    refused = Some(
                        NOT_SENT.fill(lang, &[("i", &i), ("topic", &topic), ("why", &e.error)]),
                    );
                    break 'sending;
                }
            }
        }
        producer.poll(Duration::ZERO);
        if let Some(interval) = interval {
            std::thread::sleep(interval);
        }
    }
    drop(batches);
    // Delivery reports served until none is due: rust-rdkafka's flush serves them in 100 ms
    // steps, so it returned up to 100 ms after the last delivery.
    let deadline = Instant::now() + FLUSH_TIMEOUT;
    while producer.in_flight_count() > 0 {
        if Instant::now() >= deadline {
            let seconds = FLUSH_TIMEOUT.as_secs();
            let said = NOT_IN_TIME.fill(lang, &[("topic", &topic), ("seconds", &seconds)]);
            let n = producer.in_flight_count();
            return Err(anyhow!("{n} message(s) still in flight").context(said));
        }
        producer.poll(FLUSH_STEP);
    }
    let deliveries = producer.context();
    deliveries.write_acks(|w| w.flush());
    let (failed, first) = deliveries
        .failed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    if let Some(refused) = refused {
        bail!(REFUSED.fill(
            lang,
            &[
                ("refused", &refused),
                ("delivered", &sent.saturating_sub(failed)),
                ("sent", &sent)
            ]
        ));
    }
    if failed > 0 {
        bail!(NOT_DELIVERED.fill(
            lang,
            &[
                ("failed", &failed),
                ("sent", &sent),
                ("topic", &topic),
                ("why", &first.unwrap_or_default())
            ]
        ));
    }
    println!("sent {sent} messages to {topic}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_failures_are_in_both_languages() {
        assert_eq!(krb_cli::lang::table_problems(ALL), Vec::<String>::new());
    }

    #[test]
    fn message_i_goes_to_i_mod_partitions() {
        let ps: Vec<i32> = (0..5).map(|i| partition_of(i, 2)).collect();
        assert_eq!(ps, vec![0, 1, 0, 1, 0]);
        assert_eq!(partition_of(7, 1), 0);
    }

    /// Every message once, each in a run of its own partition, as `(partition, message)`.
    fn sent(count: u64, partitions: i32, paced: bool) -> Vec<Vec<(i32, u64)>> {
        runs(count, partitions, paced)
            .map(|(p, run)| run.map(|i| (p, i)).collect())
            .collect()
    }

    #[test]
    fn a_pace_sends_one_message_a_run_in_order() {
        let runs = sent(5, 2, true);
        assert_eq!(
            runs,
            vec![
                vec![(0, 0)],
                vec![(1, 1)],
                vec![(0, 2)],
                vec![(1, 3)],
                vec![(0, 4)]
            ]
        );
    }

    #[test]
    fn full_speed_sends_runs_of_one_partition_and_keeps_every_offset() {
        for (count, partitions) in [(2 * RUN * 3 + 7, 3), (RUN + 1, 1), (4, 6), (0, 2)] {
            let runs = sent(count, partitions, false);
            assert!(runs
                .iter()
                .all(|run| !run.is_empty() && run.len() as u64 <= RUN));
            let all: Vec<(i32, u64)> = runs.concat();
            assert!(
                all.iter().all(|&(p, i)| p == partition_of(i, partitions)),
                "message i in partition i mod P"
            );
            let mut numbers: Vec<u64> = all.iter().map(|&(_, i)| i).collect();
            numbers.sort_unstable();
            assert_eq!(numbers, (0..count).collect::<Vec<_>>(), "each message once");
            // Each partition gets its messages in increasing order: the same offsets as in order.
            for p in 0..partitions {
                let mine: Vec<u64> = all.iter().filter(|m| m.0 == p).map(|m| m.1).collect();
                assert!(mine.windows(2).all(|w| w[0] < w[1]), "p{p} out of order");
            }
        }
        let runs = sent(2 * RUN * 3, 3, false);
        assert_eq!(runs.len(), 6, "runs of RUN messages");
        assert_eq!((runs[0][0].0, runs[1][0].0), (0, 1));
    }

    #[test]
    fn the_producer_is_idempotent_unless_told_otherwise() {
        let idempotence = |argv: &[&str]| {
            let args = Args::try_parse_from(argv).unwrap();
            config(&args).get("enable.idempotence").map(String::from)
        };
        let article = ["krb-produce", "pay", "1000", "2"];
        assert_eq!(idempotence(&article), Some("true".into()));
        let off = [&article[..], &["-X", "enable.idempotence=false"]].concat();
        assert_eq!(idempotence(&off), Some("false".into()));
    }

    #[test]
    fn parses_the_articles_command() {
        let args = Args::try_parse_from(["krb-produce", "pay", "1000", "2"]).unwrap();
        assert_eq!(
            (args.count, args.partitions, args.interval_sec),
            (1000, 2, None)
        );
        assert!(Args::try_parse_from(["krb-produce", "pay", "-1", "2"]).is_err());
        assert!(Args::try_parse_from(["krb-produce", "pay", "10", "0"]).is_err());
    }
}
