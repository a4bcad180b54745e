//! Check g: the Korean pages and the tools' Korean texts speak the article's words, as
//! docs/ko/glossary.md sets them. What is read, and where a variant counts:
//! docs/en/internals/docs-checks.md, "Check g".

use crate::literals::{rust_strings, shell_texts};
use crate::markdown::{lines, without_code};
use crate::{files_under, rel, rust_sources, Docs, Problem};
use anyhow::{Context, Result};
use krb_cli::lang::{has_hangul as hangul, is_hangul as hangul_letter};

/// The glossary's page.
pub const PAGE: &str = "docs/ko/glossary.md";
/// The page that lists what [`PAGE`] rules out, row by row: the Korean page names only the words
/// to write, so that no Korean page spells a ruled-out word.
pub const RULES: &str = "docs/en/glossary.md";

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
    ("네임스페이스", "namespace"),
];

/// The Hangul expressions the glossary rules out: each one's dictionary form as the page's row
/// names it, the forms a Korean line must not contain (each a stem or an inflected syllable, none
/// inside another), and the word to write instead.
pub const EXPRESSIONS: &[(&str, &[&str], &str)] = &[
    (
        "넘겨주다",
        &["넘겨주", "넘겨준", "넘겨줘", "넘겨줬", "넘겨줄", "넘겨줍"],
        "반납",
    ),
    ("내놓다", &["내놓"], "반납"),
    ("내려놓다", &["내려놓"], "반납"),
    (
        "불린다",
        &["불린", "불립", "불려", "불렸", "불리는", "불리고", "불릴"],
        "호출돼요",
    ),
    ("체크아웃", &["체크아웃"], "받은 저장소"),
    (
        "이야기하다",
        &[
            "이야기하",
            "이야기해",
            "이야기합",
            "이야기했",
            "이야기한",
            "이야기할",
        ],
        "연결하다",
    ),
    ("돕니다", &["돕니다"], "실행돼요"),
    ("문장", &["문장"], "판정 항목"),
    ("불변식", &["불변식"], "판정 항목"),
];

/// What may follow a whole-word `revoke` ([`glued`] aside), after at most one space, to make an
/// expression the glossary rules out, as [`EXPRESSIONS`]: the page's name for it, the suffixes,
/// the word to write.
pub const REVOKE_EXPRESSIONS: &[(&str, &[&str], &str)] = &[
    ("revoke 콜백", &["콜백"], "on_revoke"),
    ("revoke commit", &["commit"], "on_revoke commit"),
    (
        "revoke하다",
        &[
            "하", "했", "해", "한", "합", "할", "함", "된", "되", "됐", "돼",
        ],
        "반납",
    ),
];

/// The ruled-out `revoke` expression `text` has, if any: `revoke` as a word of its own (not
/// `on_revoke`, `--revoke-commit`, `revoked`), then at most one space, then a suffix of
/// [`REVOKE_EXPRESSIONS`] (`commit` as a whole word).
fn revoke_expression(text: &str) -> Option<(&'static str, &'static str)> {
    let lower = text.to_lowercase();
    lower.match_indices("revoke").find_map(|(start, word)| {
        if lower[..start].chars().next_back().is_some_and(glued) {
            return None;
        }
        let rest = &lower[start + word.len()..];
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let ends = |suffix: &&str| {
            rest.strip_prefix(suffix)
                .is_some_and(|after| hangul(suffix) || !after.chars().next().is_some_and(glued))
        };
        REVOKE_EXPRESSIONS
            .iter()
            .find(|(_, suffixes, _)| suffixes.iter().any(ends))
            .map(|(shown, _, word)| (*shown, *word))
    })
}

/// Each Latin variant, ruled out in Korean prose only, as a whole word ([`latin_word`]).
pub const LATIN_VARIANTS: &[(&str, &str)] = &[
    ("coordinator", "코디네이터"),
    ("worker", "워커"),
    ("effect", "반영"),
];

