//! Check f: the samples and the pages' output held to the tools by running them: a sample's seal,
//! its `$ krb-dups` and log-only verdicts run again on its kept logs, and each line of a page's
//! output block found in a sample or a snapshot (docs/en/internals/docs-checks.md, "Check f").

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use regex::Regex;
use sha2::{Digest, Sha256};

use crate::markdown::lines;
use crate::{files_under, rel, Docs, Problem};

/// The line before an output block that shows a run no check can make without a broker (a
/// workshop's doctor, the room): `<!-- unrun: why -->`. The block is left unchecked, and says so.
pub const UNRUN: &str = "<!-- unrun:";

/// Where the snapshot cases are, from the root.
pub const SNAPSHOTS: &str = "crates/krb-docs/tests/cmd";

struct Sample {
    path: String,
    lang: String,
    lab: String,
    text: String,
    logs: PathBuf,
}

impl Sample {
    fn again(&self) -> String {
        let n = self.lab.trim_start_matches("lab");
        format!(
            "made by scripts/samples.sh; run it again (scripts/samples.sh {n}) rather than edit it"
        )
    }
}

fn samples(root: &Path) -> Result<Vec<Sample>> {
    let mut found = Vec::new();
    for file in files_under(&root.join("docs/samples"), "txt")? {
        let dir = file.parent().and_then(|p| p.file_name());
        let [Some(lang), Some(lab)] = [dir, file.file_stem()].map(|n| n?.to_str()) else {
            continue;
        };
        let path = rel(root, &file);
        found.push(Sample {
            text: std::fs::read_to_string(&file).with_context(|| path.clone())?,
            lang: lang.to_string(),
            lab: lab.to_string(),
            logs: file.with_extension(""),
            path,
        });
    }
    Ok(found)
}

pub fn check(docs: &Docs) -> Result<Vec<Problem>> {
    let samples = samples(&docs.root)?;
    let mut problems = Vec::new();
    for sample in &samples {
        let sealed = seal(sample);
        // A broken seal already says to run samples.sh again.
        if sealed.is_empty() && sample.logs.is_dir() {
            problems.extend(rerun(docs, sample)?);
        }
        problems.extend(sealed);
    }
    problems.extend(check_pages(docs, &samples));
    Ok(problems)
}

/// The seal's problems: the transcript and each kept log against `labN.sha256`.
fn seal(sample: &Sample) -> Vec<Problem> {
    let dir = sample.logs.parent().unwrap_or(Path::new("."));
    let seal = sample.logs.with_extension("sha256");
    let lab = &sample.lab;
    let problem =
        |what: String| Problem::new(&sample.path, 1, format!("{what}; {}", sample.again()));
    let Ok(text) = std::fs::read_to_string(&seal) else {
        return vec![problem(format!("no seal {lab}.sha256"))];
    };
    let mut named = HashSet::new();
    let mut problems = Vec::new();
    for line in text.lines() {
        let Some((hash, name)) = line.split_once("  ") else {
            problems.push(problem(format!(
                "{lab}.sha256 has a line that is no `HASH  FILE`"
            )));
            continue;
        };
        named.insert(name.to_string());
        let got = std::fs::read(dir.join(name))
            .map(sha256)
            .unwrap_or_default();
        if got != hash {
            problems.push(problem(format!("{name} differs from its seal")));
        }
    }
    if !named.contains(&format!("{lab}.txt")) {
        problems.push(problem(format!(
            "{lab}.sha256 does not seal the transcript"
        )));
    }
    let kept = std::fs::read_dir(&sample.logs).into_iter().flatten();
    let kept = kept
        .flatten()
        .map(|e| format!("{lab}/{}", e.file_name().to_string_lossy()));
    let unsealed = kept.filter(|name| !named.contains(name));
    problems.extend(unsealed.map(|name| problem(format!("{name} is not sealed"))));
    problems
}

fn sha256(bytes: impl AsRef<[u8]>) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A verdict's first line: `lab 1 revoke nocommit (group nocommit)`, or in Korean
/// `실습 1 revoke nocommit (그룹 nocommit)`.
fn verdict_head() -> &'static Regex {
    regex!(r"^(?:lab|실습) \d+ (\S+) (.+) \((?:group|그룹) (\S+)\)$")
}

/// The krb-verify command line of a verdict whose first line names `name`, `variant` and
/// `group`, for the labs it judges from the logs alone; `None` for the others.
pub fn verify_args(name: &str, variant: &str, group: &str) -> Option<Vec<String>> {
    let flags = match (name, variant) {
        ("revoke", "nocommit") | ("static", "dynamic") => vec![],
        ("revoke", "revcommit") => vec!["--revoke-commit"],
        ("static", "--static") => vec!["--static"],
        ("assignor", v) => match v.split_once(' ') {
            None => vec!["--assignor", v],
            Some((assignor, "--revoke-commit")) => vec!["--assignor", assignor, "--revoke-commit"],
            Some(_) => return None,
        },
        ("share", scenario) => vec!["--scenario", scenario],
        _ => return None,
    };
    let args = [name, group].into_iter().chain(flags);
    Some(args.map(str::to_string).collect())
}

