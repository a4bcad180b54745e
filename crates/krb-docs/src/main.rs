use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};
use krb_cli::out::stdout_line;
use krb_docs::help::Runner;
use krb_docs::Docs;

/// krb-docs: write the docs' generated blocks, and check the docs against the code.
///
///   krb-docs write     fill every generated block of README*.md and docs/**/*.md
///   krb-docs check     report every problem, one line each: FILE:LINE: what; what to do
///   krb-docs commands N   the commands lab N's sample runs, one a line (scripts/samples.sh)
///
/// A generated block is written as two markers and filled by `write`:
///
///   <!-- krb:help krb-dups -->            the output of `krb-dups --help`
///   <!-- /krb:help -->
///   <!-- krb:sample lab2 -->              docs/samples/LANG/lab2.txt (LANG: the page's
///   <!-- /krb:sample -->                  folder, en or ko; README.ko.md is ko)
///
/// A binary runs from krb-docs' own folder (target/release), a script as ROOT/scripts/X.sh;
/// `krb:help krb-verify faults` is `krb-verify faults --help`. scripts/samples.sh writes the
/// samples from a real run.
///
/// `check` reports (a) a generated block that differs from what `write` puts there; (b) a
/// flag in a command of the docs that its tool's --help does not name; (c) a KRB_* variable
/// shown that nothing reads, or one read that docs/en/reference.md and docs/ko/reference.md
/// do not document; (d) an English page and its Korean twin that differ in headings, commands or
/// generated blocks; (e) a relative link or #anchor that leads nowhere, or a merge's conflict
/// marker; (f) a sample that is not what scripts/samples.sh wrote (its seal, LAB.sha256), or
/// whose krb-dups and log-only krb-verify output differs from what those tools print on its
/// kept logs now, or a line of a page's output block that quotes no sample or snapshot case of
/// its language; (g) a Korean text with a word docs/ko/glossary.md rules out; (h) a sample whose `$ ` lines are not exactly the commands of its page's first sh block
/// (`source scripts/common.sh` aside), in order: the commands `krb-docs commands N` prints.
///
/// Exit status: check 0 when it finds nothing, 1 when it finds a problem; write 0, or 1 when a
/// block could not be filled; 2 when the checkout cannot be read or the command line is wrong.
#[derive(Parser, Debug)]
#[command(name = "krb-docs", version, verbatim_doc_comment)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Fill every generated block of README*.md and docs/**/*.md
    Write {
        /// The checkout
        #[arg(default_value = ".")]
        root: PathBuf,
    },
    /// Report every problem of the docs, one line each, and exit 1 if there is one
    Check {
        /// The checkout
        #[arg(default_value = ".")]
        root: PathBuf,
    },
    /// Print the commands lab N's sample runs, one a line, as docs/en's page shows them
    Commands {
        /// The lab, 1 to 9
        lab: String,
        /// The checkout
        #[arg(default_value = ".")]
        root: PathBuf,
    },
}

fn main() -> std::process::ExitCode {
    krb_cli::main(krb_cli::cli::version_line, |args| {
        let problems = run(args).map_err(krb_cli::usage)?;
        anyhow::ensure!(problems == 0, "{problems} problems");
        Ok(())
    })
}

/// Runs the command: how many problems it printed. An error is the checkout's (exit 2).
fn run(args: Args) -> anyhow::Result<usize> {
    if let Command::Commands { lab, root } = &args.command {
        krb_docs::samples::lab_commands(root, lab)?
            .iter()
            .for_each(|c| stdout_line(c));
        return Ok(0);
    }
    let (Command::Write { root } | Command::Check { root } | Command::Commands { root, .. }) =
        &args.command;
    let me = std::env::current_exe().context("finding krb-docs' own folder")?;
    let bin = me.parent().context("krb-docs' own folder")?;
    let docs = Docs::read(root, Box::new(Runner::new(root, bin)), bin)?;
    let problems = match args.command {
        Command::Write { .. } => krb_docs::write(&docs).map(|(changed, problems)| {
            for page in changed {
                stdout_line(&format!("wrote {page}"));
            }
            problems
        }),
        Command::Check { .. } | Command::Commands { .. } => krb_docs::check(&docs),
    }?;
    for problem in &problems {
        stdout_line(&problem.to_string());
    }
    Ok(problems.len())
}
