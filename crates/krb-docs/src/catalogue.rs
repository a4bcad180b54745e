//! Which lines the current tools can print: check f.
//!
//! A line of a sample passes when it is
//! - blank, a `$ command` line, or (line 1) the `# ` header;
//! - a worker log line krb-log's grammar parses ([`LogLine::parse`]), or one of
//!   librdkafka's own log lines in its format (`%4|1790813686.528|MAXPOLL|slow-a#consumer-1| ...`,
//!   see krb-kafka's rdlog);
//! - matched by a template: a printed line of a string literal of `crates/*/src/**/*.rs` (not
//!   tests: no file named `tests.rs`, nothing after a `#[cfg(test)]` line) or of an
//!   echo/printf string of `scripts/*.sh`, where each `{...}`, `$x`, `${x}`, `$(...)` and `%s` is
//!   a hole that matches any text.
//!
//! A template is used on its own only when its text has a word of three letters or more (a
//! Hangul syllable counts as two), so that `{}: {}` never matches everything. A template without such a word (`  {mark} {} ({})`,
//! `{}: {}`) but with some text other than spaces is a frame: it matches a line when each of its
//! holes holds a line that passes by itself, a worker event as the grammar writes it (`lost
//! [0]`), or a value (text without spaces: `held`, `slow-a`; or text whose only words are Rust's
//! `Some`, `None`, `true`, `false`, `Err`: `10.36 s`, `[(0, Some(10))]`), and at least one hole
//! a line or an event. That is how a line built from several literals passes
//! (krb-verify's `  held   all 1000 messages processed (unique 1000)`: the frame `  {} {} ({})`,
//! the literals `held  `, `all 1000 messages processed` and `unique {}`), while a line no
//! literal of the tools starts (`slow-a: librdkafka error: ...`) does not.
//!
//! Lines are compared with leading and trailing space trimmed and each run of white space as
//! one space.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use anyhow::{Context, Result};
use krb_log::logline::{Event, LogLine};
use regex::Regex;

use crate::literals::{format_pieces, rust_strings, shell_texts, Piece};
use crate::markdown::lines;
use crate::{files_under, rel, Docs, Problem};

/// Stands for a hole inside a normalised template line (a private-use character).
const HOLE: char = '\u{E000}';

/// One printed line a tool can write: texts with a hole between each two.
#[derive(Clone, Debug)]
pub struct Template {
    /// The texts; `texts.len() - 1` holes, one between each two (a text may be empty).
    texts: Vec<String>,
    /// Where it comes from: `FILE:LINE`.
    pub source: String,
}

impl Template {
    /// A printed line's pieces as a template: white space normalised, adjacent holes one.
    fn new(pieces: &[Piece], source: String) -> Option<Template> {
        let mut line = String::new();
        for piece in pieces {
            match piece {
                Piece::Text(t) => line.push_str(t),
                Piece::Hole => line.push(HOLE),
            }
        }
        let line = normalize(&line);
        let mut texts = vec![String::new()];
        for c in line.chars() {
            if c == HOLE {
                if texts.last().is_some_and(|t| t.is_empty()) && texts.len() > 1 {
                    continue;
                }
                texts.push(String::new());
            } else if let Some(t) = texts.last_mut() {
                t.push(c);
            }
        }
        // Spaces between holes are text enough for a frame (`{} {verb} {kind} {target}`).
        let template = Template { texts, source };
        (!template.text().is_empty()).then_some(template)
    }

    /// Its literal text, holes left out.
    fn text(&self) -> String {
        self.texts.concat()
    }

    /// Whether its text has a word of three letters or more.
    fn worded(&self) -> bool {
        self.texts.iter().any(|t| has_word(t, |_| true))
    }

    /// Whether `line` matches, each hole any text (empty too).
    fn matches(&self, line: &str) -> bool {
        let texts = &self.texts;
        let (first, last) = (&texts[0], &texts[texts.len() - 1]);
        if texts.len() == 1 {
            return line == first;
        }
        if !line.starts_with(first.as_str()) || !line.ends_with(last.as_str()) {
            return false;
        }
        let end = line.len() - last.len();
        let mut at = first.len();
        if at > end {
            return false;
        }
        for text in &texts[1..texts.len() - 1] {
            match line[at..end].find(text.as_str()) {
                Some(i) => at += i + text.len(),
                None => return false,
            }
        }
        true
    }

