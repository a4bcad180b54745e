//! The build's check of the vendored tree, on a copy made here: each difference is one line
//! naming the file.

#[path = "../build/tree.rs"]
mod tree;

use std::fs;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krb-tree-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::write(
        dir.join("src/rdkafka.h"),
        "#define RD_KAFKA_VERSION 0x020f00ff\n",
    )
    .unwrap();
    fs::write(dir.join("LICENSE"), "BSD\n").unwrap();
    dir
}

// A list in sha256sum's form whose sums are not those of the files above.
const SUMS: &str = "\
e4d5ac5330bb1e21ac6deaf17ad8f9e85c4a1dcb6dfd16c8e09ac91c7c9ebb77  LICENSE
5a2b1d5d79c2d9bd86b6d9ea5b2da1a1c2bb7e6e3b93b68a1a7fa9e7f5b8a3c0  src/rdkafka.h
";

fn sums(dir: &std::path::Path) -> String {
    let out = std::process::Command::new("sha256sum")
        .current_dir(dir)
        .args(["LICENSE", "src/rdkafka.h"])
        .output()
        .expect("sha256sum (coreutils)");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_vendored_tree_itself_passes() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vendor");
    let sums = fs::read_to_string(root.join("librdkafka.sha256")).unwrap();
    tree::check(&root.join("librdkafka"), "vendor/librdkafka", &sums).unwrap();
}

#[test]
fn an_intact_copy_passes_and_a_wrong_list_does_not() {
    let dir = scratch("intact");
    tree::check(&dir, "t", &sums(&dir)).unwrap();
    let err = tree::check(&dir, "t", SUMS).unwrap_err();
    assert!(
        err.starts_with("t/LICENSE differs") || err.starts_with("t/src/rdkafka.h differs"),
        "{err}"
    );
    assert!(!err.contains('\n'), "{err}");
}

#[test]
fn an_altered_file_is_named() {
    let dir = scratch("altered");
    let listed = sums(&dir);
    fs::write(dir.join("LICENSE"), "BSD, changed\n").unwrap();
    let err = tree::check(&dir, "t", &listed).unwrap_err();
    assert!(
        err.starts_with("t/LICENSE differs from the vendored release"),
        "{err}"
    );
    assert!(err.contains("git checkout -- vendor/librdkafka"), "{err}");
}

#[test]
fn a_missing_file_is_named() {
    let dir = scratch("missing");
    let listed = sums(&dir);
    fs::remove_file(dir.join("LICENSE")).unwrap();
    let err = tree::check(&dir, "t", &listed).unwrap_err();
    assert!(err.starts_with("t/LICENSE cannot be read"), "{err}");
}

#[test]
fn a_missing_tree_is_named() {
    let dir = scratch("gone");
    let listed = sums(&dir);
    fs::remove_dir_all(&dir).unwrap();
    let err = tree::check(&dir, "t", &listed).unwrap_err();
    assert!(err.starts_with("t/src/rdkafka.h is missing"), "{err}");
}

#[test]
fn an_added_file_is_named() {
    let dir = scratch("added");
    let listed = sums(&dir);
    fs::write(dir.join("src/extra.c"), "int x;\n").unwrap();
    let err = tree::check(&dir, "t", &listed).unwrap_err();
    assert!(
        err.starts_with("t/src/extra.c is not part of the vendored release"),
        "{err}"
    );
}

#[test]
fn a_list_that_is_not_sha256sum_output_is_refused() {
    let dir = scratch("badlist");
    let err = tree::check(&dir, "t", "nonsense\n").unwrap_err();
    assert!(
        err.starts_with("line 1 of the sha256 list of t is not"),
        "{err}"
    );
    let err = tree::check(&dir, "t", "").unwrap_err();
    assert!(err.contains("is empty"), "{err}");
}
