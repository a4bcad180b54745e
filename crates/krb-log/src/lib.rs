//! The worker's log grammar and its readers, for every tool that analyses a lab: no librdkafka
//! here, so a tool that only reads logs (krb-dups, krb-timeline, krb-live) links no Kafka client.

pub mod decimal;
pub mod duration;
pub mod event_words;
pub mod fastpath;
pub mod logline;
pub mod overlap;
pub mod properties;
pub mod reader;
pub mod rendered_error;
pub mod stdout_lines;
pub mod trial_log;
pub mod worker_log;
