//! The room's page: one self-contained HTML page (no scripts, no fonts or pictures to fetch)
//! that reloads itself every 2 seconds. Its size is bounded whatever participants publish: a
//! column of marks for each of the labs' own variants only (a variant a record invents is named
//! in its participant's row, a few at most), a row's failures cut short, and every list the
//! room keeps bounded where it is kept ([`crate::room`]). Making it takes time linear in what
//! it shows.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use krb_cli::lang::Lang;
use krb_verify::deploy;
use krb_verify::messages::{ERROR, HELD, NOT_HELD};
use krb_verify::record::Record;
use krb_verify::verdict::DUPLICATES;

use crate::messages::{self as m};
use crate::room::{lab_variants, shortened, Participant, Room};
use crate::spread::{self, Measure};

use krb_markup::escape_html;

/// Large type and high contrast, for a projector: no text under 16 px.
const STYLE: &str = "body{font:20px/1.35 sans-serif;margin:.8em 1em;color:#111;background:#fff}\
h1{font-size:26px;margin:0 0 .15em}h2{font-size:22px;margin:.8em 0 .3em}\
#status,#names,.trouble{color:#444;font-size:16px;margin:0 0 .5em}.trouble{color:#b00}\
table{border-collapse:collapse;margin:.4em 0}\
th,td{border:1px solid #888;padding:.25em .5em;vertical-align:top;text-align:left}\
th{background:#eee;font-size:16px;word-break:keep-all}td.number{text-align:right;white-space:nowrap}\
td.name,td.at,td.variants{white-space:nowrap}td.name{font-weight:bold}.when{color:#555;font-size:16px}\
.v{display:inline-block;min-width:1.1em;text-align:center;font-weight:bold}\
.v.held{color:#116329}.v.failed,.v.error{color:#fff;background:#b00;border-radius:3px}\
.v.none{color:#999}.lab{color:#555;font-size:16px;margin:0 .15em 0 .5em}.lab:first-child{margin-left:0}\
tr.failures td,tr.claimed td{color:#b00;font-size:16px;border-top:none}\
.pictures{display:flex;flex-wrap:wrap;gap:.5em 1.5em}figure{margin:0}\
figcaption{font-weight:bold;margin-bottom:.2em}svg.spread{max-width:100%;height:auto}\
#skipped{color:#b00;font-size:16px}.others{color:#555;font-size:16px;margin-left:.5em}";

/// The most of a row's failures shown, in characters: past it, `…`.
const MAX_FAILURES: usize = 600;
/// The most variants no lab has named in a participant's row; the rest are counted.
const MAX_OTHERS: usize = 3;

/// What the page shows besides the records: the room, where it is, and the language.
pub struct Page {
    pub room: String,
    /// Its participants' topics, as a pattern (`NS-krb-room-monday`).
    pub topics: String,
    pub bootstrap: String,
    pub lang: Lang,
}

impl Page {
    /// The page as the room is now; `now` is the time it shows it was made.
    pub fn render(&self, room: &Room, now: &str) -> String {
        let lang = self.lang;
        let title = m::TITLE.fill(lang, &[("room", &self.room)]);
        let mut html = format!(
            "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\">\
             <meta http-equiv=\"refresh\" content=\"2\">\
             <meta name=\"viewport\" content=\"width=device-width\">\
             <title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
            lang.code(),
            escape_html(&title),
            escape_html(&title)
        );
        let para = |attr: &str, text: String| format!("<p {attr}>{}</p>\n", escape_html(&text));
        let status = m::STATUS.fill(
            lang,
            &[
                ("topics", &self.topics),
                ("bootstrap", &self.bootstrap),
                ("participants", &room.participants.len()),
                ("records", &room.records),
                ("time", &now),
            ],
        );
        html += &para("id=\"status\"", status);
        html += &para("id=\"names\"", m::NAMES.fill(lang, &[("room", &self.room)]));
        if let Some(error) = &room.trouble {
            let trouble = m::TROUBLE.fill(lang, &[("error", error)]);
            html += &para("class=\"trouble\"", trouble);
        }
        if room.participants.is_empty() {
            let waiting = m::WAITING.fill(lang, &[("room", &self.room)]);
            html += &para("id=\"waiting\"", waiting);
        } else {
            html += &self.table(room);
        }
        let _ = write!(
            html,
            "<h2>{}</h2>\n<div class=\"pictures\">",
            escape_html(m::SPREAD.text(lang))
        );
        for picture in spread::pictures() {
            let _ = write!(
                html,
                "<figure><figcaption>{}</figcaption>{}</figure>",
                escape_html(picture.title.text(lang)),
                spread::svg(&picture, room, lang)
            );
        }
        // Lab 9's decision table, each participant's as their rows drew it, in the matrix's order.
        let order: Vec<String> = deploy::Row::all().iter().map(deploy::Row::name).collect();
        for (name, p) in &room.participants {
            let rows: Vec<Record> = (order.iter())
                .filter_map(|v| p.variants.get(&(deploy::LAB, v.clone())).cloned())
                .collect();
            if !rows.is_empty() {
                let _ = write!(
                    html,
                    "<figure><figcaption>{} · {}</figcaption>{}</figure>",
                    escape_html(&deploy::Message::Heading.text(lang)),
                    escape_html(name),
                    deploy::svg(&rows, lang)
                );
            }
        }
        html += "</div>\n";
        if !room.skipped.is_empty() {
            let _ = write!(
                html,
                "<section id=\"skipped\"><p>{}</p><ul>",
                escape_html(&m::SKIPPED.fill(lang, &[("count", &room.skipped_count)]))
            );
            for line in &room.skipped {
                let _ = write!(html, "<li>{}</li>", escape_html(line));
            }
            html += "</ul></section>\n";
        }
        html + "</body></html>\n"
    }

