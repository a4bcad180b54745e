//! The one Kafka client of the check, a producer, and what it keeps of librdkafka's events: the
//! broker's ApiVersions answer (logged with `debug=feature`), the last failure to connect, and
//! the delivery report of the clock's message. rust-rdkafka hands log lines over when the
//! client's main queue is polled, which a producer's `poll` does.

use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use rdkafka::client::ClientContext;
use rdkafka::config::RDKafkaLogLevel;
use rdkafka::message::{DeliveryResult, Message, Timestamp};
use rdkafka::producer::ProducerContext;

/// Milliseconds since the epoch, by this machine's clock.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A delivery report: when it came (this machine's clock) and the message's time stamp, or why
/// it was not delivered.
pub type Report = (i64, Result<Timestamp, String>);

#[derive(Default)]
pub struct Probe {
    api: Mutex<Vec<String>>,
    failure: Mutex<Option<String>>,
    report: Mutex<Option<Report>>,
}

impl Probe {
    /// librdkafka's `APIVERSION` lines so far.
    pub fn api_lines(&self) -> Vec<String> {
        lock(&self.api).clone()
    }

    /// The last failure to connect, as librdkafka said it.
    pub fn failure(&self) -> Option<String> {
        lock(&self.failure).clone()
    }

    pub fn take_report(&self) -> Option<Report> {
        lock(&self.report).take()
    }
}

// A panic elsewhere while a lock was held leaves its value whole: every write is one assignment.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// librdkafka's failure line without the thread and broker it names and its state at the end:
/// `Connect to ipv4#127.0.0.1:1 failed: Connection refused`.
fn failure_text(text: &str) -> &str {
    let text = text.rsplit_once("]: ").map_or(text, |(_, t)| t);
    let text = text.split_once(": ").map_or(text, |(_, t)| t);
    text.split(" (after ").next().unwrap_or(text)
}

impl ClientContext for Probe {
    fn log(&self, level: RDKafkaLogLevel, fac: &str, text: &str) {
        if fac == "APIVERSION" {
            lock(&self.api).push(text.to_string());
        } else if fac == "FAIL" && (level as i32) <= RDKafkaLogLevel::Warning as i32 {
            // An error wins; a warning is kept only while there is nothing better: a broker
            // that wants a login (a room's) only warns that it disconnected a client without.
            let mut failure = lock(&self.failure);
            if failure.is_none() || (level as i32) <= RDKafkaLogLevel::Error as i32 {
                *failure = Some(failure_text(text).to_string());
            }
        }
    }

    // librdkafka's error events repeat the failures it logs: the log keeps them.
    fn error(&self, _: rdkafka::error::KafkaError, _: &str) {}
}

impl ProducerContext for Probe {
    type DeliveryOpaque = ();

    fn delivery(&self, result: &DeliveryResult<'_>, _: ()) {
        let at = now_ms();
        let outcome = match result {
            Ok(m) => Ok(m.timestamp()),
            Err((e, _)) => Err(e.to_string()),
        };
        *lock(&self.report) = Some((at, outcome));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_keeps_what_went_wrong() {
        assert_eq!(
            failure_text("[thrd:localhost:1/bootstrap]: localhost:1/bootstrap: Connect to ipv4#127.0.0.1:1 failed: Connection refused (after 0ms in state CONNECT)"),
            "Connect to ipv4#127.0.0.1:1 failed: Connection refused"
        );
        assert_eq!(
            failure_text("nohost:9481/bootstrap: Failed to resolve 'nohost:9481': Name or service not known (after 2ms in state CONNECT)"),
            "Failed to resolve 'nohost:9481': Name or service not known"
        );
    }
}
