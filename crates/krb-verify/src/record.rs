//! The lab command's results: one JSON record a line as each variant ends, then one JSON
//! document and a table for a person.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::messages;
use crate::Verdict;
use krb_cli::lang::{columns as width, Lang};

/// One lab variant's run: its verdict, or why there is none.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// How long the lab script ran.
    pub seconds: f64,
    /// `checked`, or `error` when no verdict could be made.
    pub status: String,
    pub lab: u8,
    pub name: String,
    pub variant: String,
    /// Why there is no verdict, or why the script failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// When the variant ended, local time (`2026-12-01 23:52:10`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// The namespace the variant ran in (`--ns`, `KRB_NS`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

impl Record {
    /// Whether every statement held (and there was a verdict).
    pub fn held(&self) -> bool {
        self.verdict.as_ref().is_some_and(|v| v.held()) && self.reason.is_none()
    }

    /// The article's number, ours, and how many statements held; or none, and the status.
    pub fn results(&self, lang: Lang) -> [String; 3] {
        match &self.verdict {
            Some(v) => [v.article.text(lang), v.ours.text(lang), v.count()],
            None => [String::new(), String::new(), self.status.clone()],
        }
    }

    /// What the lab command prints as the variant ends: `31.5 s, 7/7 held`, or what went wrong.
    pub fn summary_in(&self, lang: Lang) -> String {
        let held = |v: &Verdict| format!("{} {}", v.count(), messages::HELD.text(lang));
        let what = match (&self.verdict, &self.reason) {
            (Some(v), None) => held(v),
            (Some(v), Some(r)) => format!("{}; {r}", held(v)),
            (None, Some(r)) => format!("{}: {r}", messages::ERROR.text(lang)),
            (None, None) => messages::ERROR.text(lang).into(),
        };
        let seconds = format!("{:.1}", self.seconds);
        messages::SECONDS.fill(lang, &[("seconds", &seconds), ("what", &what)])
    }

    pub fn append(&self, path: &Path) -> Result<()> {
        let line = serde_json::to_string(self).context("cannot write a record as JSON")? + "\n";
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut file| file.write_all(line.as_bytes()))
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

/// The largest file of records read: a workshop's labs make a few hundred kilobytes.
const RECORDS_LIMIT: u64 = 64 << 20;

pub fn read(path: &Path) -> Result<Vec<Record>> {
    let text = krb_log::reader::read_text(path, "the records", RECORDS_LIMIT)?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .with_context(|| format!("{}:{}: not a lab record", path.display(), i + 1))
        })
        .collect()
}

/// The records as a table: lab, variant, the article's number, ours, held; each statement that
/// did not hold named below its row.
pub fn table(records: &[Record]) -> String {
    table_in(records, Lang::En)
}

pub fn table_in(records: &[Record], lang: Lang) -> String {
    let rows: Vec<([String; 5], String)> = records
        .iter()
        .map(|r| {
            let failures = r
                .verdict
                .iter()
                .map(|v| v.failures_in(lang).replace('\n', "; "))
                .chain(r.reason.clone())
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
            let (lab, variant) = match &r.verdict {
                Some(v) => (format!("{} {}", v.lab, v.name), &v.variant),
                None => (format!("{} {}", r.lab, r.name), &r.variant),
            };
            let [article, ours, held] = r.results(lang);
            ([lab, variant.clone(), article, ours, held], failures)
        })
        .collect();
    let header = messages::HEADS.map(|h| h.text(lang).to_string());
    let mut widths = header.clone().map(|h| width(&h));
    for (cells, _) in &rows {
        for (w, c) in widths.iter_mut().zip(cells) {
            *w = (*w).max(width(c));
        }
    }
    fit(&mut widths);
    let line = |cells: &[String; 5]| {
        let wrapped: Vec<Vec<String>> = cells.iter().zip(widths).map(|(c, w)| wrap(c, w)).collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        let mut out = String::new();
        for row in 0..height {
            let mut text = String::new();
            // The last column's padding goes with the line's trailing spaces.
            for (cell, w) in wrapped.iter().zip(widths) {
                let part = cell.get(row).map(String::as_str).unwrap_or("");
                text += &format!("{part}{}  ", " ".repeat(w.saturating_sub(width(part))));
            }
            out.extend([text.trim_end(), "\n"]);
        }
        out
    };
    let mut out = line(&header);
    for (cells, failures) in &rows {
        out += &line(cells);
        if !failures.is_empty() {
            let said = messages::NOT_HELD.fill(lang, &[("failures", failures)]);
            for (i, part) in wrap(&said, COLUMNS - 4).iter().enumerate() {
                out += &format!("{}{part}\n", if i == 0 { "    " } else { "      " });
            }
        }
    }
    out
}