    fn table(&self, room: &Room) -> String {
        let lang = self.lang;
        // The numbers shown: each picture's rows, in order.
        let columns: Vec<Measure> = spread::pictures()
            .into_iter()
            .flat_map(|p| p.rows)
            .collect();
        let known = lab_variants();
        let variants: Vec<(u8, String)> = room
            .variants()
            .into_iter()
            .filter(|v| known.contains(v))
            .collect();
        let mut html = format!(
            "<table id=\"participants\"><tr><th>{}</th><th>{}</th><th>{}</th>",
            escape_html(m::PARTICIPANT.text(lang)),
            escape_html(m::LATEST.text(lang)),
            escape_html(m::VARIANTS.text(lang))
        );
        for c in &columns {
            let what = if c.number == DUPLICATES {
                m::DUPLICATES
            } else {
                m::OVERLAP
            };
            let what = what.text(lang);
            let values: [(&str, &dyn std::fmt::Display); 3] =
                [("lab", &c.lab), ("variant", &c.variant), ("what", &what)];
            let th = m::COLUMN.fill(lang, &values);
            let _ = write!(html, "<th>{}</th>", escape_html(&th));
        }
        html += "</tr>\n";
        let width = 3 + columns.len();
        for (name, p) in &room.participants {
            let n = escape_html(name);
            let _ = write!(
                html,
                "<tr class=\"participant\" data-participant=\"{n}\"><td class=\"name\">{n}</td><td class=\"at\">{}</td><td class=\"variants\">{}</td>",
                self.latest(p),
                self.marks(p, &variants) + &self.others(p, &known)
            );
            for c in &columns {
                let Some(v) = c.value(p) else {
                    html += "<td class=\"number none\">–</td>";
                    continue;
                };
                let _ = write!(
                    html,
                    "<td class=\"number\" data-participant=\"{n}\" data-lab=\"{}\" data-variant=\"{}\" data-name=\"{}\" data-value=\"{v}\">{}</td>",
                    c.lab,
                    escape_html(&c.variant),
                    c.number,
                    escape_html(&c.unit.shown(v))
                );
            }
            html += "</tr>\n";
            let failures = self.failures(p);
            if !failures.is_empty() {
                let _ = writeln!(
                    html,
                    "<tr class=\"failures\" data-participant=\"{n}\"><td colspan=\"{width}\">{}</td></tr>",
                    escape_html(&shortened(
                        &NOT_HELD.fill(lang, &[("failures", &failures)]),
                        MAX_FAILURES
                    ))
                );
            }
            if !p.claimed.is_empty() {
                let names = p.claimed.iter().cloned().collect::<Vec<_>>().join(", ");
                let _ = writeln!(
                    html,
                    "<tr class=\"claimed\" data-participant=\"{n}\" data-claimed=\"{}\"><td colspan=\"{width}\">{}</td></tr>",
                    escape_html(&names),
                    escape_html(&m::CLAIMED.fill(lang, &[("participant", name), ("names", &names)]))
                );
            }
        }
        html + "</table>\n"
    }

