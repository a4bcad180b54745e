//! The generated blocks: `<!-- krb:help TOOL -->` ... `<!-- /krb:help -->` holds `TOOL --help`,
//! `<!-- krb:sample labN -->` ... `<!-- /krb:sample -->` holds docs/samples/LANG/labN.txt, each
//! as a ```text block. `krb-docs write` fills them; check a says where one differs.

use std::sync::OnceLock;

use regex::Regex;

use crate::markdown::lines;
use crate::{Docs, Page, Problem};

/// What a generated block holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A tool's or script's `--help`.
    Help,
    /// A lab's sample output.
    Sample,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Help => "help",
            Kind::Sample => "sample",
        }
    }
}

/// A generated block of a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub kind: Kind,
    /// The tool (`krb-dups`, `krb-verify faults`, `scripts/01-revoke.sh`) or the lab (`lab2`).
    pub arg: String,
    /// The line of its opening marker (1-based).
    pub open: usize,
    /// The line of its closing marker.
    pub close: usize,
    /// The lines between the markers, each ending in a newline.
    pub body: String,
}

impl Block {
    /// `krb:help krb-dups`, as the marker names it.
    pub fn name(&self) -> String {
        format!("krb:{} {}", self.kind.name(), self.arg)
    }
}

fn marker() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^<!--\s*(/?)krb:(\S*)\s*(.*?)\s*-->$").unwrap())
}

/// The page's generated blocks, and what is wrong with its markers (line, what).
pub fn blocks(text: &str) -> (Vec<Block>, Vec<(usize, String)>) {
    let all = lines(text);
    let (mut found, mut wrong) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < all.len() {
        let line = &all[i];
        i += 1;
        if line.block.is_some() || line.fence {
            continue;
        }
        let Some(caps) = marker().captures(line.text.trim()) else {
            continue;
        };
        let kind = match &caps[2] {
            "help" => Kind::Help,
            "sample" => Kind::Sample,
            other => {
                wrong.push((
                    line.number,
                    format!("unknown marker krb:{other}; use krb:help TOOL or krb:sample labN"),
                ));
                continue;
            }
        };
        if &caps[1] == "/" {
            wrong.push((
                line.number,
                format!(
                    "<!-- /krb:{} --> closes no block; remove it or add its opening marker",
                    kind.name()
                ),
            ));
            continue;
        }
        let arg = caps[3].to_string();
        if arg.is_empty() {
            wrong.push((
                line.number,
                format!("krb:{} names nothing; write <!-- krb:help TOOL --> or <!-- krb:sample labN -->", kind.name()),
            ));
        }
        // The next marker outside fenced blocks (a help may show markers), of whatever kind,
        // must be this block's closing one.
        let close = all[i..]
            .iter()
            .position(|l| l.block.is_none() && !l.fence && marker().is_match(l.text.trim()))
            .map(|at| i + at)
            .filter(|&at| {
                marker()
                    .captures(all[at].text.trim())
                    .is_some_and(|c| &c[1] == "/" && &c[2] == kind.name())
            });
        let Some(close) = close else {
            wrong.push((
                line.number,
                format!(
                    "krb:{} {arg} has no <!-- /krb:{} --> before the next marker; add it",
                    kind.name(),
                    kind.name()
                ),
            ));
            continue;
        };
        let body: String = all[i..close]
            .iter()
            .map(|l| format!("{}\n", l.text))
            .collect();
        if !arg.is_empty() {
            found.push(Block {
                kind,
                arg,
                open: line.number,
                close: all[close].number,
                body,
            });
        }
        i = close + 1;
    }
    (found, wrong)
}

/// A block's body as `write` puts it: a ```text block, each line's trailing space trimmed,
/// trailing blank lines dropped.
pub fn render(content: &str) -> String {
    let lines: Vec<&str> = content.lines().map(str::trim_end).collect();
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |i| i + 1);
    let body: String = lines[..end].iter().map(|l| format!("{l}\n")).collect();
    format!("```text\n{body}```\n")
}

/// `text` with each block's body replaced by what `body` gives for it (`None` keeps it).
pub fn fill(
    text: &str,
    blocks: &[Block],
    mut body: impl FnMut(&Block) -> Option<String>,
) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::new();
    let mut next = 0;
    for block in blocks {
        out.push_str(&lines[next..block.open].concat());
        out.push_str(&body(block).unwrap_or_else(|| block.body.clone()));
        next = block.close - 1;
    }
    out.push_str(&lines[next..].concat());
    out
}

