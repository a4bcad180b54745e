//! A fresh folder of files, for the tests of every crate that reads logs.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// Makes a new folder under the system's temporary folder, named for `what`, this process and a
/// counter (so tests running at once never share one), and writes `files` (name, content) in
/// it. Panics on failure: it serves tests.
pub fn scratch_dir<C: AsRef<[u8]>>(what: &str, files: &[(&str, C)]) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "krb-{what}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    for (name, content) in files {
        std::fs::write(dir.join(name), content).expect("a scratch file");
    }
    dir
}
