//! krb-doctor's bad input as a user sees it; no broker needed.

use std::process::Command;

#[test]
fn a_bad_namespace_is_one_line_and_exit_2_and_a_good_one_is_taken() {
    let out = Command::new(env!("CARGO_BIN_EXE_krb-doctor"))
        .args(["--bootstrap", "localhost:1", "--ns", "al ice"])
        .env("KRB_LANG", "en")
        .output()
        .expect("krb-doctor runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("krb-doctor: ") && err.contains("KRB_NS=alice"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    // The same command with a namespace it takes gets as far as the broker, which is not there.
    let out = Command::new(env!("CARGO_BIN_EXE_krb-doctor"))
        .args(["--bootstrap", "localhost:1", "--ns", "alice"])
        .env("KRB_LANG", "en")
        .output()
        .expect("krb-doctor runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.starts_with("ok     namespace: KRB_NS=alice"), "{said}");
    assert!(
        said.contains("FAILED broker: no Kafka broker answers at localhost:1"),
        "{said}"
    );
}
