//! Lab 8's worker, a member of a share group (KIP-932) on librdkafka's share consumer, as its
//! help ([`Args`]) says. It commits its acknowledgements synchronously so that each log line
//! says what the broker was told and what it answered. Every line follows [`krb_log::logline`].

mod args;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{bail, Context, Result};
pub use args::Args;
use krb_kafka::broker::REACH_TIMEOUT;
use krb_kafka::group_admin;
use krb_kafka::share_consumer::Share;
use krb_log::logline::{Ack, Event, Offset, Partition};
use krb_log::stdout_lines::{self as lines, emit};

/// How long one poll waits for records: the stop flag is looked at between two.
const POLL: Duration = Duration::from_millis(500);

const COMMIT_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs the worker until SIGTERM or SIGINT (its arguments checked by [`Args::validate`]).
pub fn run(args: Args) -> Result<()> {
    let stop = krb_kafka::signals::stop_flag()?;
    let topic = args.broker.name(&args.worker.topic);
    let group = args.broker.name(&args.worker.group);
    // The share group's own settings, set before joining: librdkafka's share consumer takes none,
    // and the broker's default share.auto.offset.reset=latest would skip the topic's records. The
    // broker checks each against its limits (group.share.min.*, group.share.max.*).
    let (admin, _) = args.broker.admin("krb-share")?;
    args.broker
        .topic_partitions(admin.inner(), &args.worker.topic)?;
    group_admin::set_configs(admin.inner(), &group, &args.group_settings(), REACH_TIMEOUT)?;
    drop(admin);
    let _written = lines::FlushOnDrop;
    if args.worker.gathers() {
        lines::gather();
    }
    emit(
        &args.worker.name,
        Event::ShareConsumes {
            topic: topic.clone(),
            group,
        },
    );
    let mut share = Share::new(&args.config())?;
    share
        .subscribe(&topic)
        .with_context(|| format!("cannot subscribe to {topic}"))?;
    let consumed = consume(&share, &args, &stop);
    let closed = share.close();
    lines::flush();
    consumed?;
    closed.context("cannot leave the share group cleanly")
}

fn consume(share: &Share, args: &Args, stop: &AtomicBool) -> Result<()> {
    let name = &args.worker.name;
    let mut pending = Pending::default();
    while !stop.load(Ordering::SeqCst) {
        let batch = match share.poll(POLL) {
            Ok(batch) => batch,
            Err(e) if e.fatal => bail!("the share consumer failed: {e}"),
            Err(e) => {
                emit(name, Event::PollError(e.rendered));
                continue;
            }
        };
        let records: Vec<_> = batch.records().collect();
        for a in &records {
            let acquired = match &a.error {
                // librdkafka has acknowledged it already, by the error's kind.
                Some(e) => Event::PollError(format!("p{} offset {}: {e}", a.partition, a.offset)),
                None => Event::Acquired {
                    partition: a.partition,
                    offset: a.offset,
                    delivery: a.delivery,
                },
            };
            emit(name, acquired);
        }
        for (i, a) in records.iter().filter(|a| a.error.is_none()).enumerate() {
            let (partition, offset) = (a.partition, a.offset);
            // A stop hands back what is not yet processed, at once, rather than at its lock's end.
            let ack = if stop.load(Ordering::SeqCst) {
                Ack::Release
            } else {
                args.worker.process(partition, offset, |e| emit(name, e));
                emit(name, Event::Processed { partition, offset });
                match Some(offset) {
                    o if o == args.release_at => Ack::Release,
                    o if o == args.reject_at => Ack::Reject,
                    _ => Ack::Accept,
                }
            };
            emit(
                name,
                match share.acknowledge(a, ack) {
                    Ok(()) => {
                        pending.entry(partition).or_default().push(offset);
                        Event::Acknowledged {
                            partition,
                            offset,
                            ack,
                        }
                    }
                    Err(e) => Event::AcksFailed {
                        partition,
                        offsets: vec![offset],
                        error: e.rendered,
                    },
                },
            );
            if args.commit_every.is_some_and(|n| (i as u64 + 1) % n == 0) {
                commit(share, &mut pending, name)?;
            }
        }
        commit(share, &mut pending, name)?;
    }
    Ok(())
}

/// The acknowledgements made since the last commit, by partition.
type Pending = BTreeMap<Partition, Vec<Offset>>;

/// Commits the pending acknowledgements and logs the broker's answer by partition. A fatal error
/// ends the worker; any other is logged and it goes on (the records come back at their locks' end).
fn commit(share: &Share, pending: &mut Pending, name: &str) -> Result<()> {
    if pending.is_empty() {
        return Ok(());
    }
    let acks = std::mem::take(pending);
    let answers = share.commit(COMMIT_TIMEOUT);
    let fatal = answers.as_ref().err().filter(|e| e.fatal).cloned();
    for (partition, mut offsets) in acks {
        offsets.sort_unstable();
        offsets.dedup();
        let error = match answers
            .as_ref()
            .map(|r| r.iter().find(|(p, _)| *p == partition))
        {
            Ok(Some((_, Ok(())))) => {
                emit(name, Event::AcksCommitted { partition, offsets });
                continue;
            }
            Ok(Some((_, Err(e)))) | Err(e) => e.rendered.clone(),
            Ok(None) => "the broker's answer named no such partition".to_string(),
        };
        let failed = Event::AcksFailed {
            partition,
            offsets,
            error,
        };
        emit(name, failed);
    }
    lines::flush();
    match fatal {
        Some(e) => bail!("the share consumer failed: {e}"),
        None => Ok(()),
    }
}
