//! The first build, as `source scripts/common.sh` runs it when the tools are not there: it says
//! how far it is, and a build that fails, or a machine without cargo, stops the learner at once
//! with the cause (sourcing fails), never at a later `krb-topic: command not found`. A `cargo`
//! of the test's own stands in for the real one: no broker and no build are needed.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use anyhow::{ensure, Context, Result};
use krb_e2e::{root, said};
use krb_testutil::scratch_dir;

/// Sources common.sh with KRB_BIN an empty folder (so it builds) and `path` as PATH, then runs
/// `topic`, as a learner would next; the status and what it printed.
fn source_then_topic(dir: &Path, path: &str, lang: &str) -> Result<(bool, String)> {
    let out = Command::new("/bin/bash")
        .arg("-c")
        .arg("source scripts/common.sh || exit 7; topic pay 2")
        .current_dir(root())
        .env("PATH", path)
        .env("KRB_BIN", dir.join("bin"))
        .env("KRB_LOGS", dir.join("logs"))
        .env("KRB_LANG", lang)
        .output()
        .context("cannot run bash")?;
    let text = said(&out);
    Ok((out.status.code() == Some(7), text))
}

/// A folder holding a `cargo` that compiles 30 crates, then fails as rustc does.
fn failing_cargo(dir: &Path) -> Result<String> {
    let fake = dir.join("fake");
    std::fs::create_dir_all(&fake)?;
    let cargo = fake.join("cargo");
    std::fs::write(
        &cargo,
        "#!/bin/sh\nfor i in $(seq 1 30); do echo \"   Compiling crate$i v0.1.0\" >&2; done\n\
         echo 'error[E0425]: cannot find value `x` in this scope' >&2\n\
         echo ' --> crates/krb-topic/src/lib.rs:1:1' >&2\nexit 101\n",
    )?;
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755))?;
    Ok(fake.display().to_string())
}

#[test]
fn a_failed_build_stops_sourcing_with_its_errors_and_its_progress() -> Result<()> {
    let dir = scratch_dir("build-fails", &[] as &[(&str, &str)]);
    let path = format!("{}:/usr/bin:/bin", failing_cargo(&dir)?);
    let (stopped, text) = source_then_topic(&dir, &path, "en")?;
    ensure!(stopped, "sourcing went on after a failed build:\n{text}");
    for expected in [
        "building the krb tools (cargo build --release) ...",
        "1 crates compiled",
        "26 crates compiled",
        "the build failed (cargo build --release, exit 101); its errors:",
        "error[E0425]: cannot find value `x` in this scope",
        "common.sh: the krb tools are not there; fix the cause above",
    ] {
        ensure!(text.contains(expected), "no {expected:?} in:\n{text}");
    }
    ensure!(!text.contains("command not found"), "{text}");
    let log = std::fs::read_to_string(dir.join("logs/build.log"))?;
    ensure!(log.contains("error[E0425]"), "the build's log: {log}");

    // lab.sh builds the same way and stops before it looks for a broker.
    let out = Command::new("/bin/bash")
        .arg("scripts/lab.sh")
        .current_dir(root())
        .env("PATH", &path)
        .env("KRB_LOGS", dir.join("lab"))
        .env("KRB_LANG", "en")
        .env_remove("KRB_BIN")
        .output()?;
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    ensure!(out.status.code() == Some(1), "{text}");
    for expected in [
        "build: cargo build --release ... 1 crates compiled",
        "error[E0425]: cannot find value `x` in this scope",
    ] {
        ensure!(text.contains(expected), "no {expected:?} in:\n{text}");
    }
    ensure!(!text.contains("broker:"), "{text}");

    let (stopped, text) = source_then_topic(&dir, &path, "ko")?;
    ensure!(stopped, "{text}");
    for expected in [
        "krb 도구를 빌드하는 중",
        "crate 1개 컴파일",
        "빌드 실패",
        "common.sh: krb 도구가 없습니다",
    ] {
        ensure!(text.contains(expected), "no {expected:?} in:\n{text}");
    }
    Ok(())
}

#[test]
fn no_cargo_stops_sourcing_naming_rust_and_the_release() -> Result<()> {
    let dir = scratch_dir("build-nocargo", &[] as &[(&str, &str)]);
    let (stopped, text) = source_then_topic(&dir, "/usr/bin:/bin", "en")?;
    ensure!(stopped, "sourcing went on without cargo:\n{text}");
    ensure!(
        text.contains(
            "there is no cargo: install Rust 1.85 or newer (rustup), or use the release tarball"
        ),
        "{text}"
    );
    ensure!(!text.contains("command not found"), "{text}");
    Ok(())
}
