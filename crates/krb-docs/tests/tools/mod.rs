//! The tools the docs run (krb-dups, krb-verify, krb-timeline, krb-trial), built once by
//! release, as scripts/test.sh and scripts/samples.sh build them: a test of krb-docs reaches
//! them in the release folder of its own target directory.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The tools the snapshot cases and the samples' check run.
pub const TOOLS: &[&str] = &["krb-dups", "krb-verify", "krb-timeline", "krb-trial"];

/// The release folder holding [`TOOLS`], built now if they are not up to date.
pub fn built() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        // target/debug/deps/TEST: the target directory is three folders up.
        let me = std::env::current_exe().expect("the test's own path");
        let target = me.ancestors().nth(3).expect("a target directory");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "--release", "--quiet"]);
        for tool in TOOLS {
            build.args(["-p", tool]);
        }
        let status = build
            .env("CARGO_TARGET_DIR", target)
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cargo build --release of {TOOLS:?} failed");
        target.join("release")
    })
    .clone()
}
