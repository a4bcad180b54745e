//! The lab command's report page, rendered by a real browser: headless Chromium (Debian's
//! `chromium`) loads logs/report.html as krb-verify writes it, with a timeline krb-timeline
//! drew, and the test reads back the DOM Chromium built and the picture it took.

use std::process::Command;

use anyhow::{ensure, Context, Result};
use krb_e2e::{root, screenshot};
use krb_verify::messages::Shared;
use krb_verify::record::Record;
use krb_verify::{revoke, Verdict};

fn record(group: &str, held: bool) -> Record {
    let summary = |count, range| Shared::Summary {
        count,
        partitions: vec![1],
        range: Some(range),
    };
    let mut v = Verdict::new(1, "revoke", "nocommit", group, summary(82, (400, 481)));
    v.ours = summary(78, (200, 277)).into();
    v.check(
        Shared::AllProcessed { count: 1000 },
        true,
        Shared::Unique { count: 1000 },
    );
    v.check(
        revoke::Said::BeganAtLastCommit,
        held,
        revoke::Said::BFirstAndCommit {
            p: 1,
            offset: Some(200),
            commit: 200,
        },
    );
    Record {
        seconds: 9.5,
        status: "checked".into(),
        lab: 1,
        name: "revoke".into(),
        variant: group.into(),
        reason: None,
        verdict: Some(v),
        ended: Some("2026-12-01 09:00:10".into()),
        namespace: Some("room7".into()),
    }
}

/// Run in the page once it has laid out at the window's width: the smallest text a person sees,
/// in CSS pixels (an SVG text's size times the picture's scale), written where --dump-dom
/// shows it.
const MEASURE: &str = "<script>addEventListener('load',()=>{let min=1e9,what='';\
for(const e of document.querySelectorAll('body *')){\
if(![...e.childNodes].some(n=>n.nodeType===3&&n.textContent.trim()))continue;\
const r=e.getBoundingClientRect();if(!r.width||!r.height)continue;\
let px=parseFloat(getComputedStyle(e).fontSize);\
if(e instanceof SVGElement&&e.ownerSVGElement){px*=e.ownerSVGElement.getScreenCTM().a;}\
if(px<min){min=px;what=e.tagName+': '+e.textContent.trim().slice(0,40);}}\
const out=document.createElement('pre');out.id='measured';\
out.textContent='smallest '+min.toFixed(1)+' px: '+what;document.body.append(out);});</script>";

/// The smallest text's size in the page at `width` pixels, and which text it is.
fn smallest_text(page: &std::path::Path, width: u32) -> Result<(f64, String)> {
    let measured = page.with_extension("measure.html");
    let html = std::fs::read_to_string(page)?;
    std::fs::write(
        &measured,
        html.replace("</body>", &format!("{MEASURE}</body>")),
    )?;
    let (dom, _) = chromium(
        &measured,
        &[&format!("--window-size={width},720"), "--dump-dom"],
    )?;
    let line = dom
        .lines()
        .find_map(|l| l.split("<pre id=\"measured\">smallest ").nth(1))
        .with_context(|| format!("the measuring script did not run:\n{dom}"))?;
    let (px, what) = line
        .split_once(" px: ")
        .context("the measure's line is malformed")?;
    Ok((
        px.parse()?,
        what.split("</pre>").next().unwrap_or(what).to_string(),
    ))
}

/// Runs Chromium headless on the page file with `extra` arguments; returns stdout and stderr.
fn chromium(page: &std::path::Path, extra: &[&str]) -> Result<(String, String)> {
    krb_e2e::chromium(&format!("file://{}", page.display()), extra)
}

#[test]
#[ignore = "needs Chromium (Debian's chromium) and the release build: scripts/test.sh"]
fn the_report_renders_in_headless_chromium() -> Result<()> {
    let bin = root().join("target/release");
    let dir = krb_testutil::scratch_dir(
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
    let write_page = |lang: &str| -> Result<std::path::PathBuf> {
        let page = dir.join(format!("report-{lang}.html"));
        let table = Command::new(bin.join("krb-verify"))
            .env("KRB_LANG", lang)
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
        Ok(page)
    };
    let page = write_page("en")?;
    let korean = write_page("ko")?;
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
    for (text, why) in [
        (
            "<title>krb: the article versus ours · room7 · 2026-12-01 09:00:10</title>",
            "the title names the room's namespace and the run's time",
        ),
        ("id=\"lab1-shown\"", "a stable anchor for the variant"),
        (
            "<p class=\"intro\">Consumer a reads topic pay alone",
            "the lab opens with what happened",
        ),
        ("<td class=\"time\">9.5 s</td>", "the variant's duration"),
    ] {
        ensure!(dom.contains(text), "{why}: no {text:?} in the DOM:\n{dom}");
    }
    ensure!(!dom.contains("Some("), "a Rust debug value in the page");
    ensure!(
        !dom.contains("logs/shown.svg")
            && dom.contains(&format!("{}</figcaption>", dir.join("shown.svg").display())),
        "the figure's caption is not where the picture is"
    );
    let (korean_dom, _) = chromium(&korean, &["--dump-dom"])?;
    for text in [
        "<html lang=\"ko\">",
        "<b>실패</b>",
        "메시지 1000개 모두 처리됨",
        "컨슈머 a가 pay 토픽을 혼자 처리하는 도중에",
    ] {
        ensure!(
            korean_dom.contains(text),
            "no {text:?} in the Korean page:\n{korean_dom}"
        );
    }
    // Readable on a projector: at 1280 pixels wide no text is under 14 pixels, in either
    // language, the timelines' labels included.
    for p in [&page, &korean] {
        let (px, what) = smallest_text(p, 1280)?;
        ensure!(
            px >= 14.0,
            "{}: the smallest text is {px} px at 1280 px wide ({what})",
            p.display()
        );
    }
    let mut shot_errors = String::new();
    for (p, name) in [(&page, "report-en.png"), (&korean, "report-ko.png")] {
        shot_errors += &screenshot(&format!("file://{}", p.display()), &dir.join(name))?;
    }
    for log in [&errors, &shot_errors] {
        ensure!(
            !log.contains("CONSOLE(") && !log.contains("Uncaught") && !log.contains("ERR_FILE"),
            "the page logged an error:\n{log}"
        );
    }
    Ok(())
}
