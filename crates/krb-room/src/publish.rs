//! Records to the participant's topic in the room: each line as krb-verify wrote it. Every line
//! is read and checked before any is sent, so a file that is not records, or holds another
//! namespace's, publishes nothing. (That check spares a participant a mistake; what stops a
//! forgery is the page, which names a record's participant after its topic.) A line is checked
//! as the page checks it ([`crate::room::record`]): what the page would leave out is not sent.
//! A file is read as the logs are, a regular file only ([`krb_log::reader::open`]: a FIFO
//! would block, a device never end), and at most [`MAX_FILE`] of it.

use std::io::Read;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};

/// The records of `files` (stdin when there is none, or for `-`), in order, each the JSON line
/// as it was written; each must be namespace `ns`'s, or name none.
pub fn read(files: &[PathBuf], ns: &str) -> Result<Vec<String>> {
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut lines = Vec::new();
    for file in files {
        let (name, text) = if file.as_os_str() == "-" {
            let text = bounded(std::io::stdin().lock(), "records from stdin")
                .context("cannot read records from stdin")?;
            ("stdin".to_string(), text)
        } else {
            let name = file.display().to_string();
            let text = krb_log::reader::open(file)
                .map_err(anyhow::Error::from)
                .and_then(|f| bounded(f, &name))
                .with_context(|| format!("cannot read {}", file.display()))?;
            (name, text)
        };
        lines.extend(parse(&name, &text, ns)?);
    }
    Ok(lines)
}

/// The most of a file of records read: a participant's records of every variant the room
/// keeps, at the most each may weigh.
pub const MAX_FILE: u64 = (crate::room::MAX_VARIANTS * crate::room::MAX_RECORD) as u64;

/// The text of `from`, refused past [`MAX_FILE`] bytes; `name` names it in the error.
fn bounded(from: impl Read, name: &str) -> Result<String> {
    let mut bytes = Vec::new();
    from.take(MAX_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE {
        bail!(
            "{name} is over {} MB: records of a lab run are a few KB each",
            MAX_FILE >> 20
        );
    }
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{name} is not UTF-8 text"))
}

/// The records of one file's text, namespace `ns`'s; `name` names the file in the error of a
/// line that is not one.
pub fn parse(name: &str, text: &str, ns: &str) -> Result<Vec<String>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let at = format!("{name}:{}", i + 1);
            let record = crate::room::record(l.trim().as_bytes()).map_err(|why| {
                anyhow::anyhow!(
                    "{at}: not a lab record (a JSON line of krb-verify --record: {why}); nothing published"
                )
            })?;
            if let Some(other) = record.namespace.as_deref().filter(|o| *o != ns) {
                bail!(
                    "{at}: a record of namespace {}, not yours ({ns}); nothing published: \
                     publish your own runs' records",
                    crate::room::shortened(other, crate::room::MAX_NAME)
                );
            }
            Ok(l.trim().to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str = r#"{"seconds":9.5,"status":"error","lab":1,"name":"revoke","variant":"nocommit","reason":"no broker","namespace":"alice"}"#;

    #[test]
    fn lines_keep_their_text() {
        let without = RECORD.replace(r#","namespace":"alice""#, "");
        let text = format!("{RECORD}\n\n  {without}\n");
        let lines = parse("r.jsonl", &text, "alice").unwrap();
        assert_eq!(lines, vec![RECORD.to_string(), without]);
    }

    #[test]
    fn a_line_that_is_not_a_record_publishes_nothing_and_is_named() {
        let text = format!("{RECORD}\n{{\"lab\":1}}\n");
        let err = format!("{:#}", parse("r.jsonl", &text, "alice").unwrap_err());
        assert!(
            err.starts_with("r.jsonl:2: not a lab record") && err.contains("nothing published"),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");
    }

    /// A namespace is a participant's text: said escaped, never raw to the terminal (the fuzz
    /// target `record` found it quoted whole).
    #[test]
    fn another_namespace_is_named_escaped() {
        let text = RECORD.replace("alice", r"bob\u001b[2J\n");
        let err = format!("{:#}", parse("r.jsonl", &text, "alice").unwrap_err());
        assert!(
            err.contains(r"namespace bob\u{1b}[2J\n, not yours"),
            "{err:?}"
        );
    }

    #[test]
    fn another_namespaces_record_publishes_nothing() {
        let text = format!("{}\n{RECORD}\n", RECORD.replace("alice", "bob"));
        let err = format!("{:#}", parse("r.jsonl", &text, "bob").unwrap_err());
        assert_eq!(
            err,
            "r.jsonl:2: a record of namespace alice, not yours (bob); nothing published: \
             publish your own runs' records"
        );
    }
}