    /// `lab 2 expel` and when it ended.
    fn latest(&self, p: &Participant) -> String {
        let Some(r) = &p.latest else {
            return String::new();
        };
        let when = r
            .ended
            .as_deref()
            .and_then(|e| e.split(' ').nth(1))
            .map(|t| format!(" <span class=\"when\">{}</span>", escape_html(t)))
            .unwrap_or_default();
        format!("{}{when}", escape_html(&self.at(r)))
    }

    fn at(&self, r: &Record) -> String {
        m::AT.fill(self.lang, &[("lab", &r.lab), ("variant", &r.variant)])
    }

    /// One mark a variant of the room, by lab: ✓ held, ✗ failed, ! no verdict, · none yet.
    fn marks(&self, p: &Participant, variants: &[(u8, String)]) -> String {
        let mut html = String::new();
        let mut lab = None;
        for key in variants {
            if lab != Some(key.0) {
                lab = Some(key.0);
                let _ = write!(html, "<span class=\"lab\">{}</span>", key.0);
            }
            let (class, mark, title) = match p.variants.get(key) {
                None => ("none", "·", format!("lab {} {}", key.0, key.1)),
                Some(r) => {
                    let (class, mark) = match (&r.verdict, r.held()) {
                        (_, true) => ("held", "✓"),
                        (Some(_), false) => ("failed", "✗"),
                        (None, false) => ("error", "!"),
                    };
                    let result = match &r.verdict {
                        Some(v) => format!("{} {}", v.count(), HELD.text(self.lang)),
                        None => ERROR.text(self.lang).to_string(),
                    };
                    (class, mark, format!("{}: {result}", self.at(r)))
                }
            };
            let _ = write!(
                html,
                "<span class=\"v {class}\" data-lab=\"{}\" data-variant=\"{}\" title=\"{}\">{mark}</span>",
                key.0,
                escape_html(&key.1),
                escape_html(&title)
            );
        }
        html
    }

    /// The variants of a participant's records that no lab has: the first few named, the rest
    /// counted.
    fn others(&self, p: &Participant, known: &BTreeSet<(u8, String)>) -> String {
        let others: Vec<&(u8, String)> =
            p.variants.keys().filter(|v| !known.contains(*v)).collect();
        if others.is_empty() {
            return String::new();
        }
        let named = others
            .iter()
            .take(MAX_OTHERS)
            .map(|(lab, variant)| m::AT.fill(self.lang, &[("lab", lab), ("variant", variant)]))
            .collect::<Vec<_>>()
            .join(", ");
        let more = if others.len() > MAX_OTHERS {
            " …"
        } else {
            ""
        };
        let values: [(&str, &dyn std::fmt::Display); 3] =
            [("count", &others.len()), ("names", &named), ("more", &more)];
        let text = m::OTHERS.fill(self.lang, &values);
        format!(
            "<span class=\"others\" data-count=\"{}\">{}</span>",
            others.len(),
            escape_html(&text)
        )
    }

