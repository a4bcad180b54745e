//! The vendored librdkafka against its list of sha256 sums: the build compiles only the tree
//! that was vendored, and a file missing, altered or added is named before anything compiles.

use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// What to do about any difference: the tree comes back from git, or is vendored again.
pub const FIX: &str = "restore it with `git checkout -- vendor/librdkafka vendor/librdkafka.sha256`, or vendor a release again with scripts/vendor-librdkafka.sh";

/// Checks every file of `tree` (shown as `shown`, e.g. `vendor/librdkafka`) against `sums`, the
/// text of a `sha256sum` listing of the tree. The error is one line naming the first file that
/// differs and what to do.
pub fn check(tree: &Path, shown: &str, sums: &str) -> Result<(), String> {
    if !tree.join("src/rdkafka.h").is_file() {
        return Err(format!(
            "{shown}/src/rdkafka.h is missing: the vendored librdkafka is not there; {FIX}"
        ));
    }
    let mut listed = BTreeSet::new();
    for (n, line) in sums.lines().enumerate() {
        let Some((sum, name)) = line.split_once("  ") else {
            return Err(format!(
                "line {} of the sha256 list of {shown} is not `SHA256  FILE`: {line:?}; {FIX}",
                n + 1
            ));
        };
        let path = tree.join(name);
        let bytes =
            fs::read(&path).map_err(|e| format!("{shown}/{name} cannot be read ({e}); {FIX}"))?;
        if hex(&Sha256::digest(&bytes)) != sum {
            return Err(format!(
                "{shown}/{name} differs from the vendored release (its sha256 is not the listed one); {FIX}"
            ));
        }
        listed.insert(name.to_string());
    }
    if listed.is_empty() {
        return Err(format!("the sha256 list of {shown} is empty; {FIX}"));
    }
    let mut found = Vec::new();
    files(tree, "", &mut found).map_err(|e| format!("{shown} cannot be listed ({e}); {FIX}"))?;
    if let Some(extra) = found.iter().find(|name| !listed.contains(*name)) {
        return Err(format!(
            "{shown}/{extra} is not part of the vendored release; remove it, or {FIX}"
        ));
    }
    Ok(())
}

fn files(dir: &Path, prefix: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type()?.is_dir() {
            files(&entry.path(), &format!("{name}/"), out)?;
        } else {
            out.push(name);
        }
    }
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