    /// Every way `line` fills the holes, each hole at least one character.
    fn fillings<'l>(&self, line: &'l str) -> Vec<Vec<&'l str>> {
        let mut out = Vec::new();
        if self.texts.len() < 2 || !line.starts_with(self.texts[0].as_str()) {
            return out;
        }
        self.fill(line, self.texts[0].len(), 1, &mut Vec::new(), &mut out);
        out
    }

    fn fill<'l>(
        &self,
        line: &'l str,
        at: usize,
        next: usize,
        holes: &mut Vec<&'l str>,
        out: &mut Vec<Vec<&'l str>>,
    ) {
        let text = self.texts[next].as_str();
        if next == self.texts.len() - 1 {
            if line.len() > at + text.len() && line.ends_with(text) {
                let end = line.len() - text.len();
                if line.is_char_boundary(end) {
                    holes.push(&line[at..end]);
                    out.push(holes.clone());
                    holes.pop();
                }
            }
            return;
        }
        let Some(from) = line[at..].chars().next().map(|c| at + c.len_utf8()) else {
            return;
        };
        for (i, _) in line[from..].match_indices(text) {
            let start = from + i;
            holes.push(&line[at..start]);
            self.fill(line, start + text.len(), next + 1, holes, out);
            holes.pop();
        }
    }
}

/// Whether `text` has a word of three letters or more for which `counts` holds. A Hangul
/// syllable counts as two letters (it writes two or three): `처리` is a word, `건` is not.
fn has_word(text: &str, counts: impl Fn(&str) -> bool) -> bool {
    let mut word = String::new();
    let mut letters = 0;
    for c in text.chars().chain([' ']) {
        if c.is_alphabetic() {
            word.push(c);
            letters += if krb_cli::lang::is_hangul(c) { 2 } else { 1 };
            continue;
        }
        if letters >= 3 && counts(&word) {
            return true;
        }
        word.clear();
        letters = 0;
    }
    false
}

