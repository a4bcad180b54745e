//! The committed-offsets sampler: while a trial runs, the group's committed offsets read from
//! its coordinator every quarter second, each sample a line of the one log grammar
//! (`10:02:14.250 sampler commit p0=120 p1=98`), so the check can see one move backwards.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use krb_kafka::broker::BrokerArgs;
use krb_log::logline::{now, Event, LogLine};
use krb_verify::facts::read_committed;
use rdkafka::consumer::BaseConsumer;

pub const SAMPLER: &str = "sampler";
/// How often the offsets are read.
const EVERY: Duration = Duration::from_millis(250);
/// How long one read may wait: longer while a coordinator moves, and the sample is skipped.
const READ_TIMEOUT: Duration = Duration::from_secs(2);

/// Samples `group`'s committed offsets of `topic`'s partitions (both as the lab calls them)
/// into `out` until SIGTERM or SIGINT. A read that fails (the coordinator is moving) is said on stderr and skipped.
pub fn watch(
    broker: &BrokerArgs,
    group: &str,
    topic: &str,
    partitions: i32,
    out: &Path,
) -> Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, Arc::clone(&stop)).context("cannot handle signals")?;
    }
    let consumer: BaseConsumer = broker
        .config("krb-trial-watch", &[("group.id", broker.name(group))])
        .create()
        .context("cannot create a consumer to read committed offsets")?;
    let mut file = BufWriter::new(
        File::create(out).with_context(|| format!("cannot write {}", out.display()))?,
    );
    let topic = broker.name(topic);
    while !stop.load(Ordering::Relaxed) {
        match read_committed(&consumer, &topic, partitions, READ_TIMEOUT) {
            Ok(read) => {
                let positions: Vec<_> = read
                    .into_iter()
                    .filter_map(|(p, o)| o.filter(|o| *o >= 0).map(|o| (p, o)))
                    .collect();
                if !positions.is_empty() {
                    let line = LogLine {
                        time: now(),
                        name: SAMPLER.to_string(),
                        event: Event::Commit(positions),
                    };
                    writeln!(file, "{line}")
                        .and_then(|_| file.flush())
                        .with_context(|| format!("cannot write {}", out.display()))?;
                }
            }
            Err(e) => krb_cli::out::stderr_line(&format!("krb-trial watch: sample skipped: {e}")),
        }
        std::thread::sleep(EVERY);
    }
    Ok(())
}
