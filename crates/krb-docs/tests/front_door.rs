//! The front door of the docs, in both languages: README, setup and the workshop day stay short
//! enough to read before the first command, and every lab page near the article's length (issue
//! 40); the README's quick start is at most 15 lines typed top to bottom, within the first 30
//! lines; its lab list names every lab page; and its last command is the test command CI runs
//! (.ci/run).

use std::path::{Path, PathBuf};

use krb_docs::markdown::commands;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(page: &str) -> String {
    std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// The pages and the most lines each may have.
const LIMITS: &[(&str, usize)] = &[
    ("README.md", 100),
    ("README.ko.md", 100),
    ("docs/en/setup.md", 100),
    ("docs/ko/setup.md", 100),
    ("docs/en/workshop.md", 200),
    ("docs/ko/workshop.md", 200),
];

/// The most lines a lab page may have: labs 1 and 2 as long as the article's, lab 7's trials
/// and their table 250, any other 200.
fn lab_limit(page: &str) -> usize {
    match page.split('-').next() {
        Some("lab1" | "lab2") => 150,
        Some("lab7") => 250,
        _ => 200,
    }
}

#[test]
fn the_front_pages_and_the_lab_pages_stay_within_their_lengths() {
    let mut pages: Vec<(String, usize)> = LIMITS.iter().map(|&(p, l)| (p.to_string(), l)).collect();
    for lang in ["en", "ko"] {
        let dir = root().join("docs").join(lang);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.starts_with("lab") && name.ends_with(".md") {
                pages.push((format!("docs/{lang}/{name}"), lab_limit(&name)));
            }
        }
    }
    assert!(pages.len() >= LIMITS.len() + 18, "{pages:?}");
    for (page, limit) in pages {
        let lines = read(&page).lines().count();
        assert!(lines <= limit, "{page}: {lines} lines, at most {limit}");
    }
}

/// The lines of the first ```sh block of `text`: (the line of its first command, 1-based; its
/// lines).
fn first_sh_block(text: &str) -> (usize, Vec<&str>) {
    let lines: Vec<&str> = text.lines().collect();
    let open = lines
        .iter()
        .position(|l| l.trim() == "```sh")
        .expect("no sh block");
    let len = lines[open + 1..]
        .iter()
        .position(|l| l.trim() == "```")
        .expect("an sh block that never closes");
    (open + 2, lines[open + 1..open + 1 + len].to_vec())
}

#[test]
fn the_quick_start_is_at_most_15_lines_and_begins_within_30() {
    for page in ["README.md", "README.ko.md"] {
        let text = read(page);
        let (first, block) = first_sh_block(&text);
        assert!(first <= 30, "{page}: the first command is on line {first}");
        assert!(
            block.len() <= 15,
            "{page}: a quick start of {} lines",
            block.len()
        );
        // Lab 1 as the article gives it, after the broker and doctor.
        let order = [
            "docker compose -p kreb up -d",
            "source scripts/common.sh",
            "scripts/doctor.sh",
            "topic pay 2",
            "krb-produce pay 1000 2",
            "./scripts/01-revoke.sh nocommit",
            "krb-dups nocommit",
        ];
        let at: Vec<usize> = order
            .iter()
            .map(|c| {
                block
                    .iter()
                    .position(|l| l.split(" #").next().unwrap().trim() == *c)
                    .unwrap_or_else(|| panic!("{page}: the quick start has no `{c}`"))
            })
            .collect();
        assert!(
            at.windows(2).all(|w| w[0] < w[1]),
            "{page}: not in the order {order:?}"
        );
        assert!(
            block.iter().any(|l| l.starts_with("export KRB_LANG=ko")),
            "{page}: no Korean output in the quick start"
        );
    }
}

#[test]
fn the_readme_names_every_lab_page() {
    let mut labs: Vec<String> = std::fs::read_dir(root().join("docs/en"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("lab") && n.ends_with(".md"))
        .collect();
    labs.sort();
    assert!(labs.len() >= 8, "{labs:?}");
    for (page, lang) in [("README.md", "en"), ("README.ko.md", "ko")] {
        let text = read(page);
        for lab in &labs {
            assert!(
                text.contains(&format!("(docs/{lang}/{lab})")),
                "{page} does not link docs/{lang}/{lab}"
            );
        }
    }
}

#[test]
fn the_readmes_last_command_is_the_test_command_ci_runs() {
    let ci = read(".ci/run");
    let runs = ci
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap();
    assert_eq!(runs, "scripts/test.sh", ".ci/run runs something else");
    for page in ["README.md", "README.ko.md"] {
        let all = commands(&read(page));
        let (_, last) = all.last().unwrap();
        assert_eq!(last, runs, "{page}: its last command is not CI's");
    }
}
