//! The effects' tables and the SQL that writes and reads them, the same on SQLite and PostgreSQL.

use std::collections::BTreeMap;

use anyhow::{bail, Context, Result};
use krb_common::logline::{Offset, Partition};

use crate::store::{target, Conn};
use crate::{Kind, Outcome, Row};

/// A database of effects. Effects are written inside a transaction that stays open until
/// [`Db::flush`] commits it, so that a worker that is not waiting commits many at once.
pub struct Db {
    conn: Conn,
    url: String,
    /// A transaction is open.
    open: bool,
    /// The first write or commit that failed. Its transaction was rolled back, so the effects
    /// applied since the last flush are gone: from then on every apply and flush fails, and no
    /// caller can take a later flush for a sign that they are stored.
    failed: Option<String>,
}

/// The columns every effects table has: the message, who processed it and when.
const COLUMNS: &str =
    "topic TEXT NOT NULL, partition INTEGER NOT NULL, \"offset\" BIGINT NOT NULL, \
     payload TEXT NOT NULL, worker TEXT NOT NULL, at TEXT NOT NULL";

/// db-offsets' positions: the next offset of each partition, and the worker that moved it there.
const POSITIONS: &str = "krb_positions";

fn insert(table: &str, or_nothing: bool) -> String {
    format!(
        "INSERT INTO {table} (topic, partition, \"offset\", payload, worker, at) \
         VALUES ($1, $2, $3, $4, $5, $6){}",
        if or_nothing {
            " ON CONFLICT DO NOTHING"
        } else {
            ""
        }
    )
}

impl Db {
    /// Opens the database at `url`, whose tables `krb-effects init` made.
    pub fn open(url: &str) -> Result<Db> {
        Ok(Db {
            conn: Conn::connect(url, target(url)?, false)?,
            url: url.to_string(),
            open: false,
            failed: None,
        })
    }

    /// Makes the database's tables, empty (any rows of an earlier run are removed).
    pub fn init(url: &str) -> Result<Db> {
        let mut conn = Conn::connect(url, target(url)?, true)?;
        let key = conn.serial_key();
        let mut sql = String::new();
        let effects = [Kind::Plain, Kind::Idempotent, Kind::DbOffsets];
        for table in effects.iter().filter_map(|k| k.table()).chain([POSITIONS]) {
            sql += &format!("DROP TABLE IF EXISTS {table};\n");
        }
        for kind in effects {
            let unique = if kind == Kind::Idempotent {
                ", UNIQUE (topic, partition, \"offset\")"
            } else {
                ""
            };
            let table = kind.table().unwrap_or_default();
            sql += &format!("CREATE TABLE {table} ({key}, {COLUMNS}{unique});\n");
        }
        sql += &format!(
            "CREATE TABLE {POSITIONS} (topic TEXT NOT NULL, partition INTEGER NOT NULL, \
             next_offset BIGINT NOT NULL, worker TEXT NOT NULL, PRIMARY KEY (topic, partition));"
        );
        conn.ddl(&sql)
            .with_context(|| format!("cannot make the tables in {url}"))?;
        Ok(Db {
            conn,
            url: url.to_string(),
            open: false,
            failed: None,
        })
    }

    /// Checks that the tables of `kind` are there, so a worker fails before it joins its group.
    pub fn check(&mut self, kind: Kind) -> Result<()> {
        let positions = (kind == Kind::DbOffsets).then_some(POSITIONS);
        for table in kind.table().into_iter().chain(positions) {
            if let Err(e) = self
                .conn
                .query(&format!("SELECT count(*) FROM {table} WHERE 1 = 0"), &[])
            {
                bail!(
                    "cannot read the table {table} in {}: {e}: make the tables with krb-effects init {}",
                    self.url,
                    self.url
                );
            }
        }
        Ok(())
    }

    /// Applies one processing's effect, in the open transaction (begun if none is). `read_from`
    /// is, for db-offsets, the partition's position as this worker last read or wrote it
    /// (`None`: the database had none when it read). A refused db-offsets effect is rolled back
    /// alone (to a savepoint); an error rolls the whole transaction back.
    pub fn apply(&mut self, kind: Kind, row: &Row, read_from: Option<Offset>) -> Result<Outcome> {
        let Some(table) = kind.table() else {
            return Ok(Outcome::Applied);
        };
        self.usable()?;
        let applied = self
            .write(kind, table, row, read_from)
            .with_context(|| format!("cannot write the effect to {}", self.url));
        if let Err(e) = &applied {
            self.broken(e);
        }
        applied
    }

