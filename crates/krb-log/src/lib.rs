//! The worker's log grammar and its readers, for every tool that analyses a lab: no librdkafka
//! here, so a tool that only reads logs (krb-dups, krb-timeline, krb-live) links no Kafka client.
//!
//! - [`logline`]: the worker's log grammar, written and parsed in one place.
//! - [`fastpath`]: completion lines read straight from bytes, held to the grammar.
//! - [`decimal`]: integers written into a line without a formatter.
//! - [`rendered_error`]: a Kafka error as the logs carry it (`KafkaError{code=...}`).
//! - [`event_words`]: a worker's events in a person's words, for the live view and the timeline.
//! - [`duration`]: a length of time in a person's words (`6 min 31 s`, `6분 31초`).
//! - [`reader`]: the one reader of log files, and a group's files.
//! - [`worker_log`]: a worker's log file read back, for the tools that analyse a lab.
//! - [`overlap`]: two consumers in one message at once (lab 2), found once for krb-verify and
//!   krb-timeline.
//! - [`properties`]: the librdkafka properties file (`--config`) parsed, as kcat reads it.
//! - [`trial_log`]: lab 7's acknowledgements and faults files, written and read in one place.

pub mod decimal;
pub mod duration;
pub mod event_words;
pub mod fastpath;
pub mod logline;
pub mod overlap;
pub mod properties;
pub mod reader;
pub mod rendered_error;
pub mod trial_log;
pub mod worker_log;
