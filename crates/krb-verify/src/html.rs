//! The lab command's report for a screen: one self-contained HTML page (no network, no
//! scripts, no fonts to fetch) with the article-versus-ours table, each variant's statements
//! with held or FAILED, and each variant's timeline pictures inline.

use std::fmt::Write as _;
use std::path::Path;

use crate::record::Record;

/// Text made safe inside HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Large type and high contrast, for a projector.
const STYLE: &str = "body{font:20px/1.45 sans-serif;margin:1.5em;color:#111;background:#fff}\
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #888;padding:.35em .6em;\
vertical-align:top;text-align:left}th{background:#eee}.held{color:#116329}.failed{color:#b00;\
font-weight:bold}section{margin-top:2.5em;border-top:3px solid #ccc}figure{margin:1em 0}\
figure svg{width:100%;height:auto;border:1px solid #ddd}figcaption{color:#555;font-size:16px}";

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

/// The page for a lab run's records; the timelines are read from `dir` (the logs).
pub fn page(records: &[Record], dir: &Path) -> String {
    let held = records.iter().filter(|r| r.held()).count();
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>krb: the article versus ours</title><style>{STYLE}</style></head><body>\n\
         <h1>krb: the article versus ours</h1>\n<p id=\"summary\">{held} of {} variants held \
         every statement.</p>\n<table id=\"results\"><tr><th>lab</th><th>variant</th>\
         <th>article</th><th>ours</th><th>held</th></tr>\n",
        records.len()
    );
    for (i, r) in records.iter().enumerate() {
        let (article, ours, count) = match &r.verdict {
            Some(v) => (v.article.as_str(), v.ours.as_str(), v.count()),
            None => ("", "", r.status.clone()),
        };
        let class = if r.held() { "held" } else { "failed" };
        let _ = writeln!(
            out,
            "<tr class=\"variant-row\"><td>{} {}</td><td><a href=\"#v{i}\">{}</a></td><td>{}</td>\
             <td>{}</td><td class=\"{class}\">{}</td></tr>",
            r.lab,
            escape(&r.name),
            escape(&r.variant),
            escape(article),
            escape(ours),
            escape(&count)
        );
    }
    out += "</table>\n";
    for (i, r) in records.iter().enumerate() {
        let _ = writeln!(
            out,
            "<section id=\"v{i}\"><h2>lab {} {} {}</h2>",
            r.lab,
            escape(&r.name),
            escape(&r.variant)
        );
        if let Some(reason) = &r.reason {
            let _ = writeln!(out, "<p class=\"failed\">{}</p>", escape(reason));
        }
        if let Some(v) = &r.verdict {
            out += "<ul>\n";
            for c in &v.checks {
                let (class, mark) = if c.held {
                    ("held", "held")
                } else {
                    ("failed", "FAILED")
                };
                let _ = writeln!(
                    out,
                    "<li class=\"{class}\"><b>{mark}</b> {} ({})</li>",
                    escape(&c.statement),
                    escape(&c.detail)
                );
            }
            out += "</ul>\n";
            for (name, svg) in pictures(dir, &v.group) {
                let _ = writeln!(
                    out,
                    "<figure>{svg}<figcaption>logs/{}</figcaption></figure>",
                    escape(&name)
                );
            }
        }
        out += "</section>\n";
    }
    out + "</body></html>\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;

    fn record(group: &str, held: bool) -> Record {
        let mut v = Verdict::new(1, "revoke", "nocommit", group, "82 duplicates on p1");
        v.ours = "78 duplicates <p1>".into();
        v.check("all processed", true, "unique 1000");
        v.check("b began at a's commit", held, "b's first 7 & a's 9");
        Record {
            seconds: 9.0,
            status: "checked".into(),
            lab: 1,
            name: "revoke".into(),
            variant: "nocommit".into(),
            reason: None,
            verdict: Some(v),
        }
    }

    #[test]
    fn the_page_holds_the_table_the_statements_and_the_pictures_and_fetches_nothing() {
        let dir = krb_common::scratch::scratch_dir(
            "html",
            &[(
                "g1.svg",
                "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><title>t</title></svg>\n",
            )],
        );
        let page = page(&[record("g1", true), record("g2", false)], &dir);
        assert_eq!(page.matches("<tr class=\"variant-row\">").count(), 2);
        assert!(page.contains("<td>78 duplicates &lt;p1&gt;</td>"), "{page}");
        assert!(page.contains("<li class=\"failed\"><b>FAILED</b> b began at a's commit (b's first 7 &amp; a's 9)</li>"));
        assert!(page.contains("1 of 2 variants held"));
        assert_eq!(page.matches("<svg").count(), 1, "g2 drew no picture");
        assert!(!page.contains("<?xml"));
        for fetch in ["src=", "<link", "@import", "url("] {
            assert!(!page.contains(fetch), "the page fetches something: {fetch}");
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