    /// Fails once a write or commit failed: what was applied since the last flush is gone.
    fn usable(&self) -> Result<()> {
        match &self.failed {
            Some(why) => {
                bail!("the effects since the last commit are lost ({why}): nothing more is written")
            }
            None => Ok(()),
        }
    }

    /// Records the first failure and rolls the open transaction back (only to tidy up: the
    /// error to report is the first one).
    fn broken(&mut self, err: &anyhow::Error) {
        self.failed.get_or_insert_with(|| format!("{err:#}"));
        if self.open {
            self.open = false;
            let _ = self.conn.batch("ROLLBACK");
        }
    }

    fn write(
        &mut self,
        kind: Kind,
        table: &str,
        row: &Row,
        read_from: Option<Offset>,
    ) -> Result<Outcome> {
        if !self.open {
            self.conn.begin()?;
            self.open = true;
        }
        let params: [&dyn crate::store::Value; 6] = [
            &row.topic,
            &row.partition,
            &row.offset,
            &row.payload,
            &row.worker,
            &row.at,
        ];
        if kind != Kind::DbOffsets {
            let changed = self
                .conn
                .execute(&insert(table, kind == Kind::Idempotent), &params)?;
            return Ok(if changed == 1 {
                Outcome::Applied
            } else {
                Outcome::AlreadyApplied
            });
        }
        self.conn.batch("SAVEPOINT krb_effect")?;
        self.conn.execute(&insert(table, false), &params)?;
        if self.move_position(row, read_from)? == 1 {
            self.conn.batch("RELEASE SAVEPOINT krb_effect")?;
            Ok(Outcome::Applied)
        } else {
            self.conn
                .batch("ROLLBACK TO SAVEPOINT krb_effect; RELEASE SAVEPOINT krb_effect")?;
            Ok(Outcome::Refused)
        }
    }

    /// Commits the open transaction, if there is one: what was applied is there for good.
    pub fn flush(&mut self) -> Result<()> {
        self.usable()?;
        if !self.open {
            return Ok(());
        }
        let committed = self
            .conn
            .batch("COMMIT")
            .with_context(|| format!("cannot commit the effects to {}", self.url));
        match committed {
            Ok(()) => self.open = false,
            Err(e) => {
                self.broken(&e);
                return Err(e);
            }
        }
        Ok(())
    }

    /// Moves `row`'s partition to the offset after it, only from `read_from` and never
    /// backwards (a message below the stored position was applied already).
    fn move_position(&mut self, row: &Row, read_from: Option<Offset>) -> Result<u64> {
        let next = row.offset + 1;
        match read_from {
            Some(from) => self.conn.execute(
                &format!(
                    "UPDATE {POSITIONS} SET next_offset = $1, worker = $2 \
                     WHERE topic = $3 AND partition = $4 AND next_offset = $5 \
                     AND next_offset <= $6"
                ),
                &[
                    &next,
                    &row.worker,
                    &row.topic,
                    &row.partition,
                    &from,
                    &row.offset,
                ],
            ),
            None => self.conn.execute(
                &format!(
                    "INSERT INTO {POSITIONS} (topic, partition, next_offset, worker) \
                     VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING"
                ),
                &[&row.topic, &row.partition, &next, &row.worker],
            ),
        }
    }

    /// db-offsets' stored positions of `topic`: the next offset to process, per partition.
    pub fn positions(&mut self, topic: &str) -> Result<BTreeMap<Partition, Offset>> {
        let rows = self
            .conn
            .query(
                &format!("SELECT partition, next_offset FROM {POSITIONS} WHERE topic = $1"),
                &[&topic],
            )
            .with_context(|| format!("cannot read the positions in {}", self.url))?;
        rows.iter()
            .map(|r| Ok((r[0].int()? as Partition, r[1].int()?)))
            .collect()
    }