/// Whether a character joins a Latin word to what stands beside it, making them one name:
/// a letter or digit, or `-`, `_`, `.`, `/`, `{`, `}` (`krb-worker`, `--worker`, `worker.py`,
/// `{worker}`). Hangul does not: `worker가` is the word and its particle.
fn glued(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '{' | '}')
}

/// `text` with each English phrase it quotes blanked out: a stretch between Korean letters
/// with two or more English words (two or more ASCII letters each), as a page glosses a
/// statement in the English the tools print (`**두 번 반영된 메시지 없음**(no message's effect
/// twice)`). A lone Latin word among Korean ones (`두 worker가`, `| worker |`) stays.
fn without_english(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for piece in text.split_inclusive(hangul_letter) {
        let letter = piece.chars().next_back().filter(|&c| hangul_letter(c));
        let stretch = &piece[..piece.len() - letter.map_or(0, char::len_utf8)];
        let words = stretch.split(|c: char| !c.is_ascii_alphabetic());
        match words.filter(|w| w.len() >= 2).count() >= 2 {
            true => out.extend(std::iter::repeat_n(' ', stretch.len())),
            false => out.push_str(stretch),
        }
        out.extend(letter);
    }
    out
}

/// Whether `text` has `word` (lowercase) as a word of its own, ASCII case aside: not glued to
/// a name on either side ([`glued`]), though it may end in an English plural or possessive
/// (`workers`, `worker's`, `workers'`); a `.` ends it unless a letter or digit follows
/// (`worker.` ends a sentence, `worker.py` is a name). English phrases are not read
/// ([`without_english`]).
fn latin_word(text: &str, word: &str) -> bool {
    let lower = without_english(text).to_ascii_lowercase();
    lower.match_indices(word).any(|(start, _)| {
        let before = lower[..start].chars().next_back();
        let rest = &lower[start + word.len()..];
        let rest = ["s'", "'s", "s", "'"]
            .iter()
            .find_map(|suffix| rest.strip_prefix(suffix))
            .unwrap_or(rest);
        let mut after = rest.chars();
        let ends = match after.next() {
            None => true,
            Some('.') => !after.next().is_some_and(|c| c.is_ascii_alphanumeric()),
            Some(c) => !glued(c),
        };
        !before.is_some_and(glued) && ends
    })
}

/// What is wrong with one Korean line: each variant, and a unit `s`. `prose` is the line with
/// its inline code left out (English quoted as the tools print it), for the Latin variants and
/// the unit.
fn line_problems(path: &str, number: usize, line: &str, prose: &str) -> Vec<Problem> {
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
    for (shown, forms, word) in EXPRESSIONS {
        if let Some(form) = forms.iter().find(|f| line.contains(*f)) {
            found.push(format!(
                "`{form}` (`{shown}`) is an expression {PAGE} rules out; write `{word}`"
            ));
        }
    }
    if let Some((shown, word)) = revoke_expression(prose) {
        found.push(format!(
            "`{shown}` is an expression {PAGE} rules out; write `{word}`"
        ));
    }
    for (variant, word) in LATIN_VARIANTS {
        if latin_word(prose, variant) {
            found.push(format!(
                "`{variant}` in Korean prose; {PAGE} writes `{word}`"
            ));
        }
    }
    if korean_seconds(prose) {
        found.push("`N s` in a Korean line; write `N초`, as the article does".into());
    }
    let at = |what| Problem::new(path, number, what);
    found.into_iter().map(at).collect()
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
        let prose = match line.prose() {
            true => without_code(line.text, " "),
            false => line.text.to_string(),
        };
        problems.extend(line_problems(path, line.number, line.text, &prose));
    }
    problems
}

/// The problems of a source's Korean texts, each with its line: a Rust source's literals
/// ([`rust_strings`]), a script's words ([`shell_texts`], each hole read as `{}`).
pub fn text_problems(path: &str, texts: Vec<(usize, String)>) -> Vec<Problem> {
    let lines = texts
        .iter()
        .flat_map(|(n, t)| t.lines().map(move |l| (*n, l)));
    lines
        .flat_map(|(n, line)| line_problems(path, n, line, line))
        .collect()
}

