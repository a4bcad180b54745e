//! Every file of `fuzz/corpus/TARGET/` (what the fuzzer grew, minimized by `scripts/fuzz.sh`)
//! and of `fuzz/regressions/TARGET/` (crafted hostile inputs and the fuzzer's findings, which no
//! minimizing drops) through its target's check: they stay fixed without nightly (`cargo test`).

use std::path::Path;

#[test]
fn every_corpus_file_passes_its_targets_check() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut failed = Vec::new();
    for (target, check) in krb_fuzzcheck::TARGETS {
        for dir in ["corpus", "regressions"].map(|d| fuzz.join(d).join(target)) {
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|e| e.expect("a corpus entry").path())
                .collect();
            files.sort();
            assert!(!files.is_empty(), "no inputs in {}", dir.display());
            for file in files {
                let data = std::fs::read(&file).expect("a corpus file");
                if std::panic::catch_unwind(|| check(&data)).is_err() {
                    failed.push(file);
                }
            }
        }
    }
    assert!(
        failed.is_empty(),
        "inputs that fail their check: {failed:#?}"
    );
}

#[test]
fn every_target_has_a_fuzz_target_of_its_name() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/fuzz_targets");
    for (target, _) in krb_fuzzcheck::TARGETS {
        let file = targets.join(format!("{target}.rs"));
        assert!(file.is_file(), "{} is missing", file.display());
    }
}
