//! krb-verify's command line as a user meets it: each lab takes its own options only.

use std::process::Command;

fn verify(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_krb-verify"))
        .args(args)
        .output()
        .expect("krb-verify runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_lab_refuses_another_labs_options_in_one_line() {
    for args in [
        &["revoke", "g", "--static"][..],
        &["revoke", "g", "--assignor", "range"],
        &["assignor", "g"],
        &["assignor", "g", "--assignor", "sticky"],
        &["protocol", "g"],
        &["static", "g", "--protocol", "classic"],
        &["maxpoll"],
        &["nolab", "g"],
    ] {
        let (code, err) = verify(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("krb-verify: "), "{args:?}: {err}");
    }
}

#[test]
fn missing_logs_are_exit_2_with_the_file() {
    let dir = std::env::temp_dir().join(format!("krb-verify-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (code, err) = verify(&["revoke", "nogroup", "--logs", dir.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no log file ") && err.contains("nogroup-*.log"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
