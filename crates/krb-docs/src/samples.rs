//! Check h: each sample was made from exactly the commands its page shows: the same commands, in
//! the same order, none more and none less (docs/en/internals/docs-checks.md, "Check h").

use std::path::Path;

use anyhow::{Context, Result};

use crate::blocks::{blocks, Kind};
use crate::markdown::{commands, lines, Line};
use crate::{files_under, rel, Docs, Problem};

/// The line of a page's command block that samples.sh does itself.
const SOURCE: &str = "source scripts/common.sh";

/// The commands of the page's first ```sh (or bash) block, `source scripts/common.sh` left
/// out, each with its line; `None` when the page has no such block.
pub fn page_commands(text: &str) -> Option<Vec<(usize, String)>> {
    let all = lines(text);
    let sh = |l: &&Line| matches!(l.block, Some("sh" | "bash"));
    let first = all.iter().find(sh)?.number;
    let last = all[first - 1..].iter().take_while(sh).last()?.number;
    Some(
        commands(text)
            .into_iter()
            .filter(|(line, command)| (first..=last).contains(line) && command != SOURCE)
            .collect(),
    )
}

/// The commands a sample records: its `$ ` lines, each with its line.
pub fn sample_commands(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| l.strip_prefix("$ ").map(|c| (i + 1, c.trim().to_string())))
        .collect()
}

/// What differs between the commands a page shows and those its sample ran: each command of
/// one the other lacks, where it stands; when both hold the same, the first out of order.
pub fn compare(
    page: &str,
    shown: &[(usize, String)],
    sample: &str,
    ran: &[(usize, String)],
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let lacks = |list: &[(usize, String)], c: &String| !list.iter().any(|(_, x)| x == c);
    for (line, command) in shown.iter().filter(|(_, c)| lacks(ran, c)) {
        let what = format!(
            "`{command}` is a command of this page that {sample} never ran; run \
             scripts/samples.sh again, or take the command out of the page"
        );
        problems.push(Problem::new(page, *line, what));
    }
    for (line, command) in ran.iter().filter(|(_, c)| lacks(shown, c)) {
        let what = format!(
            "the sample ran `{command}`, which {page}'s commands do not show; show it there or \
             run scripts/samples.sh again"
        );
        problems.push(Problem::new(sample, *line, what));
    }
    if !problems.is_empty() {
        return problems;
    }
    if shown.len() != ran.len() {
        let (file, line, who) = match shown.len() > ran.len() {
            true => (page, shown[ran.len()].0, "the page shows"),
            false => (sample, ran[shown.len()].0, "the sample ran"),
        };
        let what =
            format!("{who} a command more times than the other; run scripts/samples.sh again");
        problems.push(Problem::new(file, line, what));
    } else if let Some((_, (line, command))) = shown.iter().zip(ran).find(|(a, b)| a.1 != b.1) {
        let what = format!(
            "the sample ran `{command}` out of the order of {page}'s commands; run \
             scripts/samples.sh again"
        );
        problems.push(Problem::new(sample, *line, what));
    }
    problems
}

/// The lab of each `krb:sample labN` block of a page.
fn sample_labs(text: &str) -> Vec<(usize, String)> {
    blocks(text)
        .0
        .into_iter()
        .filter(|b| b.kind == Kind::Sample)
        .map(|b| (b.open, b.arg))
        .collect()
}

/// Check h: every page with a sample block against the sample of its language.
pub fn check(docs: &Docs) -> Result<Vec<Problem>> {
    let mut problems = Vec::new();
    for page in &docs.pages {
        let Some(lang) = page.lang() else { continue };
        for (open, lab) in sample_labs(&page.text) {
            let file = format!("docs/samples/{lang}/{lab}.txt");
            // A missing sample or a wrong lab name is check a's.
            let Ok(text) = std::fs::read_to_string(docs.root.join(&file)) else {
                continue;
            };
            let Some(shown) = page_commands(&page.text) else {
                let what = format!(
                    "the page shows {file} but no ```sh block of the commands that made \
                     it; add one before it"
                );
                problems.push(Problem::new(&page.path, open, what));
                continue;
            };
            problems.extend(compare(&page.path, &shown, &file, &sample_commands(&text)));
        }
    }
    Ok(problems)
}

