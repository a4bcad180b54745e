//! What the checks read from a Markdown page: fenced blocks, headings and their anchors,
//! commands, inline code, links.

use std::collections::BTreeSet;

/// One line of a page (`number` 1-based) and the info string of the fenced block it is in
/// (`sh`, `text`, empty; `None` outside one). A fence line itself is in no block.
#[derive(Clone, Debug)]
pub struct Line<'a> {
    pub number: usize,
    pub text: &'a str,
    pub block: Option<&'a str>,
    pub fence: bool,
}

impl Line<'_> {
    pub(crate) fn prose(&self) -> bool {
        self.block.is_none() && !self.fence
    }
}

/// The lines of a page, each with its fenced block. A fence is a line that starts, after up to
/// any indentation, with three backquotes.
pub fn lines(text: &str) -> Vec<Line<'_>> {
    let mut block: Option<&str> = None;
    let mut found = Vec::new();
    for (i, text) in text.lines().enumerate() {
        let info = text.trim_start().strip_prefix("```");
        if let Some(info) = info.map(|i| i.trim_start_matches('`')) {
            block = match block {
                None => Some(info.split_whitespace().next().unwrap_or("")),
                Some(_) if info.trim().is_empty() => None,
                open => open,
            };
        }
        let fence = info.is_some();
        let block = if fence { None } else { block };
        found.push(Line {
            number: i + 1,
            text,
            block,
            fence,
        });
    }
    found
}

/// A heading outside fenced blocks; `level` 1 for `#`, 2 for `##`, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    pub line: usize,
    pub level: usize,
    pub text: String,
}