/// What a block should hold, rendered, or why it cannot be made.
pub fn expected(docs: &Docs, page: &Page, block: &Block) -> Result<String, String> {
    match block.kind {
        Kind::Help => docs.helps.help(&block.arg).map(|h| render(&h)),
        Kind::Sample => {
            let lab = block
                .arg
                .strip_prefix("lab")
                .filter(|n| matches!(*n, "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9"));
            let Some(lab) = lab else {
                return Err(format!(
                    "krb:sample {} names no lab; write lab1 to lab9",
                    block.arg
                ));
            };
            let Some(lang) = page.lang() else {
                return Err(
                    "a sample block in a page of no language; put the page under \
                            docs/en/ or docs/ko/"
                        .to_string(),
                );
            };
            let file = format!("docs/samples/{lang}/lab{lab}.txt");
            std::fs::read_to_string(docs.root.join(&file))
                .map(|s| render(&s))
                .map_err(|_| format!("no {file}; run scripts/samples.sh {lab}"))
        }
    }
}

/// The page with every block filled (`krb-docs write`), and what could not be filled.
pub fn write_page(docs: &Docs, page: &Page) -> (String, Vec<Problem>) {
    let (found, wrong) = blocks(&page.text);
    let mut problems: Vec<Problem> = wrong
        .into_iter()
        .map(|(line, what)| Problem::new(&page.path, line, what))
        .collect();
    let text = fill(&page.text, &found, |block| {
        expected(docs, page, block)
            .map_err(|why| problems.push(Problem::new(&page.path, block.open, why)))
            .ok()
    });
    (text, problems)
}

/// Check a: every generated block holds what `krb-docs write` would put there.
pub fn check(docs: &Docs) -> Vec<Problem> {
    let mut problems = Vec::new();
    for page in &docs.pages {
        let (found, wrong) = blocks(&page.text);
        for (line, what) in wrong {
            problems.push(Problem::new(&page.path, line, what));
        }
        for block in &found {
            match expected(docs, page, block) {
                Err(why) => problems.push(Problem::new(&page.path, block.open, why)),
                Ok(body) if body != block.body => {
                    let at = body
                        .lines()
                        .zip(block.body.lines())
                        .position(|(a, b)| a != b)
                        .unwrap_or_else(|| body.lines().count().min(block.body.lines().count()));
                    problems.push(Problem::new(
                        &page.path,
                        block.open + 1 + at,
                        format!(
                            "the {} block is not what it generates (this line differs); run \
                             scripts/docs.sh (krb-docs write)",
                            block.name()
                        ),
                    ));
                }
                Ok(_) => {}
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_found_and_filled() {
        let text = "# Tools\n<!-- krb:help krb-dups -->\nold\n<!-- /krb:help -->\nprose\n\
                    ```md\n<!-- krb:help shown-as-an-example -->\n```\n\
                    <!-- krb:sample lab2 -->\n<!-- /krb:sample -->\nend\n";
        let (found, wrong) = blocks(text);
        assert!(wrong.is_empty(), "{wrong:?}");
        assert_eq!(found.len(), 2);
        assert_eq!((found[0].open, found[0].close), (2, 4));
        assert_eq!(found[0].body, "old\n");
        assert_eq!(found[1].kind, Kind::Sample);
        assert_eq!(found[1].body, "");
        let filled = fill(text, &found, |b| Some(render(&format!("{}  \n\n", b.arg))));
        assert_eq!(
            filled,
            "# Tools\n<!-- krb:help krb-dups -->\n```text\nkrb-dups\n```\n<!-- /krb:help -->\n\
             prose\n```md\n<!-- krb:help shown-as-an-example -->\n```\n\
             <!-- krb:sample lab2 -->\n```text\nlab2\n```\n<!-- /krb:sample -->\nend\n"
        );
        let (again, _) = blocks(&filled);
        assert_eq!(again[0].body, "```text\nkrb-dups\n```\n");
        // A help that shows the markers (krb-docs' own) stays inside its block.
        let shown = "<!-- krb:help krb-docs -->\n```text\n  <!-- krb:help krb-dups -->\n\
                     <!-- /krb:help -->\n```\n<!-- /krb:help -->\n";
        let (found, wrong) = blocks(shown);
        assert!(wrong.is_empty(), "{wrong:?}");
        assert_eq!((found[0].open, found[0].close), (1, 6));
    }

    #[test]
    fn broken_markers_are_named() {
        let text = "<!-- krb:help krb-dups -->\n<!-- krb:sample lab1 -->\n<!-- /krb:sample -->\n\
                    <!-- /krb:help -->\n<!-- krb:table x -->\n";
        let (found, wrong) = blocks(text);
        assert_eq!(found.len(), 1, "{found:?}");
        let lines: Vec<usize> = wrong.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [1, 4, 5], "{wrong:?}");
    }
}
