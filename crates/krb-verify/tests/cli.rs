//! krb-verify's command line as a user meets it: each lab takes its own options only.

use std::process::Command;

use krb_cli::lang::Lang;
use krb_verify::messages::Shared;
use krb_verify::revoke;

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
    let summary = |count, range| Shared::Summary {
        count,
        partitions: vec![1],
        range: Some(range),
    };
    let mut v = krb_verify::Verdict::new(1, "revoke", "nocommit", "g", summary(82, (400, 481)));
    v.ours = summary(78, (200, 277)).into();
    v.check(
        Shared::AllProcessed { count: 1000 },
        true,
        Shared::Unique { count: 1000 },
    );
    v.check(
        revoke::Said::BeganAtLastCommit,
        false,
        revoke::Said::BFirstAndCommit {
            p: 1,
            offset: Some(0),
            commit: 200,
        },
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
    let failed = |lang| revoke::Said::BeganAtLastCommit.text(lang);
    for korean in [
        "실습".to_string(),
        "변형".to_string(),
        "p1에서 중복 78건 (200..277)".to_string(),
        format!("성립하지 않음: {}", failed(Lang::Ko)),
    ] {
        assert!(text.contains(&korean), "no {korean:?} in:\n{text}");
    }
    let en = table("en");
    let en = String::from_utf8_lossy(&en.stdout);
    assert!(
        en.contains(&format!("not held: {}", failed(Lang::En))),
        "{en}"
    );
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

/// A lab 7 trial in group `g` that keeps every statement, written to a fresh folder, with
/// `change` applied to its files (name, text) first; checked with `--recheck`, which needs no
/// broker. krb-verify is killed if it has not ended within 10 s (a FIFO used to block it).
fn faults_trial(
    what: &str,
    change: impl FnOnce(&mut Vec<(&str, Vec<u8>)>),
) -> (Option<i32>, String, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("krb-verify-faults-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = vec![
        (
            "g-a.log",
            "09:00:00.000 start g-a\n09:00:00.010 g-a consumes g in group g\n09:00:00.100 g-a assigned [0]\n\
             09:00:01.000 g-a p0 offset 0\n09:00:01.001 g-a p0 offset 1\n09:00:01.002 g-a commit p0=2\n\
             09:00:02.000 stop g-a\n09:00:02.010 g-a revoked [0]\n"
                .into(),
        ),
        ("g.acks", "p0 offset 0\np0 offset 1\n".into()),
        (
            "g.faults",
            "09:00:00.000 begin trial 1 seed 1\n09:00:03.000 end\n".into(),
        ),
        ("g.committed", "09:00:01.500 sampler commit p0=2\n".into()),
        (
            "g.witness",
            "GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID\n\
             g g 0 2 2 0 - - -\n"
                .into(),
        ),
    ];
    change(&mut files);
    for (name, text) in &files {
        if text == b"FIFO" {
            let made = Command::new("mkfifo").arg(dir.join(name)).status().unwrap();
            assert!(made.success());
        } else {
            std::fs::write(dir.join(name), text).unwrap();
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_krb-verify"))
        .args(["faults", "g", "--recheck", "--logs", dir.to_str().unwrap()])
        .env("KRB_LANG", "en")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("krb-verify runs");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(10) {
            child.kill().unwrap();
            panic!(
                "krb-verify faults still runs after 10 s in {}",
                dir.display()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        dir,
    )
}

fn set(files: &mut [(&str, Vec<u8>)], name: &str, text: impl Into<Vec<u8>>) {
    files.iter_mut().find(|(n, _)| *n == name).unwrap().1 = text.into();
}

/// The worker's log of the good trial, with `from` replaced by `to`.
fn log_with(files: &[(&str, Vec<u8>)], from: &str, to: &str) -> String {
    String::from_utf8(files[0].1.clone())
        .unwrap()
        .replace(from, to)
}

#[test]
fn a_trial_that_keeps_every_statement_is_exit_0_without_a_word() {
    let (code, err, dir) = faults_trial("good", |_| {});
    assert_eq!((code, err.as_str()), (Some(0), ""));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_witness_end_below_0_is_a_one_line_error_with_exit_2_not_a_panic() {
    let (code, err, dir) = faults_trial("witness", |f| {
        set(
            f,
            "g.witness",
            "GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG\ng g 0 2 -1 0\n",
        )
    });
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        format!(
            "krb-verify: {}:2: LOG-END-OFFSET \"-1\" is not a number from 0 to 9223372036854775807 or -, in \"g g 0 2 -1 0\"\n",
            dir.join("g.witness").display()
        )
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_offset_of_i64_max_is_an_error_or_named_never_a_panic() {
    // In the acknowledgements: one line, exit 2.
    let (code, err, dir) = faults_trial("acks", |f| {
        set(f, "g.acks", "p0 offset 0\np0 offset 9223372036854775807\n")
    });
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "krb-verify: {}:2: expected pP offset O",
            dir.join("g.acks").display()
        )),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
    // In a worker's log: the line is named and left out, and the check goes on.
    let (code, err, dir) = faults_trial("log", |f| {
        let log = log_with(
            f,
            "09:00:01.001 g-a p0 offset 1\n",
            "09:00:01.001 g-a p0 offset 1\n09:00:01.001 g-a p0 offset 9223372036854775807\n",
        );
        set(f, "g-a.log", log)
    });
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        err,
        format!(
            "krb-verify: {}:6: skipped: offset out of range (0 to 9223372036854775806) in \"p0 offset 9223372036854775807\"\n",
            dir.join("g-a.log").display()
        )
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_sampler_line_that_does_not_parse_or_is_cut_short_is_named() {
    let (code, err, dir) = faults_trial("sampler", |f| {
        set(
            f,
            "g.committed",
            "09:00:01.500 sampler commit p0=2\n09:00:01.750 sampler commit p0=\n09:00:02.000 sampler commit p0=2",
        )
    });
    assert_eq!(code, Some(0), "{err}");
    let path = dir.join("g.committed");
    assert_eq!(
        err,
        format!(
            "krb-verify: {p}:2: skipped: \"\" is not an offset (0 to 9223372036854775807)\n\
             krb-verify: {p}:3: skipped: the last line has no newline: cut short by its writer, not read\n",
            p = path.display()
        )
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_log_with_two_workers_lines_an_empty_log_and_a_name_not_utf8_are_named() {
    let (code, err, dir) = faults_trial("workers", |f| {
        let log = log_with(
            f,
            "09:00:01.002 g-a commit p0=2\n",
            "09:00:01.002 g-a commit p0=2\n09:00:01.003 g-b assigned []\n09:00:01.004 g-@ assigned []\n",
        );
        // The name g-\xff: a byte that is not UTF-8.
        let mut bytes = log.into_bytes();
        let at = bytes.windows(3).position(|w| w == b"g-@").unwrap();
        bytes[at + 2] = 0xff;
        set(f, "g-a.log", bytes);
        f.push(("g-c.log", Vec::new()));
    });
    assert_eq!(code, Some(0), "{err}");
    let a = dir.join("g-a.log");
    assert_eq!(
        err,
        format!(
            "krb-verify: {a}:8: skipped: bytes that are not UTF-8 (read as U+FFFD) in \"09:00:01.004 g-\u{fffd} assigned []\"\n\
             krb-verify: {a}:7: a line of worker g-b, in the log of worker g-a: a log holds one worker's lines (read all the same)\n\
             krb-verify: {c}: no worker line in it: the log is empty\n",
            a = a.display(),
            c = dir.join("g-c.log").display()
        )
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_fifo_in_place_of_a_trials_file_is_a_one_line_error_with_exit_2_not_a_hang() {
    for name in ["g.committed", "g.witness", "g.acks", "g.faults", "g-a.log"] {
        let (code, err, dir) = faults_trial("fifo", |f| set(f, name, "FIFO"));
        assert_eq!(code, Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.starts_with("krb-verify: cannot read ")
                && err.ends_with(&format!(
                    "{}: it is a FIFO, not a regular file\n",
                    dir.join(name).display()
                )),
            "{name}: {err}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
