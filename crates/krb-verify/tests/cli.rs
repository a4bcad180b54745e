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

/// `KRB_LANG=ko krb-verify table` (what `KRB_LANG=ko scripts/lab.sh` prints at its end) is in
/// Korean, the results file stays English, and an unknown language is one line and exit 2.
#[test]
fn the_table_speaks_korean_with_krb_lang_ko() {
    let dir = std::env::temp_dir().join(format!("krb-verify-lang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("results.jsonl");
    let mut v = krb_verify::Verdict::new(
        1,
        "revoke",
        "nocommit",
        "g",
        "82 duplicates on p1 (400..481)",
    );
    v.ours = "78 duplicates on p1 (200..277)".into();
    v.check("all 1000 messages processed", true, "unique 1000");
    v.check(
        "b began the moved partition at a's last commit",
        false,
        "b's first offset on p1: 0, a's last commit 200",
    );
    let record = krb_verify::record::Record {
        seconds: 9.5,
        status: "checked".into(),
        lab: 1,
        name: "revoke".into(),
        variant: "nocommit".into(),
        reason: None,
        verdict: Some(v),
        ended: None,
        namespace: None,
    };
    record.append(&records).unwrap();
    let table = |lang: &str| {
        Command::new(env!("CARGO_BIN_EXE_krb-verify"))
            .env("KRB_LANG", lang)
            .args(["table", records.to_str().unwrap()])
            .output()
            .expect("krb-verify runs")
    };
    let ko = table("ko");
    let text = String::from_utf8_lossy(&ko.stdout);
    assert_eq!(ko.status.code(), Some(1), "{text}");
    for korean in [
        "실습",
        "변형",
        "p1에서 중복 78건 (200..277)",
        "성립하지 않음: b가 옮겨 간 파티션을 a의 마지막 커밋에서 시작함",
    ] {
        assert!(text.contains(korean), "no {korean:?} in:\n{text}");
    }
    let en = table("en");
    assert!(String::from_utf8_lossy(&en.stdout).contains("not held: b began the moved partition"));
    assert!(std::fs::read_to_string(&records)
        .unwrap()
        .contains("\"all 1000 messages processed\""));
    let bad = table("fr");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("KRB_LANG=fr"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}
