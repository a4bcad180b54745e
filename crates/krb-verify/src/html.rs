//! The lab command's report for a screen: one self-contained HTML page (no network, no
//! scripts, no fonts to fetch) with the article-versus-ours table, each variant's statements
//! with held or FAILED, and each variant's timeline pictures inline.

use std::fmt::Write as _;
use std::path::Path;

use krb_cli::lang::Lang;
use krb_log::duration::length;
use krb_markup::escape_html;

use crate::deploy;
use crate::messages::{self, FAILED, HELD};
use crate::page_text::{lab_text, NAMESPACE, PAGE_TITLE, SUMMARY, TIME, TOOK};
use crate::record::Record;

/// Large type and high contrast, for a projector: no text under 16 px at any width.
const STYLE: &str = "body{font:20px/1.45 sans-serif;margin:1.5em;color:#111;background:#fff}\
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #888;padding:.35em .6em;\
vertical-align:top;text-align:left}th{background:#eee}.held{color:#116329}.failed{color:#b00;\
font-weight:bold}section{margin-top:2.5em;border-top:3px solid #ccc}.intro{max-width:60em}\
figure{margin:1em 0}figure svg{width:100%;height:auto;border:1px solid #ddd}\
figcaption,#run{color:#444;font-size:16px}.duration{color:#444;font-weight:normal}\
th,td:first-child,td.held,td.failed,td.time{white-space:nowrap}";

/// The timelines the variant in `group` drew in `dir`: its own, and lab 5's second group's.
fn pictures(dir: &Path, group: &str) -> Vec<(String, String)> {
    [format!("{group}.svg"), format!("{group}_maxpoll.svg")]
        .into_iter()
        .filter_map(|name| {
            let text = std::fs::read_to_string(dir.join(&name)).ok()?;
            let start = text.find("<svg")?;
            Some((name, text[start..].to_string()))
        })
        .collect()
}

/// A stable anchor for a variant: `lab1-nocommit`, `lab3-range-revoke-commit`, `lab4-static`.
pub fn anchor(lab: u8, variant: &str) -> String {
    let words: Vec<&str> = variant
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    format!("lab{lab}-{}", words.join("-").to_ascii_lowercase())
}