/// Leading and trailing white space trimmed, every run of white space one space.
pub fn normalize(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every template of the tools, and the lines already decided.
pub struct Catalogue {
    worded: Vec<Template>,
    frames: Vec<Template>,
    decided: RefCell<HashMap<String, bool>>,
}

impl Catalogue {
    /// The templates of `ROOT/crates/*/src/**/*.rs` (not tests) and `ROOT/scripts/*.sh`.
    pub fn read(root: &Path) -> Result<Catalogue> {
        let mut templates = Vec::new();
        for file in files_under(&root.join("crates"), "rs")? {
            let name = rel(root, &file);
            let in_src = name.split('/').nth(2) == Some("src");
            if !in_src || file.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            let src = std::fs::read_to_string(&file).with_context(|| name.clone())?;
            templates.extend(rust_templates(&src, &name));
        }
        for file in files_under(&root.join("scripts"), "sh")? {
            let name = rel(root, &file);
            let src = std::fs::read_to_string(&file).with_context(|| name.clone())?;
            templates.extend(shell_templates(&src, &name));
        }
        Ok(Catalogue::new(templates))
    }

    /// A catalogue of these templates.
    pub fn new(templates: Vec<Template>) -> Catalogue {
        // A line with no hole matches only itself, worded or not (`|---|---|`).
        let (worded, rest): (Vec<_>, Vec<_>) = templates
            .into_iter()
            .partition(|t| t.worded() || t.texts.len() == 1);
        // A frame needs some text between its holes, spaces will do (`{} {verb} {kind}`): each
        // hole is then shorter than the line, and must itself be printable or a value.
        let frames = rest.into_iter().filter(|t| !t.text().is_empty()).collect();
        Catalogue {
            worded,
            frames,
            decided: RefCell::new(HashMap::new()),
        }
    }

    /// How many templates it holds.
    pub fn len(&self) -> usize {
        self.worded.len() + self.frames.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The template that matches `line` on its own, if one does.
    pub fn template_of(&self, line: &str) -> Option<&Template> {
        let line = normalize(line);
        self.worded.iter().find(|t| t.matches(&line))
    }

    /// Whether the tools can print `line` (see the module's rules for templates and frames).
    pub fn printable(&self, line: &str) -> bool {
        self.passes(&normalize(line))
    }

    fn passes(&self, line: &str) -> bool {
        if line.is_empty() {
            return false;
        }
        if let Some(&known) = self.decided.borrow().get(line) {
            return known;
        }
        // Each hole of a frame is shorter than the line: no cycle.
        let result = self.worded.iter().any(|t| t.matches(line))
            || self.frames.iter().any(|frame| {
                // A frame of holes and spaces alone (`{} {verb} {kind}`) would let a sentence
                // be built word by word: its holes are whole templates or values, no deeper.
                let spaced = frame.text().trim().is_empty();
                frame.texts.iter().all(|t| line.contains(t.as_str()))
                    && frame.fillings(line).iter().any(|holes| {
                        let mut whole = false;
                        holes.iter().all(|hole| {
                            let hole = hole.trim();
                            let printed = if spaced {
                                self.worded.iter().any(|t| t.matches(hole))
                            } else {
                                self.passes(hole) || self.is_list(hole)
                            };
                            if printed || is_event(hole) {
                                whole = true;
                                true
                            } else {
                                is_value(hole)
                            }
                        }) && whole
                    })
            });
        self.decided.borrow_mut().insert(line.to_string(), result);
        result
    }
}

impl Catalogue {
    /// Whether a frame's hole is a list a tool joined with `, ` (`kill 1, join 1, leave 1`):
    /// two items or more, each printable, an event or a value, one at least printable.
    fn is_list(&self, hole: &str) -> bool {
        let items: Vec<&str> = hole.split(", ").map(str::trim).collect();
        items.len() >= 2
            && items
                .iter()
                .all(|i| self.passes(i) || is_event(i) || is_value(i))
            && items.iter().any(|i| self.passes(i))
    }
}

/// Words a value may hold: Rust's own, as `{:?}` prints an `Option`, a `Result` or a `bool`.
const VALUE_WORDS: [&str; 5] = ["Some", "None", "true", "false", "Err"];

/// Whether a frame's hole holds a value: text without spaces (`slow-a`, `p0=10`), or text
/// whose only words are Rust's value words (`10.36 s`, `[1, 2, 3]`, `[(0, Some(10))]`).
fn is_value(text: &str) -> bool {
    if text.is_empty() {
        return false;
    }
    !text.contains(' ') || !has_word(text, |word| !VALUE_WORDS.contains(&word))
}

/// Whether a frame's hole holds a worker event as the log grammar writes it (`lost [0]`,
/// `commit p0=10`), which a tool prints through the grammar's own Display.
fn is_event(text: &str) -> bool {
    matches!(Event::parse(text), Ok(Some(_)))
}

/// The templates of a Rust file's literals: each printed line of each literal.
pub fn rust_templates(src: &str, name: &str) -> Vec<Template> {
    rust_strings(src)
        .into_iter()
        .flat_map(|(line, text)| lines_of(&format_pieces(&text), &format!("{name}:{line}")))
        .collect()
}

/// The templates of a script's echo and printf strings.
pub fn shell_templates(src: &str, name: &str) -> Vec<Template> {
    shell_texts(src)
        .into_iter()
        .flat_map(|found| lines_of(&found.pieces, &format!("{name}:{}", found.line)))
        .collect()
}

/// Pieces split at each newline, one template a printed line.
fn lines_of(pieces: &[Piece], source: &str) -> Vec<Template> {
    let mut lines: Vec<Vec<Piece>> = vec![Vec::new()];
    for piece in pieces {
        match piece {
            Piece::Hole => lines.last_mut().expect("a line").push(Piece::Hole),
            Piece::Text(text) => {
                for (i, part) in text.split('\n').enumerate() {
                    if i > 0 {
                        lines.push(Vec::new());
                    }
                    lines
                        .last_mut()
                        .expect("a line")
                        .push(Piece::Text(part.to_string()));
                }
            }
        }
    }
    lines
        .iter()
        .filter_map(|l| Template::new(l, source.to_string()))
        .collect()
}

pub(crate) fn rdkafka_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^%[0-7]\|\d+\.\d{3}\|[A-Z0-9_]+\|[^|]*\| ").expect("a valid pattern")
    })
}

