//! Runs of messages handed to librdkafka in one call (`rd_kafka_produce_batch`) for krb-produce:
//! rust-rdkafka's call a message copied the topic name, looked it up and read the clock for each
//! (docs/en/internals/benchmarks.md). Delivery reports come to the producer's context as usual.

use std::ffi::CString;
use std::marker::PhantomData;
use std::os::raw::c_int;
use std::ptr::{self, NonNull};

use anyhow::{anyhow, Result};
use rdkafka::bindings as rdsys;
use rdkafka::error::RDKafkaErrorCode;
use rdkafka::producer::{BaseProducer, Producer, ProducerContext};

/// A topic handle of one producer, to send runs of messages with.
pub struct Batches<'p> {
    rkt: NonNull<rdsys::rd_kafka_topic_t>,
    /// The handle belongs to the producer's librdkafka client: it must not outlive it.
    producer: PhantomData<&'p ()>,
}

impl<'p> Batches<'p> {
    /// A handle on `topic` of `producer`. The messages go out with a null opaque, which the
    /// delivery report hands to the context as its `DeliveryOpaque`: only `()` reads nothing
    /// from it (a `Box`'s would be made from a null pointer), hence the bound.
    ///
    /// ```compile_fail,E0271
    /// use rdkafka::producer::{BaseProducer, DeliveryResult, ProducerContext};
    /// struct Boxed;
    /// impl rdkafka::ClientContext for Boxed {}
    /// impl ProducerContext for Boxed {
    ///     type DeliveryOpaque = Box<u32>;
    ///     fn delivery(&self, _: &DeliveryResult<'_>, _: Box<u32>) {}
    /// }
    /// let producer: BaseProducer<Boxed> =
    ///     rdkafka::ClientConfig::new().create_with_context(Boxed).unwrap();
    /// let _ = krb_kafka::produce_batch::Batches::new(&producer, "pay");
    /// ```
    pub fn new<C: ProducerContext<DeliveryOpaque = ()>>(
        producer: &'p BaseProducer<C>,
        topic: &str,
    ) -> Result<Self> {
        let name = CString::new(topic).map_err(|_| anyhow!("topic {topic:?} contains a NUL"))?;
        let rk = producer.client().native_ptr();
        // SAFETY: the client pointer is valid while `producer` is borrowed; a null topic
        // configuration takes the producer's defaults.
        let rkt = unsafe { rdsys::rd_kafka_topic_new(rk, name.as_ptr(), ptr::null_mut()) };
        let rkt = NonNull::new(rkt).ok_or_else(|| anyhow!("librdkafka refused topic {topic}"))?;
        Ok(Batches {
            rkt,
            producer: PhantomData,
        })
    }

    /// Offers the `run` of payloads (copied) to librdkafka for `partition`. Returns how many it
    /// took, the first ones: a full queue stops it, the rest to be offered again once deliveries
    /// make room. Any other refusal is the first refused message's error; librdkafka goes on past
    /// it, so the ones taken after it are in flight too, and [`Refused`] counts them.
    pub fn send<'r>(
        &self,
        partition: i32,
        run: impl IntoIterator<Item = &'r [u8]>,
    ) -> Result<usize, Refused> {
        let no_error = rdsys::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_NO_ERROR;
        let mut messages: Vec<rdsys::rd_kafka_message_t> = run
            .into_iter()
            .map(|payload| rdsys::rd_kafka_message_t {
                partition,
                payload: payload.as_ptr() as *mut _,
                len: payload.len(),
                // SAFETY: the rest is null pointers, zeros and NO_ERROR (0), all valid.
                ..unsafe { std::mem::zeroed() }
            })
            .collect();
        // SAFETY: every payload points into `run`, alive for the call, and is copied by
        // librdkafka (RD_KAFKA_MSG_F_COPY); `messages` holds exactly `len` entries.
        let taken = unsafe {
            rdsys::rd_kafka_produce_batch(
                self.rkt.as_ptr(),
                partition,
                rdsys::RD_KAFKA_MSG_F_COPY,
                messages.as_mut_ptr(),
                messages.len() as c_int,
            )
        } as usize;
        // A full queue refuses the message that met it and every one after it, so the messages
        // taken before the first refusal of another kind are a prefix.
        let Some(index) = messages.iter().position(|m| m.err != no_error) else {
            return Ok(taken);
        };
        match RDKafkaErrorCode::from(messages[index].err) {
            RDKafkaErrorCode::QueueFull => Ok(index),
            error => Err(Refused {
                index,
                error,
                taken,
            }),
        }
    }
}