    /// The rows of `kind`'s table for `topic`, in the order they were written.
    pub fn rows(&mut self, kind: Kind, topic: &str) -> Result<Vec<Row>> {
        let Some(table) = kind.table() else {
            bail!(
                "the effect kind {} writes no rows to a database",
                krb_common::group::value_name(kind)
            );
        };
        let rows = self
            .conn
            .query(
                &format!(
                    "SELECT topic, partition, \"offset\", payload, worker, at FROM {table} \
                     WHERE topic = $1 ORDER BY id"
                ),
                &[&topic],
            )
            .with_context(|| format!("cannot read {table} in {}", self.url))?;
        rows.into_iter()
            .map(|r| {
                let [topic, partition, offset, payload, worker, at] =
                    <[_; 6]>::try_from(r).map_err(|_| anyhow::anyhow!("{table}: not 6 columns"))?;
                Ok(Row {
                    topic: topic.text(),
                    partition: partition.int()? as Partition,
                    offset: offset.int()?,
                    payload: payload.text(),
                    worker: worker.text(),
                    at: at.text(),
                })
            })
            .collect()
    }
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

    fn sqlite() -> String {
        let dir = krb_common::scratch::scratch_dir::<&str>("effect", &[]);
        format!("sqlite:{}", dir.join("effects.db").display())
    }

    /// A fresh PostgreSQL database named `name` on the server at KRB_PG_URL (which
    /// scripts/test.sh starts with scripts/pg-local.sh).
    fn postgres(name: &str) -> String {
        let server = std::env::var("KRB_PG_URL")
            .expect("KRB_PG_URL names no PostgreSQL server: run scripts/pg-local.sh start and export KRB_PG_URL=$(scripts/pg-local.sh url)");
        let mut admin = postgres::Client::connect(&server, postgres::NoTls).unwrap();
        let db = format!("krb_test_{name}");
        // Two statements, each its own transaction: neither may run inside one.
        for sql in [
            format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"),
            format!("CREATE DATABASE {db}"),
        ] {
            admin.batch_execute(&sql).unwrap();
        }
        let base = server.split('?').next().unwrap();
        format!("{}/{db}", &base[..base.rfind('/').unwrap()])
    }

    fn plain_keeps_every_processing_idempotent_one_per_message(url: &str) {
        let mut db = Db::init(url).unwrap();
        for kind in [Kind::Plain, Kind::Idempotent] {
            db.check(kind).unwrap();
            assert_eq!(
                db.apply(kind, &row(1, 400, "a"), None).unwrap(),
                Outcome::Applied
            );
            let again = db.apply(kind, &row(1, 400, "b"), None).unwrap();
            let expected = if kind == Kind::Plain {
                Outcome::Applied
            } else {
                Outcome::AlreadyApplied
            };
            assert_eq!(again, expected, "{kind:?}");
            db.apply(kind, &row(1, 401, "b"), None).unwrap();
        }
        // Another connection sees the effects once they are flushed, not before.
        let mut other = Db::open(url).unwrap();
        assert!(other.rows(Kind::Plain, "pay").unwrap().is_empty());
        db.flush().unwrap();
        db.flush().unwrap();
        assert_eq!(other.rows(Kind::Plain, "pay").unwrap().len(), 3);
        let plain = crate::report(&mut db, Kind::Plain, "pay").unwrap();
        assert_eq!(
            plain.render(),
            "processed 3, unique 2, duplicates 1\n  p1: offset 400 (1) processed twice\n"
        );
        let once = crate::report(&mut db, Kind::Idempotent, "pay").unwrap();
        assert_eq!(once.render(), "processed 2, unique 2, duplicates 0\n");
        let rows = db.rows(Kind::Idempotent, "pay").unwrap();
        assert_eq!(rows[0], row(1, 400, "a"));
        assert!(db.rows(Kind::Plain, "other").unwrap().is_empty());
        // init empties what an earlier run left.
        drop(other);
        let mut db = Db::init(url).unwrap();
        assert!(db.rows(Kind::Plain, "pay").unwrap().is_empty());
    }

