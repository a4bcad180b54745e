//! Check g: the Korean pages and the tools' Korean texts speak the article's words, as
//! docs/ko/glossary.md sets them: no variant the glossary rules out (`커밋` for commit, `기사`
//! for the article, which calls itself 글), and no `N s` in a Korean line (the article writes
//! `10.4초`).
//!
//! Read are docs/ko/*.md and README.ko.md (the glossary itself aside: it names the variants),
//! and every Korean string literal of `crates/*/src/**/*.rs` outside tests. A Hangul variant
//! is one wherever it stands, code blocks too (they show the tools' Korean output); a Latin
//! variant (`coordinator`) and a unit `s` only outside inline code, where a page quotes what
//! the tools print in English; lines without Hangul (help texts, log lines) are not read.

use crate::literals::rust_strings;
use crate::markdown::{code_spans, lines};
use crate::{files_under, rel, Docs, Problem};
use anyhow::{Context, Result};
use std::path::Path;

/// The glossary's page.
pub const PAGE: &str = "docs/ko/glossary.md";

/// Each Hangul variant the glossary rules out, and the word to write instead.
pub const VARIANTS: &[(&str, &str)] = &[
    ("커밋", "commit"),
    ("오프셋", "offset"),
    ("하트비트", "heartbeat"),
    ("주인", "담당자"),
    ("소유자", "담당자"),
    ("기사", "글"),
    ("멤버", "구성원"),
    ("효과", "반영"),
    ("독자", "컨슈머"),
    ("[설정]", "[준비]"),
    ("시행", "시험"),
];

/// Each Latin variant, ruled out in Korean prose only.
pub const LATIN_VARIANTS: &[(&str, &str)] = &[("coordinator", "코디네이터")];

fn hangul(text: &str) -> bool {
    text.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c))
}

/// What is wrong with one Korean line: each variant, and a unit `s`. `prose` is the line with
/// its inline code left out (English quoted as the tools print it), for the Latin variants and
/// the unit.
fn line_problems(line: &str, prose: &str) -> Vec<String> {
    if !hangul(line) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (variant, word) in VARIANTS {
        if line.contains(variant) {
            found.push(format!(
                "`{variant}` is a variant {PAGE} rules out; write `{word}`"
            ));
        }
    }
    for (variant, word) in LATIN_VARIANTS {
        if prose.to_lowercase().contains(variant) {
            found.push(format!(
                "`{variant}` in Korean prose; {PAGE} writes `{word}`"
            ));
        }
    }
    if korean_seconds(prose) {
        found.push("`N s` in a Korean line; write `N초`, as the article does".into());
    }
    found
}

/// Whether `text` has a number of seconds written `N s` among Korean words (`시작 0.01 s 뒤`,
/// `{seconds} s 뒤`), not in an English phrase a page quotes (`about 10 s after`).
fn korean_seconds(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    (1..words.len()).any(|i| {
        let unit = words[i].trim_end_matches(|c: char| !c.is_alphanumeric());
        let number = words[i - 1].trim_start_matches(['(', '`', '"']);
        let is_number = number.ends_with(|c: char| c.is_ascii_digit() || c == '}')
            && number.starts_with(|c: char| c.is_ascii_digit() || c == '{');
        let beside = [
            i.checked_sub(2).map(|j| words[j]),
            words.get(i + 1).copied(),
        ];
        is_number
            && (unit == "s" && beside.iter().flatten().any(|w| hangul(w))
                || unit.strip_prefix('s').is_some_and(hangul))
    })
}

/// The problems of a Korean page.
pub fn page_problems(path: &str, text: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    for line in lines(text) {
        // A code block's Korean line is a tool's output: all of it is prose.
        let mut prose = line.text.to_string();
        if line.block.is_none() && !line.fence {
            for (range, _) in code_spans(line.text).into_iter().rev() {
                prose.replace_range(range, " ");
            }
        }
        for what in line_problems(line.text, &prose) {
            problems.push(Problem::new(path, line.number, what));
        }
    }
    problems
}

/// The problems of a Rust source's Korean literals.
pub fn source_problems(path: &str, src: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (number, text) in rust_strings(src) {
        for line in text.lines() {
            for what in line_problems(line, line) {
                problems.push(Problem::new(path, number, what));
            }
        }
    }
    problems
}

