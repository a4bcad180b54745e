//! A lab variant's verdict: the article's number, ours, and whether this run kept each "must hold"
//! statement, each a message of its lab's own enum, said in the viewer's language where it is
//! shown (see [`crate::messages`] and docs/en/internals/messages.md).

use std::collections::BTreeMap;

use krb_cli::lang::Lang;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::messages::{self, Message, Shared, FAILED_LINE, HELD_LINE};

/// [`Verdict::numbers`]: how many processings repeated one (krb-dups' duplicates).
pub const DUPLICATES: &str = "duplicates";
/// [`Verdict::numbers`], lab 2: the seconds a and b were both in offset 3.
pub const OVERLAP_SECONDS: &str = "overlap_seconds";
/// [`Verdict::numbers`], lab 2: the seconds from a's slow start to librdkafka's MAXPOLL warning.
pub const MAXPOLL_SECONDS: &str = "maxpoll_seconds";

/// One statement of a lab and whether this run kept it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "CheckRecord", from = "CheckRecord")]
pub struct Check {
    pub statement: Message,
    pub held: bool,
    pub detail: Message,
}

/// A [`Check`] as a record writes it: each message's English text (what older readers read)
/// and the message itself.
#[derive(Serialize, Deserialize)]
struct CheckRecord {
    statement: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    said: Option<Value>,
    held: bool,
    detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    detail_said: Option<Value>,
}

impl From<Check> for CheckRecord {
    fn from(c: Check) -> CheckRecord {
        let (statement, said) = c.statement.to_record();
        let (detail, detail_said) = c.detail.to_record();
        CheckRecord {
            statement,
            said,
            held: c.held,
            detail,
            detail_said,
        }
    }
}

impl From<CheckRecord> for Check {
    fn from(c: CheckRecord) -> Check {
        Check {
            statement: Message::from_record(c.statement, c.said),
            held: c.held,
            detail: Message::from_record(c.detail, c.detail_said),
        }
    }
}

/// A lab variant's result: the article's number, ours, and every statement checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "VerdictRecord", from = "VerdictRecord")]
pub struct Verdict {
    pub lab: u8,
    /// The lab's short name (`revoke`, `maxpoll`, ...).
    pub name: String,
    /// The variant (`nocommit`, `range --revoke-commit`, ...).
    pub variant: String,
    pub group: String,
    pub article: Message,
    pub ours: Message,
    pub checks: Vec<Check>,
    /// Log lines the reader skipped (`FILE:LINE: skipped: why`).
    pub skipped: Vec<String>,
    /// Lab 7: the trial's numbers (faults, messages, duplicates by cause, recoveries).
    pub trial: Option<crate::faults::Stats>,
    /// The numbers that vary from run to run, as the checks computed them ([`DUPLICATES`],
    /// [`OVERLAP_SECONDS`], [`MAXPOLL_SECONDS`]), for a reader that compares runs (krb-room);
    /// `ours` says the same in words. Records written before it read as none.
    pub numbers: BTreeMap<String, f64>,
}

/// A [`Verdict`] as a record writes it: `article` and `ours` in English, each beside its
/// message, as for [`CheckRecord`].
#[derive(Serialize, Deserialize)]
struct VerdictRecord {
    lab: u8,
    name: String,
    variant: String,
    group: String,
    article: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    article_said: Option<Value>,
    ours: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ours_said: Option<Value>,
    checks: Vec<Check>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    skipped: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trial: Option<crate::faults::Stats>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    numbers: BTreeMap<String, f64>,
}

impl From<Verdict> for VerdictRecord {
    fn from(v: Verdict) -> VerdictRecord {
        let (article, article_said) = v.article.to_record();
        let (ours, ours_said) = v.ours.to_record();
        VerdictRecord {
            lab: v.lab,
            name: v.name,
            variant: v.variant,
            group: v.group,
            article,
            article_said,
            ours,
            ours_said,
            checks: v.checks,
            skipped: v.skipped,
            trial: v.trial,
            numbers: v.numbers,
        }
    }
}

