//! librdkafka's share consumer (KIP-932, `rd_kafka_share_*`, a preview in 2.15.0), which
//! rust-rdkafka does not wrap, for krb-share. Each handle is freed once by its owner's `Drop`,
//! each pointer librdkafka returns checked before use; what leaves is owned or borrows its batch.
//! The handle is not thread-safe (librdkafka's words): `Share` is neither `Send` nor `Sync`. Its
//! calls take `&self` (a batch borrows it while its records wait to be acknowledged); only
//! `close`, which no live batch may outlast, takes `&mut self`.

use std::ffi::{c_char, c_int};
use std::marker::PhantomData;
use std::ptr;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use krb_log::logline::{Ack, Offset, Partition};
use rdkafka::bindings as rd;
use rdkafka::{ClientConfig, TopicPartitionList};

use crate::group_admin::{partitions, text as text_of};
use crate::kafka_error;

/// A Kafka error as the log writes it: `KafkaError{code=...,val=...,str="..."}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub rendered: String,
    /// The handle can do nothing more.
    pub fatal: bool,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.rendered)
    }
}

impl std::error::Error for Error {}

/// Takes an `rd_kafka_error_t` librdkafka handed over (NULL: no error), and frees it.
fn take_error(error: *mut rd::rd_kafka_error_t) -> Result<(), Error> {
    if error.is_null() {
        return Ok(());
    }
    // SAFETY: a non-NULL error returned by librdkafka, ours to read and destroy, once.
    unsafe {
        let code = rd::rd_kafka_error_code(error) as i32;
        let failed = Error {
            rendered: kafka_error::render(code, &text_of(rd::rd_kafka_error_string(error))),
            fatal: rd::rd_kafka_error_is_fatal(error) != 0,
        };
        rd::rd_kafka_error_destroy(error);
        Err(failed)
    }
}

/// A response code as an error (NO_ERROR: none).
fn code_error(err: rd::rd_kafka_resp_err_t) -> Result<(), Error> {
    let code = err as i32;
    if code == 0 {
        return Ok(());
    }
    Err(Error {
        rendered: kafka_error::render(code, &kafka_error::error_description(code)),
        fatal: false,
    })
}

/// The broker's answer to a commit of acknowledgements, partition by partition.
pub type Answers = Vec<(Partition, Result<(), Error>)>;

/// A share consumer: one `rd_kafka_share_t`, closed and destroyed by `Drop` (or by
/// [`Share::close`] first).
pub struct Share {
    /// A raw pointer: `Share` is neither `Send` nor `Sync`.
    handle: *mut rd::rd_kafka_share_t,
    closed: bool,
}

impl Share {
    /// Creates a share consumer from `config` (which must set `group.id`), acknowledging
    /// explicitly: every record is accepted, released or rejected by the caller.
    pub fn new(config: &ClientConfig) -> Result<Share> {
        let mut config = config.clone();
        config.set("share.acknowledgement.mode", "explicit");
        let native = config
            .create_native_config()
            .context("the share consumer's configuration is refused")?;
        let mut errstr = [0 as c_char; 512];
        // SAFETY: `native` holds a valid conf; librdkafka frees it on success only, so on success
        // its owner forgets it below, and on failure drops it (destroying it once).
        let handle = unsafe {
            rd::rd_kafka_share_consumer_new(native.ptr(), errstr.as_mut_ptr(), errstr.len())
        };
        if handle.is_null() {
            // SAFETY: librdkafka wrote a NUL-terminated message into errstr (zeroed before).
            let why = unsafe { text_of(errstr.as_ptr()) };
            bail!("cannot create the share consumer: {why}");
        }
        std::mem::forget(native);
        Ok(Share {
            handle,
            closed: false,
        })
    }

    pub fn subscribe(&self, topic: &str) -> Result<(), Error> {
        // Checked here: rust-rdkafka's list panics on a NUL.
        if topic.contains('\0') {
            return Err(Error {
                rendered: kafka_error::render(-186, "topic name holds a NUL byte"),
                fatal: false,
            });
        }
        let mut list = TopicPartitionList::new();
        list.add_topic_unassigned(topic);
        // SAFETY: a live list, which librdkafka copies.
        code_error(unsafe { rd::rd_kafka_share_subscribe(self.handle, list.ptr()) })
    }

