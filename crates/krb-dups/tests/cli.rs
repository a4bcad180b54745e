//! krb-dups as a user runs it.

use std::process::Command;

fn dups(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_krb-dups"))
        .args(args)
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
