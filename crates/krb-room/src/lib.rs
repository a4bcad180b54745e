//! krb-room: a workshop room's results on one screen (the command, `src/main.rs`, says how).
//! Kafka is the transport, so the room needs nothing the labs do not.

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
