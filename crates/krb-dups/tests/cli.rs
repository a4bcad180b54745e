//! krb-dups as a user runs it.

use std::process::Command;

fn dups(args: &[&str]) -> std::process::Output {
    dups_in("en", args)
}

fn dups_in(lang: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_krb-dups"))
        .args(args)
        .env("KRB_LANG", lang)
        .output()
        .expect("krb-dups runs")
}

#[test]
fn no_log_file_is_a_one_line_error_with_exit_2() {
    let dir = std::env::temp_dir().join(format!("krb-dups-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dups(&["nogroup", "--logs", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("krb-dups: no log file "), "{err}");
    assert!(out.stdout.is_empty());
    // The same in Korean, and a folder that is not there.
    let out = dups_in("ko", &["nogroup", "--logs", dir.to_str().unwrap()]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("krb-dups: 로그 파일 ") && err.ends_with("nogroup-*.log가 없습니다: 먼저 그룹의 워커를 띄우거나, --logs DIR로 로그 폴더를 주세요\n"),
        "{err}"
    );
    let gone = dir.join("gone");
    let out = dups_in("ko", &["nogroup", "--logs", gone.to_str().unwrap()]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(
        err.starts_with(&format!(
            "krb-dups: 로그 폴더 {}을 읽을 수 없습니다: ",
            gone.display()
        )),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn prints_the_articles_report() {
    let dir = std::env::temp_dir().join(format!("krb-dups-cli2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut a = String::new();
    let mut b = String::new();
    for o in 0..500 {
        a += &format!("09:13:20.000 nocommit-a p0 offset {o}\n");
        if o <= 481 {
            a += &format!("09:13:20.000 nocommit-a p1 offset {o}\n");
        }
        if o >= 400 {
            b += &format!("09:13:30.000 nocommit-b p1 offset {o}\n");
        }
    }
    std::fs::write(dir.join("nocommit-a.log"), a).unwrap();
    std::fs::write(dir.join("nocommit-b.log"), b).unwrap();
    let out = dups(&["nocommit", "--logs", dir.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "processed 1082, unique 1000, duplicates 82\n  p1: offset 400..481 (82) processed twice\n"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_line_with_a_malformed_time_is_named_not_called_never_processed() {
    let dir = std::env::temp_dir().join(format!("krb-dups-cli-time-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bl-a.log"),
        "09:00:00.100 bl-a p0 offset 0\n09:00:00.2xx bl-a p0 offset 1\n09:00:00.300 bl-a p0 offset 2\n",
    )
    .unwrap();
    let out = dups(&["bl", "--logs", dir.to_str().unwrap()]);
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    let path = dir.join("bl-a.log");
    assert_eq!(
        err,
        format!(
            "krb-dups: {}:2: skipped: \"09:00:00.2xx\" is not a time of day HH:MM:SS.mmm in \"09:00:00.2xx bl-a p0 offset 1\"\n",
            path.display()
        )
    );
    // The gap is still reported: the line was left out, and now the reader says so.
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "processed 2, unique 2, duplicates 0\n  p0: offset 1 (1) never processed\n"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A JSON value read strictly: an object that names a key twice is an error, where
/// serde_json's own Value would keep the last one silently.
struct Strict;

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Strict;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_str<E>(self, _: &str) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        while seq.next_element::<Strict>()?.is_some() {}
        Ok(Strict)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let mut keys = std::collections::BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !keys.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
            }
            map.next_value::<Strict>()?;
        }
        Ok(Strict)
    }
}

#[test]
fn json_names_each_key_once() {
    assert!(serde_json::from_str::<Strict>(r#"{"a":1,"b":{"a":2}}"#).is_ok());
    assert!(serde_json::from_str::<Strict>(r#"{"a":1,"a":2}"#).is_err());
    let dir = std::env::temp_dir().join(format!("krb-dups-cli3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("g-a.log"),
        "09:00:00.000 g-a p0 offset 0\n09:00:00.001 g-a p0 offset 0\n09:00:00.002 g-a p0 offset 2\n",
    )
    .unwrap();
    for extra in [&[][..], &["-v"], &["--end", "p0=5"]] {
        let mut args = vec!["g", "--json", "--logs", dir.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = dups(&args);
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        serde_json::from_str::<Strict>(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            (doc["processed"].as_u64(), doc["duplicates"].as_u64()),
            (Some(3), Some(1))
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_negative_or_overflowing_end_is_a_one_line_error_with_exit_2() {
    for end in [
        "p0=-9223372036854775808",
        "p0=-1",
        "p0=99999999999999999999",
        "p-1=3",
    ] {
        let out = dups(&["g", "--end", end]);
        assert_eq!(out.status.code(), Some(2), "{end}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("krb-dups: invalid value"), "{err}");
        assert!(out.stdout.is_empty());
    }
}

/// krb-dups run on `dir` for group `group`, killed if it has not ended within 10 s (a FIFO
/// read as a log used to block it for good).
fn dups_within_10s(group: &str, dir: &std::path::Path) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_krb-dups"))
        .args([group, "--logs", dir.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("krb-dups runs");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("krb-dups still runs after 10 s on {}", dir.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_fifo_in_place_of_a_log_is_a_one_line_error_not_a_hang() {
    let dir = std::env::temp_dir().join(format!("krb-dups-cli-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("g-a.log"), "09:00:00.000 g-a p0 offset 0\n").unwrap();
    let fifo = dir.join("g-b.log");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let out = dups_within_10s("g", &dir);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!(
            "krb-dups: cannot read {}: it is a FIFO, not a regular file\n",
            fifo.display()
        )
    );
    assert!(out.stdout.is_empty());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_processing_line_with_a_tab_or_a_leading_space_is_named_not_dropped() {
    let dir = std::env::temp_dir().join(format!("krb-dups-cli-space-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("sp-a.log"),
        "09:00:00.100 sp-a p0 offset 0\n09:00:00.200\tsp-a p0 offset 1\n 09:00:00.300 sp-a p0 offset 2\n09:00:00.400 sp-a p0 offset 3\n",
    )
    .unwrap();
    let out = dups_within_10s("sp", &dir);
    assert!(out.status.success());
    let path = dir.join("sp-a.log");
    let why = "skipped: white space out of place (a worker's line is HH:MM:SS.mmm NAME EVENT, one space between) in";
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "krb-dups: {p}:2: {why} \"09:00:00.200\\tsp-a p0 offset 1\"\n\
             krb-dups: {p}:3: {why} \" 09:00:00.300 sp-a p0 offset 2\"\n",
            p = path.display()
        )
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "processed 2, unique 2, duplicates 0\n  p0: offset 1..2 (2) never processed\n"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_cut_line_another_workers_line_and_an_empty_log_are_each_named() {
    let dir = std::env::temp_dir().join(format!("krb-dups-cli-notes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("n-a.log"),
        "09:00:00.100 n-a p0 offset 0\n09:00:00.200 n-b p0 offset 1\n09:00:00.300 n-a p0 offset 2\n09:00:00.400 n-a p0 offset 3",
    )
    .unwrap();
    std::fs::write(dir.join("n-b.log"), "").unwrap();
    let out = dups_within_10s("n", &dir);
    assert!(out.status.success());
    let (a, b) = (dir.join("n-a.log"), dir.join("n-b.log"));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "krb-dups: {a}:4: skipped: the last line has no newline: cut short by its writer, not read\n\
             krb-dups: {a}:2: a line of worker n-b, in the log of worker n-a: a log holds one worker's lines (read all the same)\n\
             krb-dups: {b}: no worker line in it: the log is empty\n",
            a = a.display(),
            b = b.display()
        )
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "processed 3, unique 3, duplicates 0\n"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
