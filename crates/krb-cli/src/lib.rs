//! The krb tools' command lines and languages, shared by every tool, those that talk to Kafka
//! (through krb-kafka) and those that only read logs (through krb-log).
//!
//! - [`cli`]: command lines whose bad input is one line and exit 2.
//! - [`lang`]: English or Korean for what a person reads (`KRB_LANG`), and message tables.
//! - [`namespace`]: `KRB_NS`, many people's topics and groups apart on one broker.
//! - [`out`]: whole lines to stdout and stderr, each in one write.

pub mod cli;
pub mod lang;
pub mod namespace;
pub mod out;

/// Runs a tool's `main`: on error, prints `TOOL: error` on one line and exits with `code`.
pub fn exit_on_error(tool: &str, code: i32, result: anyhow::Result<()>) {
    if let Err(err) = result {
        out::stderr_line(&format!("{tool}: {err:#}"));
        std::process::exit(code);
    }
}
