//! Check d: every docs/en/X.md has docs/ko/X.md and back (docs/en/internals/ is English
//! only), README.md has README.ko.md; and twins have the same sequence of heading levels, the
//! same commands ([`markdown::commands`]), the same generated blocks, and link to each other.

use std::collections::BTreeSet;

use crate::blocks::blocks;
use crate::links::resolve;
use crate::markdown::{commands, headings, links};
use crate::{Docs, Page, Problem};

/// The twin's path of a page, if it has to have one.
pub fn twin_of(path: &str) -> Option<String> {
    match path {
        "README.md" => Some("README.ko.md".into()),
        "README.ko.md" => Some("README.md".into()),
        p if p.starts_with("docs/en/internals/") => None,
        p => [("docs/en/", "docs/ko/"), ("docs/ko/", "docs/en/")]
            .iter()
            .find_map(|(from, to)| Some(format!("{to}{}", p.strip_prefix(from)?))),
    }
}

/// The relative link from one page to another: `../ko/setup.md`, `README.ko.md`.
fn relative(from: &str, to: &str) -> String {
    let from_dir: Vec<&str> = from.split('/').collect::<Vec<_>>();
    let from_dir = &from_dir[..from_dir.len() - 1];
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_dir
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut parts: Vec<&str> = vec![".."; from_dir.len() - common];
    parts.extend(&to_parts[common..]);
    parts.join("/")
}

pub fn check(docs: &Docs) -> Vec<Problem> {
    let mut problems = Vec::new();
    for page in &docs.pages {
        let Some(twin_path) = twin_of(&page.path) else {
            continue;
        };
        let Some(twin) = docs.page(&twin_path) else {
            let what = format!(
                "no twin {twin_path}; write it, with the same headings, commands and generated \
                 blocks"
            );
            problems.push(Problem::new(&page.path, 1, what));
            continue;
        };
        let links_twin = links(&page.text)
            .iter()
            .any(|(_, target)| resolve(&page.path, target).0 == twin_path);
        if !links_twin {
            let link = relative(&page.path, &twin_path);
            let what =
                format!("no link to its twin {twin_path}; start the page with a link to {link}");
            problems.push(Problem::new(&page.path, 1, what));
        }
        // Each pair once, from its English side.
        if page.lang() == Some("en") {
            compare(page, twin, &mut problems);
        }
    }
    problems
}

fn compare(en: &Page, ko: &Page, problems: &mut Vec<Problem>) {
    let (he, hk) = (headings(&en.text), headings(&ko.text));
    let (most, least) = (he.len().max(hk.len()), he.len().min(hk.len()));
    if let Some(i) = (0..least).find(|&i| he[i].level != hk[i].level) {
        let (e, k) = (&he[i], &hk[i]);
        let what = format!(
            "heading {} `{}` is level {} where {}:{} `{}` is level {}; give both pages the same \
             headings, in the same order and levels",
            i + 1,
            k.text,
            k.level,
            en.path,
            e.line,
            e.text,
            e.level
        );
        problems.push(Problem::new(&ko.path, k.line, what));
    } else if most != least {
        let (long, short, extra) = match he.len() > hk.len() {
            true => (en, ko, &he[least]),
            false => (ko, en, &hk[least]),
        };
        let what = format!(
            "heading `{}` has no counterpart in {} ({most} headings here, {least} there); give \
             both pages the same headings",
            extra.text, short.path
        );
        problems.push(Problem::new(&long.path, extra.line, what));
    }

    let (ce, ck) = (commands(&en.text), commands(&ko.text));
    let set = |c: &[(usize, String)]| c.iter().map(|(_, s)| s.clone()).collect::<BTreeSet<_>>();
    let (se, sk) = (set(&ce), set(&ck));
    for (page, own, other, twin) in [(en, &ce, &sk, ko), (ko, &ck, &se, en)] {
        let mut said = BTreeSet::new();
        for (line, command) in own {
            if !other.contains(command) && said.insert(command) {
                let what = format!(
                    "command `{command}` is not in {}; show the same commands in both pages",
                    twin.path
                );
                problems.push(Problem::new(&page.path, *line, what));
            }
        }
    }

    let names = |p: &Page| -> Vec<(usize, String)> {
        (blocks(&p.text).0.iter())
            .map(|b| (b.open, b.name()))
            .collect()
    };
    let (be, bk) = (names(en), names(ko));
    let differ =
        (0..be.len().max(bk.len())).find(|&i| be.get(i).map(|b| &b.1) != bk.get(i).map(|b| &b.1));
    if let Some(i) = differ {
        let (line, here) = bk
            .get(i)
            .map_or((1, "nothing".into()), |(l, n)| (*l, format!("`{n}`")));
        let there = be
            .get(i)
            .map_or("nothing".into(), |(l, n)| format!("`{n}` (line {l})"));
        let what = format!(
            "generated block {} is {here} where {} has {there}; give both pages the same \
             generated blocks, in the same order",
            i + 1,
            en.path
        );
        problems.push(Problem::new(&ko.path, line, what));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twins_and_the_links_between_them() {
        assert_eq!(
            twin_of("docs/en/lab1-revoke.md").as_deref(),
            Some("docs/ko/lab1-revoke.md")
        );
        assert_eq!(
            twin_of("docs/ko/setup.md").as_deref(),
            Some("docs/en/setup.md")
        );
        assert_eq!(twin_of("docs/en/internals/bench.md"), None);
        assert_eq!(twin_of("README.md").as_deref(), Some("README.ko.md"));
        assert_eq!(
            relative("docs/en/setup.md", "docs/ko/setup.md"),
            "../ko/setup.md"
        );
        assert_eq!(relative("README.md", "README.ko.md"), "README.ko.md");
    }
}
