//! The live view on a real lab 1 run, as a person runs it: `krb-live nocommit` in a second
//! terminal, then the article's steps (`topic pay 2`, `krb-produce pay 1000 2`,
//! `./scripts/01-revoke.sh nocommit`) in a namespace of their own, and a real browser (headless
//! Chromium) reading the page while a runs alone, while b joins, and after the run. The page's
//! numbers are checked against krb-dups and the logs, read through krb-log's grammar.

use std::fs::File;
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context, Result};
use krb_cli::namespace::Namespace;
use krb_e2e::{page_dom, root, screenshot, serial, serve_live};
use krb_log::logline::{Event, Partition};
use krb_log::worker_log::WorkerLog;
use regex::Regex;

const GROUP: &str = "nocommit";
/// Its own topic and group on the broker, apart from every other test's.
const NS: &str = "e2elive";

/// The lab run, its workers stopped when the test ends however it ends: a lab killed before its
/// end leaves them running (its exit trap would stop them), and the next run would find the
/// group busy.
struct Lab(Child);

impl Drop for Lab {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        stop_workers(&logs());
    }
}

/// Stops the workers of the group that a lab started in `logs` and that still run (common.sh's
/// stop_all, by the pid files it wrote).
fn stop_workers(logs: &Path) {
    if logs.is_dir() {
        let _ = Command::new("bash")
            .arg("-c")
            .arg(format!("source scripts/common.sh; stop_all {GROUP} 10"))
            .env("KRB_LOGS", logs)
            .env("KRB_NS", NS)
            .current_dir(root())
            .output();
    }
}

/// The run's folder of logs.
fn logs() -> std::path::PathBuf {
    root().join("logs/e2e-live")
}

/// A worker the lab started, paused (SIGSTOP) until this is dropped (SIGCONT).
struct Paused(String);

impl Paused {
    /// Pauses worker `name`, whose pid common.sh's `start` wrote to `NAME.pid`.
    fn worker(logs: &Path, name: &str) -> Result<Paused> {
        let pid = std::fs::read_to_string(logs.join(format!("{name}.pid")))
            .with_context(|| format!("no pid file for {name}"))?
            .trim()
            .to_string();
        signal("-STOP", &pid)?;
        Ok(Paused(pid))
    }
}

impl Drop for Paused {
    fn drop(&mut self) {
        let _ = signal("-CONT", &self.0);
    }
}

fn signal(which: &str, pid: &str) -> Result<()> {
    let status = Command::new("kill").args([which, pid]).status()?;
    ensure!(status.success(), "kill {which} {pid} failed");
    Ok(())
}

