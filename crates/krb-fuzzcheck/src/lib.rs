//! The checks the fuzz targets run (`fuzz/fuzz_targets/`, `scripts/fuzz.sh`), one module a
//! target, each `check(data: &[u8])`: it panics where the reader it feeds breaks a rule, and a
//! reader that panics is a finding too. The test command replays every file of
//! `fuzz/corpus/TARGET/` and `fuzz/regressions/TARGET/` through the same function
//! (`tests/corpus.rs`), so what the fuzzer grew and found is a regression suite that needs no
//! nightly compiler.
//!
//! Only crates without librdkafka are linked (krb-verify's and krb-room's without their `kafka`
//! feature), so that the targets' instrumented build stays short.

pub mod acks;
pub mod logline;
pub mod properties;
pub mod record;
pub mod table;
pub mod trial;

/// A file of this process for `target`'s bytes, one a thread: the replay test runs its targets
/// side by side.
fn scratch(target: &str) -> std::path::PathBuf {
    let thread = format!("{:?}", std::thread::current().id());
    let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
    let name = format!("krb-fuzz-{target}-{}-{thread}", std::process::id());
    std::env::temp_dir().join(name)
}

/// A target's check: it panics on a broken rule.
pub type Check = fn(&[u8]);

/// The fuzz targets, by name: the folder of each one's corpus and its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("logline", logline::check),
    ("acks", acks::check),
    ("trial", trial::check),
    ("properties", properties::check),
    ("record", record::check),
    ("table", table::check),
];
