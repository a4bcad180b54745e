//! librdkafka's own log lines, printed to stderr the moment librdkafka emits them: rust-rdkafka
//! serves them inside `poll()` only, so a MAXPOLL warning raised while the worker sleeps on a
//! slow message came after the sleep, with the wrong time. [`LogThread`] serves librdkafka's log
//! queue from a thread of its own, in librdkafka's format ([`format_line`]).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rdkafka::bindings as rdsys;
use rdkafka::client::{Client, ClientContext};

use crate::group_admin::text as c_text;

/// The facility of librdkafka's warning when `max.poll.interval.ms` is exceeded.
pub const MAXPOLL: &str = "MAXPOLL";

#[derive(Clone, Copy)]
struct Ptrs {
    rk: *mut rdsys::rd_kafka_t,
    queue: *mut rdsys::rd_kafka_queue_t,
}

// SAFETY: librdkafka handles and queues are thread-safe; LogThread's lifetime keeps the client
// alive until the thread has been joined.
unsafe impl Send for Ptrs {}

/// Serves a client's librdkafka log lines from a thread until dropped.
pub struct LogThread<'a> {
    ptrs: Ptrs,
    stop: Arc<AtomicBool>,
    last: Arc<Mutex<Vec<(String, String)>>>,
    thread: Option<JoinHandle<()>>,
    _client: PhantomData<&'a ()>,
}

/// A client context for clients nobody polls (a threaded producer): librdkafka's log lines and
/// errors go to stderr, in librdkafka's format, from whichever thread reports them.
pub struct StderrLog {
    /// The client's name as its lines show it (`slow-a-eos#producer-1`).
    pub name: String,
}

impl ClientContext for StderrLog {
    fn log(&self, level: rdkafka::config::RDKafkaLogLevel, fac: &str, text: &str) {
        print_line(level as i32, fac, &self.name, text);
    }

    fn error(&self, error: rdkafka::error::KafkaError, reason: &str) {
        print_line(3, "ERROR", &self.name, &format!("{error}: {reason}"));
    }
}

impl rdkafka::producer::ProducerContext for StderrLog {
    type DeliveryOpaque = ();

    // A failed delivery fails the transaction it belongs to, which says so.
    fn delivery(&self, _: &rdkafka::message::DeliveryResult<'_>, _: Self::DeliveryOpaque) {}
}

/// Formats a log line the way librdkafka's default logger does.
pub fn format_line(
    level: i32,
    secs: i64,
    millis: u32,
    fac: &str,
    name: &str,
    text: &str,
) -> String {
    format!("%{level}|{secs}.{millis:03}|{fac}|{name}| {text}")
}

fn print_line(level: i32, fac: &str, name: &str, text: &str) {
    let now = chrono::Utc::now();
    let (secs, millis) = (now.timestamp(), now.timestamp_subsec_millis());
    krb_cli::out::stderr_line(&format_line(level, secs, millis, fac, name, text));
}

impl<'a> LogThread<'a> {
    pub fn start<C: ClientContext>(client: &'a Client<C>) -> LogThread<'a> {
        let rk = client.native_ptr();
        // SAFETY: rk is a live client; the new queue is owned by this LogThread.
        let queue = unsafe { rdsys::rd_kafka_queue_new(rk) };
        unsafe { rdsys::rd_kafka_set_log_queue(rk, queue) };
        let ptrs = Ptrs { rk, queue };
        let stop = Arc::new(AtomicBool::new(false));
        let last = Arc::new(Mutex::new(Vec::new()));
        let thread = {
            let (stop, last) = (stop.clone(), last.clone());
            std::thread::spawn(move || serve(&ptrs, &stop, &last))
        };
        LogThread {
            ptrs,
            stop,
            last,
            thread: Some(thread),
            _client: PhantomData,
        }
    }

    /// The text of the most recent line of this facility (`MAXPOLL`), without the thread prefix.
    pub fn last_text(&self, facility: &str) -> Option<String> {
        let last = self.last.lock().ok()?;
        last.iter()
            .rev()
            .find(|(fac, _)| fac == facility)
            .map(|(_, text)| text.clone())
    }
}

fn serve(ptrs: &Ptrs, stop: &AtomicBool, last: &Mutex<Vec<(String, String)>>) {
    // SAFETY: rk stays valid while this thread runs (see LogThread).
    let name = unsafe { c_text(rdsys::rd_kafka_name(ptrs.rk)) };
    while !stop.load(Ordering::Relaxed) {
        let ev = unsafe { rdsys::rd_kafka_queue_poll(ptrs.queue, 100) };
        if ev.is_null() {
            continue;
        }
        let (mut fac, mut text, mut level) = (std::ptr::null(), std::ptr::null(), 0);
        if unsafe { rdsys::rd_kafka_event_type(ev) } == rdsys::RD_KAFKA_EVENT_LOG
            && unsafe { rdsys::rd_kafka_event_log(ev, &mut fac, &mut text, &mut level) } == 0
        {
            let (fac, text) = unsafe { (c_text(fac), c_text(text)) };
            print_line(level, &fac, &name, &text);
            if let Ok(mut last) = last.lock() {
                let body = text.split_once("]: ").map_or(&*text, |(_, b)| b);
                last.push((fac, body.to_string()));
                if last.len() > 64 {
                    last.remove(0);
                }
            }
        }
        unsafe { rdsys::rd_kafka_event_destroy(ev) };
    }
}

impl Drop for LogThread<'_> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.take().map(JoinHandle::join);
        // SAFETY: the thread is gone; hand logging back to the main queue before freeing ours.
        unsafe {
            rdsys::rd_kafka_set_log_queue(self.ptrs.rk, std::ptr::null_mut());
            rdsys::rd_kafka_queue_destroy(self.ptrs.queue);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_librdkafka() {
        assert_eq!(
            format_line(
                4,
                1790813686,
                28,
                "MAXPOLL",
                "slow-a#consumer-1",
                "[thrd:main]: x"
            ),
            "%4|1790813686.028|MAXPOLL|slow-a#consumer-1| [thrd:main]: x"
        );
    }
}