impl From<VerdictRecord> for Verdict {
    fn from(v: VerdictRecord) -> Verdict {
        Verdict {
            lab: v.lab,
            name: v.name,
            variant: v.variant,
            group: v.group,
            article: Message::from_record(v.article, v.article_said),
            ours: Message::from_record(v.ours, v.ours_said),
            checks: v.checks,
            skipped: v.skipped,
            trial: v.trial,
            numbers: v.numbers,
        }
    }
}

impl Verdict {
    /// A verdict with no statement checked yet.
    pub fn new(
        lab: u8,
        name: &str,
        variant: &str,
        group: &str,
        article: impl Into<Message>,
    ) -> Verdict {
        Verdict {
            lab,
            name: name.into(),
            variant: variant.into(),
            group: group.into(),
            article: article.into(),
            ours: Message::Parts(Vec::new()),
            checks: Vec::new(),
            skipped: Vec::new(),
            trial: None,
            numbers: BTreeMap::new(),
        }
    }

    /// A verdict of `lab` with no statement checked yet, named as the lab names it.
    pub fn of(lab: crate::Lab, group: &str, article: impl Into<Message>) -> Verdict {
        let (n, name, variant) = lab.names();
        Verdict::new(n, name, &variant, group, article)
    }

    pub fn held(&self) -> bool {
        self.checks.iter().all(|c| c.held)
    }

    /// `H/T`: how many statements held, of how many.
    pub fn count(&self) -> String {
        let held = self.checks.iter().filter(|c| c.held).count();
        format!("{held}/{}", self.checks.len())
    }

    /// The statements that did not hold, one per line.
    pub fn failures(&self) -> String {
        self.failures_in(Lang::En)
    }

