//! Whole lines to stdout and stderr, and paths as a person is shown them.
//!
//! `start` sends a worker's stdout and stderr to one file. `writeln!` hands a line and its
//! newline to the writer in two pieces, and unbuffered stderr passes each piece on as a write of
//! its own, so another thread's line can land between them and be glued onto this one. A line
//! written here reaches the file in one write: appends of one write are never interleaved.

use std::io::{self, Write};
use std::path::Path;

/// Writes `line` and a newline to `w` as one buffer, then flushes.
pub fn write_line(w: &mut impl Write, line: &str) -> io::Result<()> {
    w.write_all(format!("{line}\n").as_bytes())?;
    w.flush()
}

/// One line to stdout in one write; a closed pipe is not an error.
pub fn stdout_line(line: &str) {
    let _ = write_line(&mut io::stdout().lock(), line);
}

/// One line to stderr in one write.
pub fn stderr_line(line: &str) {
    let _ = write_line(&mut io::stderr().lock(), line);
}

/// `path` as a person is shown it: relative to the current folder where it lies under it
/// (`logs/nocommit.svg`, as the pages show it, though common.sh hands the tools an absolute
/// logs folder), else as it is.
pub fn shown(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|here| path.strip_prefix(here).ok().map(Path::to_path_buf))
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_path_under_the_current_folder_is_shown_from_it() {
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            super::shown(&here.join("logs/nocommit.svg")),
            "logs/nocommit.svg"
        );
        assert_eq!(
            super::shown(Path::new("/elsewhere/x.svg")),
            "/elsewhere/x.svg"
        );
        assert_eq!(super::shown(Path::new("logs/x.svg")), "logs/x.svg");
        assert_eq!(super::shown(&here), here.display().to_string());
    }

    use super::*;

    /// Records each write call the writer receives.
    #[derive(Default)]
    struct Calls(Vec<Vec<u8>>);

    impl Write for Calls {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_line_and_its_newline_are_one_write() {
        let mut w = Calls::default();
        write_line(&mut w, "09:13:29.854 nocommit-a p1 offset 481").unwrap();
        write_line(&mut w, "%4|1790813686.528|MAXPOLL|slow-a#consumer-1| x").unwrap();
        assert_eq!(
            w.0,
            vec![
                b"09:13:29.854 nocommit-a p1 offset 481\n".to_vec(),
                b"%4|1790813686.528|MAXPOLL|slow-a#consumer-1| x\n".to_vec()
            ]
        );
        // What the code did before: writeln! hands the newline over separately.
        let mut glued = Calls::default();
        let line = String::from("a line");
        writeln!(glued, "{line}").unwrap();
        assert_eq!(glued.0.len(), 2);
    }
}