/// Check g over the checkout.
pub fn check(docs: &Docs) -> Result<Vec<Problem>> {
    let mut problems = Vec::new();
    for page in &docs.pages {
        let korean = page.path.starts_with("docs/ko/") || page.path == "README.ko.md";
        if korean && page.path != PAGE {
            problems.extend(page_problems(&page.path, &page.text));
        }
    }
    problems.extend(sources(&docs.root, source_problems)?);
    Ok(problems)
}

/// `each` over every `crates/*/src/**/*.rs` but test files (`tests.rs`, `share_tests.rs`).
fn sources(root: &Path, each: impl Fn(&str, &str) -> Vec<Problem>) -> Result<Vec<Problem>> {
    let mut problems = Vec::new();
    for file in files_under(&root.join("crates"), "rs")? {
        let path = rel(root, &file);
        // This file names the variants, as the page does.
        if path == "crates/krb-docs/src/glossary.rs" {
            continue;
        }
        let in_src = path.split('/').nth(2) == Some("src");
        if !in_src
            || file
                .file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with("tests.rs"))
        {
            continue;
        }
        let src = std::fs::read_to_string(&file).with_context(|| path.clone())?;
        problems.extend(each(&path, &src));
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    #[test]
    fn each_variant_and_a_unit_in_seconds_is_found() {
        for (variant, _) in VARIANTS {
            let page = format!("# 제목\n\n그룹의 {variant}를 봅니다.\n");
            let found = page_problems("docs/ko/x.md", &page);
            assert_eq!(found.len(), 1, "{variant}: {found:?}");
            assert_eq!(found[0].line, 3);
        }
        for line in [
            "b는 1.6 s 동안 기다려요.",
            "시작 0.01 s 뒤",
            "(1.6 s)에 끝나요",
            "그 뒤 10 s에",
        ] {
            let found = page_problems("docs/ko/x.md", line);
            assert!(
                found.len() == 1 && found[0].what.contains("N초"),
                "{line}: {found:?}"
            );
        }
        // An English statement quoted in a Korean line keeps its unit.
        let quoted = "- **경고**(librdkafka's MAXPOLL warning about 10 s after offset 3): 봅니다.";
        assert!(page_problems("docs/ko/x.md", quoted).is_empty());
        // In a code block too: the tools' Korean output.
        let found = page_problems("docs/ko/x.md", "```text\n  실측:    커밋 0건\n```\n");
        assert_eq!(found.len(), 1, "{found:?}");
        let src =
            "const A: &str = \"slow start {seconds} s 뒤\";\nconst B: &str = \"그 오프셋\";\n";
        let found = source_problems("crates/x/src/m.rs", src);
        assert_eq!(found.iter().map(|p| p.line).collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn the_article_s_words_and_english_lines_pass() {
        let page = "commit이 실패해도 offset은 그대로예요. 글은 1.6초라고 해요.\n\
                    `coordinator GROUP`을 부르면 코디네이터를 알려 줘요.\n\
                    session.timeout.ms: how long the coordinator waits (0.5 s)\n\
                    ```text\nheartbeat to the coordinator, 3 s\n```\n\
                    영어 판정은 `MAXPOLL 10.4 s after the slow start`처럼 나와요.\n";
        let found = page_problems("docs/ko/x.md", page);
        assert!(found.is_empty(), "{found:?}");
        // A Latin variant in Korean prose is one.
        let found = page_problems("docs/ko/x.md", "그룹 coordinator가 거절해요.\n");
        assert_eq!(found.len(), 1, "{found:?}");
        let found = page_problems(
            "docs/ko/x.md",
            "```text\n  실측:    coordinator 1.6 s 뒤\n```\n",
        );
        assert_eq!(found.len(), 2, "{found:?}");
    }

    /// The page names every variant the check rules out, with the word it uses instead.
    #[test]
    fn the_glossary_page_names_every_variant() {
        let page = std::fs::read_to_string(root().join(PAGE)).expect("the glossary page");
        for (variant, word) in VARIANTS.iter().chain(LATIN_VARIANTS) {
            let row = page
                .lines()
                .find(|l| l.starts_with('|') && l.contains(&format!("`{variant}`")));
            assert!(
                row.is_some_and(|r| r.contains(word)),
                "{PAGE} has no row ruling out `{variant}` for {word}"
            );
        }
    }
}