    pub fn failures_in(&self, lang: Lang) -> String {
        self.checks
            .iter()
            .filter(|c| !c.held)
            .map(|c| format!("{} ({})", c.statement.text(lang), c.detail.text(lang)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub fn check_of(&self, statement: impl Into<Message>) -> Option<&Check> {
        let statement = statement.into();
        self.checks.iter().find(|c| c.statement == statement)
    }

    /// One tab-separated row: lab, variant, article, ours, held, failures.
    pub fn row(&self) -> String {
        let head = format!("{} {}\t{}", self.lab, self.name, self.variant);
        let (article, ours) = (self.article.text(Lang::En), self.ours.text(Lang::En));
        let failures = self.failures().replace('\n', "; ");
        format!("{head}\t{article}\t{ours}\t{}\t{failures}", self.count())
    }

    /// The verdict for a person: the article's number, ours, then each statement with `held`
    /// or `FAILED`.
    pub fn render(&self) -> String {
        self.render_in(Lang::En)
    }

    pub fn render_in(&self, lang: Lang) -> String {
        let mut lines = vec![
            messages::TITLE.fill(
                lang,
                &[
                    ("lab", &self.lab),
                    ("name", &self.name),
                    ("variant", &self.variant),
                    ("group", &self.group),
                ],
            ),
            messages::ARTICLE_LINE.fill(lang, &[("text", &self.article.text(lang))]),
            messages::OURS_LINE.fill(lang, &[("text", &self.ours.text(lang))]),
        ];
        for c in &self.checks {
            let line = if c.held { HELD_LINE } else { FAILED_LINE };
            let (statement, detail) = (c.statement.text(lang), c.detail.text(lang));
            lines.push(line.fill(lang, &[("statement", &statement), ("detail", &detail)]));
        }
        lines.join("\n") + "\n"
    }

    /// Records one of [`Verdict::numbers`]. A number that was not measured (NaN) is left out:
    /// JSON has no NaN, and serde_json would write null, which does not read back as a number.
    pub fn number(&mut self, name: &str, value: f64) {
        if value.is_finite() {
            self.numbers.insert(name.to_string(), value);
        }
    }

    pub fn check(&mut self, statement: impl Into<Message>, held: bool, detail: impl Into<Message>) {
        self.checks.push(Check {
            statement: statement.into(),
            held,
            detail: detail.into(),
        });
    }

    /// The statement that each of the `count` messages written was processed.
    pub fn all_processed(&mut self, report: &krb_dups::Report, count: u64) {
        let unique = report.unique;
        self.check(
            Shared::AllProcessed { count },
            unique == count,
            Shared::Unique { count: unique },
        );
    }

    pub fn no_duplicates(&mut self, report: &krb_dups::Report) {
        let count = report.duplicates();
        self.check(
            Shared::NoDuplicates,
            count == 0,
            Shared::Duplicates { count },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_as_a_row_and_as_text() {
        let mut v = Verdict::new(1, "revoke", "nocommit", "g", "82 duplicates");
        v.ours = "80 duplicates".into();
        v.check("all processed", true, "unique 1000");
        v.check("b began at a's commit", false, "b's first 7\nb's last 9");
        assert!(!v.held());
        assert_eq!(v.count(), "1/2");
        assert_eq!(
            v.row(),
            "1 revoke\tnocommit\t82 duplicates\t80 duplicates\t1/2\tb began at a's commit (b's first 7; b's last 9)"
        );
        assert_eq!(
            v.render(),
            "lab 1 revoke nocommit (group g)\n  article: 82 duplicates\n  ours:    80 duplicates\n  \
             held   all processed (unique 1000)\n  FAILED b began at a's commit (b's first 7\nb's last 9)\n"
        );
    }

    /// Pins the record's JSON and the errors a bad record reads with (krb-room and
    /// `krb-verify table` show them), whatever shape the types take.
    #[test]
    fn a_record_writes_and_refuses_as_it_did() {
        let mut v = Verdict::new(1, "revoke", "nocommit", "g", "82 duplicates");
        v.ours = Shared::Duplicates { count: 3 }.into();
        v.check(Shared::NoDuplicates, false, "3 twice");
        v.skipped.push("a.log:2: skipped: x".into());
        v.number(DUPLICATES, 3.0);
        let line = serde_json::to_string(&v).unwrap();
        assert_eq!(
            line,
            r#"{"lab":1,"name":"revoke","variant":"nocommit","group":"g","article":"82 duplicates","article_said":{"Shared":{"Data":{"text":"82 duplicates"}}},"ours":"3 duplicates","ours_said":{"Shared":{"Duplicates":{"count":3}}},"checks":[{"statement":"no duplicates","said":{"Shared":"NoDuplicates"},"held":false,"detail":"3 twice","detail_said":{"Shared":{"Data":{"text":"3 twice"}}}}],"skipped":["a.log:2: skipped: x"],"numbers":{"duplicates":3.0}}"#
        );
        assert_eq!(serde_json::from_str::<Verdict>(&line).unwrap(), v);
        let bad = |json: &str| {
            serde_json::from_str::<Verdict>(json)
                .unwrap_err()
                .to_string()
        };
        let good = r#""lab":1,"name":"n","variant":"v","group":"g""#;
        for (json, error) in [
            (
                format!(r#"{{{good},"ours":"o","checks":[]}}"#),
                "missing field `article` at line 1 column 69",
            ),
            (
                format!(r#"{{{good},"article":5,"ours":"o","checks":[]}}"#),
                "invalid type: integer `5`, expected a string at line 1 column 57",
            ),
            (
                format!(
                    r#"{{{good},"article":"a","ours":"o","checks":[{{"held":true,"detail":"d"}}]}}"#
                ),
                "missing field `statement` at line 1 column 107",
            ),
            (
                format!(
                    r#"{{{good},"article":"a","ours":"o","checks":[{{"statement":"s","held":1,"detail":"d"}}]}}"#
                ),
                "invalid type: integer `1`, expected a boolean at line 1 column 106",
            ),
            (
                format!(r#"{{{good},"article":"a","ours":"o","checks":[],"numbers":{{"x":"y"}}}}"#),
                "invalid type: string \"y\", expected f64 at line 1 column 101",
            ),
            (
                r#"{"lab":300,"name":"n"}"#.to_string(),
                "invalid value: integer `300`, expected u8 at line 1 column 10",
            ),
        ] {
            assert_eq!(bad(&json), error, "{json}");
        }
        // A message this krb does not know reads as its English text.
        let unknown =
            format!(r#"{{{good},"article":"a","article_said":{{"No":1}},"ours":"o","checks":[]}}"#);
        let read: Verdict = serde_json::from_str(&unknown).unwrap();
        assert_eq!(read.article, Message::English("a".into()));
    }
}