/// Why line `number` (1-based) of a sample is not one the tools print, or `None` when it is.
pub fn unprintable(catalogue: &Catalogue, number: usize, line: &str) -> Option<String> {
    let trimmed = line.trim();
    if trimmed.is_empty()
        || line.starts_with("$ ")
        || (number == 1 && line.starts_with("# "))
        || matches!(LogLine::parse(trimmed), Ok(Some(_)))
        || rdkafka_line().is_match(trimmed)
        || catalogue.printable(trimmed)
    {
        return None;
    }
    let shown: String = trimmed.chars().take(100).collect();
    let more = if shown.len() < trimmed.len() {
        "..."
    } else {
        ""
    };
    Some(format!(
        "`{shown}{more}` is no line the current tools print (no worker log line, no librdkafka \
         line, no string of crates/*/src or scripts/*.sh matches it); run scripts/samples.sh \
         again for a real one, or fix the tool that printed it"
    ))
}

/// Check f: every line of every `docs/samples/*/*.txt` is printable by the current tools.
pub fn check_samples(root: &Path, catalogue: &Catalogue) -> Result<Vec<Problem>> {
    let mut problems = Vec::new();
    for file in files_under(&root.join("docs").join("samples"), "txt")? {
        let name = rel(root, &file);
        let text = std::fs::read_to_string(&file).with_context(|| name.clone())?;
        for (i, line) in text.lines().enumerate() {
            if let Some(what) = unprintable(catalogue, i + 1, line) {
                problems.push(Problem::new(&name, i + 1, what));
            }
        }
    }
    Ok(problems)
}

