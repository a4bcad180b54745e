//! krb-docs: writes the docs' generated blocks and holds the docs to the code. Each check
//! (a to h, as `krb-docs --help` lists them) is a module; [`markdown`] reads pages,
//! [`literals`] the tools' string literals, [`help`] runs the tools for their help.

/// A regex compiled once, where it is used.
macro_rules! regex {
    ($pattern:expr) => {{
        static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        RE.get_or_init(|| regex::Regex::new($pattern).expect("a valid pattern"))
    }};
}

pub mod blocks;
pub mod flags;
pub mod glossary;
pub mod help;
pub mod links;
pub mod literals;
pub mod markdown;
pub mod runs;
pub mod samples;
pub mod twins;
pub mod vars;

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// One problem: the file (from the root, with `/`), the line (1-based), what is wrong; what to
/// do.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    pub file: String,
    pub line: usize,
    pub what: String,
}

impl Problem {
    pub fn new(file: &str, line: usize, what: impl Into<String>) -> Problem {
        Problem {
            file: file.to_string(),
            line,
            what: what.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.what)
    }
}

/// A Markdown page of the docs; its path from the root, with `/` (`docs/en/lab1-revoke.md`).
#[derive(Clone, Debug)]
pub struct Page {
    pub path: String,
    pub text: String,
}

impl Page {
    /// Its language: the folder under docs/ (`en`, `ko`); README.md is `en`, README.ko.md `ko`.
    pub fn lang(&self) -> Option<&'static str> {
        match self.path.as_str() {
            "README.md" => Some("en"),
            "README.ko.md" => Some("ko"),
            p => ["en", "ko"]
                .into_iter()
                .find(|lang| p.starts_with(&format!("docs/{lang}/"))),
        }
    }
}

/// How the tools' and scripts' `--help` is had.
pub trait Helps {
    /// The output of `TOOL --help` (TOOL: `krb-dups`, `krb-verify faults`,
    /// `scripts/01-revoke.sh`), or why there is none.
    fn help(&self, tool: &str) -> Result<String, String>;
}

/// The docs of a checkout: its root, its pages (README*.md and docs/**/*.md, by path), how to
/// ask its tools for their help, and the folder of the built tools (check f runs them).
pub struct Docs {
    pub root: PathBuf,
    pub pages: Vec<Page>,
    pub helps: Box<dyn Helps>,
    pub bin: PathBuf,
}

impl Docs {
    pub fn read(root: &Path, helps: Box<dyn Helps>, bin: &Path) -> Result<Docs> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root)
            .with_context(|| format!("reading {}", root.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| regex!(r"^README.*\.md$").is_match(&rel(root, p)))
            .collect();
        files.sort();
        files.extend(files_under(&root.join("docs"), "md")?);
        let pages = files
            .iter()
            .map(|file| {
                let path = rel(root, file);
                let text = std::fs::read_to_string(file).with_context(|| path.clone())?;
                Ok(Page { path, text })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Docs {
            root: root.to_path_buf(),
            pages,
            helps,
            bin: bin.to_path_buf(),
        })
    }

    pub fn page(&self, path: &str) -> Option<&Page> {
        self.pages.iter().find(|p| p.path == path)
    }
}

/// Every problem of checks a to h, by file and line.
pub fn check(docs: &Docs) -> Result<Vec<Problem>> {
    let mut problems = blocks::check(docs);
    problems.extend(flags::check(docs));
    problems.extend(vars::check(docs)?);
    problems.extend(twins::check(docs));
    problems.extend(links::check(docs));
    problems.extend(runs::check(docs)?);
    problems.extend(glossary::check(docs)?);
    problems.extend(samples::check(docs)?);
    problems.extend(conflicts(docs));
    problems.sort();
    problems.dedup();
    Ok(problems)
}

/// A merge's conflict markers left in a page: no other check reads them as wrong (290be61
/// committed a pair that stayed unseen).
fn conflicts(docs: &Docs) -> Vec<Problem> {
    let what = "a merge's conflict marker: keep what the page should say, drop the markers";
    let marker = |l: &str| l.starts_with("<<<<<<< ") || l.starts_with(">>>>>>> ");
    let lines = (docs.pages.iter()).flat_map(|p| p.text.lines().enumerate().map(move |l| (p, l)));
    let marked = lines.filter(|(_, (_, l))| marker(l));
    marked
        .map(|(p, (i, _))| Problem::new(&p.path, i + 1, what))
        .collect()
}

/// Writes the tools' words into the samples (a reword), then fills every generated block: the
/// files it changed (written) and what it could not fill.
pub fn write(docs: &Docs) -> Result<(Vec<String>, Vec<Problem>)> {
    let (mut changed, mut problems) = (runs::write(docs)?, Vec::new());
    for page in &docs.pages {
        let (text, wrong) = blocks::write_page(docs, page);
        problems.extend(wrong);
        if text != page.text {
            std::fs::write(docs.root.join(&page.path), &text)
                .with_context(|| format!("writing {}", page.path))?;
            changed.push(page.path.clone());
        }
    }
    Ok((changed, problems))
}

/// The files under `dir` (every depth) whose name ends in `.EXT`, sorted; none when `dir` is
/// missing.
pub fn files_under(dir: &Path, ext: &str) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.with_context(|| dir.display().to_string())?.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Every `crates/*/src/**/*.rs` but test files (`tests.rs`, `share_tests.rs`): (its path from
/// the root, its text).
pub fn rust_sources(root: &Path) -> Result<Vec<(String, String)>> {
    let mut found = Vec::new();
    for file in files_under(&root.join("crates"), "rs")? {
        let path = rel(root, &file);
        if path.split('/').nth(2) == Some("src") && !path.ends_with("tests.rs") {
            let text = std::fs::read_to_string(&file).with_context(|| path.clone())?;
            found.push((path, text));
        }
    }
    Ok(found)
}

pub fn rel(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
