//! Check e: every relative link and image of the pages leads to a file that exists, and an
//! `#anchor` into a Markdown file names one of its headings (GitHub's anchors, see
//! [`markdown::slug`]) or an `id` of its HTML.

use std::collections::{BTreeSet, HashMap};

use crate::markdown::{anchors, links};
use crate::{Docs, Problem};

/// A link's target from a page: (the file's path from the root, lexically; the anchor).
/// An empty path part is the page itself. `%XX` escapes are decoded.
pub fn resolve(page: &str, target: &str) -> (String, String) {
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let (path, anchor) = (decode(path), decode(anchor));
    if path.is_empty() {
        return (page.to_string(), anchor);
    }
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    (parts.join("/"), anchor)
}

/// `%XX` escapes decoded as UTF-8.
fn decode(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let [first, tail @ ..] = rest {
        let hex = std::str::from_utf8(tail.get(..2).unwrap_or_default()).unwrap_or("");
        let (byte, next) = match u8::from_str_radix(hex, 16) {
            Ok(b) if *first == b'%' => (b, &tail[2..]),
            _ => (*first, tail),
        };
        out.push(byte);
        rest = next;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a target leaves the checkout: a URL (`https:`, `mailto:`) or `//host`.
fn external(target: &str) -> bool {
    regex!(r"^(?://|[A-Za-z][A-Za-z0-9+.-]*:)").is_match(target)
}

pub fn check(docs: &Docs) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut anchors_of: HashMap<String, Option<BTreeSet<String>>> = HashMap::new();
    for page in &docs.pages {
        for (line, target) in links(&page.text) {
            if external(&target) {
                continue;
            }
            let (path, anchor) = resolve(&page.path, &target);
            let on_disk = docs.root.join(&path);
            if path.starts_with("..") || !on_disk.exists() {
                let what = format!("link {target}: no file {path}; fix the link");
                problems.push(Problem::new(&page.path, line, what));
                continue;
            }
            if anchor.is_empty() || !path.ends_with(".md") {
                continue;
            }
            let known = anchors_of
                .entry(path.clone())
                .or_insert_with(|| match docs.page(&path) {
                    Some(p) => Some(anchors(&p.text)),
                    None => std::fs::read_to_string(&on_disk).ok().map(|t| anchors(&t)),
                });
            if known.as_ref().is_some_and(|a| !a.contains(&anchor)) {
                let what = format!(
                    "link {target}: {path} has no heading whose anchor is #{anchor} \
                     (GitHub's: lowercase, spaces to -, punctuation dropped); fix the anchor \
                     or the heading"
                );
                problems.push(Problem::new(&page.path, line, what));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_resolve_from_the_page() {
        assert_eq!(
            resolve("docs/en/lab1.md", "../img/a.svg"),
            ("docs/img/a.svg".into(), "".into())
        );
        assert_eq!(
            resolve("docs/en/lab1.md", "#goal"),
            ("docs/en/lab1.md".into(), "goal".into())
        );
        assert_eq!(
            resolve("README.md", "docs/ko/setup.md#%EB%AA%A9%ED%91%9C"),
            ("docs/ko/setup.md".into(), "목표".into())
        );
        assert_eq!(resolve("README.md", "../x.md").0, "../x.md");
        assert!(external("https://example.org/a"));
        assert!(external("mailto:a@b"));
        assert!(!external("setup.md#a:b"));
        assert!(!external("../en/x.md"));
    }
}
