//! What the krb tools share.
//!
//! - [`logline`]: the worker's log grammar, written and parsed in one place.
//! - [`fastpath`]: completion lines read straight from bytes, held to the grammar.
//! - [`broker`]: the broker address (`--bootstrap`, `KRB_BOOTSTRAP`, `localhost:9481`) and `-X`.
//! - [`cli`]: command lines whose bad input is one line and exit 2.
//! - [`group`]: the assignors and group protocols, named once.
//! - [`groups`]: the broker's consumer groups now (classic and KIP-848): members, partitions,
//!   committed offsets, through librdkafka's admin API (the crate's only `unsafe`).
//! - [`kafka_error`]: Kafka errors rendered as the article shows them.
//! - [`event_words`]: a worker's events in a person's words, for the live view and the timeline.
//! - [`duration`]: a length of time in a person's words (`6 min 31 s`, `6분 31초`).
//! - [`lang`]: English or Korean for what a person reads (`KRB_LANG`), and message tables.
//! - [`readers`]: which groups with live members read a topic (what krb-topic will not delete).
//! - [`overlap`]: two consumers in one message at once (lab 2), found once.
//! - [`namespace`]: `KRB_NS`, many people's topics and groups apart on one broker.
//! - [`out`]: whole lines to stdout and stderr, each in one write.
//! - [`rdlog`]: librdkafka's own log lines, printed live in librdkafka's format.
//! - [`reader`]: the one reader of log files, and a group's files.
//! - [`scratch`]: a fresh folder of files, for tests.
//! - [`trial_log`]: lab 7's acknowledgements and faults files, written and read in one place.
//! - [`worker_log`]: a worker's log file read back, for the tools that analyse a lab.

pub mod broker;
pub mod cli;
pub mod conf_file;
pub mod decimal;
pub mod duration;
pub mod event_words;
pub mod fastpath;
pub mod group;
pub mod groups;
pub mod kafka_error;
pub mod lang;
pub mod logline;
pub mod namespace;
pub mod out;
pub mod overlap;
pub mod rdlog;
pub mod reader;
pub mod readers;
pub mod scratch;
pub mod signals;
pub mod trial_log;
pub mod worker_log;

/// Runs a tool's `main`: on error, prints `TOOL: error` on one line and exits with `code`.
pub fn exit_on_error(tool: &str, code: i32, result: anyhow::Result<()>) {
    if let Err(err) = result {
        out::stderr_line(&format!("{tool}: {err:#}"));
        std::process::exit(code);
    }
}