/// The page for a lab run's records in `lang`; the timelines are read from `dir` (the logs).
pub fn page(records: &[Record], dir: &Path, lang: Lang) -> String {
    let held = records.iter().filter(|r| r.held()).count();
    let ns = records.iter().find_map(|r| r.namespace.as_deref());
    let times: Vec<&str> = records.iter().filter_map(|r| r.ended.as_deref()).collect();
    let last = times.iter().max();
    // The run's line under the title: the namespace, when it ended, how long its variants took.
    let mut run = Vec::from_iter(ns.map(|ns| NAMESPACE.fill(lang, &[("ns", &ns)])));
    if let (Some(first), Some(last)) = (times.iter().min(), last) {
        let last_time = last.split_once(' ').map_or(*last, |(_, t)| t);
        run.push(if first == last {
            first.to_string()
        } else {
            format!("{first} – {last_time}")
        });
    }
    let total: f64 = records.iter().map(|r| r.seconds).sum();
    run.push(TOOK.fill(lang, &[("duration", &length(total, lang))]));
    let run = escape_html(&run.join(" · "));
    let title =
        PAGE_TITLE.text(lang).to_string() + &ns.map_or(String::new(), |ns| format!(" · {ns}"));
    let title = escape_html(&title);
    let when = escape_html(&last.map(|t| format!(" · {t}")).unwrap_or_default());
    let heads: String = messages::HEADS
        .iter()
        .chain([&TIME])
        .map(|h| format!("<th>{}</th>", h.text(lang)))
        .collect();
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\">\
         <title>{title}{when}</title><style>{STYLE}</style></head><body>\n\
         <h1>{title}</h1>\n<p id=\"run\">{run}</p>\n<p id=\"summary\">{}</p>\n\
         <table id=\"results\"><tr>{heads}</tr>\n",
        lang.code(),
        escape_html(&SUMMARY.fill(lang, &[("held", &held), ("all", &records.len())])),
    );
    for r in records {
        let [article, ours, count] = r.results(lang).map(|cell| escape_html(&cell));
        let (name, variant) = (escape_html(&r.name), escape_html(&r.variant));
        let class = if r.held() { "held" } else { "failed" };
        let _ = writeln!(
            out,
            "<tr class=\"variant-row\"><td>{} {name}</td><td><a href=\"#{}\">{variant}</a></td>\
             <td>{article}</td><td>{ours}</td><td class=\"{class}\">{count}</td>\
             <td class=\"time\">{}</td></tr>",
            r.lab,
            anchor(r.lab, &r.variant),
            length(r.seconds, lang)
        );
    }
    out += "</table>\n";
    let mut seen = std::collections::BTreeSet::new();
    for lab in records.iter().map(|r| r.lab).filter(|&n| seen.insert(n)) {
        let (heading, intro) = match lab {
            deploy::LAB => (
                deploy::Message::Heading.text(lang),
                deploy::Message::Intro.text(lang),
            ),
            _ => {
                let (heading, intro) = lab_text(lab);
                (heading.text(lang).into(), intro.text(lang).into())
            }
        };
        let (heading, intro) = (escape_html(&heading), escape_html(&intro));
        let _ = writeln!(out, "<section id=\"lab{lab}\"><h2>{heading}</h2>");
        let _ = writeln!(out, "<p class=\"intro\">{intro}</p>");
        // Lab 9's decision table, its rows side by side, before each row's statements.
        if lab == deploy::LAB {
            out += &deploy::html(records, lang);
        }
        for r in records.iter().filter(|r| r.lab == lab) {
            variant(&mut out, r, dir, lang);
        }
        out += "</section>\n";
    }
    out + "</body></html>\n"
}

