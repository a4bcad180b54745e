//! The generated blocks: `<!-- krb:help TOOL -->` ... `<!-- /krb:help -->` holds `TOOL --help`,
//! `<!-- krb:sample labN -->` ... `<!-- /krb:sample -->` holds docs/samples/LANG/labN.txt, each
//! as a ```text block. `krb-docs write` fills them; check a says where one differs.

use crate::markdown::lines;
use crate::{Docs, Page, Problem};

/// What a generated block holds: a tool's or script's `--help`, or a lab's sample output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Help,
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

/// A generated block of a page: the tool (`krb-dups`, `krb-verify faults`,
/// `scripts/01-revoke.sh`) or the lab (`lab2`), the lines of its markers (1-based), and the
/// lines between them, each ending in a newline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub kind: Kind,
    pub arg: String,
    pub open: usize,
    pub close: usize,
    pub body: String,
}

impl Block {
    /// `krb:help krb-dups`, as the marker names it.
    pub fn name(&self) -> String {
        format!("krb:{} {}", self.kind.name(), self.arg)
    }
}

/// The page's generated blocks, and what is wrong with its markers (line, what).
pub fn blocks(text: &str) -> (Vec<Block>, Vec<(usize, String)>) {
    let all = lines(text);
    // Markers outside fenced blocks only: a help may show markers.
    let marker = regex!(r"^<!--\s*(/?)krb:(\S*)\s*(.*?)\s*-->$");
    let mut markers = (all.iter().enumerate())
        .filter(|(_, l)| l.prose())
        .filter_map(|(i, l)| Some((i, marker.captures(l.text.trim())?)))
        .peekable();
    let (mut found, mut wrong) = (Vec::new(), Vec::new());
    while let Some((i, caps)) = markers.next() {
        let line = all[i].number;
        let kind = match &caps[2] {
            "help" => Kind::Help,
            "sample" => Kind::Sample,
            other => {
                let what =
                    format!("unknown marker krb:{other}; use krb:help TOOL or krb:sample labN");
                wrong.push((line, what));
                continue;
            }
        };
        let name = kind.name();
        if &caps[1] == "/" {
            let what = format!(
                "<!-- /krb:{name} --> closes no block; remove it or add its opening marker"
            );
            wrong.push((line, what));
            continue;
        }
        let arg = caps[3].to_string();
        if arg.is_empty() {
            wrong.push((
                line,
                format!("krb:{name} names nothing; write <!-- krb:help TOOL --> or <!-- krb:sample labN -->"),
            ));
        }
        // The next marker, of whatever kind, must be this block's closing one.
        let Some((close, _)) = markers.next_if(|(_, c)| &c[1] == "/" && &c[2] == name) else {
            let what = format!(
                "krb:{name} {arg} has no <!-- /krb:{name} --> before the next marker; add it"
            );
            wrong.push((line, what));
            continue;
        };
        if !arg.is_empty() {
            let body = all[i + 1..close]
                .iter()
                .map(|l| format!("{}\n", l.text))
                .collect();
            let close = all[close].number;
            found.push(Block {
                kind,
                arg,
                open: line,
                close,
                body,
            });
        }
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

pub fn expected(docs: &Docs, page: &Page, block: &Block) -> Result<String, String> {
    if block.kind == Kind::Help {
        return docs.helps.help(&block.arg).map(|h| render(&h));
    }
    let lab = block
        .arg
        .strip_prefix("lab")
        .filter(|n| matches!(n.as_bytes(), [b'1'..=b'9']));
    let Some(lab) = lab else {
        return Err(format!(
            "krb:sample {} names no lab; write lab1 to lab9",
            block.arg
        ));
    };
    let lang = page.lang().ok_or(
        "a sample block in a page of no language; put the page under docs/en/ or docs/ko/",
    )?;
    let file = format!("docs/samples/{lang}/lab{lab}.txt");
    std::fs::read_to_string(docs.root.join(&file))
        .map(|s| render(&s))
        .map_err(|_| format!("no {file}; run scripts/samples.sh {lab}"))
}

fn marked(page: &Page) -> (Vec<Block>, Vec<Problem>) {
    let (found, wrong) = blocks(&page.text);
    let wrong = wrong
        .into_iter()
        .map(|(line, what)| Problem::new(&page.path, line, what));
    (found, wrong.collect())
}

/// The page with every block filled (`krb-docs write`), and what could not be filled.
pub fn write_page(docs: &Docs, page: &Page) -> (String, Vec<Problem>) {
    let (found, mut problems) = marked(page);
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
        let (found, wrong) = marked(page);
        problems.extend(wrong);
        for block in &found {
            let problem = match expected(docs, page, block) {
                Err(why) => Problem::new(&page.path, block.open, why),
                Ok(body) if body != block.body => {
                    let same = body
                        .lines()
                        .zip(block.body.lines())
                        .take_while(|(a, b)| a == b);
                    let what = format!(
                        "the {} block is not what it generates (this line differs); run \
                         scripts/docs.sh (krb-docs write)",
                        block.name()
                    );
                    Problem::new(&page.path, block.open + 1 + same.count(), what)
                }
                Ok(_) => continue,
            };
            problems.push(problem);
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
