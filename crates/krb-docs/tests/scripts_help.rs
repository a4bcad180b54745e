//! Every lab script answers --help and -h at once (no build, no broker wait) with its usage,
//! and exits 0; a wrong command line, at once too, with what was wrong and its usage on stderr
//! in the tools' language, and exit status 2.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The lab scripts: scripts/0*.sh and lab.sh.
fn lab_scripts() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(root().join("scripts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name.starts_with('0') && name.ends_with(".sh")) || name == "lab.sh"
        })
        .collect();
    found.sort();
    found
}

/// Runs `script arg` with no KRB_* and no built tools in sight; kills it (and what it started)
/// after `limit`. (stdout, exit code, how long).
fn run(script: &Path, arg: &str, limit: Duration) -> (String, Option<i32>, Duration) {
    let (out, _, code, took) = run_in(script, &[arg], None, limit);
    (out, code, took)
}

/// Runs `script args` as [`run`] does, in language `lang` (KRB_LANG) when given. (stdout,
/// stderr, exit code, how long).
fn run_in(
    script: &Path,
    args: &[&str],
    lang: Option<&str>,
    limit: Duration,
) -> (String, String, Option<i32>, Duration) {
    let mut command = Command::new(script);
    if let Some(lang) = lang {
        command.env("KRB_LANG", lang);
    }
    command
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Were --help taken for a group name, common.sh would build from an empty KRB_BIN.
        .env("KRB_BIN", "/nonexistent")
        .env("KRB_BOOTSTRAP", "localhost:1")
        .process_group(0);
    let started = Instant::now();
    let mut child = command.spawn().unwrap();
    // Read while it runs: a script that fills a pipe would never exit.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let took = started.elapsed();
            return (
                out.join().unwrap(),
                err.join().unwrap(),
                status.code(),
                took,
            );
        }
        if started.elapsed() > limit {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            return (String::new(), String::new(), None, started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn every_lab_script_answers_help_at_once_with_its_usage() {
    let scripts = lab_scripts();
    assert!(scripts.len() >= 8, "{scripts:?}");
    for script in &scripts {
        let name = script.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(script).unwrap();
        // The usage: the header comment's first line, or lab.sh's own usage line.
        let first = match name.as_str() {
            "lab.sh" => "usage: scripts/lab.sh".to_string(),
            _ => text
                .lines()
                .nth(1)
                .unwrap()
                .trim_start_matches("# ")
                .to_string(),
        };
        for arg in ["--help", "-h"] {
            let (out, code, took) = run(script, arg, Duration::from_secs(5));
            assert_eq!(code, Some(0), "{name} {arg}: exit {code:?} after {took:?}");
            assert!(took < Duration::from_secs(2), "{name} {arg} took {took:?}");
            assert!(out.starts_with(&first), "{name} {arg} printed:\n{out}");
            assert!(
                out.contains(&name),
                "{name} {arg}: no usage line naming it:\n{out}"
            );
        }
    }
}

/// A wrong command line of each lab script and of the teacher's scripts (lab 2's takes any).
const WRONG: &[(&str, &[&str])] = &[
    ("01-revoke.sh", &[]),
    ("03-assignor.sh", &["g", "--assignor", "eager"]),
    ("04-static.sh", &["g", "--dynamic"]),
    ("05-protocol.sh", &["g", "--protocol"]),
    ("06-idempotent.sh", &["g"]),
    ("07-faults.sh", &["--trials", "five"]),
    ("08-share.sh", &["--scenario", "drop"]),
    ("09-deploy.sh", &["--bogus"]),
    // Before common.sh builds anything: a row name no row has, none at all, an unknown engine.
    ("09-deploy.sh", &["--only", "range,eager"]),
    ("09-deploy.sh", &["--only", " , "]),
    ("09-deploy.sh", &["--engine", "go"]),
    ("lab.sh", &["--only", "7"]),
    ("pg-local.sh", &["begin"]),
    ("room.sh", &["open"]),
    ("judge.sh", &["--engine", "python"]),
];

fn hangul(text: &str) -> bool {
    text.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c))
}

#[test]
fn a_wrong_command_line_says_what_is_wrong_and_the_usage_in_the_learners_language_and_exits_2() {
    for script in lab_scripts() {
        let name = script.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name == "02-maxpoll.sh" || WRONG.iter().any(|(n, _)| *n == name),
            "{name} has no wrong command line in this test"
        );
    }
    for (name, args) in WRONG {
        let script = root().join("scripts").join(name);
        let shown = if *name == "lab.sh" {
            "scripts/lab.sh".to_string()
        } else {
            name.to_string()
        };
        for (lang, usage) in [("ko", "사용법: "), ("en", "usage: ")] {
            let what = format!("KRB_LANG={lang} {name} {}", args.join(" "));
            let (out, err, code, took) = run_in(&script, args, Some(lang), Duration::from_secs(5));
            assert_eq!(
                code,
                Some(2),
                "{what}: exit {code:?} after {took:?}:\n{err}"
            );
            assert!(took < Duration::from_secs(2), "{what} took {took:?}");
            assert_eq!(out, "", "{what} printed on stdout");
            let lines: Vec<&str> = err.lines().collect();
            assert!(
                (1..=2).contains(&lines.len()),
                "{what}: not what was wrong and the usage:\n{err}"
            );
            let last = lines[lines.len() - 1];
            assert!(
                last.starts_with(&format!("{usage}{shown} ")),
                "{what}: the last line is not its usage:\n{err}"
            );
            // Each line in the language asked for: bash's own `line 1: ...` is neither.
            for line in &lines {
                assert_eq!(hangul(line), lang == "ko", "{what}: {line:?}");
            }
        }
    }
}