/// The page's ATX headings (`## Goal`), outside fenced blocks.
pub fn headings(text: &str) -> Vec<Heading> {
    let re = regex!(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$");
    lines(text)
        .into_iter()
        .filter(Line::prose)
        .filter_map(|l| {
            let caps = re.captures(l.text)?;
            Some(Heading {
                line: l.number,
                level: caps[1].len(),
                text: caps.get(2).map_or("", |m| m.as_str()).to_string(),
            })
        })
        .collect()
}

/// GitHub's anchor of a heading: its text as rendered (code marks, link targets and tags
/// gone), lowercase, every character but letters, digits, `-`, `_` and spaces dropped, each
/// space a `-`. Korean letters are letters.
pub fn slug(heading: &str) -> String {
    let text = regex!(r"!?\[([^\]]*)\]\([^)]*\)").replace_all(heading, "$1");
    let text = regex!(r"<[^>]*>").replace_all(&text, "");
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors a page has: each heading's slug (a repeated one with `-1`, `-2`, ... as GitHub
/// numbers them) and each `id="..."` or `name="..."` of its HTML.
pub fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for heading in headings(text) {
        let base = slug(&heading.text);
        let anchor = (0..)
            .map(|n| match n {
                0 => base.clone(),
                n => format!("{base}-{n}"),
            })
            .find(|a| !found.contains(a));
        found.extend(anchor);
    }
    let id = regex!(r#"\b(?:id|name)\s*=\s*"([^"]+)""#);
    for line in lines(text).iter().filter(|l| l.block.is_none()) {
        found.extend(id.captures_iter(line.text).map(|c| c[1].to_string()));
    }
    found
}

/// The commands a page shows: every line of a ```sh (or bash) block, its comment cut off and a
/// `$ ` prompt dropped, a line ending in `\` joined to the next; and in other blocks every
/// `$ ` line, also in a block printed as columns side by side (at least three spaces apart).
/// Each with its line.
pub fn commands(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for line in lines(text) {
        let Some(lang) = line.block else { continue };
        if lang == "sh" || lang == "bash" {
            let command = match line.text.find(" #") {
                Some(i) => &line.text[..i],
                None if line.text.trim_start().starts_with('#') => "",
                None => line.text,
            };
            let command = command.trim();
            let command = command.strip_prefix("$ ").unwrap_or(command);
            let (number, mut joined) = pending.take().unwrap_or((line.number, String::new()));
            if !joined.is_empty() {
                joined.push(' ');
            }
            joined.push_str(command);
            if let Some(head) = joined.strip_suffix('\\') {
                pending = Some((number, head.trim_end().to_string()));
            } else if !joined.trim().is_empty() {
                found.push((number, joined.trim().to_string()));
            }
            continue;
        }
        for column in line.text.split("   ") {
            if let Some(command) = column.trim_start().strip_prefix("$ ") {
                found.push((line.number, command.trim().to_string()));
            }
        }
    }
    found.extend(pending);
    found
}

/// The code spans of a line: (byte range with the backquotes, the code inside, trimmed). A
/// span opens with a run of backquotes and closes at the next run of as many.
pub(crate) fn code_spans(line: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let runs: Vec<_> = regex!("`+").find_iter(line).map(|m| m.range()).collect();
    let mut spans = Vec::new();
    let mut k = 0;
    while let Some(open) = runs.get(k) {
        k += 1;
        let n = open.len();
        if let Some(at) = runs[k..].iter().position(|close| close.len() == n) {
            let close = &runs[k + at];
            spans.push((open.start..close.end, line[open.end..close.start].trim()));
            k += at + 1;
        }
    }
    spans
}

/// The inline code spans outside fenced blocks, each with its line.
pub fn inline_code(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for l in lines(text).into_iter().filter(Line::prose) {
        let spans = code_spans(l.text).into_iter();
        found.extend(spans.map(|(_, c)| (l.number, c.to_string())));
    }
    found
}

/// A line outside fenced blocks with its code spans replaced by `by`.
pub(crate) fn without_code(line: &str, by: &str) -> String {
    let mut bare = line.to_string();
    for (range, _) in code_spans(line).into_iter().rev() {
        bare.replace_range(range, by);
    }
    bare
}

/// The targets of the page's links and images (`[x](target)`, `![x](target)`, `[x]: target`,
/// `href="target"`, `src="target"`) outside fenced blocks and inline code, each with its line.
pub fn links(text: &str) -> Vec<(usize, String)> {
    let inline = regex!(r#"\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)"#);
    let reference = regex!(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)");
    let html = regex!(r#"\b(?:href|src)\s*=\s*"([^"]*)""#);
    let mut found = Vec::new();
    for line in lines(text).iter().filter(|l| l.prose()) {
        let bare = without_code(line.text, "");
        for re in [inline, reference, html] {
            for caps in re.captures_iter(&bare) {
                let target = caps[1].trim_start_matches('<').trim_end_matches('>');
                found.push((line.number, target.to_string()));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_from_sh_blocks_and_dollar_lines() {
        let text = "```sh\nscripts/lab.sh     # the lab\n# a comment\n```\n\
                    ```\n$ topic pay 2\nCreated topic pay.\n\
                    $ krb-dups a          $ krb-dups b\n```\n$ not in a block\n\
                    - a list:\n  ```bash\n  krb-verify faults g \\\n    --recheck\n  ```\n";
        let found: Vec<_> = commands(text);
        assert_eq!(
            found,
            [
                (2, "scripts/lab.sh".to_string()),
                (6, "topic pay 2".to_string()),
                (8, "krb-dups a".to_string()),
                (8, "krb-dups b".to_string()),
                (13, "krb-verify faults g --recheck".to_string()),
            ]
        );
    }

    #[test]
    fn headings_outside_blocks_and_their_anchors() {
        let text = "# Lab 1\n```sh\n# not a heading\n```\n## What is checked, and why?\n\
                    ## `krb-dups`: counting\n## 목표 (Goal)\n## Goal\n## Goal\n<a id=\"own\"></a>\n";
        let levels: Vec<usize> = headings(text).iter().map(|h| h.level).collect();
        assert_eq!(levels, [1, 2, 2, 2, 2, 2]);
        let anchors = anchors(text);
        for a in [
            "lab-1",
            "what-is-checked-and-why",
            "krb-dups-counting",
            "목표-goal",
            "goal",
            "goal-1",
            "own",
        ] {
            assert!(anchors.contains(a), "{a} in {anchors:?}");
        }
    }

    #[test]
    fn links_images_and_references_not_in_code() {
        let text = "See [setup](setup.md#prerequisites) and ![t](../img/a.svg \"title\").\n\
                    `[not](a-link.md)`\n```\n[in](block.md)\n```\n[ref]: ../en/x.md\n\
                    <img src=\"../img/b.svg\"> [web](https://example.org)\n";
        let targets: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
        assert_eq!(
            targets,
            [
                "setup.md#prerequisites",
                "../img/a.svg",
                "../en/x.md",
                "https://example.org",
                "../img/b.svg"
            ]
        );
    }

    #[test]
    fn inline_code_spans() {
        let found = inline_code("Run `krb-dups g --json` or ``a ` b``.\n```\n`x`\n```\n");
        assert_eq!(
            found,
            [
                (1, "krb-dups g --json".to_string()),
                (1, "a ` b".to_string())
            ]
        );
    }
}
