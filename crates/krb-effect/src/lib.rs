//! What a message's processing leaves behind, in a database a person can inspect: the effect the
//! article's last advice ("make the processing itself idempotent") is about.
//!
//! - `plain`: one row per processing, no key: a duplicate processing is a duplicate row, the
//!   at-least-once baseline where a business would see it.
//! - `idempotent`: the same row keyed by (topic, partition, offset), inserted or left as it is:
//!   a second processing of a message finds its row and changes nothing.
//!
//! SQLite is the store (built from source by rusqlite, so a fresh machine needs nothing); the
//! SQL is the subset PostgreSQL shares (`INSERT ... ON CONFLICT DO NOTHING`).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use krb_common::logline::{Offset, Partition};
use rusqlite::{params, Connection, OptionalExtension};

/// What processing a message does besides taking its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// Nothing: the article's labs, byte for byte.
    None,
    /// One row per processing, no key.
    Plain,
    /// One row per message: insert, or do nothing when it is there.
    Idempotent,
}

impl Kind {
    /// The table the kind writes.
    pub fn table(self) -> Option<&'static str> {
        match self {
            Kind::None => None,
            Kind::Plain => Some("krb_effects_plain"),
            Kind::Idempotent => Some("krb_effects"),
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

/// A database of effects.
pub struct Db {
    conn: Connection,
    url: String,
}

/// The SQLite file a URL names: `sqlite:PATH` or a bare path ending in `.db`.
pub fn sqlite_path(url: &str) -> Result<PathBuf> {
    if let Some(path) = url.strip_prefix("sqlite:") {
        if path.is_empty() {
            bail!("the database URL {url:?} names no file: use sqlite:PATH, e.g. sqlite:logs/effects.db");
        }
        return Ok(PathBuf::from(path));
    }
    if url.ends_with(".db") && !url.contains("://") {
        return Ok(PathBuf::from(url));
    }
    bail!("the database URL {url:?} is not one krb reads: use sqlite:PATH, e.g. sqlite:logs/effects.db")
}

impl Db {
    /// Opens the database at `url`; the file must exist (`krb-effects init` makes it).
    pub fn open(url: &str) -> Result<Db> {
        let path = sqlite_path(url)?;
        if !path.exists() {
            bail!(
                "no database {}: create it first with krb-effects init {url}",
                path.display()
            );
        }
        let conn = Connection::open(&path)
            .with_context(|| format!("cannot open the database {}", path.display()))?;
        // Two workers write one file: wait for the other's write instead of failing at once.
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .context("cannot set the database's busy timeout")?;
        Ok(Db {
            conn,
            url: url.to_string(),
        })
    }

    /// Makes the database and its tables (empty; any rows of an earlier run are removed).
    pub fn init(url: &str) -> Result<Db> {
        let path = sqlite_path(url)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot make the folder {}", dir.display()))?;
        }
        let conn = Connection::open(&path)
            .with_context(|| format!("cannot make the database {}", path.display()))?;
        conn.execute_batch(
            "DROP TABLE IF EXISTS krb_effects_plain;
             DROP TABLE IF EXISTS krb_effects;
             CREATE TABLE krb_effects_plain (topic TEXT NOT NULL, partition INTEGER NOT NULL,
               \"offset\" BIGINT NOT NULL, payload TEXT NOT NULL, worker TEXT NOT NULL, at TEXT NOT NULL);
             CREATE TABLE krb_effects (topic TEXT NOT NULL, partition INTEGER NOT NULL,
               \"offset\" BIGINT NOT NULL, payload TEXT NOT NULL, worker TEXT NOT NULL, at TEXT NOT NULL,
               PRIMARY KEY (topic, partition, \"offset\"));",
        )
        .with_context(|| format!("cannot make the tables in {}", path.display()))?;
        Db::open(url)
    }

    /// Checks that the table of `kind` is there, so a worker fails before it joins its group.
    pub fn check(&self, kind: Kind) -> Result<()> {
        let Some(table) = kind.table() else {
            return Ok(());
        };
        let found: Option<String> = self
            .conn
            .query_row(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?1",
                params![table],
                |r| r.get(0),
            )
            .optional()
            .with_context(|| format!("cannot read the database {}", self.url))?;
        if found.is_none() {
            bail!(
                "the database {} has no table {table}: create it with krb-effects init {}",
                self.url,
                self.url
            );
        }
        Ok(())
    }

    /// Applies one processing's effect.
    pub fn apply(&self, kind: Kind, row: &Row) -> Result<Outcome> {
        let sql = match kind {
            Kind::None => return Ok(Outcome::Applied),
            Kind::Plain => {
                "INSERT INTO krb_effects_plain (topic, partition, \"offset\", payload, worker, at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
            }
            Kind::Idempotent => {
                "INSERT INTO krb_effects (topic, partition, \"offset\", payload, worker, at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING"
            }
        };
        let changed = self
            .conn
            .execute(
                sql,
                params![
                    row.topic,
                    row.partition,
                    row.offset,
                    row.payload,
                    row.worker,
                    row.at
                ],
            )
            .with_context(|| format!("cannot write the effect to {}", self.url))?;
        Ok(if changed == 1 {
            Outcome::Applied
        } else {
            Outcome::AlreadyApplied
        })
    }

    /// The rows of `kind`'s table for `topic`, in the order they were written.
    pub fn rows(&self, kind: Kind, topic: &str) -> Result<Vec<Row>> {
        let Some(table) = kind.table() else {
            bail!("the effect kind none writes no rows");
        };
        let mut statement = self
            .conn
            .prepare(&format!(
                "SELECT topic, partition, \"offset\", payload, worker, at FROM {table} \
                 WHERE topic = ?1 ORDER BY rowid"
            ))
            .with_context(|| format!("cannot read {table} in {}", self.url))?;
        let rows = statement
            .query_map(params![topic], |r| {
                Ok(Row {
                    topic: r.get(0)?,
                    partition: r.get(1)?,
                    offset: r.get(2)?,
                    payload: r.get(3)?,
                    worker: r.get(4)?,
                    at: r.get(5)?,
                })
            })
            .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
            .with_context(|| format!("cannot read {table} in {}", self.url))?;
        Ok(rows)
    }
}

/// The effects of `kind` for `topic` in krb-dups' report: duplicates are rows of one message.
pub fn report(db: &Db, kind: Kind, topic: &str) -> Result<krb_dups::Report> {
    let mut counts = krb_dups::Counts::new();
    for row in db.rows(kind, topic)? {
        counts.add(row.worker.as_bytes(), row.partition, row.offset);
    }
    Ok(krb_dups::analyse(&mut counts, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(partition: Partition, offset: Offset, worker: &str) -> Row {
        Row {
            topic: "pay".into(),
            partition,
            offset,
            payload: offset.to_string(),
            worker: worker.into(),
            at: "09:00:00.000".into(),
        }
    }

    fn url() -> String {
        let dir = krb_common::scratch::scratch_dir::<&str>("effect", &[]);
        format!("sqlite:{}", dir.join("effects.db").display())
    }

    #[test]
    fn plain_keeps_every_processing_idempotent_one_per_message() {
        let db = Db::init(&url()).unwrap();
        for kind in [Kind::Plain, Kind::Idempotent] {
            db.check(kind).unwrap();
            assert_eq!(db.apply(kind, &row(1, 400, "a")).unwrap(), Outcome::Applied);
            let again = db.apply(kind, &row(1, 400, "b")).unwrap();
            let expected = if kind == Kind::Plain {
                Outcome::Applied
            } else {
                Outcome::AlreadyApplied
            };
            assert_eq!(again, expected, "{kind:?}");
            db.apply(kind, &row(1, 401, "b")).unwrap();
        }
        let plain = report(&db, Kind::Plain, "pay").unwrap();
        assert_eq!(
            plain.render(),
            "processed 3, unique 2, duplicates 1\n  p1: offset 400 (1) processed twice\n"
        );
        let once = report(&db, Kind::Idempotent, "pay").unwrap();
        assert_eq!(once.render(), "processed 2, unique 2, duplicates 0\n");
        assert_eq!(db.rows(Kind::Idempotent, "pay").unwrap()[0].worker, "a");
        assert!(db.rows(Kind::Plain, "other").unwrap().is_empty());
    }

    #[test]
    fn bad_urls_missing_files_and_tables_are_errors_that_say_what_to_do() {
        for bad in ["postgres://localhost/x", "sqlite:", "effects"] {
            let err = Db::open(bad).err().unwrap().to_string();
            assert!(err.contains("use sqlite:PATH"), "{bad}: {err}");
        }
        let missing = url();
        let err = Db::open(&missing).err().unwrap().to_string();
        assert!(
            err.contains("create it first with krb-effects init"),
            "{err}"
        );
        let empty = url();
        std::fs::write(sqlite_path(&empty).unwrap(), b"").unwrap();
        let db = Db::open(&empty).unwrap();
        let err = db.check(Kind::Idempotent).unwrap_err().to_string();
        assert!(err.contains("has no table krb_effects"), "{err}");
        db.check(Kind::None).unwrap();
    }
}