    fn db_offsets_moves_only_from_where_the_worker_read(url: &str) {
        let mut db = Db::init(url).unwrap();
        db.check(Kind::DbOffsets).unwrap();
        assert!(db.positions("pay").unwrap().is_empty());
        let kind = Kind::DbOffsets;
        // a starts with no position, processes 0..3 of p0.
        assert_eq!(
            db.apply(kind, &row(0, 0, "a"), None).unwrap(),
            Outcome::Applied
        );
        for o in 1..3 {
            assert_eq!(
                db.apply(kind, &row(0, o, "a"), Some(o)).unwrap(),
                Outcome::Applied
            );
        }
        // b takes p0 over where the database says, 3, and goes on to 10.
        assert_eq!(db.positions("pay").unwrap(), BTreeMap::from([(0, 3)]));
        for o in 3..10 {
            db.apply(kind, &row(0, o, "b"), Some(o)).unwrap();
        }
        // a, a zombie, finishes offset 3 late: refused, its row rolled back.
        assert_eq!(
            db.apply(kind, &row(0, 3, "a"), Some(3)).unwrap(),
            Outcome::Refused
        );
        // Two workers both finding no position: the second is refused.
        assert_eq!(
            db.apply(kind, &row(1, 0, "b"), None).unwrap(),
            Outcome::Applied
        );
        assert_eq!(
            db.apply(kind, &row(1, 0, "a"), None).unwrap(),
            Outcome::Refused
        );
        assert_eq!(
            db.positions("pay").unwrap(),
            BTreeMap::from([(0, 10), (1, 1)])
        );
        // A refusal rolled back its own effect only: the transaction commits the others.
        db.flush().unwrap();
        let effects = crate::report(&mut Db::open(url).unwrap(), kind, "pay").unwrap();
        assert_eq!(effects.render(), "processed 11, unique 11, duplicates 0\n");
        assert!(db.positions("other").unwrap().is_empty());
    }

    fn a_failed_write_fails_every_later_flush_and_apply(url: &str) {
        let mut db = Db::init(url).unwrap();
        db.apply(Kind::Plain, &row(0, 0, "a"), None).unwrap();
        db.flush().unwrap();
        // Another connection drops the table between two transactions: the next write fails
        // and its transaction is rolled back.
        Db::open(url)
            .unwrap()
            .conn
            .ddl("DROP TABLE krb_effects_plain")
            .unwrap();
        let err = format!(
            "{:#}",
            db.apply(Kind::Plain, &row(0, 1, "a"), None).unwrap_err()
        );
        assert!(err.contains("cannot write the effect"), "{err}");
        // Nothing after it may look stored: not a flush, not a write once the table is back.
        let err = format!("{:#}", db.flush().unwrap_err());
        assert!(
            err.contains("effects since the last commit are lost"),
            "{err}"
        );
        let mut other = Db::init(url).unwrap();
        assert!(db.apply(Kind::Plain, &row(0, 2, "a"), None).is_err());
        assert!(db.flush().is_err());
        assert!(other.rows(Kind::Plain, "pay").unwrap().is_empty());
    }

    fn db_offsets_never_moves_a_position_backwards(url: &str) {
        let mut db = Db::init(url).unwrap();
        let kind = Kind::DbOffsets;
        db.apply(kind, &row(0, 0, "a"), None).unwrap();
        for o in 1..5 {
            db.apply(kind, &row(0, o, "a"), Some(o)).unwrap();
        }
        // A worker that read 5 but is handed offset 3 (fetched before a seek) is refused: the
        // message was applied, and moving to 4 would apply 4 again.
        assert_eq!(
            db.apply(kind, &row(0, 3, "b"), Some(5)).unwrap(),
            Outcome::Refused
        );
        assert_eq!(db.positions("pay").unwrap(), BTreeMap::from([(0, 5)]));
        // Offsets may skip (a transaction's markers): the position moves on from where it is.
        assert_eq!(
            db.apply(kind, &row(0, 7, "b"), Some(5)).unwrap(),
            Outcome::Applied
        );
        assert_eq!(db.positions("pay").unwrap(), BTreeMap::from([(0, 8)]));
        db.flush().unwrap();
    }

