//! Records to the participant's topic in the room: each line as krb-verify wrote it. Every line
//! is read and checked before any is sent, so a file that is not records, or holds another
//! namespace's, publishes nothing. (That check spares a participant a mistake; what stops a
//! forgery is the page, which names a record's participant after its topic.) A line is checked
//! as the page checks it ([`crate::room::record`]): what the page would leave out is not sent.
//! A file is read as the logs are, a regular file only ([`krb_common::reader::open`]: a FIFO
//! would block, a device never end), and at most [`MAX_FILE`] of it.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use krb_common::broker::BrokerArgs;
use rdkafka::producer::{BaseProducer, BaseRecord, DeliveryResult, Producer, ProducerContext};
use rdkafka::ClientContext;

/// The records of `files` (stdin when there is none, or for `-`), in order, each the JSON line
/// as it was written; each must be namespace `ns`'s, or name none.
pub fn read(files: &[PathBuf], ns: &str) -> Result<Vec<String>> {
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut lines = Vec::new();
    for file in files {
        let (name, text) = if file.as_os_str() == "-" {
            let text = bounded(std::io::stdin().lock(), "records from stdin")
                .context("cannot read records from stdin")?;
            ("stdin".to_string(), text)
        } else {
            let name = file.display().to_string();
            let text = krb_common::reader::open(file)
                .map_err(anyhow::Error::from)
                .and_then(|f| bounded(f, &name))
                .with_context(|| format!("cannot read {}", file.display()))?;
            (name, text)
        };
        lines.extend(parse(&name, &text, ns)?);
    }
    Ok(lines)
}

/// The most of a file of records read: a participant's records of every variant the room
/// keeps, at the most each may weigh.
pub const MAX_FILE: u64 = (crate::room::MAX_VARIANTS * crate::room::MAX_RECORD) as u64;

/// The text of `from`, refused past [`MAX_FILE`] bytes; `name` names it in the error.
fn bounded(from: impl Read, name: &str) -> Result<String> {
    let mut bytes = Vec::new();
    from.take(MAX_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE {
        bail!(
            "{name} is over {} MB: records of a lab run are a few KB each",
            MAX_FILE >> 20
        );
    }
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{name} is not UTF-8 text"))
}

/// The records of one file's text, namespace `ns`'s; `name` names the file in the error of a
/// line that is not one.
pub fn parse(name: &str, text: &str, ns: &str) -> Result<Vec<String>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let at = format!("{name}:{}", i + 1);
            let record = crate::room::record(l.trim().as_bytes()).map_err(|why| {
                anyhow::anyhow!(
                    "{at}: not a lab record (a JSON line of krb-verify --record: {why}); nothing published"
                )
            })?;
            if let Some(other) = record.namespace.as_deref().filter(|o| *o != ns) {
                bail!(
                    "{at}: a record of namespace {other}, not yours ({ns}); nothing published: \
                     publish your own runs' records"
                );
            }
            Ok(l.trim().to_string())
        })
        .collect()
}

/// How long the records may take to be acknowledged.
const DELIVERY_TIMEOUT: Duration = Duration::from_secs(15);

/// Collects the delivery reports that failed.
#[derive(Default)]
struct Deliveries {
    failed: Mutex<Vec<String>>,
}

impl ClientContext for Deliveries {}

impl ProducerContext for Deliveries {
    type DeliveryOpaque = ();

    fn delivery(&self, result: &DeliveryResult<'_>, _: ()) {
        if let Err((e, _)) = result {
            self.failed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(e.to_string());
        }
    }
}

/// Creates the participant's topic if missing and sends `lines` to it; returns how many the
/// broker acknowledged (all, or an error).
pub fn send(broker: &BrokerArgs, topic: &str, lines: &[String]) -> Result<usize> {
    crate::topic::ensure(broker, topic)?;
    if lines.is_empty() {
        return Ok(0);
    }
    let producer: BaseProducer<Deliveries> = broker
        .config(
            "krb-room",
            &[(
                "message.timeout.ms",
                DELIVERY_TIMEOUT.as_millis().to_string(),
            )],
        )
        .create_with_context(Deliveries::default())
        .context("cannot create a producer")?;
    for line in lines {
        let record: BaseRecord<'_, (), String> = BaseRecord::to(topic).payload(line);
        if let Err((e, _)) = producer.send(record) {
            bail!("cannot send a record to {topic}: {e}");
        }
    }
    producer
        .flush(DELIVERY_TIMEOUT)
        .with_context(|| format!("the records to {topic} were not acknowledged within 15 s"))?;
    let failed = producer
        .context()
        .failed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    if let Some(first) = failed.first() {
        bail!(
            "{} of {} record(s) to {topic} failed: {first}",
            failed.len(),
            lines.len()
        );
    }
    Ok(lines.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str = r#"{"seconds":9.5,"status":"error","lab":1,"name":"revoke","variant":"nocommit","reason":"no broker","namespace":"alice"}"#;

    #[test]
    fn lines_keep_their_text() {
        let without = RECORD.replace(r#","namespace":"alice""#, "");
        let text = format!("{RECORD}\n\n  {without}\n");
        let lines = parse("r.jsonl", &text, "alice").unwrap();
        assert_eq!(lines, vec![RECORD.to_string(), without]);
    }

    #[test]
    fn a_line_that_is_not_a_record_publishes_nothing_and_is_named() {
        let text = format!("{RECORD}\n{{\"lab\":1}}\n");
        let err = format!("{:#}", parse("r.jsonl", &text, "alice").unwrap_err());
        assert!(
            err.starts_with("r.jsonl:2: not a lab record") && err.contains("nothing published"),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");
    }

    #[test]
    fn another_namespaces_record_publishes_nothing() {
        let text = format!("{}\n{RECORD}\n", RECORD.replace("alice", "bob"));
        let err = format!("{:#}", parse("r.jsonl", &text, "bob").unwrap_err());
        assert_eq!(
            err,
            "r.jsonl:2: a record of namespace alice, not yours (bob); nothing published: \
             publish your own runs' records"
        );
    }
}