/// Check f on the pages: every line of an output block (a fenced block that is not `sh` or
/// `bash`) of README*.md and docs/LANG/*.md, outside the generated blocks (check a holds those
/// to the tools), is printable by the current tools, as a sample's line must be. The findings
/// pages under docs/en/internals quote older tools on purpose and are not read.
pub fn check_pages(docs: &Docs, catalogue: &Catalogue) -> Vec<Problem> {
    let mut problems = Vec::new();
    for page in &docs.pages {
        let depth = page.path.matches('/').count();
        let read =
            page.path.starts_with("README") || (page.path.starts_with("docs/") && depth == 2);
        if !read {
            continue;
        }
        let mut generated = false;
        for line in lines(&page.text) {
            let marker = line.text.trim_start();
            if marker.starts_with("<!-- /krb:") {
                generated = false;
            } else if marker.starts_with("<!-- krb:") {
                generated = true;
            }
            let output = matches!(line.block, Some(info) if !matches!(info, "sh" | "bash"));
            if generated || line.fence || !output {
                continue;
            }
            if let Some(what) = unprintable(catalogue, 2, line.text) {
                problems.push(Problem::new(&page.path, line.number, what));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalogue(rust: &str, shell: &str) -> Catalogue {
        let mut t = rust_templates(rust, "src/lib.rs");
        t.extend(shell_templates(shell, "scripts/x.sh"));
        Catalogue::new(t)
    }

    #[test]
    fn templates_match_with_holes_and_need_a_word() {
        let c = catalogue(
            r#"fn f() { println!("Created topic {name}."); eprintln!("{}: {}", a, b); }"#,
            "echo \"== lab 1's scenario, group.protocol=$protocol\"\n",
        );
        assert!(c.printable("Created topic pay."));
        assert!(c.printable("  Created   topic pay.  "));
        assert!(!c.printable("Created a topic pay."));
        assert!(c.printable("== lab 1's scenario, group.protocol=consumer"));
        // `{}: {}` is a frame: its holes must be values or printable lines.
        assert!(!c.printable("x: y"));
        assert!(!c.printable("slow-a: some error: anything"));
        assert!(c.printable("slow-a: Created topic pay."));
    }

    #[test]
    fn a_frame_takes_values_and_lines_but_needs_one_line() {
        let c = catalogue(
            r#"
            fn render() {
                let mark = if held { "held  " } else { "FAILED" };
                text += &format!("  {mark} {} ({})\n", c.statement, c.detail);
                v.check("all 1000 messages processed", true, format!("unique {}", n));
            }"#,
            "",
        );
        assert!(c.printable("  held   all 1000 messages processed (unique 1000)"));
        assert!(c.printable("FAILED all 1000 messages processed (unique 999)"));
        assert!(!c.printable("held some other statement (unique 1000)"));
        assert!(!c.printable("x y (z)"));
        assert!(c.printable("held all 1000 messages processed (10.36 s)"));
        assert!(c.printable("held all 1000 messages processed ([(0, Some(10))])"));
        assert!(c.printable("held all 1000 messages processed (lost [0])"));
        assert!(!c.printable("held all 1000 messages processed (lost words here)"));
        // Korean: a Hangul syllable counts as two letters.
        let c = catalogue(r#"fn f() { let m = ["성립", "처리 {} 건", "{} 건"]; }"#, "");
        assert!(c.printable("성립"));
        assert!(c.printable("처리 1000 건"));
        assert!(!c.printable("1000 건"));
    }

    #[test]
    fn sample_lines_of_the_grammar_librdkafka_and_the_transcript_pass() {
        let c = catalogue("", "");
        for line in [
            "# lab 2, krb 1a2b3c4, 2026-05-01 10:00, Kafka 4.3.1",
            "$ cat logs/slow-*.log | sort",
            "",
            "09:14:36.172 slow-a p0 offset 3 slow start",
            "09:13:27.038 start nocommit-b",
            "%4|1790813686.528|MAXPOLL|slow-a#consumer-1| [thrd:main]: Application maximum poll interval (10000ms) exceeded by 360ms",
        ] {
            assert_eq!(unprintable(&c, 1, line), None, "{line}");
        }
        assert!(unprintable(&c, 2, "# a header not on line 1").is_some());
        assert!(unprintable(&c, 3, "09:14:36.172 slow-a p0 offset x").is_some());
    }

    fn real() -> Catalogue {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        Catalogue::read(&root).expect("the checkout's sources")
    }

    #[test]
    fn the_real_catalogue_refuses_the_lab2_line_no_tool_prints() {
        let c = real();
        assert!(c.len() > 500, "{}", c.len());
        let line = "slow-a: librdkafka error: Global error: PollExceeded (Local: Maximum \
                    application poll interval (max.poll.interval.ms) exceeded): Application \
                    maximum poll interval (10000ms) exceeded by 360ms";
        assert!(unprintable(&c, 5, line).is_some());
        // A frame of spaces does not build a sentence word by word.
        let line = "00:22:00.649 fault kill the broker that was never there";
        assert!(unprintable(&c, 5, line).is_some(), "{line}");
    }

    #[test]
    fn the_real_catalogue_passes_what_the_tools_print() {
        let c = real();
        for line in [
            "09:13:29.854 nocommit-a p1 offset 481",
            "processed 1082, unique 1000, duplicates 82",
            "  p1: offset 400..481 (82) processed twice",
            "Created topic pay.",
            // Lab 7: 07-faults.sh echoes the faults file's lines, krb-trial prints its table.
            "00:22:00.649 fault kill faults-2026-1-a",
            "00:22:01.826 healed kill faults-2026-1-a",
            "16.0 s, 8/8 held",
            "16.0초, 8/8 성립",
            "|---|---|",
            "| faults injected | kill 1, join 1, leave 1 |",
            "| duplicate processings by cause (bound) | kill 11 (≤ 11), join 0 (≤ 0), no fault 0 (≤ 0) |",
            "| slowest recovery by kind | kill 3.4 s, join 0.1 s, leave 0.0 s |",
        ] {
            assert_eq!(unprintable(&c, 4, line), None, "{line}");
        }
        // krb-topic prints it.
        let created = c.template_of("Created topic pay.").expect("a template");
        assert!(
            created.source.starts_with("crates/krb-topic/src/"),
            "{}",
            created.source
        );
    }
}
