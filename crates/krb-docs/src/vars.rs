//! Check c: every `KRB_*` variable the docs show is read by a script or a tool, and every one
//! read has a row in the tables of docs/en/reference.md and docs/ko/reference.md
//! (docs/en/internals/docs-checks.md, "Check c").

use crate::literals::rust_strings;
use crate::{files_under, rel, rust_sources, Docs, Problem};
use anyhow::{Context, Result};
use std::collections::{BTreeMap, BTreeSet};

/// Variables the tools read that nobody sets by hand: documented only in reference.md's
/// internals note, nowhere else.
pub const INTERNAL: &[&str] = &[
    // krb-worker sets it on the copy of itself its watchdog runs (watchdog.rs).
    "KRB_WATCHDOG_CHILD",
];

/// The pages that document every variable read.
pub const TABLES: [&str; 2] = ["docs/en/reference.md", "docs/ko/reference.md"];

/// The page (file name) where the internal variables may be named.
const INTERNALS_PAGE: &str = "reference.md";

/// The variables a text names, each once, with its first line; `KRB_PG_*` (a family) is none.
fn named(text: &str) -> BTreeMap<String, usize> {
    let variable = regex!(r"\bKRB_[A-Z0-9_]*[A-Z0-9]\b(\*|_\*)?");
    let mut found = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        for caps in variable.captures_iter(line) {
            if caps.get(1).is_none() {
                found.entry(caps[0].to_string()).or_insert(i + 1);
            }
        }
    }
    found
}

/// Every variable the scripts and the tools read, with where (`FILE:LINE`).
pub fn reads(root: &std::path::Path) -> Result<BTreeMap<String, String>> {
    let mut found = BTreeMap::new();
    for file in files_under(&root.join("scripts"), "sh")? {
        let name = rel(root, &file);
        let text = std::fs::read_to_string(&file).with_context(|| name.clone())?;
        // Comments blanked, each line kept where it is.
        let code = text.lines().map(|line| match line.trim_start() {
            code if code.starts_with('#') => "",
            code => code.split(" #").next().unwrap_or(code),
        });
        for (var, line) in named(&code.collect::<Vec<_>>().join("\n")) {
            found.entry(var).or_insert_with(|| format!("{name}:{line}"));
        }
    }
    for (name, text) in rust_sources(root)? {
        for (line, literal) in rust_strings(&text) {
            for (var, _) in named(&literal) {
                found.entry(var).or_insert_with(|| format!("{name}:{line}"));
            }
        }
    }
    Ok(found)
}

pub fn check(docs: &Docs) -> Result<Vec<Problem>> {
    let reads = reads(&docs.root)?;
    let mut problems = Vec::new();
    for page in &docs.pages {
        let in_internals = page.path.rsplit('/').next() == Some(INTERNALS_PAGE);
        for (var, line) in named(&page.text) {
            let what = if INTERNAL.contains(&var.as_str()) && !in_internals {
                format!(
                    "{var} is internal (no one sets it by hand); name it only in \
                     {INTERNALS_PAGE}'s internals note"
                )
            } else if !INTERNAL.contains(&var.as_str()) && !reads.contains_key(&var) {
                format!(
                    "{var} is read nowhere in scripts/ or crates/*/src; fix the name, or drop it \
                     from the page"
                )
            } else {
                continue;
            };
            problems.push(Problem::new(&page.path, line, what));
        }
    }
    for table in TABLES {
        let Some(page) = docs.page(table) else {
            let what = "missing; it documents every KRB_* variable the tools read, in one \
                        table (name, default, what it does)";
            problems.push(Problem::new(table, 1, what));
            continue;
        };
        let rows = page
            .text
            .lines()
            .filter(|l| l.trim_start().starts_with('|'));
        let documented: BTreeSet<String> = rows.flat_map(|row| named(row).into_keys()).collect();
        for (var, at) in &reads {
            if !INTERNAL.contains(&var.as_str()) && !documented.contains(var) {
                let what = format!(
                    "{var} (read at {at}) has no row in the table of variables; add one: \
                     name, default, what it does"
                );
                problems.push(Problem::new(table, 1, what));
            }
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_named_once_and_families_are_none() {
        let found =
            named("KRB_NS=alice `KRB_LOGS`\nKRB_NS again, KRB_PG_* and MY_KRB_X, $KRB_BIN.\n");
        let names: Vec<(&str, usize)> = found.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(names, [("KRB_BIN", 2), ("KRB_LOGS", 1), ("KRB_NS", 1)]);
    }
}
