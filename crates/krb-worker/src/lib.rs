//! The lab's manual-commit consumer (the article's worker.py): [`Args`]' help says what it does,
//! and every line it writes follows [`krb_log::logline`].
//!
//! Once a write, flush or transaction failed, the worker commits nothing more, not even in the
//! revoke callback of its own close: Kafka's offsets never pass an effect that is not stored.

mod args;
mod cadence;
mod commit;
mod consume;
mod effect;
mod eos;
mod positions;
mod rebalance;
mod watchdog;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use anyhow::{bail, Context, Result};
pub use args::Args;
use effect::Effects;
use eos::Eos;
use krb_kafka::rdlog::LogThread;
use krb_log::logline::{Event, Partition};
use krb_log::stdout_lines::{self as lines, emit, emit_at};
use positions::Positions;
use rdkafka::client::ClientContext;
use rdkafka::consumer::{BaseConsumer, Consumer};

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
    /// A write, flush or transaction failed: from then on nothing is committed.
    broken: AtomicBool,
    /// The partitions revoke callbacks took since the loop last looked (`--test-zombie`'s cue).
    revoked: Mutex<Vec<Partition>>,
}

/// Locks a mutex; a panic elsewhere while it was held leaves its value usable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl ClientContext for Worker {}

impl Worker {
    fn effects(&self) -> MutexGuard<'_, Effects> {
        lock(&self.effects)
    }

    /// Keeps the first error met for the loop to end on; nothing is committed after it.
    fn fail(&self, err: anyhow::Error) {
        self.broken.store(true, Ordering::SeqCst);
        lock(&self.failed).get_or_insert(err);
    }

    fn take_failure(&self) -> Option<anyhow::Error> {
        lock(&self.failed).take()
    }
}

