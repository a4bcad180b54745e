//! What a message's processing leaves behind, in a database a person can inspect: the effect the
//! article's last advice ("make the processing itself idempotent") is about.
//!
//! - `plain`: one row per processing, no key: a duplicate processing is a duplicate row, the
//!   at-least-once baseline where a business would see it.
//! - `idempotent`: the same row keyed by (topic, partition, offset), inserted or left as it is:
//!   a second processing of a message finds its row and changes nothing.
//! - `db-offsets`: Kafka's "store offsets outside Kafka": the row and the partition's next
//!   position in one transaction, the position moved only from where this worker read it, so a
//!   zombie's late transaction is refused and rolled back.
//!
//! The store is SQLite (built from source by rusqlite, so a fresh machine needs nothing) or
//! PostgreSQL, with the same SQL for both.

use anyhow::Result;
use clap::ValueEnum;
use krb_common::logline::{Offset, Partition};

mod db;
mod store;

pub use db::Db;

/// What processing a message does besides taking its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// Nothing: the article's labs, byte for byte.
    None,
    /// One row per processing, no key.
    Plain,
    /// One row per message: insert, or do nothing when it is there.
    Idempotent,
    /// A row and the partition's next position in one transaction; the worker starts where
    /// the database says.
    DbOffsets,
}

impl Kind {
    /// The table of the kind's effects, if it writes to a database.
    pub fn table(self) -> Option<&'static str> {
        match self {
            Kind::None => None,
            Kind::Plain => Some("krb_effects_plain"),
            Kind::Idempotent => Some("krb_effects_idempotent"),
            Kind::DbOffsets => Some("krb_effects_db_offsets"),
        }
    }
}

/// What applying an effect did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The row was written.
    Applied,
    /// The message's row was there already: nothing changed.
    AlreadyApplied,
    /// The partition's position in the database had moved on from where this worker read it
    /// (another worker owns it now): the transaction was rolled back.
    Refused,
}

/// One processed message, as its row holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: Partition,
    /// The offset.
    pub offset: Offset,
    /// The message's payload, as text.
    pub payload: String,
    /// The worker that processed it.
    pub worker: String,
    /// When, as the worker's log line writes it.
    pub at: String,
}

/// Whether a database URL names a PostgreSQL server (else an SQLite file).
pub fn is_postgres(url: &str) -> bool {
    matches!(store::target(url), Ok(store::Target::Postgres(_)))
}

/// The effects of `kind` for `topic` in krb-dups' report: duplicates are rows of one message.
pub fn report(db: &mut Db, kind: Kind, topic: &str) -> Result<krb_dups::Report> {
    let mut counts = krb_dups::Counts::new();
    for row in db.rows(kind, topic)? {
        counts.add(row.worker.as_bytes(), row.partition, row.offset);
    }
    Ok(krb_dups::analyse(&mut counts, None))
}