/// Runs `tool args` from the tools' folder on the sample's logs in its language: (stdout,
/// stderr) lines.
fn run(
    docs: &Docs,
    sample: &Sample,
    tool: &str,
    args: &[String],
) -> Result<(Vec<String>, Vec<String>)> {
    // The logs' path as seen from the root, where the tool runs.
    let logs = std::path::absolute(&sample.logs).context("the sample's logs")?;
    let program = docs.bin.join(tool);
    let out = Command::new(&program)
        .args(args)
        .current_dir(&docs.root)
        .env("KRB_LOGS", logs)
        .env("KRB_LANG", &sample.lang)
        .env_remove("KRB_NS")
        .stdin(Stdio::null())
        .output()
        .with_context(|| {
            format!(
                "running {} (cargo build --release builds it)",
                program.display()
            )
        })?;
    let lines = |b| {
        String::from_utf8_lossy(b)
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let (stdout, stderr) = (lines(&out.stdout), lines(&out.stderr));
    // Nothing printed is no output to compare (and none to write into the sample).
    if stdout.is_empty() {
        anyhow::bail!(
            "{tool} {} printed nothing on {}: {}",
            args.join(" "),
            sample.logs.display(),
            stderr.first().map_or("", String::as_str)
        );
    }
    Ok((stdout, stderr))
}

/// Each `$ krb-dups ...` and each log-only verdict of the sample, run again: where its output
/// begins in the transcript (0-based), what the tool prints now, and the command.
fn again(docs: &Docs, sample: &Sample) -> Result<Vec<(usize, Vec<String>, String)>> {
    let head = verdict_head();
    let mut found = Vec::new();
    for (i, line) in sample.text.lines().enumerate() {
        if let Some(command) = line.strip_prefix("$ krb-dups ") {
            if command.contains(|c: char| "|;&<>$`'\"\\".contains(c)) {
                continue;
            }
            let args: Vec<String> = command.split_whitespace().map(str::to_string).collect();
            let (out, err) = run(docs, sample, "krb-dups", &args)?;
            found.push((i + 1, [err, out].concat(), format!("krb-dups {command}")));
        } else if let Some(c) = head.captures(line) {
            if let Some(args) = verify_args(&c[1], &c[2], &c[3]) {
                let (printed, _) = run(docs, sample, "krb-verify", &args)?;
                found.push((i, printed, format!("krb-verify {}", args.join(" "))));
            }
        }
    }
    Ok(found)
}

/// The sample's lines that differ from what the tools print again on its logs.
fn rerun(docs: &Docs, sample: &Sample) -> Result<Vec<Problem>> {
    let lines: Vec<&str> = sample.text.lines().collect();
    let mut problems = Vec::new();
    for (at, printed, what) in again(docs, sample)? {
        let got = |i: usize| lines.get(at + i).copied().unwrap_or("");
        if let Some(i) = (0..printed.len()).find(|&i| got(i) != printed[i]) {
            let want = &printed[i];
            let wrong = format!(
                "{what} prints `{want}` here, on this sample's logs, not `{}`; when the \
                 tool's words changed, scripts/docs.sh writes them here; else {}",
                got(i),
                sample.again()
            );
            problems.push(Problem::new(&sample.path, at + i + 1, wrong));
        }
    }
    Ok(problems)
}

/// A reword, carried into the samples: each sealed sample's output that its tool now prints
/// otherwise on the same kept logs is written as printed (an output is its first line and the
/// indented lines after it), and the seal made again for the transcript alone; the logs stay as
/// the run wrote them. The samples it changed.
pub fn write(docs: &Docs) -> Result<Vec<String>> {
    let mut changed = Vec::new();
    for sample in samples(&docs.root)? {
        if !sample.logs.is_dir() || !seal(&sample).is_empty() {
            continue;
        }
        let mut lines: Vec<String> = sample.text.lines().map(str::to_string).collect();
        // From the last, so that an output of another length leaves the earlier ones in place.
        for (at, printed, _) in again(docs, &sample)?.into_iter().rev() {
            let end = (at + 1..lines.len())
                .find(|&i| !lines[i].starts_with("  "))
                .unwrap_or(lines.len());
            if at < end && lines[at..end] != printed[..] {
                lines.splice(at..end, printed);
            }
        }
        let text = lines.join("\n") + "\n";
        if text == sample.text {
            continue;
        }
        let file = docs.root.join(&sample.path);
        std::fs::write(&file, &text).with_context(|| sample.path.clone())?;
        let seal = sample.logs.with_extension("sha256");
        let name = format!("{}.txt", sample.lab);
        let sealed = std::fs::read_to_string(&seal)?
            .lines()
            .map(|line| match line.split_once("  ") {
                Some((_, n)) if n == name => format!("{}  {name}\n", sha256(&text)),
                _ => format!("{line}\n"),
            })
            .collect::<String>();
        std::fs::write(&seal, sealed).with_context(|| seal.display().to_string())?;
        changed.push(sample.path);
    }
    Ok(changed)
}

/// A snapshot's line as a pattern: `[..]` any text, the rest as written.
fn snapshot_line(line: &str) -> Regex {
    let parts: Vec<String> = line.split("[..]").map(regex::escape).collect();
    Regex::new(&format!("^{}$", parts.join(".*"))).expect("an escaped pattern")
}

/// Whether a page of language `lang` may quote a trimmed line: its samples' lines and its
/// snapshots'.
fn quotable(root: &Path, samples: &[Sample], lang: &str) -> impl Fn(&str) -> bool {
    let mut exact: HashSet<String> = samples
        .iter()
        .filter(|s| s.lang == lang)
        .flat_map(|s| s.text.lines().map(|l| l.trim().to_string()))
        .collect();
    let file = root.join(SNAPSHOTS).join(format!("{lang}.md"));
    let snapshots = std::fs::read_to_string(file).unwrap_or_default();
    let (elided, lines): (Vec<&str>, _) = snapshots
        .lines()
        .map(str::trim)
        .partition(|l| l.contains("[..]"));
    exact.extend(lines.into_iter().map(str::to_string));
    let patterns: Vec<Regex> = elided.into_iter().map(snapshot_line).collect();
    move |line| exact.contains(line) || patterns.iter().any(|p| p.is_match(line))
}

/// The pages' output blocks outside generated blocks: every line quotes a sample or a snapshot
/// of the page's language. The findings pages under docs/en/internals quote older tools on
/// purpose and are not read.
fn check_pages(docs: &Docs, samples: &[Sample]) -> Vec<Problem> {
    let mut quotables = std::collections::HashMap::new();
    let mut problems = Vec::new();
    for page in &docs.pages {
        // README*.md and docs/LANG/*.md: none a folder deeper.
        let Some(lang) = page.lang().filter(|_| page.path.matches('/').count() < 3) else {
            continue;
        };
        let quotable = quotables
            .entry(lang)
            .or_insert_with(|| quotable(&docs.root, samples, lang));
        let (mut generated, mut unrun, mut skipped) = (false, false, false);
        for line in lines(&page.text) {
            let marker = line.text.trim_start();
            generated =
                (generated || marker.starts_with("<!-- krb:")) && !marker.starts_with("<!-- /krb:");
            if line.fence {
                skipped |= unrun;
                unrun = false;
            } else if line.block.is_none() {
                skipped = false;
                unrun = (unrun && marker.is_empty()) || marker.starts_with(UNRUN);
            }
            let output = matches!(line.block, Some(info) if !matches!(info, "sh" | "bash"));
            let text = line.text.trim();
            // A fence line is in no block: no output.
            if !output || generated || skipped || text.is_empty() || text.starts_with("$ ") {
                continue;
            }
            if !quotable(text) {
                let shown: String = text.chars().take(100).collect();
                let what = format!(
                    "`{shown}` is in no sample of docs/samples/{lang} and no snapshot of \
                     {SNAPSHOTS}/{lang}.md; quote a real run's line, or show the run as a \
                     generated block (krb:sample)"
                );
                problems.push(Problem::new(&page.path, line.number, what));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdicts_first_line_gives_krb_verify_its_arguments() {
        let args = |line: &str| {
            let c = verdict_head()
                .captures(line)
                .expect("a verdict's first line");
            verify_args(&c[1], &c[2], &c[3]).map(|a| a.join(" "))
        };
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            args("lab 1 revoke nocommit (group nocommit)"),
            some("revoke nocommit")
        );
        assert_eq!(
            args("실습 1 revoke revcommit (그룹 revcommit)"),
            some("revoke revcommit --revoke-commit")
        );
        assert_eq!(
            args("lab 3 assignor cooperative-sticky --revoke-commit (group cooprc)"),
            some("assignor cooprc --assignor cooperative-sticky --revoke-commit")
        );
        assert_eq!(
            args("lab 3 assignor range (group range)"),
            some("assignor range --assignor range")
        );
        assert_eq!(
            args("lab 4 static --static (group static)"),
            some("static static --static")
        );
        assert_eq!(
            args("lab 4 static dynamic (group dynamic)"),
            some("static dynamic")
        );
        assert_eq!(
            args("실습 8 share kill (그룹 kill)"),
            some("share kill --scenario kill")
        );
        // The broker's labs, and a variant no lab has, are not run again.
        assert_eq!(args("lab 2 maxpoll expel (group slow)"), None);
        assert_eq!(args("lab 5 protocol consumer (group kip848)"), None);
        assert_eq!(args("lab 1 revoke sometimes (group g)"), None);
        assert!(verdict_head().captures("lab 1 revoke nocommit").is_none());
    }

    #[test]
    fn a_snapshot_line_elides_only_where_it_says() {
        let p = snapshot_line("  ok     bash: [..] (at [..])");
        assert!(p.is_match("  ok     bash: 5.2.15(1)-release (at /bin/bash)"));
        assert!(!p.is_match("  FAILED bash: 5.2 (at /bin/bash)"));
        assert!(!p.is_match("  ok     bash: 5.2"));
        // Regex characters in the snapshot are text.
        assert!(!snapshot_line("a.c").is_match("abc"));
    }
}
