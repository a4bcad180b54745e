//! The tools the docs run (krb-dups, krb-verify, krb-timeline, krb-trial), from the release
//! build of the workspace, made (or found up to date) with the very command scripts/test.sh
//! and scripts/samples.sh run, so that no other set of features builds librdkafka again.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The release folder of the workspace's tools, built now if they are not up to date.
pub fn built() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        // target/debug/deps/TEST: the target directory is three folders up.
        let me = std::env::current_exe().expect("the test's own path");
        let target = me.ancestors().nth(3).expect("a target directory");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--release", "--quiet"])
            .env("CARGO_TARGET_DIR", target)
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cargo build --release failed");
        target.join("release")
    })
    .clone()
}
