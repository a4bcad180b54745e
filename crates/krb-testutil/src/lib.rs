//! Helpers for the tests of the krb crates (a dev-dependency only, never in a tool): a fresh
//! folder of files, for the tests of every crate that reads logs.

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// A folder made for one test, deleted with everything in it when dropped: hold it as long as
/// its files are read (`let dir = scratch_dir(...)`, not a temporary).
#[derive(Debug)]
#[must_use = "the folder is deleted when this is dropped"]
pub struct Scratch(PathBuf);

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<OsStr> for Scratch {
    fn as_ref(&self) -> &OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // A test that failed leaves nothing to look at; a folder already gone is no error.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Makes a new folder under the system's temporary folder, named for `what`, this process and a
/// counter (so tests running at once never share one), and writes `files` (name, content) in
/// it. Panics on failure: it serves tests.
pub fn scratch_dir<C: AsRef<[u8]>>(what: &str, files: &[(&str, C)]) -> Scratch {
    static N: AtomicU32 = AtomicU32::new(0);
    let (pid, n) = (std::process::id(), N.fetch_add(1, Ordering::Relaxed));
    let dir = std::env::temp_dir().join(format!("krb-{what}-{pid}-{n}"));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    for (name, content) in files {
        std::fs::write(dir.join(name), content).expect("a scratch file");
    }
    Scratch(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_holds_its_files_and_is_gone_when_dropped() {
        let dir = scratch_dir("testutil", &[("a.log", "x\n")]);
        let path = dir.to_path_buf();
        assert_eq!(std::fs::read_to_string(path.join("a.log")).unwrap(), "x\n");
        std::fs::create_dir(path.join("sub")).unwrap();
        drop(dir);
        assert!(!path.exists(), "{} is left behind", path.display());
    }
}