/// Check g over the checkout.
pub fn check(docs: &Docs) -> Result<Vec<Problem>> {
    let mut problems = Vec::new();
    for page in &docs.pages {
        if page.lang() == Some("ko") && page.path != PAGE {
            problems.extend(page_problems(&page.path, &page.text));
        }
    }
    for (path, src) in rust_sources(&docs.root)? {
        // This file names the variants, as the page does.
        if path != "crates/krb-docs/src/glossary.rs" {
            problems.extend(text_problems(&path, rust_strings(&src)));
        }
    }
    for file in files_under(&docs.root.join("scripts"), "sh")? {
        let path = rel(&docs.root, &file);
        let src = std::fs::read_to_string(&file).with_context(|| path.clone())?;
        problems.extend(text_problems(&path, shell_texts(&src)));
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
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
        let found = text_problems("crates/x/src/m.rs", rust_strings(src));
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

    #[test]
    fn worker_and_effect_in_korean_prose_are_variants() {
        for line in [
            "두 worker가 같은 그룹에 들어가요.",
            "세 Worker를 띄웁니다.",
            "각 workers의 로그를 봐요.",
            "worker's 로그를 봐요.",
            "a는 worker. 그다음 b를 봐요.",
            "effect가 이미 저장되어 있어요.",
            "두 effects를 남겨요.",
            "```text\n  실측:    worker 두 개\n```\n",
        ] {
            let found = page_problems("docs/ko/x.md", line);
            assert_eq!(found.len(), 1, "{line}: {found:?}");
            assert!(
                found[0].what.contains("워커") || found[0].what.contains("반영"),
                "{line}: {found:?}"
            );
        }
        let found = text_problems(
            "crates/x/src/m.rs",
            rust_strings("const A: &str = \"두 worker가 끝남\";\n"),
        );
        assert_eq!(found.len(), 1, "{found:?}");
    }

    #[test]
    fn worker_and_effect_as_code_or_a_name_pass() {
        for line in [
            // Inline code: what the tools print, a name.
            "로그의 `worker a` 줄을 봐요.",
            "`effect` 열에 남아요.",
            // Names: the program, the article's program, a flag, a placeholder.
            "krb-worker를 두 개 띄웁니다.",
            "글의 worker.py는 콜백 두 개를 씁니다.",
            "--worker 옵션 없이 돌려요.",
            "중복 #{n}: {worker} p{partition}",
            "krb-effects init으로 표를 만들어요.",
            // Longer English words are other words.
            "effective 값을 봐요.",
            // English the tools print, quoted beside its Korean.
            "- **두 번 반영된 메시지 없음**(no message's effect twice): 키가 같아요.",
            "- **모든 워커가 자기 파티션만 처리함**(every worker",
            "| `plain` | 행 하나(topic, partition, offset, payload, worker, time) | 두 번째 행 |",
        ] {
            let found = page_problems("docs/ko/x.md", line);
            assert!(found.is_empty(), "{line}: {found:?}");
        }
        // A line without Hangul is English, as the tools print it.
        let english = "worker a: revoked [0, 1]; the effect is already stored\n";
        assert!(page_problems("docs/ko/x.md", english).is_empty());
        let src = "const A: &str = \"krb-worker {worker}: 워커가 끝남\";\n\
                   const B: &str = \"the worker's effect\";\n";
        let found = text_problems("crates/x/src/m.rs", rust_strings(src));
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn each_form_of_each_expression_is_found_in_a_page_a_source_and_a_script() {
        let mut cases: Vec<(String, &str)> = Vec::new();
        for (shown, forms, _) in EXPRESSIONS {
            for form in *forms {
                cases.push((format!("파티션을 {form}요."), shown));
            }
        }
        // Each variant the issue names, as a page would write it: independent of the forms above,
        // so a form dropped from the table fails here.
        for (line, shown) in [
            ("revoke 콜백에서 commit해요.", "revoke 콜백"),
            ("Revoke 콜백이 호출돼요.", "revoke 콜백"),
            ("파티션을 내려놓을 때", "내려놓다"),
            ("revoke commit이 없으면 중복이 생겨요.", "revoke commit"),
            ("a가 [0, 1]을 revoke했어요.", "revoke하다"),
            ("revoke된 파티션", "revoke하다"),
            ("revoke되기 전에", "revoke하다"),
            ("revoke 하는 동안", "revoke하다"),
            ("모두 revoke합니다.", "revoke하다"),
            ("revoke됐어요.", "revoke하다"),
            ("a가 파티션을 넘겨줬어요.", "넘겨주다"),
            ("넘겨준 위치", "넘겨주다"),
            ("b에게 넘겨주고", "넘겨주다"),
            ("콜백이 불린다.", "불린다"),
            ("on_lost가 불렸어요.", "불린다"),
            ("콜백이 불려요.", "불린다"),
            ("체크아웃에서 빌드하세요.", "체크아웃"),
            ("브로커와 이야기하는 도구", "이야기하다"),
            ("브로커와 이야기해요.", "이야기하다"),
            ("실습이 한 번 돕니다.", "돕니다"),
            ("모든 문장이 성립했어요.", "문장"),
            ("실행의 불변식이에요.", "불변식"),
        ] {
            cases.push((line.to_string(), shown));
        }
        for (line, shown) in &cases {
            let found = page_problems("docs/ko/x.md", &format!("# 제목\n\n{line}\n"));
            assert_eq!(found.len(), 1, "{line}: {found:?}");
            assert!(
                found[0].line == 3 && found[0].what.contains(shown),
                "{line}: {found:?}"
            );
            // In a code block too: a tool's Korean output.
            let found = page_problems("docs/ko/x.md", &format!("```text\n{line}\n```\n"));
            assert_eq!(found.len(), 1, "{line}: {found:?}");
            let src = format!("const A: &str = \"{line}\";\n");
            let found = text_problems("crates/x/src/m.rs", rust_strings(&src));
            assert_eq!(found.len(), 1, "{line}: {found:?}");
            let script = format!("krb_say \"english\" \"{line}\" >&2\necho \"{line}\"\n");
            let found = text_problems("scripts/x.sh", shell_texts(&script));
            assert_eq!(
                found.iter().map(|p| p.line).collect::<Vec<_>>(),
                [1, 2],
                "{line}: {found:?}"
            );
        }
    }

    #[test]
    fn the_article_s_revoke_words_and_english_pass() {
        for line in [
            "on_revoke commit은 유지하세요.",
            "`on_revoke` 콜백이 호출돼요.",
            "콜백 on_revoke에서 commit하지 않으면 중복이 생깁니다.",
            "`--revoke-commit`을 붙여요.",
            "--revoke-commit 없이 실행해요.",
            "a의 로그에 revoked [0, 1]이 남아요.",
            "파티션을 반납할 때 호출되는 콜백이에요.",
            "파티션 1을 넘겨받은 b는 400부터 읽었어요.",
            "판정 항목이 모두 성립했어요.",
        ] {
            let found = page_problems("docs/ko/x.md", line);
            assert!(found.is_empty(), "{line}: {found:?}");
        }
        // A script's English text is not read.
        let script = "echo \"the revoke commit is off\"\n";
        assert!(text_problems("scripts/x.sh", shell_texts(script)).is_empty());
    }

    /// The rules' page names every variant the check rules out, with the word used instead.
    #[test]
    fn the_glossary_page_names_every_variant() {
        let page = std::fs::read_to_string(root().join(RULES)).expect("the glossary page");
        let expressions =
            (EXPRESSIONS.iter().chain(REVOKE_EXPRESSIONS)).map(|(shown, _, word)| (*shown, *word));
        for (variant, word) in VARIANTS
            .iter()
            .chain(LATIN_VARIANTS)
            .copied()
            .chain(expressions)
        {
            let row = page
                .lines()
                .find(|l| l.starts_with('|') && l.contains(&format!("`{variant}`")));
            assert!(
                row.is_some_and(|r| r.contains(word)),
                "{RULES} has no row ruling out `{variant}` for {word}"
            );
        }
    }
}
