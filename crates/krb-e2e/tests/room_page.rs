//! The room's results on one screen: five participants, each in a namespace and a logs folder
//! of their own, run labs 1 and 2 at the same time on one broker with KRB_ROOM set, each
//! publishing to a topic of their own; the teacher's `krb-room serve` reads those topics and
//! headless Chromium renders its page. The page must show five rows, and each participant's
//! numbers as their own results.json holds them; a message on a topic of the room that is not a
//! record is named on the page and left out.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context, Result};
use krb_e2e::{bootstrap, chromium, root, said, screenshot, serial, serve_room};
use krb_verify::record::Record;

/// How many run at once. All five: on a shared 2-core machine five `lab.sh --only 1,2` at once
/// took 43 to 57 s in three runs (load average up to 17) and held every statement; one alone
/// took 42 s. The labs wait more than they compute.
const PARTICIPANTS: usize = 5;

/// The numbers compared: lab, variant and the name krb-verify gives it.
const NUMBERS: [(u8, &str, &str); 2] = [
    (1, "nocommit", "duplicates"),
    (2, "expel", "overlap_seconds"),
];

fn logs(ns: &str) -> PathBuf {
    root().join(format!("logs/e2e-roompage-{ns}"))
}

/// Starts `scripts/lab.sh --only 1,2` as participant `ns` of `room`.
fn participant(ns: &str, room: &str) -> Result<Child> {
    let logs = logs(ns);
    let _ = std::fs::remove_dir_all(&logs);
    Command::new("bash")
        .args(["scripts/lab.sh", "--only", "1,2", "--broker", "external"])
        .env("KRB_NS", ns)
        .env("KRB_LOGS", &logs)
        .env("KRB_ROOM", room)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot run scripts/lab.sh")
}