/// How wide the table may be: a terminal's 120 columns. The full text stays in the JSON.
pub const COLUMNS: usize = 120;

/// The widest the lab, variant and held columns get: a longer name is wrapped, so that one
/// record's long name does not pad every row of the table to it (rows times width, issue 42).
const NAME_COLUMN: usize = COLUMNS / 3;

/// Narrows the name columns to [`NAME_COLUMN`], then article and ours in proportion, to [`COLUMNS`].
fn fit(widths: &mut [usize; 5]) {
    for i in [0, 1, 4] {
        widths[i] = widths[i].min(NAME_COLUMN);
    }
    let others = widths[0] + widths[1] + widths[4] + 2 * 4;
    let room = COLUMNS.saturating_sub(others).max(20);
    let (article, ours) = (widths[2], widths[3]);
    if article + ours <= room {
        return;
    }
    widths[2] = (room * article / (article + ours)).clamp(8, article);
    widths[3] = (room - widths[2]).min(ours);
}

/// `text` in lines of at most `limit` terminal columns, broken between words; a longer word is cut.
fn wrap(text: &str, limit: usize) -> Vec<String> {
    let limit = limit.max(2);
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let used = width(&current);
        if used > 0 && used + 1 + width(word) <= limit {
            current.push(' ');
            current += word;
            continue;
        }
        if used > 0 {
            lines.push(std::mem::take(&mut current));
        }
        // Cut in one pass: measuring the rest again at each cut was a square of the word.
        let mut used = 0;
        for c in word.chars() {
            let w = width(c.encode_utf8(&mut [0; 4]));
            if used + w > limit && used > 0 {
                lines.push(std::mem::take(&mut current));
                used = 0;
            }
            current.push(c);
            used += w;
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 42: one record's long variant padded every row to its width: 210 KB of records made
    /// a table of 100 MB. Names wrap now, and a long word is cut in one pass.
    #[test]
    fn a_table_grows_with_its_records_not_their_rows_times_the_widest() {
        let record = |variant: String| Record {
            seconds: 1.0,
            status: "error".into(),
            lab: 1,
            name: "revoke".into(),
            variant,
            reason: None,
            verdict: None,
            ended: None,
            namespace: None,
        };
        let mut records = vec![record("v".repeat(50_000))];
        records.extend((0..2000).map(|_| record("x".into())));
        let input: usize = records
            .iter()
            .map(|r| serde_json::to_string(r).unwrap().len())
            .sum();
        let started = std::time::Instant::now();
        let text = table(&records);
        assert!(text.len() < 4 * input, "{} bytes from {input}", text.len());
        assert!(started.elapsed().as_secs() < 2, "{:?}", started.elapsed());
        assert!(text.lines().all(|l| width(l) <= COLUMNS));
    }

    #[test]
    fn words_wrap_and_long_words_are_cut() {
        assert_eq!(wrap("a bb ccc", 4), vec!["a bb", "ccc"]);
        assert_eq!(wrap("abcdefgh", 3), vec!["abc", "def", "gh"]);
        assert_eq!(wrap("", 5), vec![""]);
    }

    /// Issue 42: under Korean, a record whose texts nest `lab 1: ` thirty times took the
    /// translating catalogue twice the time per level (20 levels: 14 s). Nothing is matched
    /// now: the texts are shown as written, marked, at once.
    #[test]
    fn a_record_of_nested_texts_is_shown_as_written_at_once() {
        let nested = format!("{}no duplicates", "lab 1: ".repeat(30));
        let line = format!(
            r#"{{"seconds":1.0,"status":"checked","lab":1,"name":"revoke","variant":"nocommit","reason":"{nested}","verdict":{{"lab":1,"name":"revoke","variant":"nocommit","group":"g","article":"{nested}","ours":"{nested}","checks":[{{"statement":"{nested}","held":false,"detail":"{nested}"}}]}}}}"#
        );
        let r: Record = serde_json::from_str(&line).unwrap();
        let started = std::time::Instant::now();
        let text = table_in(&[r], Lang::Ko);
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
        assert!(text.contains("lab 1: lab 1: "), "{text}");
        assert!(text.contains("(en)"), "{text}");
    }

    #[test]
    fn numbers_round_trip_and_older_records_read_without_them() {
        let mut v = Verdict::new(2, "maxpoll", "expel", "slow", "MAXPOLL 10.4 s");
        v.number(crate::verdict::OVERLAP_SECONDS, 1.5634);
        v.number(crate::verdict::MAXPOLL_SECONDS, f64::NAN);
        let line = serde_json::to_string(&v).unwrap();
        assert!(
            line.contains(r#""numbers":{"overlap_seconds":1.5634}"#),
            "{line}"
        );
        let back: Verdict = serde_json::from_str(&line).unwrap();
        assert_eq!(back.numbers["overlap_seconds"], 1.5634);
        // A record from before numbers (and ended, namespace) were written.
        let old = r#"{"seconds":9.5,"status":"checked","lab":1,"name":"revoke","variant":"nocommit","verdict":{"lab":1,"name":"revoke","variant":"nocommit","group":"nocommit","article":"82 duplicates","ours":"78 duplicates","checks":[]}}"#;
        let r: Record = serde_json::from_str(old).unwrap();
        assert!(r.verdict.unwrap().numbers.is_empty());
        // No numbers, no field: what older readers read stays as it was.
        let none = serde_json::to_string(&Verdict::new(1, "revoke", "nocommit", "g", "")).unwrap();
        assert!(!none.contains("numbers"), "{none}");
    }

    #[test]
    fn a_table_of_a_device_is_refused_not_read_forever() {
        let e = read(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "cannot read the records /dev/zero: it is a device, not a regular file"
        );
    }

    #[test]
    fn records_round_trip_and_tabulate() {
        let mut v = Verdict::new(2, "maxpoll", "expel", "slow", "MAXPOLL 10.4 s");
        v.ours = "MAXPOLL 10.3 s".into();
        v.check("the warning came", true, "10.3 s");
        v.check("offset 3 twice", false, "once");
        let checked = Record {
            seconds: 31.5,
            status: "checked".into(),
            lab: 2,
            name: "maxpoll".into(),
            variant: "expel".into(),
            reason: None,
            verdict: Some(v),
            ended: Some("2026-12-01 23:52:10".into()),
            namespace: Some("alice".into()),
        };
        let error = Record {
            seconds: 1.0,
            status: "error".into(),
            lab: 1,
            name: "revoke".into(),
            variant: "nocommit".into(),
            reason: Some("the script failed: no broker".into()),
            verdict: None,
            ended: None,
            namespace: None,
        };
        let dir = std::env::temp_dir().join(format!("krb-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.jsonl");
        checked.append(&path).unwrap();
        error.append(&path).unwrap();
        let back = read(&path).unwrap();
        assert_eq!(back, vec![checked.clone(), error.clone()]);
        assert!(!checked.held() && !error.held());
        assert_eq!(checked.summary_in(Lang::En), "31.5 s, 1/2 held");
        assert_eq!(
            error.summary_in(Lang::En),
            "1.0 s, error: the script failed: no broker"
        );
        assert_eq!(
            table(&back),
            "lab        variant   article         ours            held\n\
             2 maxpoll  expel     MAXPOLL 10.4 s  MAXPOLL 10.3 s  1/2\n    \
             not held: offset 3 twice (once)\n\
             1 revoke   nocommit                                  error\n    \
             not held: the script failed: no broker\n"
        );
        let mut long = checked.clone();
        if let Some(v) = long.verdict.as_mut() {
            v.article = "the article's long sentence ".repeat(6).as_str().into();
            v.ours = "our long measurement with many words "
                .repeat(5)
                .as_str()
                .into();
        }
        let wide = table(&[long]);
        assert!(
            wide.lines().all(|l| width(l) <= COLUMNS),
            "wider than {COLUMNS} columns:\n{wide}"
        );
        assert!(
            wide.contains("the article's long") && wide.lines().count() > 4,
            "{wide}"
        );
        std::fs::write(&path, "{not json\n").unwrap();
        assert!(read(&path)
            .unwrap_err()
            .to_string()
            .ends_with("r.jsonl:1: not a lab record"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
