//! The clock check: this machine's clock against the broker's, read from a message the broker
//! stamps itself (LogAppendTime), give or take half the round trip
//! (docs/en/internals/broker-questions.md, "The clock check").

use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use krb_kafka::broker::{wait, BrokerArgs};
use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::ClientContext;
use rdkafka::message::Timestamp;
use rdkafka::producer::{BaseProducer, BaseRecord, Producer};

use krb_cli::lang::Lang;

use crate::check::Check;
use crate::messages as m;
use crate::probe::{now_ms, Probe};

/// How far apart the clocks may be, in milliseconds.
pub const TOLERANCE_MS: i64 = 1000;

/// How long the scratch message may take to be delivered (the producer's message.timeout.ms).
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(15);

/// One measurement, in milliseconds since the epoch: when the message was sent and its report
/// came back (this machine's clock), and when the broker appended it (the broker's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub sent: i64,
    pub reported: i64,
    pub broker: i64,
}

impl Sample {
    /// How far the broker's clock is ahead of this machine's (negative: behind).
    pub fn offset(&self) -> i64 {
        self.broker - (self.sent + self.reported) / 2
    }

    /// How uncertain the offset is: half the round trip, and the broker's millisecond.
    pub fn uncertainty(&self) -> i64 {
        (self.reported - self.sent + 1) / 2 + 1
    }
}

fn seconds(ms: i64, lang: Lang) -> String {
    m::SECONDS.fill(lang, &[("seconds", &format!("{:.3}", ms as f64 / 1000.0))])
}

pub fn judge(sample: Sample, tolerance: i64, lang: Lang) -> Check {
    let (offset, plus_minus) = (sample.offset(), sample.uncertainty());
    let how = match offset {
        0 => m::CLOCK_SAME,
        o if o > 0 => m::CLOCK_BEHIND,
        _ => m::CLOCK_AHEAD,
    };
    let [off, pm, tol] = [offset.abs(), plus_minus, tolerance].map(|ms| seconds(ms, lang));
    let detail = how.fill(lang, &[("seconds", &off), ("plus_minus", &pm)]);
    let values: [(&str, &dyn std::fmt::Display); 2] = [("detail", &detail), ("tolerance", &tol)];
    let (why, fix) = if plus_minus > tolerance {
        (m::CLOCK_SLOW, m::CLOCK_SLOW_FIX)
    } else if offset.abs() - plus_minus > tolerance {
        (m::CLOCK_FAR, m::CLOCK_FAR_FIX)
    } else {
        return Check::ok(m::CLOCK, detail);
    };
    Check::warn(m::CLOCK, why.fill(lang, &values), fix.text(lang))
}

/// Measures the clocks on a scratch topic of the person's namespace (named for this process, so
/// that two checks at once never share one), deleted again afterwards.
pub fn measure<C: ClientContext>(
    broker: &BrokerArgs,
    producer: &BaseProducer<Probe>,
    admin: &AdminClient<C>,
    options: &AdminOptions,
    lang: Lang,
) -> Result<Sample> {
    let topic = broker.name(&format!("krb-doctor-{}", std::process::id()));
    // -1: the broker's default replication, which a cluster's min.insync.replicas allows.
    let new = NewTopic::new(&topic, 1, TopicReplication::Fixed(-1))
        .set("message.timestamp.type", "LogAppendTime");
    match wait(admin.create_topics([&new], options))
        .map_err(|e| anyhow!(m::NO_SCRATCH_REQUEST.fill(lang, &[("why", &e)])))?
        .into_iter()
        .next()
    {
        Some(Ok(_)) => {}
        Some(Err((_, code))) => {
            bail!(m::NO_SCRATCH.fill(lang, &[("topic", &topic), ("code", &code)]))
        }
        None => bail!(m::NO_SCRATCH_ANSWER.fill(lang, &[("topic", &topic)])),
    }
    let sample = produce(producer, &topic, lang);
    let deleted = wait(admin.delete_topics(&[&topic], options));
    let sample = sample?;
    match deleted.ok().and_then(|r| r.into_iter().next()) {
        Some(Ok(_)) => Ok(sample),
        _ => bail!(m::SCRATCH_LEFT.fill(lang, &[("topic", &topic)])),
    }
}

/// Sends one message to `topic` (its name as the broker knows it) and waits for its report.
fn produce(producer: &BaseProducer<Probe>, topic: &str, lang: Lang) -> Result<Sample> {
    let sent = now_ms();
    producer
        .send(BaseRecord::<(), str>::to(topic).payload("krb-doctor clock"))
        .map_err(|(e, _)| anyhow!(m::NOT_SENT.fill(lang, &[("topic", &topic), ("why", &e)])))?;
    let start = Instant::now();
    while start.elapsed() < DELIVERY_TIMEOUT + Duration::from_secs(1) {
        producer.poll(Duration::from_millis(10));
        match producer.context().take_report() {
            None => continue,
            Some((reported, Ok(Timestamp::LogAppendTime(broker)))) => {
                return Ok(Sample {
                    sent,
                    reported,
                    broker,
                })
            }
            Some((_, Ok(other))) => {
                bail!(m::NOT_APPEND_TIME.fill(lang, &[("why", &format!("{other:?}"))]))
            }
            Some((_, Err(e))) => {
                bail!(m::NOT_DELIVERED.fill(lang, &[("topic", &topic), ("why", &e)]))
            }
        }
    }
    bail!(m::NO_REPORT.fill(
        lang,
        &[("topic", &topic), ("seconds", &DELIVERY_TIMEOUT.as_secs())]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Status;

    fn sample(sent: i64, reported: i64, broker: i64) -> Sample {
        Sample {
            sent,
            reported,
            broker,
        }
    }

    #[test]
    fn the_offset_is_from_the_midpoint_of_the_round_trip() {
        let s = sample(10_000, 10_010, 10_005);
        assert_eq!((s.offset(), s.uncertainty()), (0, 6));
        assert_eq!(sample(10_000, 10_010, 12_005).offset(), 2000);
        assert_eq!(sample(10_000, 10_010, 8_005).offset(), -2000);
    }

    #[test]
    fn clocks_within_the_tolerance_hold_and_beyond_it_are_warned() {
        let close = judge(sample(10_000, 10_010, 10_900), TOLERANCE_MS, Lang::En);
        assert_eq!(close.status, Status::Ok);
        assert_eq!(
            close.detail,
            "this machine's clock is 0.895 s behind the broker's (± 0.006 s)"
        );
        let far = judge(sample(10_000, 10_010, 8_000), TOLERANCE_MS, Lang::En);
        assert_eq!(far.status, Status::Warn);
        assert!(
            far.detail.contains("2.005 s ahead of the broker's"),
            "{}",
            far.detail
        );
        assert!(far.fix.unwrap().contains("timedatectl set-ntp true"));
    }

    /// An offset just past the tolerance but within its uncertainty is not proven apart.
    #[test]
    fn only_a_proven_offset_is_warned() {
        assert_eq!(
            judge(sample(10_000, 10_100, 11_100), TOLERANCE_MS, Lang::En).status,
            Status::Ok
        );
        assert_eq!(
            judge(sample(10_000, 10_100, 11_200), TOLERANCE_MS, Lang::En).status,
            Status::Warn
        );
    }

    #[test]
    fn a_round_trip_too_slow_to_tell_is_said() {
        let slow = judge(sample(10_000, 13_000, 11_500), TOLERANCE_MS, Lang::En);
        assert_eq!(slow.status, Status::Warn);
        assert!(slow.detail.contains("too slow to tell"), "{}", slow.detail);
    }
}