/// The DOM once the page shows `records` records (the server reads the topic as it starts).
fn dom_with(url: &str, records: usize) -> Result<String> {
    let start = Instant::now();
    loop {
        let (dom, _) = chromium(url, &["--dump-dom"])?;
        if dom.contains(&format!(" · {records} record(s) · "))
            || dom.contains(&format!("기록 {records}개"))
        {
            return Ok(dom);
        }
        if start.elapsed() > Duration::from_secs(60) {
            bail!("the page never showed {records} records:\n{dom}");
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// The numbers in the attribute `data-value` of each element whose attributes begin `start`.
fn values(dom: &str, start: &str) -> Result<Vec<f64>> {
    dom.match_indices(start)
        .map(|(i, _)| {
            let rest = &dom[i + start.len()..];
            let value = rest
                .split("data-value=\"")
                .nth(1)
                .and_then(|v| v.split('"').next())
                .context("no data-value")?;
            value
                .parse()
                .with_context(|| format!("data-value {value:?}"))
        })
        .collect()
}

/// Puts a message that is not a record on a topic of the room, as a mistaken producer would.
fn publish_garbage(room: &str) -> Result<()> {
    use rdkafka::producer::{BaseProducer, BaseRecord, Producer};
    let producer: BaseProducer = rdkafka::ClientConfig::new()
        .set("bootstrap.servers", bootstrap())
        .create()?;
    producer
        .send(
            BaseRecord::to(&format!("p9-krb-room-{room}"))
                .key("p9")
                .payload("lab 1: 78 duplicates"),
        )
        .map_err(|(e, _)| e)?;
    producer.flush(Duration::from_secs(10))?;
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker and Chromium (Debian's chromium): scripts/test.sh"]
fn five_participants_on_the_room_page_in_chromium() -> Result<()> {
    let _one_at_a_time = serial();
    let room = format!("e2e-{}", std::process::id());
    let names: Vec<String> = (1..=PARTICIPANTS).map(|i| format!("p{i}")).collect();
    let started = Instant::now();
    let runs: Vec<Child> = names
        .iter()
        .map(|ns| participant(ns, &room))
        .collect::<Result<_>>()?;
    let mut failed = Vec::new();
    for (ns, run) in names.iter().zip(runs) {
        let out = run.wait_with_output()?;
        let text = said(&out);
        println!("== {ns}\n{text}");
        if !out.status.success() || !text.contains(&format!("room: {room} (")) {
            failed.push(ns.clone());
        }
    }
    println!(
        "{PARTICIPANTS} runs of lab.sh --only 1,2 at once: {:.0} s",
        started.elapsed().as_secs_f64()
    );
    ensure!(
        failed.is_empty(),
        "lab.sh failed for {failed:?} (output above)"
    );
    publish_garbage(&room)?;

    let broker = bootstrap();
    let server = serve_room(&room, &[("KRB_LANG", "en"), ("KRB_BOOTSTRAP", &broker)])?;
    let dom = dom_with(&server.url, 3 * PARTICIPANTS)?;
    ensure!(
        dom.matches("<tr class=\"participant\"").count() == PARTICIPANTS,
        "not {PARTICIPANTS} rows:\n{dom}"
    );
    ensure!(
        dom.matches("class=\"v held\"").count() == 3 * PARTICIPANTS
            && !dom.contains("class=\"v failed\""),
        "not every variant of every participant held on the page:\n{dom}"
    );
    for ns in &names {
        let file = logs(ns).join("results.json");
        let records: Vec<Record> = serde_json::from_str(
            &std::fs::read_to_string(&file).with_context(|| format!("no {}", file.display()))?,
        )?;
        ensure!(records
            .iter()
            .all(|r| r.namespace.as_deref() == Some(ns.as_str())));
        for (lab, variant, name) in NUMBERS {
            let record = records
                .iter()
                .find(|r| r.lab == lab && r.variant == variant)
                .with_context(|| format!("{ns}: no lab {lab} {variant} in {}", file.display()))?;
            let expected = *record
                .verdict
                .as_ref()
                .and_then(|v| v.numbers.get(name))
                .with_context(|| format!("{ns}: lab {lab} {variant} has no {name}"))?;
            let cell = values(
                &dom,
                &format!(
                    "data-participant=\"{ns}\" data-lab=\"{lab}\" data-variant=\"{variant}\" data-name=\"{name}\" "
                ),
            )?;
            ensure!(
                cell == [expected],
                "{ns}: the table shows {cell:?} for lab {lab} {variant} {name}, results.json {expected}"
            );
            println!("{ns}: lab {lab} {variant} {name} = {expected}, on the page {cell:?}");
        }
        // One dot on each of the two pictures, at the same numbers.
        let mut dots = values(
            &dom,
            &format!("<circle class=\"dot\" data-participant=\"{ns}\" "),
        )?;
        dots.sort_by(f64::total_cmp);
        let mut expected: Vec<f64> = NUMBERS
            .iter()
            .filter_map(|(lab, variant, name)| {
                let r = records
                    .iter()
                    .find(|r| r.lab == *lab && r.variant == *variant)?;
                r.verdict.as_ref()?.numbers.get(*name).copied()
            })
            .collect();
        expected.sort_by(f64::total_cmp);
        ensure!(
            dots == expected,
            "{ns}: dots at {dots:?}, results.json {expected:?}"
        );
    }
    ensure!(
        dom.contains("<section id=\"skipped\">")
            && dom.contains(": not a lab record (")
            && !dom.contains("data-participant=\"p9\""),
        "the message that is not a record is not named, or made a row:\n{dom}"
    );

    let korean = serve_room(&room, &[("KRB_LANG", "ko"), ("KRB_BOOTSTRAP", &broker)])?;
    let ko_dom = dom_with(&korean.url, 3 * PARTICIPANTS)?;
    for text in [
        "<html lang=\"ko\">",
        "참가자",
        "실습 2: a와 b가 offset 3을 함께 처리한 시간(초)",
    ] {
        ensure!(
            ko_dom.contains(text),
            "no {text:?} on the Korean page:\n{ko_dom}"
        );
    }
    ensure!(ko_dom.matches("<tr class=\"participant\"").count() == PARTICIPANTS);

    let shots = root().join("logs/e2e-roompage");
    std::fs::create_dir_all(&shots)?;
    for (server, name) in [(&server, "room.png"), (&korean, "room-ko.png")] {
        screenshot(&server.url, &shots.join(name))?;
    }
    drop((server, korean));
    for ns in names.iter().map(String::as_str).chain(["p9"]) {
        let deleted = Command::new(root().join("target/release/krb-topic"))
            .args([&format!("krb-room-{room}"), "--delete"])
            .env("KRB_NS", ns)
            .status()?;
        ensure!(deleted.success(), "cannot delete {ns}'s topic in the room");
    }
    Ok(())
}