    fn missing_tables_are_errors_that_say_what_to_do(url: &str) {
        let mut db = Db::init(url).unwrap();
        db.conn.ddl("DROP TABLE krb_positions").unwrap();
        db.check(Kind::Idempotent).unwrap();
        let err = db.check(Kind::DbOffsets).unwrap_err().to_string();
        assert!(
            err.contains("cannot read the table krb_positions")
                && err.contains("make the tables with krb-effects init"),
            "{err}"
        );
        db.check(Kind::None).unwrap();
        assert!(db.rows(Kind::None, "pay").is_err());
    }

    #[test]
    fn sqlite_plain_keeps_every_processing_idempotent_one_per_message() {
        plain_keeps_every_processing_idempotent_one_per_message(&sqlite());
    }

    #[test]
    fn sqlite_db_offsets_moves_only_from_where_the_worker_read() {
        db_offsets_moves_only_from_where_the_worker_read(&sqlite());
    }

    #[test]
    fn sqlite_a_failed_write_fails_every_later_flush_and_apply() {
        a_failed_write_fails_every_later_flush_and_apply(&sqlite());
    }

    #[test]
    fn sqlite_db_offsets_never_moves_a_position_backwards() {
        db_offsets_never_moves_a_position_backwards(&sqlite());
    }

    #[test]
    #[ignore = "needs PostgreSQL: scripts/pg-local.sh start, KRB_PG_URL"]
    fn postgres_a_failed_write_fails_every_later_flush_and_apply() {
        a_failed_write_fails_every_later_flush_and_apply(&postgres("failed"));
    }

    #[test]
    #[ignore = "needs PostgreSQL: scripts/pg-local.sh start, KRB_PG_URL"]
    fn postgres_db_offsets_never_moves_a_position_backwards() {
        db_offsets_never_moves_a_position_backwards(&postgres("backwards"));
    }

    #[test]
    fn sqlite_missing_tables_are_errors_that_say_what_to_do() {
        missing_tables_are_errors_that_say_what_to_do(&sqlite());
    }

    #[test]
    #[ignore = "needs PostgreSQL: scripts/pg-local.sh start, KRB_PG_URL"]
    fn postgres_plain_keeps_every_processing_idempotent_one_per_message() {
        plain_keeps_every_processing_idempotent_one_per_message(&postgres("plain"));
    }

    #[test]
    #[ignore = "needs PostgreSQL: scripts/pg-local.sh start, KRB_PG_URL"]
    fn postgres_db_offsets_moves_only_from_where_the_worker_read() {
        db_offsets_moves_only_from_where_the_worker_read(&postgres("positions"));
    }

    #[test]
    #[ignore = "needs PostgreSQL: scripts/pg-local.sh start, KRB_PG_URL"]
    fn postgres_missing_tables_are_errors_that_say_what_to_do() {
        missing_tables_are_errors_that_say_what_to_do(&postgres("missing"));
    }

    #[test]
    #[ignore = "needs PostgreSQL: scripts/pg-local.sh start, KRB_PG_URL"]
    fn an_unreachable_postgres_is_a_one_line_error() {
        let err = format!(
            "{:#}",
            Db::open("postgres://postgres@127.0.0.1:1/x").err().unwrap()
        );
        assert!(err.contains("is PostgreSQL running there?"), "{err}");
        assert!(!err.contains('\n'), "{err}");
    }

    #[test]
    fn bad_urls_and_missing_files_are_errors_that_say_what_to_do() {
        for bad in [
            "mysql://localhost/x",
            "sqlite:",
            "effects",
            "postgres://localhost:port/db",
        ] {
            let err = format!("{:#}", Db::open(bad).err().unwrap());
            assert!(
                err.contains("use sqlite:PATH") && err.contains("postgres://"),
                "{bad}: {err}"
            );
        }
        let missing = sqlite();
        let err = Db::open(&missing).err().unwrap().to_string();
        assert!(
            err.contains("create it first with krb-effects init"),
            "{err}"
        );
        let empty = sqlite();
        std::fs::write(empty.strip_prefix("sqlite:").unwrap(), b"").unwrap();
        let mut db = Db::open(&empty).unwrap();
        let err = db.check(Kind::Idempotent).unwrap_err().to_string();
        assert!(
            err.contains("cannot read the table krb_effects_idempotent"),
            "{err}"
        );
    }
}
