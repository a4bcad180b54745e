//! Every file of `fuzz/corpus/TARGET/` through its target's check: the fuzzer's findings and the
//! crafted hostile inputs stay fixed without nightly (`cargo test`).

use std::path::Path;

#[test]
fn every_corpus_file_passes_its_targets_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    for (target, check) in krb_fuzzcheck::TARGETS {
        let dir = root.join(target);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a corpus entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no corpus in {}", dir.display());
        for file in files {
            let data = std::fs::read(&file).expect("a corpus file");
            let replay = std::panic::catch_unwind(|| check(&data));
            assert!(replay.is_ok(), "{target}: {} fails its check", file.display());
        }
    }
}

#[test]
fn every_target_has_a_fuzz_target_of_its_name() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/fuzz_targets");
    for (target, _) in krb_fuzzcheck::TARGETS {
        let file = targets.join(format!("{target}.rs"));
        assert!(file.is_file(), "{} is missing", file.display());
    }
}
