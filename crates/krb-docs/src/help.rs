//! The tools' `--help`, had by running them: a binary from krb-docs' own folder (a release
//! build's target/release), a script as ROOT/scripts/X.sh.

use std::cell::RefCell;
use std::collections::HashMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::Helps;

/// How long a `--help` may take before it is killed: a script that does not answer it at once
/// would build the tools or wait for a broker.
const LIMIT: Duration = Duration::from_secs(20);

/// Runs `TOOL --help` and keeps each answer.
pub struct Runner {
    root: PathBuf,
    bin: PathBuf,
    answers: RefCell<HashMap<String, Result<String, String>>>,
}

impl Runner {
    /// Binaries from `bin`, scripts from `root/scripts`.
    pub fn new(root: &Path, bin: &Path) -> Runner {
        Runner {
            root: root.to_path_buf(),
            bin: bin.to_path_buf(),
            answers: RefCell::new(HashMap::new()),
        }
    }

    fn run(&self, tool: &str) -> Result<String, String> {
        let mut words = tool.split_whitespace();
        let first = words
            .next()
            .ok_or("an empty tool name; write krb:help TOOL")?;
        let program = if first.starts_with("scripts/") && first.ends_with(".sh") {
            let path = self.root.join(first);
            let text = std::fs::read_to_string(&path)
                .map_err(|_| format!("no script {first}; name one of scripts/*.sh"))?;
            // Any other script would run for real.
            if !text.contains("usage.sh") && !text.contains("--help)") {
                return Err(format!(
                    "{first} does not answer --help; source scripts/usage.sh in it as the labs do"
                ));
            }
            path
        } else if first.starts_with("krb-")
            && first.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            let path = self.bin.join(first);
            if !path.is_file() {
                return Err(format!(
                    "no {first} in {}; build the tools (cargo build --release), or name a krb tool",
                    self.bin.display()
                ));
            }
            path
        } else {
            return Err(format!(
                "{first} is neither a krb tool nor scripts/X.sh; write krb:help krb-TOOL or krb:help scripts/X.sh"
            ));
        };
        // A script goes through bash, not exec: a test that has just written it would otherwise
        // race every fork of the other test threads holding it open (ETXTBSY).
        let script = first.ends_with(".sh").then_some(&program);
        let mut command = Command::new(script.map_or(program.as_path(), |_| Path::new("bash")));
        command
            .args(script)
            .args(words)
            .arg("--help")
            .current_dir(&self.root)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        // The help is the same for everyone: no KRB_* of this shell in it.
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("KRB_") {
                command.env_remove(name);
            }
        }
        let child = command
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
        let pid = child.id();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(child.wait_with_output());
        });
        match rx.recv_timeout(LIMIT) {
            Ok(Ok(out)) if out.status.success() => {
                Ok(String::from_utf8_lossy(&out.stdout).into_owned())
            }
            Ok(Ok(out)) => Err(format!(
                "`{tool} --help` failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .next()
                    .unwrap_or("")
            )),
            Ok(Err(e)) => Err(format!("`{tool} --help`: {e}")),
            Err(_) => {
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{pid}")])
                    .status();
                Err(format!(
                    "`{tool} --help` did not finish within {} s (killed); make it answer --help at once",
                    LIMIT.as_secs()
                ))
            }
        }
    }
}

impl Helps for Runner {
    fn help(&self, tool: &str) -> Result<String, String> {
        let tool = tool.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut answers = self.answers.borrow_mut();
        answers
            .entry(tool)
            .or_insert_with_key(|tool| self.run(tool))
            .clone()
    }
}