/// Waits until `ready` holds, failing after `seconds` or as soon as the lab has exited.
fn wait_for(
    what: &str,
    seconds: u64,
    lab: &mut Lab,
    mut ready: impl FnMut() -> bool,
) -> Result<()> {
    let started = Instant::now();
    while !ready() {
        if let Some(status) = lab.0.try_wait()? {
            bail!("the lab exited ({status}) before {what}");
        }
        ensure!(
            started.elapsed() < Duration::from_secs(seconds),
            "no {what} after {seconds} s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

/// Whether `NAME.log` in `logs` has an assigned line yet.
fn assigned(logs: &Path, name: &str) -> bool {
    WorkerLog::read_file(&logs.join(format!("{name}.log"))).is_ok_and(|log| {
        log.lines
            .iter()
            .any(|l| matches!(l.event, Event::Assigned(_)))
    })
}

/// The page's duplicate count.
fn duplicates(dom: &str) -> Result<u64> {
    let re = Regex::new(r#"<span class="number" id="duplicates">(\d+)</span>"#)?;
    let found = re
        .captures(dom)
        .with_context(|| format!("no duplicate count in the page:\n{dom}"))?;
    Ok(found[1].parse()?)
}

/// What the page shows of `worker`: the partitions it owns, its last assigned line's
/// partitions, and each partition's bars' ends (`revoked`, `lost`, or empty while owned).
struct Shown {
    owns: String,
    last_assigned: String,
    bars: Vec<(Partition, String)>,
}

fn shown(dom: &str, worker: &str) -> Result<Shown> {
    let head = Regex::new(&format!(
        r#"data-worker="{worker}" data-owns="([^"]*)" data-last-assigned="([^"]*)""#
    ))?;
    let found = head
        .captures(dom)
        .with_context(|| format!("no lane for {worker} in the page:\n{dom}"))?;
    let bar = Regex::new(&format!(
        r#"class="span" data-worker="{worker}" data-partition="(\d+)" data-from="\d+" data-to="\d*" data-end="(\w*)""#
    ))?;
    let bars = bar
        .captures_iter(dom)
        .map(|c| Ok((c[1].parse()?, c[2].to_string())))
        .collect::<Result<Vec<_>>>()?;
    Ok(Shown {
        owns: found[1].to_string(),
        last_assigned: found[2].to_string(),
        bars,
    })
}

fn list(ps: &[Partition]) -> String {
    ps.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
#[ignore = "needs a Kafka broker and Chromium (Debian's chromium): scripts/test.sh"]
fn the_live_view_follows_a_real_lab1_run_in_chromium() -> Result<()> {
    let _one_at_a_time = serial();
    let logs = logs();
    stop_workers(&logs);
    let _ = std::fs::remove_dir_all(&logs);
    std::fs::create_dir_all(&logs)?;
    // The view first, as in a second terminal before the lab.
    let server = serve_live(GROUP, &logs, &[("KRB_NS", NS), ("KRB_LANG", "en")])?;
    let url = &server.url;
    let out = File::create(logs.join("lab.out"))?;
    let mut lab = Lab(
        Command::new("bash")
            .arg("-c")
            .arg(format!(
                "set -euo pipefail; source scripts/common.sh; topic pay 2; krb-produce pay 1000 2; ./scripts/01-revoke.sh {GROUP}"
            ))
            .env("KRB_LOGS", &logs)
            .env("KRB_NS", NS)
            .current_dir(root())
            .stdout(out.try_clone()?)
            .stderr(out)
            .spawn()
            .context("cannot run bash")?,
    );
    let (a, b) = (format!("{GROUP}-a"), format!("{GROUP}-b"));

    // a alone: the page shows it, and no duplicate. b starts once a has done 100 messages of
    // p1, a few seconds, less than Chromium takes to start on a busy machine: a is paused while
    // the browser reads the page, which holds b back without changing what the lab checks.
    wait_for("a's assigned line", 120, &mut lab, || assigned(&logs, &a))?;
    let alone = {
        let _paused = Paused::worker(&logs, &a)?;
        ensure!(
            !logs.join(format!("{b}.log")).exists(),
            "b had started before a was paused"
        );
        page_dom(url)?
    };
    ensure!(
        shown(&alone, &b).is_err(),
        "b is on the page while a is alone:\n{alone}"
    );
    ensure!(
        !shown(&alone, &a)?.bars.is_empty(),
        "a's partition bars are not on the page:\n{alone}"
    );
    ensure!(
        duplicates(&alone)? == 0,
        "the page counts duplicates with a alone"
    );

    // b joining: b has started, and a is paused, so the rebalance b asks for waits for a to
    // rejoin and the page is read while b is joining (its lane there, no partition yet).
    wait_for("b's log", 120, &mut lab, || {
        logs.join(format!("{b}.log")).exists()
    })?;
    let joining = {
        let _paused = Paused::worker(&logs, &a)?;
        screenshot(url, &logs.join("live-joining.png"))?;
        page_dom(url)?
    };
    ensure!(
        shown(&joining, &b)?.bars.is_empty() && !shown(&joining, &a)?.bars.is_empty(),
        "b is not shown joining (on the page with no partition yet):\n{joining}"
    );
    ensure!(
        duplicates(&joining)? == 0,
        "the page counts duplicates before b has a partition"
    );

    // After the run: krb-dups' count, and the partitions of the logs' last lines.
    let started = Instant::now();
    let status = loop {
        if let Some(status) = lab.0.try_wait()? {
            break status;
        }
        ensure!(
            started.elapsed() < Duration::from_secs(180),
            "lab 1 did not end in 180 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let said = std::fs::read_to_string(logs.join("lab.out"))?;
    ensure!(status.success(), "lab 1 failed ({status}):\n{said}");
    let dups = Command::new(root().join("target/release/krb-dups"))
        .args([GROUP, "--logs"])
        .arg(&logs)
        .env("KRB_NS", NS)
        .output()?;
    let dups_said = String::from_utf8_lossy(&dups.stdout);
    let expected: u64 = Regex::new(r"^processed \d+, unique 1000, duplicates (\d+)")?
        .captures(&dups_said)
        .with_context(|| format!("krb-dups said: {dups_said}"))?[1]
        .parse()?;
    let end = page_dom(url)?;
    ensure!(
        duplicates(&end)? == expected,
        "the page counts {} duplicates, krb-dups {expected}",
        duplicates(&end)?
    );
    let ns = Namespace::new(Some(NS));
    for log in WorkerLog::read_group(&logs, GROUP, &ns)? {
        let page = shown(&end, &log.name)?;
        // The last assigned line, and the revoked or lost lines after it.
        let mut last_assigned: Option<&Vec<Partition>> = None;
        let mut gone: Vec<(Partition, &str)> = Vec::new();
        for line in &log.lines {
            match &line.event {
                Event::Assigned(ps) => {
                    last_assigned = Some(ps);
                    gone.clear();
                }
                Event::Revoked(ps) => gone.extend(ps.iter().map(|&p| (p, "revoked"))),
                Event::Lost(ps) => gone.extend(ps.iter().map(|&p| (p, "lost"))),
                _ => {}
            }
        }
        let last_assigned =
            last_assigned.with_context(|| format!("{} has no assigned line", log.name))?;
        let ended = |p: Partition| gone.iter().find(|(g, _)| *g == p).map(|(_, how)| *how);
        let owns: Vec<Partition> = last_assigned
            .iter()
            .copied()
            .filter(|&p| ended(p).is_none())
            .collect();
        ensure!(
            page.last_assigned == list(last_assigned) && page.owns == list(&owns),
            "{}: the page shows last assigned [{}], owning [{}]; its log's last assigned line is {last_assigned:?}, then {gone:?}",
            log.name,
            page.last_assigned,
            page.owns
        );
        for &p in last_assigned {
            let bar_end = page
                .bars
                .iter()
                .rev()
                .find(|(bp, _)| *bp == p)
                .map(|(_, e)| e.as_str());
            let wanted = ended(p).unwrap_or("");
            ensure!(
                bar_end == Some(wanted),
                "{}: p{p}'s last bar ends {bar_end:?} on the page, its log says {wanted:?}",
                log.name
            );
        }
        println!(
            "{}: last assigned {last_assigned:?}, then {gone:?}; the page agrees",
            log.name
        );
    }
    screenshot(url, &logs.join("live-end.png"))?;
    // The page saved as it is (what a browser's "save page" keeps), opened with no server: the
    // final state stays, and the page says krb-live is not answering.
    let saved = logs.join("live-saved.html");
    std::fs::write(&saved, &end)?;
    let offline = page_dom(&format!("file://{}", saved.display()))?;
    ensure!(
        duplicates(&offline)? == expected
            && offline.contains("class=\"stopped\">krb-live is not answering"),
        "the saved page lost its state or does not say its server is gone:\n{offline}"
    );

    // A view started after the run reads the whole run, in Korean as well.
    let korean = serve_live(GROUP, &logs, &[("KRB_NS", NS), ("KRB_LANG", "ko")])?;
    let korean = page_dom(&korean.url)?;
    ensure!(
        korean.contains("<html lang=\"ko\">") && korean.contains(">중복</span>"),
        "the page's words are not Korean:\n{korean}"
    );
    ensure!(
        duplicates(&korean)? == expected,
        "a view started after the run counts another number"
    );
    println!("the page counted 0 with a alone and {expected} at the end, as krb-dups");
    Ok(())
}