    /// Waits up to `timeout` for a batch of records (an empty one when none came).
    pub fn poll(&self, timeout: Duration) -> Result<Batch<'_>, Error> {
        let mut messages: *mut rd::rd_kafka_messages_t = ptr::null_mut();
        let ms = c_int::try_from(timeout.as_millis()).unwrap_or(c_int::MAX);
        // SAFETY: `messages` points to NULL on entry as librdkafka requires; it sets it to a
        // batch we own (freed by Batch's Drop) or leaves it NULL.
        let error = unsafe { rd::rd_kafka_share_poll(self.handle, ms, &mut messages) };
        let batch = Batch {
            messages,
            _share: PhantomData,
        };
        take_error(error)?;
        Ok(batch)
    }

    pub fn acknowledge(&self, record: &Record<'_>, ack: Ack) -> Result<(), Error> {
        use rd::rd_kafka_share_AcknowledgeType_t as T;
        let kind = match ack {
            Ack::Accept => T::RD_KAFKA_SHARE_ACKNOWLEDGE_TYPE_ACCEPT,
            Ack::Release => T::RD_KAFKA_SHARE_ACKNOWLEDGE_TYPE_RELEASE,
            Ack::Reject => T::RD_KAFKA_SHARE_ACKNOWLEDGE_TYPE_REJECT,
        };
        // SAFETY: the record borrows a live batch of this handle (its lifetime says so).
        code_error(unsafe {
            rd::rd_kafka_share_acknowledge_type(self.handle, record.message, kind)
        })
    }

    /// Sends every acknowledgement not yet sent and waits up to `timeout` for the broker's
    /// answers: each partition's result (an empty list when none were pending).
    pub fn commit(&self, timeout: Duration) -> Result<Answers, Error> {
        let mut list: *mut rd::rd_kafka_topic_partition_list_t = ptr::null_mut();
        let ms = c_int::try_from(timeout.as_millis()).unwrap_or(c_int::MAX);
        // SAFETY: librdkafka sets `list` to one we must destroy, or leaves it NULL.
        let error = unsafe { rd::rd_kafka_share_commit_sync(self.handle, ms, &mut list) };
        // SAFETY: NULL or a valid list of `cnt` elements, read then destroyed once.
        let results = unsafe { partitions(list) }
            .iter()
            .map(|e| (e.partition, code_error(e.err)))
            .collect();
        if !list.is_null() {
            // SAFETY: as above; no element is read after this.
            unsafe { rd::rd_kafka_topic_partition_list_destroy(list) };
        }
        take_error(error)?;
        Ok(results)
    }

    /// Sends what is still unacknowledged and leaves the share group (bounded by librdkafka
    /// to about socket.timeout.ms).
    pub fn close(&mut self) -> Result<(), Error> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        // SAFETY: a live handle, closed once.
        take_error(unsafe { rd::rd_kafka_share_consumer_close(self.handle) })
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        // A close that failed still leaves a handle to destroy; destroy reports only misuse
        // from another thread, which `Share`'s type rules out.
        let _ = self.close();
        // SAFETY: a live handle, destroyed once; no batch outlives it (batches borrow it).
        let _ = take_error(unsafe { rd::rd_kafka_share_destroy(self.handle) });
    }
}

/// The records one poll returned, freed by `Drop`. It borrows the consumer, so the consumer
/// cannot be closed or destroyed while it lives, and no record can outlive it.
pub struct Batch<'a> {
    messages: *mut rd::rd_kafka_messages_t,
    _share: PhantomData<&'a Share>,
}

impl Batch<'_> {
    /// Its records, in the order librdkafka gave them.
    pub fn records(&self) -> impl Iterator<Item = Record<'_>> + '_ {
        // SAFETY: NULL or a live batch (NULL counts 0).
        let count = unsafe { rd::rd_kafka_messages_count(self.messages) };
        (0..count).filter_map(move |i| {
            // SAFETY: i < count, on a live non-NULL batch (count is 0 for NULL); a non-NULL
            // message of a live batch is read.
            unsafe {
                let message = rd::rd_kafka_messages_get(self.messages, i);
                let m = message.as_ref()?;
                let delivery = rd::rd_kafka_message_delivery_count(message);
                Some(Record {
                    partition: m.partition,
                    offset: m.offset,
                    delivery: u16::try_from(delivery).unwrap_or(0),
                    error: code_error(m.err).err(),
                    message,
                    _batch: PhantomData,
                })
            }
        })
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        // SAFETY: NULL (a no-op) or a batch we own, destroyed once.
        unsafe { rd::rd_kafka_messages_destroy(self.messages) }
    }
}

/// One record of a batch, borrowed from it, with what it says about itself copied out.
pub struct Record<'b> {
    pub partition: Partition,
    pub offset: Offset,
    /// The broker's count of its deliveries, this one included.
    pub delivery: u16,
    /// A record-level error (librdkafka has already acknowledged it by its kind).
    pub error: Option<Error>,
    message: *mut rd::rd_kafka_message_t,
    _batch: PhantomData<&'b ()>,
}
