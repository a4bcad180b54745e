//! krb-worker's errors as a user sees them; no broker needed.

use std::process::Command;
use std::time::{Duration, Instant};

fn worker(args: &[&str]) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_krb-worker"))
        .args(args)
        .env_remove("KRB_BOOTSTRAP")
        .output()
        .expect("krb-worker runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed(),
    )
}

#[test]
fn an_unreachable_broker_is_a_clear_error_not_a_hang() {
    let (code, err, took) = worker(&["w-a", "w", "pay", "--bootstrap", "localhost:1"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("cannot reach a Kafka broker at localhost:1"),
        "{err}"
    );
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

#[test]
fn bad_options_exit_2_with_usage() {
    let (code, err, _) = worker(&["w-a", "w", "pay", "--commit-every", "0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--commit-every"), "{err}");
    let (code, err, _) = worker(&["w-a", "w", "pay", "-X", "nokeyvalue"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("KEY=VALUE"), "{err}");
}

#[test]
fn a_name_with_spaces_is_refused() {
    let (code, err, _) = worker(&["w a", "w", "pay"]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("must be one word"), "{err}");
}