/// The commands lab `lab` (1 to 9) runs for its sample, as its English page shows them.
pub fn lab_commands(root: &Path, lab: &str) -> Result<Vec<String>> {
    let arg = format!("lab{lab}");
    for file in files_under(&root.join("docs/en"), "md")? {
        let text = std::fs::read_to_string(&file).with_context(|| file.display().to_string())?;
        if sample_labs(&text).iter().any(|(_, a)| *a == arg) {
            return page_commands(&text)
                .map(|c| c.into_iter().map(|(_, c)| c).collect())
                .with_context(|| format!("{} shows no ```sh block of commands", rel(root, &file)));
        }
    }
    anyhow::bail!("no page of docs/en shows the sample {arg}; give lab 1 to 9")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "# Lab 1\n\n```sh\nsource scripts/common.sh\ntopic pay 2\n\
                        ./scripts/01-revoke.sh nocommit\nkrb-dups nocommit   # the count\n```\n\n\
                        ```sh\nkrb-dups -v nocommit\n```\n<!-- krb:sample lab1 -->\n\
                        <!-- /krb:sample -->\n";

    fn sample(commands: &[&str]) -> String {
        let mut text = String::from("# lab 1, krb abc, 2026-12-04 10:00 UTC, Kafka 4.3.1\n");
        for c in commands {
            text.push_str(&format!("$ {c}\nsome output\n"));
        }
        text
    }

    fn problems(sample_text: &str) -> Vec<Problem> {
        let shown = page_commands(PAGE).expect("a block");
        compare(
            "docs/en/lab1-revoke.md",
            &shown,
            "docs/samples/en/lab1.txt",
            &sample_commands(sample_text),
        )
    }

    #[test]
    fn the_first_sh_block_without_source_is_what_a_sample_runs() {
        assert_eq!(
            page_commands(PAGE).expect("a block"),
            [
                (5, "topic pay 2".to_string()),
                (6, "./scripts/01-revoke.sh nocommit".to_string()),
                (7, "krb-dups nocommit".to_string()),
            ]
        );
        assert_eq!(page_commands("no block\n```text\n$ topic x 1\n```\n"), None);
        let ran = sample_commands(&sample(&["topic pay 2", "krb-dups nocommit"]));
        assert_eq!(
            ran,
            [(2, "topic pay 2".into()), (4, "krb-dups nocommit".into())]
        );
    }

    #[test]
    fn a_sample_of_exactly_the_page_commands_passes() {
        let text = sample(&[
            "topic pay 2",
            "./scripts/01-revoke.sh nocommit",
            "krb-dups nocommit",
        ]);
        assert_eq!(problems(&text), []);
    }

    #[test]
    fn a_sample_made_from_a_command_the_page_does_not_show_fails() {
        // Lab 2's old sample: a `topic slow 1` its page never listed.
        let text = sample(&[
            "topic slow 1",
            "topic pay 2",
            "./scripts/01-revoke.sh nocommit",
            "krb-dups nocommit",
        ]);
        let found = problems(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].file.as_str(), found[0].line),
            ("docs/samples/en/lab1.txt", 2)
        );
        assert!(found[0].what.contains("`topic slow 1`"), "{found:?}");
    }

    #[test]
    fn a_page_command_the_sample_never_ran_fails() {
        // Lab 1's old sample: the page's commands its run never showed.
        let text = sample(&["topic pay 2", "./scripts/01-revoke.sh nocommit"]);
        let found = problems(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].file.as_str(), found[0].line),
            ("docs/en/lab1-revoke.md", 7)
        );
        assert!(found[0].what.contains("never ran"), "{found:?}");
    }

    #[test]
    fn the_same_commands_in_another_order_or_count_fail() {
        let text = sample(&[
            "./scripts/01-revoke.sh nocommit",
            "topic pay 2",
            "krb-dups nocommit",
        ]);
        let found = problems(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].what.contains("out of the order"), "{found:?}");
        assert_eq!(found[0].line, 2);
        let text = sample(&[
            "topic pay 2",
            "./scripts/01-revoke.sh nocommit",
            "krb-dups nocommit",
            "krb-dups nocommit",
        ]);
        let found = problems(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].what.contains("more times"), "{found:?}");
        assert_eq!(found[0].file, "docs/samples/en/lab1.txt");
    }

    #[test]
    fn the_checkout_labs_have_their_commands() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let lab1 = lab_commands(&root, "1").expect("lab 1's commands");
        assert_eq!(lab1.first().map(String::as_str), Some("topic pay 2"));
        assert!(!lab1.iter().any(|c| c == SOURCE), "{lab1:?}");
        let lab9 = lab_commands(&root, "9").expect("lab 9's commands");
        assert_eq!(
            lab9.first().map(String::as_str),
            Some("./scripts/09-deploy.sh")
        );
        assert!(lab_commands(&root, "10").is_err());
    }
}