/// One variant: its statements, held or FAILED, and its timelines.
fn variant(out: &mut String, r: &Record, dir: &Path, lang: Lang) {
    let (id, variant) = (anchor(r.lab, &r.variant), escape_html(&r.variant));
    let duration = length(r.seconds, lang);
    let _ = writeln!(
        out,
        "<article id=\"{id}\"><h3>{variant} <span class=\"duration\">{duration}</span></h3>"
    );
    if let Some(reason) = &r.reason {
        let _ = writeln!(out, "<p class=\"failed\">{}</p>", escape_html(reason));
    }
    if let Some(v) = &r.verdict {
        *out += "<ul>\n";
        for c in &v.checks {
            let class = if c.held { "held" } else { "failed" };
            let mark = if c.held { HELD } else { FAILED }.text(lang);
            let statement = escape_html(&c.statement.text(lang));
            let detail = escape_html(&c.detail.text(lang));
            let _ = writeln!(
                out,
                "<li class=\"{class}\"><b>{mark}</b> {statement} ({detail})</li>"
            );
        }
        *out += "</ul>\n";
        for (name, svg) in pictures(dir, &v.group) {
            let _ = writeln!(
                out,
                "<figure>{svg}<figcaption>{}</figcaption></figure>",
                escape_html(&dir.join(&name).display().to_string())
            );
        }
    }
    *out += "</article>\n";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;

    fn record(lab: u8, variant: &str, group: &str, held: bool) -> Record {
        let summary = |count| crate::messages::Shared::Summary {
            count,
            partitions: vec![1],
            range: None,
        };
        let mut v = Verdict::new(lab, "revoke", variant, group, summary(82));
        v.ours = vec![summary(78).into(), "<p1>".into()].into();
        v.check(
            crate::messages::Shared::AllProcessed { count: 1000 },
            true,
            crate::messages::Shared::Unique { count: 1000 },
        );
        v.check("b began at a's commit", held, "b's first 7 & a's 9");
        Record {
            seconds: 9.5,
            status: "checked".into(),
            lab,
            name: "revoke".into(),
            variant: variant.into(),
            reason: None,
            verdict: Some(v),
            ended: Some(format!("2026-12-01 23:5{lab}:00")),
            namespace: Some("alice".into()),
        }
    }

    fn pictures_dir() -> krb_testutil::Scratch {
        krb_testutil::scratch_dir(
            "html",
            &[(
                "g1.svg",
                "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><title>t</title></svg>\n",
            )],
        )
    }

    #[test]
    fn the_page_holds_the_table_the_statements_and_the_pictures_and_fetches_nothing() {
        let dir = pictures_dir();
        let records = [
            record(1, "nocommit", "g1", true),
            record(1, "revcommit", "g2", false),
            record(3, "range --revoke-commit", "g3", true),
        ];
        let page = page(&records, &dir, Lang::En);
        assert_eq!(page.matches("<tr class=\"variant-row\">").count(), 3);
        assert!(
            page.contains("<td>78 duplicates on p1; &lt;p1&gt;</td>"),
            "{page}"
        );
        assert!(page.contains("<li class=\"failed\"><b>FAILED</b> b began at a's commit (b's first 7 &amp; a's 9)</li>"));
        assert!(page.contains("2 of 3 variants held"));
        assert_eq!(page.matches("<svg").count(), 1, "g2 drew no picture");
        assert!(!page.contains("<?xml"));
        for fetch in ["src=", "<link", "@import", "url("] {
            assert!(!page.contains(fetch), "the page fetches something: {fetch}");
        }
        // A title that names the room's run; anchors a teacher can link to; one section a lab.
        assert!(
            page.contains(
                "<title>krb: the article versus ours · alice · 2026-12-01 23:53:00</title>"
            ),
            "{page}"
        );
        assert!(
            page.contains("namespace alice · 2026-12-01 23:51:00 – 23:53:00 · 28.5 s of labs"),
            "{page}"
        );
        for id in [
            "lab1",
            "lab3",
            "lab1-nocommit",
            "lab1-revcommit",
            "lab3-range-revoke-commit",
        ] {
            assert!(page.contains(&format!(" id=\"{id}\"")), "no anchor {id}");
        }
        assert!(page.contains("<a href=\"#lab3-range-revoke-commit\">"));
        assert_eq!(page.matches("<section ").count(), 2);
        assert!(page.contains("<p class=\"intro\">Consumer a reads topic pay alone"));
        assert!(page.contains(&format!(
            "<figcaption>{}</figcaption>",
            dir.join("g1.svg").display()
        )));
        assert!(page.contains("<td class=\"time\">9.5 s</td>"));
    }

    #[test]
    fn the_page_in_korean_translates_its_words_and_the_statements() {
        let dir = pictures_dir();
        let page = page(&[record(1, "nocommit", "g1", false)], &dir, Lang::Ko);
        assert!(page.contains("<html lang=\"ko\">"));
        assert!(
            page.contains("<h1>krb: 글의 결과와 실측 · alice</h1>"),
            "{page}"
        );
        assert!(page.contains("<th>실습</th><th>변형</th>"));
        assert!(
            page.contains("<b>성립</b> 메시지 1000개 모두 처리됨 (고유 1000)"),
            "{page}"
        );
        assert!(page.contains("<b>실패</b>"));
        assert!(page.contains("<td class=\"time\">9.5초</td>"), "{page}");
        assert!(page.contains("p1에서 중복 82건"));
        assert!(page.contains("컨슈머 a가 pay 토픽을 혼자 처리하는 도중에"));
    }

    #[test]
    fn anchors_are_stable_slugs_of_the_variant() {
        assert_eq!(anchor(1, "nocommit"), "lab1-nocommit");
        assert_eq!(anchor(4, "--static"), "lab4-static");
        assert_eq!(
            anchor(3, "cooperative-sticky --revoke-commit"),
            "lab3-cooperative-sticky-revoke-commit"
        );
    }
}
