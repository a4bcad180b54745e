//! A workshop room: two people run the whole lab at the same time on one broker, each in a
//! namespace of their own (KRB_NS), with their files in folders of their own (KRB_LOGS). Each
//! run must hold every statement of every lab, on topics and groups the other never touches.
//! The broker is a room with logins (scripts/room.sh): each runs through their own handout
//! (KRB_CONFIG, SASL/SCRAM), so the ACLs of their prefix allow all that every lab does.
//! This is also the end-to-end run of labs 1, 3, 4, 5 and 6 (SQLite and Kafka) as `lab.sh`
//! runs them; lab 2's rerun and lab 6 on PostgreSQL have tests of their own (labs.rs).

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use anyhow::{ensure, Context, Result};
use krb_common::worker_log::WorkerLog;
use krb_e2e::{root, said, serial, Room};
use krb_verify::record::read;

/// The variants `lab.sh` runs (labs 1 to 6).
const VARIANTS: usize = 19;

/// Starts `scripts/lab.sh` as `ns` of `room` (its handout: broker, namespace, login), its files
/// in `logs/e2e-room-NS`.
fn lab(room: &Room, ns: &str) -> Result<Child> {
    let logs = root().join(format!("logs/e2e-room-{ns}"));
    let _ = std::fs::remove_dir_all(&logs);
    Command::new("bash")
        .arg("scripts/lab.sh")
        .args(["--broker", "external"])
        .envs(room.handout(ns))
        .env("KRB_LOGS", &logs)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot run scripts/lab.sh")
}

/// Waits for a run; fails with its output unless every statement held, and checks that its
/// workers used only the namespace's names.
fn held(ns: &str, run: Child) -> Result<()> {
    let out = run.wait_with_output().context("cannot wait for lab.sh")?;
    let text = said(&out);
    println!("== {ns}\n{text}");
    ensure!(
        out.status.success(),
        "lab.sh in namespace {ns} failed:\n{text}"
    );
    ensure!(
        text.contains(&format!("namespace: {ns} (")),
        "lab.sh did not say its namespace:\n{text}"
    );
    let logs = root().join(format!("logs/e2e-room-{ns}"));
    let records = read(&logs.join("results.jsonl"))?;
    ensure!(
        records.len() == VARIANTS && records.iter().all(|r| r.held()),
        "namespace {ns}: {} records, not all held:\n{}",
        records.len(),
        krb_verify::record::table(&records)
    );
    // What each script said, as lab 1, 4 and 6 say it.
    for (file, says) in [
        ("lab-1-nocommit.out", " start nocommit-b\n"),
        ("lab-4-dynamic.out", "session.timeout.ms 10000"),
        (
            "lab-6-idempotentrevoke.out",
            "== effects (krb-effects count ",
        ),
    ] {
        let said = std::fs::read_to_string(logs.join(file))
            .with_context(|| format!("no {file} in {}", logs.display()))?;
        ensure!(said.contains(says), "{file} does not say {says:?}:\n{said}");
    }
    only_namespaced(ns, &logs)
}

/// Every worker log in `logs` says it consumed a topic of the namespace in a group of it.
fn only_namespaced(ns: &str, logs: &Path) -> Result<()> {
    let mut workers = 0;
    for entry in std::fs::read_dir(logs)? {
        let path = entry?.path();
        if path.extension().is_none_or(|e| e != "log") {
            continue;
        }
        let log = WorkerLog::read_file(&path)?;
        for line in &log.lines {
            if let krb_common::logline::Event::Consumes { topic, group } = &line.event {
                workers += 1;
                ensure!(
                    topic.starts_with(&format!("{ns}-")) && group.starts_with(&format!("{ns}-")),
                    "{}: a worker consumed {topic} in group {group}, outside namespace {ns}",
                    path.display()
                );
            }
        }
    }
    ensure!(workers > 0, "no worker log in {}", logs.display());
    Ok(())
}

#[test]
#[ignore = "needs Java 17+ and Kafka's jars (scripts/kafka-local.sh jars): scripts/test.sh"]
fn two_namespaced_lab_runs_at_once_in_a_room_with_logins_both_hold_every_statement() -> Result<()> {
    let _one_at_a_time = serial();
    // Ports 9740 (the room's listener) to 9742.
    let room = Room::start("/tmp/krb-e2e-room-labs", 9740, &["alice", "bob"])?;
    let started = Instant::now();
    let alice = lab(&room, "alice")?;
    let bob = lab(&room, "bob")?;
    let (a, b) = (held("alice", alice), held("bob", bob));
    println!("both runs: {:.0} s", started.elapsed().as_secs_f64());
    a.and(b)
}

#[test]
#[ignore = "needs Java 17+ and Kafka's jars (scripts/kafka-local.sh jars): scripts/test.sh"]
fn a_broker_for_the_room_answers_on_the_address_it_advertises() -> Result<()> {
    let _one_at_a_time = serial();
    // 127.0.0.2 is this machine too, but a listener bound to localhost does not answer there:
    // only one on every interface, as KRB_ADVERTISE asks, does.
    let out = krb_e2e::bash(
        "a broker for the room, KRB_ADVERTISE=127.0.0.2",
        &(krb_e2e::own_kafka("/tmp/krb-e2e-room", 9681)
            + r#"
         export KRB_ADVERTISE=127.0.0.2
         trap 'scripts/kafka-local.sh stop >/dev/null' EXIT
         scripts/kafka-local.sh start >/dev/null
         export KRB_BOOTSTRAP=127.0.0.2:9681 KRB_NS=room
         topic adv 2
         krb-produce adv 10 2"#),
    )?;
    ensure!(
        out.contains("Created topic room-adv.\nsent 10 messages to room-adv\n"),
        "the room's broker did not take a namespaced topic on its advertised address: {out}"
    );
    Ok(())
}
