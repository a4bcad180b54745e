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
