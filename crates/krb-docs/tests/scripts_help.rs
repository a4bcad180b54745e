//! Every lab script answers --help and -h at once (no build, no broker wait) with its usage,
//! and exits 0.

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
    let mut command = Command::new(script);
    command
        .arg(arg)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        // Were --help taken for a group name, common.sh would build from an empty KRB_BIN.
        .env("KRB_BIN", "/nonexistent")
        .env("KRB_BOOTSTRAP", "localhost:1")
        .process_group(0);
    let started = Instant::now();
    let mut child = command.spawn().unwrap();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = String::new();
            std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
            return (out, status.code(), started.elapsed());
        }
        if started.elapsed() > limit {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            return (String::new(), None, started.elapsed());
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