/// A message of a run librdkafka refused for a reason other than a full queue.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    /// Its place in the run.
    pub index: usize,
    pub error: RDKafkaErrorCode,
    /// How many of the run's messages librdkafka took, before and after it: they are in
    /// flight, and their deliveries are to be waited for.
    pub taken: usize,
}

impl Drop for Batches<'_> {
    fn drop(&mut self) {
        // SAFETY: created by rd_kafka_topic_new and destroyed once, before the producer.
        unsafe { rdsys::rd_kafka_topic_destroy(self.rkt.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    use rdkafka::config::ClientConfig;
    use rdkafka::producer::{DeliveryResult, PurgeConfig};
    use rdkafka::ClientContext;

    /// Counts delivery reports.
    #[derive(Default)]
    struct Reports(AtomicUsize);

    impl ClientContext for Reports {}

    impl ProducerContext for Reports {
        type DeliveryOpaque = ();
        fn delivery(&self, _: &DeliveryResult<'_>, _: ()) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A producer that needs no broker: librdkafka queues messages for a topic it knows
    /// nothing of until its metadata comes, and nothing listens on port 1.
    fn producer(settings: &[(&str, &str)]) -> BaseProducer<Reports> {
        let mut config = ClientConfig::new();
        config.set("bootstrap.servers", "localhost:1");
        for (k, v) in settings {
            config.set(*k, *v);
        }
        config
            .create_with_context(Reports::default())
            .expect("producer")
    }

    /// How many messages the producer had taken: purged, each one's delivery is reported.
    fn queued(producer: &BaseProducer<Reports>) -> usize {
        producer.purge(PurgeConfig::default().queue().inflight());
        let deadline = Instant::now() + Duration::from_secs(5);
        while producer.in_flight_count() > 0 && Instant::now() < deadline {
            producer.poll(Duration::from_millis(10));
        }
        producer.context().0.load(Ordering::Relaxed)
    }

    /// The messages `texts`, as a run.
    fn run<'t>(texts: &'t [&str]) -> impl Iterator<Item = &'t [u8]> {
        texts.iter().map(|t| t.as_bytes())
    }

    #[test]
    fn a_full_queue_takes_the_first_messages() {
        let producer = producer(&[("queue.buffering.max.messages", "2")]);
        let batches = Batches::new(&producer, "krb-batch-test").unwrap();
        assert_eq!(batches.send(0, run(&["0", "1", "2", "3"])), Ok(2));
        assert_eq!(queued(&producer), 2);
    }

    #[test]
    fn a_refused_message_counts_the_ones_taken_after_it() {
        let big = "9".repeat(2000);
        let producer = producer(&[("message.max.bytes", "1000")]);
        let batches = Batches::new(&producer, "krb-batch-test").unwrap();
        let refused = Refused {
            index: 1,
            error: RDKafkaErrorCode::MessageSizeTooLarge,
            taken: 3,
        };
        assert_eq!(batches.send(0, run(&["0", &big, "2", "3"])), Err(refused));
        assert_eq!(
            queued(&producer),
            3,
            "librdkafka went on past the refused one"
        );
    }

    #[test]
    fn a_refusal_before_a_full_queue_is_the_error() {
        let big = "9".repeat(2000);
        let producer = producer(&[
            ("message.max.bytes", "1000"),
            ("queue.buffering.max.messages", "2"),
        ]);
        let batches = Batches::new(&producer, "krb-batch-test").unwrap();
        let refused = Refused {
            index: 1,
            error: RDKafkaErrorCode::MessageSizeTooLarge,
            taken: 2,
        };
        assert_eq!(
            batches.send(0, run(&["0", &big, "2", "3", "4"])),
            Err(refused)
        );
        assert_eq!(queued(&producer), 2);
    }
}
