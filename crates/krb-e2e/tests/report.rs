//! The lab command's report page, rendered by a real browser: headless Chromium (Debian's
//! `chromium`) loads logs/report.html as krb-verify writes it, with a timeline krb-timeline
//! drew, and the test reads back the DOM Chromium built and the picture it took.

use std::process::Command;

use anyhow::{ensure, Context, Result};
use krb_e2e::root;
use krb_verify::record::Record;
use krb_verify::Verdict;

fn record(group: &str, held: bool) -> Record {
    let mut v = Verdict::new(
        1,
        "revoke",
        "nocommit",
        group,
        "82 duplicates on p1 (400..481)",
    );
    v.ours = "78 duplicates on p1 (200..277)".into();
    v.check("all 1000 messages processed", true, "unique 1000");
    v.check(
        "b began the moved partition at a's last commit",
        held,
        "200",
    );
    Record {
        seconds: 9.5,
        status: "checked".into(),
        lab: 1,
        name: "revoke".into(),
        variant: group.into(),
        reason: None,
        verdict: Some(v),
    }
}

/// Runs Chromium headless on the page with `extra` arguments; returns stdout and stderr.
fn chromium(page: &std::path::Path, extra: &[&str]) -> Result<(String, String)> {
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
        ])
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .context(
            "cannot run chromium: install Debian's chromium (scripts/test.sh does, as root)",
        )?;
    ensure!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

#[test]
#[ignore = "needs Chromium (Debian's chromium) and the release build: scripts/test.sh"]
fn the_report_renders_in_headless_chromium() -> Result<()> {
    let bin = root().join("target/release");
    let dir = krb_common::scratch::scratch_dir(
        "report",
        &[
            (
                "shown-a.log",
                "09:00:00.000 start shown-a\n09:00:00.010 shown-a assigned [0, 1]\n\
                 09:00:00.100 shown-a p1 offset 0\n09:00:00.110 shown-a commit p1=1\n\
                 09:00:00.200 shown-a revoked [0, 1]\n",
            ),
            (
                "shown-b.log",
                "09:00:00.050 start shown-b\n09:00:00.210 shown-b assigned [1]\n\
                 09:00:00.300 shown-b p1 offset 1\n",
            ),
        ],
    );
    let drawn = Command::new(bin.join("krb-timeline"))
        .arg("--logs")
        .arg(&dir)
        .arg("shown")
        .status()?;
    ensure!(drawn.success(), "krb-timeline failed");
    let records = dir.join("results.jsonl");
    record("shown", true).append(&records)?;
    record("failing", false).append(&records)?;
    let page = dir.join("report.html");
    let table = Command::new(bin.join("krb-verify"))
        .arg("table")
        .arg(&records)
        .arg("--html")
        .arg(&page)
        .arg("--logs")
        .arg(&dir)
        .output()?;
    ensure!(
        table.status.code() == Some(1),
        "one variant failed, so exit 1: {table:?}"
    );

    let (dom, errors) = chromium(&page, &["--dump-dom"])?;
    ensure!(
        dom.contains("<table id=\"results\">"),
        "no results table in the DOM:\n{dom}"
    );
    ensure!(
        dom.matches("class=\"variant-row\"").count() == 2,
        "not two rows:\n{dom}"
    );
    ensure!(
        dom.contains("<b>FAILED</b>"),
        "the failed statement is not shown"
    );
    ensure!(
        dom.matches("<svg").count() == 1,
        "the timeline is not inline:\n{dom}"
    );
    ensure!(
        dom.contains("lane-partition"),
        "the timeline's lanes are not in the DOM"
    );
    let shot = dir.join("report.png");
    let (_, shot_errors) = chromium(
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1400,2400",
        ],
    )?;
    for log in [&errors, &shot_errors] {
        ensure!(
            !log.contains("CONSOLE(") && !log.contains("Uncaught") && !log.contains("ERR_FILE"),
            "the page logged an error:\n{log}"
        );
    }
    let png = std::fs::read(&shot).context("no screenshot")?;
    ensure!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "the screenshot is empty ({} bytes)",
        png.len()
    );
    println!(
        "report rendered: {} ({} bytes of PNG)",
        page.display(),
        png.len()
    );
    std::fs::remove_dir_all(dir)?;
    Ok(())
}