    /// What did not hold in a participant's latest records, variant by variant, until there
    /// is more than a row shows.
    fn failures(&self, p: &Participant) -> String {
        let shown = std::cell::Cell::new(0);
        p.variants
            .values()
            .filter(|r| !r.held())
            .take_while(|_| shown.get() <= MAX_FAILURES)
            .map(|r| {
                let what = [
                    r.verdict
                        .as_ref()
                        .map(|v| v.failures_in(self.lang).replace('\n', "; "))
                        .unwrap_or_default(),
                    // The publisher's own words (its error, in its language): shown as it
                    // wrote them, never matched against what krb-verify says.
                    r.reason.clone().unwrap_or_default(),
                ]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
                let what = if what.is_empty() {
                    ERROR.text(self.lang).to_string()
                } else {
                    what
                };
                let failure = format!("{}: {what}", self.at(r));
                shown.set(shown.get() + failure.chars().count());
                failure
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::tests::record;

    fn page(lang: Lang) -> Page {
        Page {
            room: "monday".into(),
            topics: "NS-krb-room-monday".into(),
            bootstrap: "localhost:9481".into(),
            lang,
        }
    }

    fn room() -> Room {
        let mut room = Room::default();
        let mut failed = record("bob", 1, "nocommit", false, 120.0);
        failed.ended = Some("2026-12-01 09:01:00".into());
        let mut broken = record("bob", 2, "expel", false, 0.0);
        broken.verdict = None;
        broken.status = "error".into();
        broken.reason = Some("the script failed: <no broker>".into());
        for r in [record("alice", 1, "nocommit", true, 78.0), failed, broken] {
            let owner = r.namespace.clone().unwrap();
            room.add(&owner, Some(&serde_json::to_vec(&r).unwrap()), "x");
        }
        room.add("bob", Some(b"not json"), "partition 0 offset 3");
        room
    }

    #[test]
    fn what_the_topic_says_is_escaped() {
        let mut room = Room::default();
        let r = record("x", 1, "<b>&nocommit", true, 1.0);
        room.add("<i>eve", Some(&serde_json::to_vec(&r).unwrap()), "x");
        let html = page(Lang::En).render(&room, "09:00:00");
        assert!(
            html.contains("<td class=\"name\">&lt;i&gt;eve</td>"),
            "{html}"
        );
        assert!(
            html.contains("lab 1 &lt;b&gt;&amp;nocommit <span"),
            "{html}"
        );
        assert!(!html.contains("<i>") && !html.contains("<b>"), "{html}");
    }

    #[test]
    fn a_row_a_participant_with_each_variant_and_number() {
        let html = page(Lang::En).render(&room(), "09:02:00");
        assert_eq!(
            html.matches("<tr class=\"participant\"").count(),
            2,
            "{html}"
        );
        assert!(html.contains("<meta http-equiv=\"refresh\" content=\"2\">"));
        assert!(html.contains(
            "<td class=\"number\" data-participant=\"alice\" data-lab=\"1\" data-variant=\"nocommit\" data-name=\"duplicates\" data-value=\"78\">78</td>"
        ), "{html}");
        assert!(html.contains(
            "data-participant=\"bob\" data-lab=\"1\" data-variant=\"nocommit\" data-name=\"duplicates\" data-value=\"120\">120</td>"
        ));
        // Bob finished lab 2 last, with no verdict: a mark of its own, and why, escaped.
        assert!(
            html.contains("<td class=\"at\">lab 2 expel <span class=\"when\">09:00:10</span></td>"),
            "{html}"
        );
        assert!(html.contains("<span class=\"v error\" data-lab=\"2\" data-variant=\"expel\""));
        assert!(html.contains("<span class=\"v held\" data-lab=\"1\" data-variant=\"nocommit\" title=\"lab 1 nocommit: 1/1 held\">✓</span>"), "{html}");
        assert!(
            html.contains("<span class=\"v none\" data-lab=\"2\" data-variant=\"expel\""),
            "alice has no lab 2 yet"
        );
        assert!(
            html.contains(
                "not held: lab 1 nocommit: all 1000 messages processed (unique 1000); \
             lab 2 expel: the script failed: &lt;no broker&gt;</td>"
            ),
            "{html}"
        );
        // The message that was not a record is named, not dropped.
        assert!(
            html.contains("<li>partition 0 offset 3: not a lab record ("),
            "{html}"
        );
        assert!(
            html.contains("2 participant(s) · 3 record(s) · as of 09:02:00"),
            "{html}"
        );
        assert_eq!(html.matches("<svg").count(), 3);
    }

    #[test]
    fn a_participants_lab_9_rows_are_drawn_in_the_matrix_order() {
        let mut room = room();
        for variant in ["kill", "range", "made-up"] {
            let mut r = record("alice", 9, variant, true, 12.0);
            if let Some(v) = r.verdict.as_mut() {
                v.number(krb_verify::deploy::LONGEST_STOP, 3.5);
            }
            room.add("alice", Some(&serde_json::to_vec(&r).unwrap()), "x");
        }
        let html = page(Lang::En).render(&room, "09:02:00");
        assert_eq!(html.matches("class=\"deploy\"").count(), 1, "{html}");
        let drawn = &html[html.find("class=\"deploy\"").unwrap()..];
        let (range, kill) = (
            drawn.find(">range<").unwrap(),
            drawn.find(">kill<").unwrap(),
        );
        assert!(range < kill && !drawn.contains("made-up"), "{drawn}");
        assert!(
            html.contains("every fix side by side · alice</figcaption>"),
            "{html}"
        );
    }

    #[test]
    fn the_page_speaks_korean_and_waits_for_the_first_record() {
        let html = page(Lang::Ko).render(&room(), "09:02:00");
        for text in [
            "<html lang=\"ko\">",
            "참가자",
            "성립하지 않음: 실습 1 nocommit: 메시지 1000개 모두 처리됨",
            "실습 3: 할당 전략별 중복",
        ] {
            assert!(html.contains(text), "no {text:?}:\n{html}");
        }
        let empty = page(Lang::En).render(&Room::default(), "09:00:00");
        assert!(empty.contains("KRB_ROOM=monday"), "{empty}");
        assert!(!empty.contains("<table"), "{empty}");
        assert!(!empty.contains("id=\"skipped\""), "{empty}");
    }

    /// A lab 1 record says the same whatever language it was published in (KRB_LANG=en or
    /// ko: the record holds its messages, and their English for older readers): each page
    /// shows it in the page's language, and a record of an older krb, English only, in English
    /// marked on a Korean page.
    #[test]
    fn a_record_is_shown_in_the_viewers_language_whatever_it_was_published_in() {
        use krb_verify::revoke::Said;
        let mut r = record("carol", 1, "nocommit", false, 50.0);
        if let Some(v) = r.verdict.as_mut() {
            v.check(
                Said::BeganAtLastCommit,
                false,
                Said::BFirstAndCommit {
                    p: 1,
                    offset: Some(101),
                    commit: 100,
                },
            );
        }
        let published = serde_json::to_vec(&r).unwrap();
        let mut room = Room::default();
        room.add("carol", Some(&published), "x");
        let failed = |lang| Said::BeganAtLastCommit.text(lang);
        let ko = page(Lang::Ko).render(&room, "09:00:00");
        assert!(
            ko.contains(&format!(
                "{} (b가 p1에서 처음 처리한 offset 101, a의 마지막 commit 100)",
                failed(Lang::Ko)
            )),
            "{ko}"
        );
        assert!(!ko.contains(&failed(Lang::En)), "{ko}");
        let en = page(Lang::En).render(&room, "09:00:00");
        assert!(
            en.contains(&format!(
                "{} (b's first offset on p1: 101, a's last commit 100)",
                escape_html(&failed(Lang::En))
            )),
            "{en}"
        );
        assert!(!en.contains(&failed(Lang::Ko)), "{en}");
        // A record of an older krb: English only, shown as it is, marked under Korean.
        let old = br#"{"seconds":9.5,"status":"checked","lab":1,"name":"revoke","variant":"nocommit","verdict":{"lab":1,"name":"revoke","variant":"nocommit","group":"g","article":"82 duplicates","ours":"78 duplicates","checks":[{"statement":"b began the moved partition at a's last commit","held":false,"detail":"b's first offset on p1: 0, a's last commit 200"}]},"namespace":"dave"}"#;
        let mut room = Room::default();
        room.add("dave", Some(old), "x");
        let ko = page(Lang::Ko).render(&room, "09:00:00");
        assert!(
            ko.contains("b began the moved partition at a's last commit (en)"),
            "{ko}"
        );
    }

    #[test]
    fn a_record_naming_another_is_shown_as_its_topics_owners_and_flagged() {
        let mut room = Room::default();
        let alice = record("alice", 1, "nocommit", true, 78.0);
        let forged = record("alice", 1, "nocommit", true, 5.0);
        room.add("alice", Some(&serde_json::to_vec(&alice).unwrap()), "x");
        room.add("bob", Some(&serde_json::to_vec(&forged).unwrap()), "y");
        let html = page(Lang::En).render(&room, "09:00:00");
        for (who, value) in [("alice", 78), ("bob", 5)] {
            assert!(
                html.contains(&format!(
                    "data-participant=\"{who}\" data-lab=\"1\" data-variant=\"nocommit\" data-name=\"duplicates\" data-value=\"{value}\""
                )),
                "{who}: {html}"
            );
        }
        assert!(
            html.contains(
                "<tr class=\"claimed\" data-participant=\"bob\" data-claimed=\"alice\"><td colspan=\"7\">records in bob's topic name alice: shown as bob's</td></tr>"
            ),
            "{html}"
        );
        assert_eq!(html.matches("<tr class=\"claimed\"").count(), 1, "{html}");
        assert!(
            html.contains("<p id=\"names\">Each participant is named after their topic (alice-krb-room-monday is alice's)"),
            "{html}"
        );
        let ko = page(Lang::Ko).render(&room, "09:00:00");
        assert!(
            ko.contains("bob의 토픽에 든 기록이 alice의 이름을 적었습니다: bob의 것으로 보여 줌"),
            "{ko}"
        );
    }
}
