//! Check i: a Korean sample speaks Korean. Every line of `docs/samples/ko/*.txt` holds Hangul,
//! unless it is what stays as the article prints it: a `$ ` command, the header, a worker log
//! line, a lab 7 trial's fault line (krb-log's trial_log), a lab script's timed `kill -9
//! NAME` (a command as it ran), a librdkafka line, or one of the article's own programs' lines (`Created topic T.`,
//! `sent N messages to T`, `processed N, unique N, duplicates N` and dups.py's `pN: offset
//! A..B (N) processed twice`); and a Markdown table's rule. A line a tool left in English
//! under Korean (a progress line, a wrote-file line) is reported.

use std::path::Path;
use std::sync::OnceLock;

use anyhow::{Context, Result};
use krb_cli::lang::has_hangul as hangul;
use krb_log::logline::LogLine;
use krb_log::trial_log::FaultKind;
use regex::Regex;

use crate::catalogue::rdkafka_line;
use crate::{files_under, rel, Problem};

/// The article's programs' own lines, which stay English in every language.
fn article_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"^(?:Created topic \S+\.|sent \d+ messages to \S+|processed \d+, unique \d+, duplicates \d+|p\d+: offset \d+(?:\.\.\d+)? \(\d+\) processed twice|\|[-|]+\|)$",
        )
        .expect("a valid pattern")
    })
}

/// A trial's `fault KIND TARGET` or `healed KIND TARGET` line, or a script's `kill -9 NAME`,
/// each after its time.
fn timed_line(text: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"^\d\d:\d\d:\d\d\.\d{3} (?:(?:fault|healed) (\S+)|kill -9) \S+$")
            .expect("a valid pattern")
    });
    re.captures(text).is_some_and(|c| {
        c.get(1)
            .is_none_or(|kind| FaultKind::parse(kind.as_str()).is_some())
    })
}

/// Why line `number` (1-based) of a Korean sample is English where it should be Korean.
pub fn english(number: usize, line: &str) -> Option<String> {
    let trimmed = line.trim();
    if trimmed.is_empty()
        || hangul(trimmed)
        || line.starts_with("$ ")
        || (number == 1 && line.starts_with("# "))
        || matches!(LogLine::parse(trimmed), Ok(Some(_)))
        || timed_line(trimmed)
        || rdkafka_line().is_match(trimmed)
        || article_line().is_match(trimmed)
    {
        return None;
    }
    let shown: String = trimmed.chars().take(100).collect();
    Some(format!(
        "`{shown}` is English in a Korean sample, and not the article's own output; give the \
         tool that printed it a Korean text (krb_line in scripts, a Msg in crates), then run \
         scripts/samples.sh again"
    ))
}

/// Check i over `docs/samples/ko/*.txt`.
pub fn check(root: &Path) -> Result<Vec<Problem>> {
    let mut problems = Vec::new();
    for file in files_under(&root.join("docs").join("samples").join("ko"), "txt")? {
        let name = rel(root, &file);
        let text = std::fs::read_to_string(&file).with_context(|| name.clone())?;
        for (i, line) in text.lines().enumerate() {
            if let Some(what) = english(i + 1, line) {
                problems.push(Problem::new(&name, i + 1, what));
            }
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_articles_lines_and_logs_pass_and_an_english_tool_line_does_not() {
        for (number, line) in [
            (1, "# lab 1, krb c66644a, 2026-12-04 19:12 UTC, Kafka 4.3.1"),
            (2, "$ topic pay 2"),
            (3, "Created topic pay."),
            (4, "sent 1000 messages to pay"),
            (5, "processed 1080, unique 1000, duplicates 80"),
            (6, "  p1: offset 200..279 (80) processed twice"),
            (7, "  p0: offset 3 (1) processed twice"),
            (8, "19:12:25.605 nocommit-a revoked [0, 1]"),
            (9, "%4|1790813686.528|MAXPOLL|slow-a#consumer-1| [thrd:main]: Application maximum poll interval exceeded"),
            (10, "|---|---|"),
            (11, "그림 저장: logs/nocommit.svg"),
            (12, ""),
            (13, "18:59:54.623 fault kill faults-2026-1-a"),
            (14, "18:59:55.786 healed kill-coordinator node-2"),
            (15, "19:22:46.461 kill -9 kill-a"),
        ] {
            assert_eq!(english(number, line), None, "{line}");
        }
        for line in [
            "waiting for the group to process all 1000 messages (about 10 s, at most 120 s) ...",
            "wrote logs/nocommit.svg",
            "  held   all 1000 messages processed (unique 1000)",
            "# a header below the first line",
            "processed 1080, unique 1000, duplicates 80 (and more)",
            "18:59:54.623 fault smash faults-2026-1-a",
            "18:59:54.623 kill faults-2026-1-a",
        ] {
            assert!(english(20, line).is_some(), "{line}");
        }
    }
}
