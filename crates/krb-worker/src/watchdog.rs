//! A bound on calls that may not return: a transactional call was seen blocked for minutes past
//! its timeout (confluentinc/librdkafka#5456; docs/en/internals/worker-failures.md). A blocked
//! thread cannot be woken, so the watchdog ends the process, with one line that says what was
//! stuck; nothing is committed by exiting (the broker aborts the open transaction).

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use krb_cli::out::stderr_line;

use crate::lock;

/// The call being watched: what it is and when it must have returned.
type Armed = Option<(&'static str, Instant)>;

/// Watches one call at a time from a thread of its own.
pub struct Watchdog {
    armed: Arc<(Mutex<Armed>, Condvar)>,
    bound: Duration,
}

impl Watchdog {
    /// Starts the watching thread; `who` names the worker in the line it writes.
    pub fn start(who: &str, bound: Duration) -> Watchdog {
        let armed: Arc<(Mutex<Armed>, Condvar)> = Arc::default();
        let watched = armed.clone();
        let who = who.to_string();
        std::thread::spawn(move || {
            let (state, wake) = &*watched;
            let mut guard = lock(state);
            loop {
                guard = match *guard {
                    None => wake.wait(guard).unwrap_or_else(|e| e.into_inner()),
                    Some((what, deadline)) => {
                        let now = Instant::now();
                        if now >= deadline {
                            stderr_line(&format!(
                                "krb-worker: {who}: {what} did not return within {} s (librdkafka is stuck): \
                                 the worker exits without committing; start it again",
                                bound.as_secs_f64()
                            ));
                            std::process::exit(EXIT);
                        }
                        wake.wait_timeout(guard, deadline - now)
                            .unwrap_or_else(|e| e.into_inner())
                            .0
                    }
                };
            }
        });
        Watchdog { armed, bound }
    }

    /// Runs `call`, named `what`; the process ends if it has not returned within the bound.
    pub fn guard<T>(&self, what: &'static str, call: impl FnOnce() -> T) -> T {
        let (state, wake) = &*self.armed;
        *lock(state) = Some((what, Instant::now() + self.bound));
        wake.notify_one();
        let done = call();
        *lock(state) = None;
        wake.notify_one();
        done
    }
}

/// The exit status of a worker the watchdog ended.
pub const EXIT: i32 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_that_returns_in_time_is_left_alone() {
        let dog = Watchdog::start("w-a", Duration::from_millis(200));
        for i in 0..3 {
            assert_eq!(dog.guard("a quick call", || i), i);
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// Run by the next test in a process of its own, which the watchdog must end.
    #[test]
    #[ignore = "run by a_call_past_its_bound_ends_the_process_with_one_line"]
    fn stuck_call() {
        if std::env::var_os("KRB_WATCHDOG_CHILD").is_some() {
            let dog = Watchdog::start("w-a", Duration::from_millis(300));
            dog.guard("send_offsets_to_transaction", || {
                std::thread::sleep(Duration::from_secs(20))
            });
        }
    }

    #[test]
    fn a_call_past_its_bound_ends_the_process_with_one_line() {
        let started = Instant::now();
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "watchdog::tests::stuck_call",
                "--ignored",
                "--nocapture",
            ])
            .env("KRB_WATCHDOG_CHILD", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(EXIT), "{err}");
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            err.contains(
                "krb-worker: w-a: send_offsets_to_transaction did not return within 0.3 s"
            ),
            "{err}"
        );
    }
}