/// Runs the worker until SIGTERM or SIGINT (its arguments checked by [`Args::validate`]).
pub fn run(args: Args) -> Result<()> {
    let stop = krb_kafka::signals::stop_flag()?;
    let _written = lines::FlushOnDrop;
    if args.worker.gathers() {
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
    // The names Kafka knows (a namespace prefixes them); the worker's own name is the log's.
    let topic = args.broker.name(&args.worker.topic);
    let group = args.broker.name(&args.worker.group);
    let worker = Worker {
        name: args.worker.name.clone(),
        topic: topic.clone(),
        revoke_commit: args.revoke_commit,
        positions: Mutex::new(Positions::default()),
        effects: Mutex::new(effects),
        eos,
        failed: Mutex::new(None),
        broken: AtomicBool::new(false),
        revoked: Mutex::new(Vec::new()),
    };
    let consumer: BaseConsumer<Worker> = args
        .config()
        .create_with_context(worker)
        .context("cannot create the consumer")?;
    emit(
        &args.worker.name,
        Event::Consumes {
            topic: topic.clone(),
            group: group.clone(),
        },
    );
    let log = LogThread::start(consumer.client());
    args.broker
        .topic_partitions(consumer.client(), &args.worker.topic)?;
    consumer
        .subscribe(&[&topic])
        .with_context(|| format!("cannot subscribe to {topic}"))?;

    let worker = consumer.context().clone();
    let consumed = consume::consume(&consumer, &args, &log, &stop);
    if consumed.is_err() {
        // The close's revoke callback must not commit past what failed.
        worker.broken.store(true, Ordering::SeqCst);
    }
    let left = leave(&consumer, &worker, &group, &args.broker.bootstrap);
    drop(log);
    if !consumer.closed() {
        // rust-rdkafka's drop would poll until the group is left, with no bound.
        std::mem::forget(consumer);
    }
    consumed?;
    left?;
    // Whatever a revoke did not flush (there was none to run) goes in before the worker ends.
    // It owns no partition now: a refused one has nothing to catch up.
    worker.settle().map(drop)
}

/// Leaves the group: the revoke callback runs inside these polls (and commits with
/// --revoke-commit); messages still arriving are not processed. A failure the callback met is
/// the worker's exit status.
fn leave(
    consumer: &BaseConsumer<Worker>,
    worker: &Worker,
    group: &str,
    bootstrap: &str,
) -> Result<()> {
    consumer
        .close_queue()
        .context("cannot close the consumer")?;
    let closing = std::time::Instant::now();
    while !consumer.closed() {
        // Short polls: the loop only learns the consumer has closed between two of them.
        let _ = consumer.poll(CLOSE_POLL);
        if closing.elapsed() > CLOSE_TIMEOUT {
            bail!(
                "could not leave group {group} within {} s: is the broker at {bootstrap} reachable?",
                CLOSE_TIMEOUT.as_secs(),
            );
        }
    }
    worker.take_failure().map_or(Ok(()), Err)
}

/// How long each poll of the closing loop waits (at 100 ms, the last one made every worker
/// exit up to 100 ms after it had left its group).
const CLOSE_POLL: Duration = Duration::from_millis(10);

/// How long leaving the group may take before the worker gives up on a clean stop.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(30);

#[cfg(test)]
mod tests {
    use super::*;

    /// A worker's consumer that never joins a group (nothing listens at its broker).
    fn consumer() -> BaseConsumer<Worker> {
        consumer_with(Effects::open(krb_effect::Kind::None, None).unwrap())
    }

    fn consumer_with(effects: Effects) -> BaseConsumer<Worker> {
        let worker = Worker {
            name: "w-a".into(),
            topic: "pay".into(),
            revoke_commit: true,
            positions: Mutex::new(Positions::default()),
            effects: Mutex::new(effects),
            eos: None,
            failed: Mutex::new(None),
            broken: AtomicBool::new(false),
            revoked: Mutex::new(Vec::new()),
        };
        rdkafka::ClientConfig::new()
            .set("bootstrap.servers", "localhost:1")
            .set("group.id", "w")
            .set("log_level", "0")
            .create_with_context(worker)
            .unwrap()
    }

    #[test]
    fn a_failure_met_while_leaving_is_the_workers_exit_status() {
        let consumer = consumer();
        let worker = consumer.context().clone();
        leave(&consumer, &worker, "w", "localhost:1").unwrap();
        // A failure the close's revoke callback records (a flush, the last transaction).
        let consumer = self::consumer();
        let worker = consumer.context().clone();
        worker.fail(anyhow::anyhow!("cannot commit the effects to sqlite:x.db"));
        let err = leave(&consumer, &worker, "w", "localhost:1").unwrap_err();
        assert_eq!(err.to_string(), "cannot commit the effects to sqlite:x.db");
    }

    #[test]
    fn nothing_is_committed_once_a_write_failed() {
        let consumer = consumer();
        let worker = consumer.context().clone();
        lock(&worker.positions).processed(0, 41);
        worker.fail(anyhow::anyhow!("cannot commit the effects to sqlite:x.db"));
        assert!(worker.take_failure().is_some());
        // The failure was taken by the loop; the close's revoke callback still commits nothing.
        worker.commit(&consumer, Some(&[0]));
        assert_eq!(lock(&worker.positions).uncommitted(), vec![(0, 42)]);
    }

    #[test]
    fn a_refusal_with_no_position_left_is_an_error_not_caught_up() {
        use effect::tests::row;
        use krb_effect::{Db, Kind};
        let dir = krb_testutil::scratch_dir::<&str>("worker-settle", &[]);
        let url = format!("sqlite:{}", dir.join("e.db").display());
        let mut other = Db::init(&url).unwrap();
        other.apply(Kind::DbOffsets, row(0, 4, "b"), None).unwrap();
        other.flush().unwrap();
        let consumer = consumer_with(Effects::open(Kind::DbOffsets, Some(&url)).unwrap());
        let worker = consumer.context().clone();
        assert_eq!(worker.effects().starts("pay", &[0]).unwrap(), vec![(0, 5)]);
        // The tables made again under the worker (krb-effects init): its next effect is
        // refused, and no position is left to go on from.
        Db::init(&url).unwrap();
        let at = krb_log::logline::now();
        worker.effects().apply(at, row(0, 5, "a")).unwrap();
        let err = worker
            .flush_effects(&consumer, &[])
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "the database lost its position of p0 after refusing offset 5 (its positions \
             emptied under the worker): it stops without committing past it"
        );
        assert!(lock(&worker.positions).uncommitted().is_empty());
    }

    #[test]
    fn a_staged_message_is_processed_once_its_flush_applied_it() {
        use effect::tests::row;
        use krb_effect::{Db, Kind};
        let dir = krb_testutil::scratch_dir::<&str>("worker-settle", &[]);
        let url = format!("sqlite:{}", dir.join("e.db").display());
        // Another worker has moved p0 to 5; this one finds no position for p0 or p1.
        let mut other = Db::init(&url).unwrap();
        other.apply(Kind::DbOffsets, row(0, 4, "b"), None).unwrap();
        other.flush().unwrap();
        let consumer = consumer_with(Effects::open(Kind::DbOffsets, Some(&url)).unwrap());
        let worker = consumer.context().clone();
        assert!(worker.effects().starts("pay", &[1]).unwrap().is_empty());
        for (partition, offset) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let at = krb_log::logline::now();
            worker
                .effects()
                .apply(at, row(partition, offset, "a"))
                .unwrap();
        }
        // Nothing counts as processed before the flush decides it, so no commit covers it.
        assert!(lock(&worker.positions).uncommitted().is_empty());
        worker.flush_effects(&consumer, &[]).unwrap();
        // p0's effects were refused together: no commit passes them, and its stored position
        // stays where the other worker left it.
        assert_eq!(lock(&worker.positions).uncommitted(), vec![(1, 2)]);
        assert_eq!(
            other.positions("pay").unwrap(),
            std::collections::BTreeMap::from([(0, 5), (1, 2)])
        );
    }
}
