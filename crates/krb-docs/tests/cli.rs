//! krb-docs itself: `write` fills a block with a binary's help (its own, beside it) and a
//! script's, a second `write` changes nothing, and `check` names a block that drifted.

use std::path::Path;
use std::process::{Command, Output};

use krb_testutil::scratch_dir;

fn krb_docs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krb-docs"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn write_fills_blocks_and_check_names_one_that_drifted() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/repo/scripts");
    let read = |name: &str| std::fs::read_to_string(fixture.join(name)).unwrap();
    let page = "# krb\n\n<!-- krb:help krb-docs check -->\n<!-- /krb:help -->\n\n\
                <!-- krb:help scripts/01-revoke.sh -->\n<!-- /krb:help -->\n";
    let dir = scratch_dir(
        "docs-cli",
        &[
            ("README.md", page.to_string()),
            ("01-revoke.sh", read("01-revoke.sh")),
            ("usage.sh", read("usage.sh")),
        ],
    );
    std::fs::create_dir(dir.join("scripts")).unwrap();
    for name in ["01-revoke.sh", "usage.sh"] {
        std::fs::rename(dir.join(name), dir.join("scripts").join(name)).unwrap();
    }
    let script = dir.join("scripts/01-revoke.sh");
    let mut mode = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut mode, 0o755);
    std::fs::set_permissions(&script, mode).unwrap();
    let root = dir.to_str().unwrap();

    let out = krb_docs(&["write", root]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(stdout(&out), "wrote README.md\n");
    let written = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(
        written.contains("```text\nReport every problem of the docs"),
        "{written}"
    );
    assert!(
        written.contains("Usage: krb-docs check [ROOT]"),
        "{written}"
    );
    assert!(written.contains("```text\nLab 1: a consumer"), "{written}");
    let out = krb_docs(&["write", root]);
    assert_eq!(stdout(&out), "");

    // The page has other problems (no Korean twin, no setup.md): none is a block's.
    let out = krb_docs(&["check", root]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!stdout(&out).contains("krb:help"), "{}", stdout(&out));
    std::fs::write(
        dir.join("README.md"),
        written.replace("Lab 1: a consumer", "Lab 1: one consumer"),
    )
    .unwrap();
    let out = krb_docs(&["check", root]);
    assert!(
        stdout(&out).contains(
            "README.md:19: the krb:help scripts/01-revoke.sh block is not what it generates"
        ),
        "{}",
        stdout(&out)
    );
}

#[test]
fn commands_prints_what_a_labs_sample_runs_and_check_holds_the_sample_to_it() {
    let page = "# Lab 2\n\n```sh\nsource scripts/common.sh\n./scripts/02-maxpoll.sh\n\
                cat logs/slow-*.log | sort\n```\n\n<!-- krb:sample lab2 -->\n\
                <!-- /krb:sample -->\n";
    let sample = "# lab 2, krb abc, 2026-12-04 10:00 UTC, Kafka 4.3.1\n$ topic slow 1\n\
                  Created topic slow.\n$ ./scripts/02-maxpoll.sh\n";
    let dir = scratch_dir::<&str>("docs-commands", &[]);
    for (file, text) in [
        ("docs/en/lab2-maxpoll.md", page),
        ("docs/samples/en/lab2.txt", sample),
    ] {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let root = dir.to_str().unwrap();
    let out = krb_docs(&["commands", "2", root]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "./scripts/02-maxpoll.sh\ncat logs/slow-*.log | sort\n"
    );
    let out = krb_docs(&["commands", "3", root]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no page of docs/en shows the sample lab3"),
        "{out:?}"
    );
    // The sample ran a command the page does not show, and not one it does.
    let out = krb_docs(&["check", root]);
    let found = stdout(&out);
    assert!(
        found.contains("docs/samples/en/lab2.txt:2: the sample ran `topic slow 1`"),
        "{found}"
    );
    assert!(
        found.contains("docs/en/lab2-maxpoll.md:6: `cat logs/slow-*.log | sort` is a command of this page that docs/samples/en/lab2.txt never ran"),
        "{found}"
    );
}
