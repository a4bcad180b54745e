//! krb-room's command line as a user meets it, with no broker: what is wrong with the input is
//! one line and exit 2, before any broker is asked; right input goes on to the broker (here one
//! that is not there: exit 1).

use std::io::Write;
use std::net::TcpListener;
use std::process::{Command, Stdio};

/// Runs krb-room with `stdin` on a broker that does not answer; returns its exit code and stderr.
fn room(args: &[&str], env: &[(&str, &str)], stdin: &str) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_krb-room"))
        .args(args)
        .env("KRB_BOOTSTRAP", "localhost:1")
        .env("KRB_NS", "alice")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("krb-room runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const RECORD: &str = r#"{"seconds":9.5,"status":"error","lab":1,"name":"revoke","variant":"nocommit","reason":"no broker","namespace":"alice"}"#;

#[test]
fn bad_input_is_one_line_and_exit_2_before_the_broker() {
    let dir = std::env::temp_dir().join(format!("krb-room-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, format!("{RECORD}\nlab 1: 78 duplicates\n")).unwrap();
    // Files that are not files of records, read as the logs are: never waited on, never read
    // without end, never read whole past what records weigh.
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let oversized = dir.join("oversized.jsonl");
    std::fs::File::create(&oversized)
        .unwrap()
        .set_len(64 << 20)
        .unwrap();
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    for (args, env, says) in [
        (
            vec!["publish", "mon day"],
            vec![],
            "a room is 1 to 100 letters",
        ),
        (
            vec!["publish", "monday", bad.to_str().unwrap()],
            vec![],
            "bad.jsonl:2: not a lab record",
        ),
        (
            vec!["publish", "monday", "/no/such/file"],
            vec![],
            "cannot read /no/such/file",
        ),
        (
            vec!["publish", "monday", bad.to_str().unwrap()],
            vec![("KRB_NS", "bob")],
            "bad.jsonl:1: a record of namespace alice, not yours (bob); nothing published",
        ),
        (
            vec!["publish", "monday", fifo.to_str().unwrap()],
            vec![],
            "fifo: it is a FIFO, not a regular file",
        ),
        (
            vec!["publish", "monday", "/dev/zero"],
            vec![],
            "cannot read /dev/zero: it is a device, not a regular file",
        ),
        (
            vec!["publish", "monday", oversized.to_str().unwrap()],
            vec![],
            "oversized.jsonl is over 4 MB",
        ),
        (
            vec!["serve", "monday", "--port", "0"],
            vec![("KRB_LANG", "fr")],
            "KRB_LANG=fr: unknown language",
        ),
        (
            vec!["serve", "monday", "--port", &port],
            vec![],
            "pass another --port",
        ),
    ] {
        let (code, err) = room(&args, &env, "");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("krb-room: ") && err.contains(says),
            "{args:?}: {err}"
        );
    }
    // No namespace: no topic of one's own to publish to.
    let out = Command::new(env!("CARGO_BIN_EXE_krb-room"))
        .args(["publish", "monday"])
        .env("KRB_BOOTSTRAP", "localhost:1")
        .env_remove("KRB_NS")
        .stdin(Stdio::null())
        .output()
        .expect("krb-room runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        "krb-room: your records go to a topic of your own, NS-krb-room-monday: set your \
         namespace (KRB_NS=alice, or --ns alice; in a room with logins, source your handout)\n"
    );
    // Records, from a file or stdin, go on to the broker: here none answers, exit 1. At once:
    // each waits 10 s for the broker.
    let good = dir.join("good.jsonl");
    std::fs::write(&good, format!("{RECORD}\n\n")).unwrap();
    let cases = [
        (vec!["publish", "monday", good.to_str().unwrap()], ""),
        (vec!["publish", "monday"], RECORD),
        (vec!["publish", "monday", "-"], ""),
    ];
    std::thread::scope(|s| {
        for (args, stdin) in &cases {
            s.spawn(move || {
                let (code, err) = room(args, &[], stdin);
                assert_eq!(code, Some(1), "{args:?}: {err}");
                assert!(
                    err.starts_with("krb-room: cannot reach a Kafka broker at localhost:1"),
                    "{args:?}: {err}"
                );
            });
        }
    });
    std::fs::remove_dir_all(dir).unwrap();
}
