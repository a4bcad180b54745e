//! krb-room: a workshop room's results on one screen.
//!
//! Each participant's lab command publishes every variant's record (the JSON line
//! `krb-verify --record` writes) to a topic of their own on the room's broker,
//! `NS-krb-room-ROOM`, under their namespace; the teacher's command reads every such topic from
//! its beginning and serves one page: who is at which lab, each variant held or failed, and the
//! spread of the numbers that vary from run to run, as krb-verify computed them. A record's
//! participant is its topic's namespace, never what the record says: in a room with logins only
//! that participant may write the topic. Kafka is the transport, so the room needs nothing the
//! labs do not.
//!
//! - [`topic`]: the room's name, a participant's topic (created when missing) and its owner.
//! - [`publish`]: records from files or stdin to the participant's topic.
//! - [`room`]: the records read so far, by participant, and the ones that were not records.
//! - [`follow`]: the reader of the room's topics, which fills a [`room::Room`] as records arrive.
//! - [`spread`]: one number across the room as a picture (inline SVG).
//! - [`page`]: the page; [`messages`]: its words, in English and Korean (`KRB_LANG=ko`).
//! - [`server`]: the page over HTTP (axum on tokio).
//!
//! The command (`krb-room publish`, `krb-room serve`) is the binary's, `src/main.rs`.

#[cfg(feature = "kafka")]
pub mod follow;
pub mod messages;
pub mod page;
pub mod publish;
pub mod room;
#[cfg(feature = "kafka")]
pub mod server;
pub mod spread;
#[cfg(feature = "kafka")]
pub mod topic;
