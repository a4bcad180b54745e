//! The README's quick start, as a learner types it, reaches lab 1's krb-dups output: every line
//! of its first sh block, in each language, but the three that the tests' machine has done
//! already (getting the code, entering it, starting the broker: scripts/test.sh starts one).

use std::process::Command;

use anyhow::{ensure, Context, Result};
use krb_e2e::{root, said, serial};

/// The quick start's lines that the tests' machine has done already.
const DONE: [&str; 3] = [
    "git clone URL krb",
    "cd krb",
    "docker compose -p kreb up -d",
];

/// The commands of the first sh block of `page`, comments cut off.
fn quick_start(page: &str) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(root().join(page)).context(page.to_string())?;
    let block: Vec<String> = text
        .lines()
        .skip_while(|l| l.trim() != "```sh")
        .skip(1)
        .take_while(|l| l.trim() != "```")
        .map(|l| l.split(" #").next().unwrap_or(l).trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    ensure!(!block.is_empty(), "{page} has no sh block");
    Ok(block)
}

/// `processed N, unique U, duplicates D` lines of `out`, as (N, U, D).
fn counts(out: &str) -> Vec<(u64, u64, u64)> {
    out.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("processed ")?;
            let mut n = rest
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<u64>().ok());
            Some((n.next()??, n.next()??, n.next()??))
        })
        .collect()
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn the_readmes_quick_start_reaches_lab_1s_duplicates() -> Result<()> {
    let _one_at_a_time = serial();
    for (page, ns) in [
        ("README.md", "e2e-quick-en"),
        ("README.ko.md", "e2e-quick-ko"),
    ] {
        let block = quick_start(page)?;
        for done in DONE {
            ensure!(
                block.iter().any(|l| l == done),
                "{page}: the quick start has no `{done}`; this test skips it"
            );
        }
        let typed: Vec<&str> = block
            .iter()
            .map(String::as_str)
            .filter(|l| !DONE.contains(l))
            .collect();
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("set -e\n{}", typed.join("\n")))
            .current_dir(root())
            .env("KRB_NS", ns)
            .env("KRB_LOGS", root().join("logs").join(ns))
            .output()
            .context("cannot run bash")?;
        let text = said(&out);
        println!("{page}:\n{text}");
        ensure!(out.status.success(), "{page}'s quick start failed:\n{text}");
        // KRB_LANG=ko is one of its lines: doctor speaks Korean.
        ensure!(
            text.contains("doctor: 실습 1 준비 끝"),
            "{page}: doctor was not ready:\n{text}"
        );
        let found = counts(&text);
        ensure!(found.len() == 2, "{page}: not two krb-dups lines:\n{text}");
        let (processed, unique, duplicates) = found[0];
        ensure!(
            unique == 1000 && processed == 1000 + duplicates && duplicates < 100,
            "{page}: nocommit's duplicates are a's work since its last commit, 0 to 99: {:?}",
            found[0]
        );
        ensure!(
            found[1] == (1000, 1000, 0),
            "{page}: revcommit processed something twice: {:?}",
            found[1]
        );
    }
    Ok(())
}
