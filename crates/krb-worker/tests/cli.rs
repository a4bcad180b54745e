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
    // The worker's own checks of its command line are usage errors too.
    let (code, err, _) = worker(&["w-a", "w", "pay", "--effect", "idempotent"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("krb-worker: ") && err.contains("--db"),
        "{err}"
    );
}

#[test]
fn a_name_with_spaces_is_refused() {
    let (code, err, _) = worker(&["w a", "w", "pay"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("must be one word"), "{err}");
}

/// Sends `signal` to a process with kill(1).
fn signal(pid: u32, signal: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .expect("kill runs")
        .success();
    assert!(ok, "kill -{signal} {pid}");
}

#[test]
fn a_second_signal_ends_the_worker_at_once() {
    for sig in ["TERM", "INT"] {
        // The broker does not answer: the worker waits up to 10 s for it.
        let mut child = Command::new(env!("CARGO_BIN_EXE_krb-worker"))
            .args(["w-a", "w", "pay", "--bootstrap", "localhost:1"])
            .env_remove("KRB_BOOTSTRAP")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("krb-worker runs");
        std::thread::sleep(Duration::from_millis(500));
        let sent = Instant::now();
        signal(child.id(), sig);
        std::thread::sleep(Duration::from_millis(100));
        signal(child.id(), sig);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if sent.elapsed() > Duration::from_secs(5) {
                let _ = child.kill();
                panic!("SIG{sig} twice: the worker was still running after 5 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(130), "SIG{sig} twice");
    }
}

#[test]
fn a_bad_missing_or_unreachable_database_is_one_line_before_the_broker_is_asked() {
    // A URL krb cannot read is a usage error (2); a database that is not there is not (1).
    for (effect, db, says, exit) in [
        (
            "idempotent",
            "sqlite:/nonexistent/krb/effects.db",
            "create it first with krb-effects init",
            1,
        ),
        ("db-offsets", "mysql://localhost/x", "use sqlite:PATH", 2),
        // Nothing listens on port 1: refused at once.
        (
            "plain",
            "postgres://postgres@127.0.0.1:1/postgres",
            "is PostgreSQL running there?",
            1,
        ),
    ] {
        let (code, err, took) = worker(&[
            "w-a",
            "w",
            "pay",
            "--effect",
            effect,
            "--db",
            db,
            "--bootstrap",
            "localhost:1",
        ]);
        assert_eq!(code, Some(exit), "{db}: {err}");
        assert_eq!(err.lines().count(), 1, "{db}: {err}");
        assert!(err.contains(says), "{db}: {err}");
        // The broker would have taken 10 s to give up on; the database is asked first.
        assert!(took < Duration::from_secs(5), "{db}: took {took:?}");
    }
}
