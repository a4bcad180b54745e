//! The effects' tables and the SQL that writes and reads them, the same on SQLite and PostgreSQL
//! but for how a flush binds its batch: PostgreSQL's one statement a kind takes the whole batch
//! as arrays, which SQLite has no type for, so SQLite's statements take it row by row.

use std::collections::{BTreeMap, HashSet};

use anyhow::{bail, Context, Result};
use krb_log::logline::{Offset, Partition};

use crate::messages::{self as m, Said};
use crate::store::{target, Cell, Conn, PgValue, Value};
use crate::{Kind, Outcome, Row};

/// A database of effects. Effects are staged as they are applied and written by [`Db::flush`],
/// which decides each one's outcome: a worker that is not waiting writes many at once, on
/// PostgreSQL in one round trip instead of one or more per effect.
pub struct Db {
    conn: Conn,
    url: String,
    /// The effects applied since the last flush, in order.
    staged: Vec<(Kind, Row)>,
    /// db-offsets: each partition's staged rows, which a flush applies or refuses together.
    runs: Vec<Run>,
    /// A transaction is open (only inside a flush).
    open: bool,
    /// The first flush that failed. Its transaction was rolled back, so the effects applied
    /// since the flush before are gone: from then on every apply and flush fails, and no caller
    /// can take a later flush for a sign that they are stored.
    failed: Option<String>,
}

/// db-offsets: one partition's staged rows. Each moves the position on from where the one
/// before it left it, so the first decides them all: once it is refused the worker goes on from
/// the stored position, and the rows after it, read before it knew, are refused with it.
struct Run {
    topic: String,
    partition: Partition,
    /// Where the first row moves the position from.
    read_from: Option<Offset>,
    first: Offset,
    last: Offset,
    worker: String,
}

/// A message, as its rows' key.
type Message = (String, Partition, Offset);

fn message(row: &Row) -> Message {
    (row.topic.clone(), row.partition, row.offset)
}

/// The columns every effects table has: the message, who processed it and when.
const COLUMNS: &str =
    "topic TEXT NOT NULL, partition INTEGER NOT NULL, \"offset\" BIGINT NOT NULL, \
     payload TEXT NOT NULL, worker TEXT NOT NULL, at TEXT NOT NULL";

/// A row's columns, in the order they are written and read.
const ROW: &str = "topic, partition, \"offset\", payload, worker, at";

/// db-offsets' positions: the next offset of each partition, and the worker that moved it there.
const POSITIONS: &str = "krb_positions";

/// db-offsets: a partition's run, as the table `runs` of the statements [`moves`] holds it.
const RUN: &str = "topic, partition, read_from, first_offset, moved_to, worker";

/// db-offsets: the statements that move the position of each partition in `runs`, only from
/// where its worker read it and never backwards (a message below the stored position was
/// applied already), or, where the worker found none, place it. A row each changes is a run
/// applied.
fn moves() -> [String; 2] {
    [
        format!(
            "UPDATE {POSITIONS} AS p SET next_offset = b.moved_to, worker = b.worker \
             FROM runs AS b WHERE p.topic = b.topic AND p.partition = b.partition \
             AND p.next_offset = b.read_from AND p.next_offset <= b.first_offset"
        ),
        format!(
            "INSERT INTO {POSITIONS} (topic, partition, next_offset, worker) \
             SELECT topic, partition, moved_to, worker FROM runs WHERE read_from IS NULL \
             ON CONFLICT DO NOTHING"
        ),
    ]
}

/// PostgreSQL: a batch's rows, as the arrays `$1` to `$6` hold them, in staged order
/// (`WITH ORDINALITY`: the rows are inserted in that order, so their ids are).
const ARRAYS: &str =
    "unnest($1::text[], $2::int4[], $3::int8[], $4::text[], $5::text[], $6::text[]) \
     WITH ORDINALITY AS r(topic, partition, \"offset\", payload, worker, at, n)";

/// PostgreSQL: a batch of db-offsets rows in one statement, each partition's rows applied only
/// if [`moves`] moves its position (`$7`..`$12`, a partition each). Returns the partitions
/// applied.
fn db_offsets_batch(table: &str) -> String {
    let [moved, placed] = moves();
    format!(
        "WITH runs ({RUN}) AS (\
           SELECT * FROM unnest($7::text[], $8::int4[], $9::int8[], $10::int8[], $11::int8[], $12::text[])), \
         moved AS ({moved} RETURNING p.topic, p.partition), \
         placed AS ({placed} RETURNING topic, partition), \
         applied AS (SELECT topic, partition FROM moved UNION ALL SELECT topic, partition FROM placed), \
         written AS (\
           INSERT INTO {table} ({ROW}) SELECT {ROW} FROM {ARRAYS} \
           WHERE (topic, partition) IN (SELECT topic, partition FROM applied) ORDER BY n) \
         SELECT topic, partition FROM applied"
    )
}

/// `kind`'s table, if it writes rows to a database.
fn table_of(kind: Kind) -> Result<&'static str> {
    let kind_name = krb_kafka::group_settings::value_name(kind);
    let no_rows = || Said::new(m::NO_ROWS, &[("kind", &kind_name)]).into();
    kind.table().ok_or_else(no_rows)
}

/// A row read back as its `N` columns.
fn columns_of<const N: usize>(table: &str, row: Vec<Cell>) -> Result<[Cell; N]> {
    <[Cell; N]>::try_from(row).map_err(|_| anyhow::anyhow!("{table}: not {N} columns"))
}

impl Db {
    fn new(conn: Conn, url: &str) -> Db {
        Db {
            conn,
            url: url.to_string(),
            staged: Vec::new(),
            runs: Vec::new(),
            open: false,
            failed: None,
        }
    }

    /// Opens the database at `url`, whose tables `krb-effects init` made.
    pub fn open(url: &str) -> Result<Db> {
        Ok(Db::new(Conn::connect(url, target(url)?, false)?, url))
    }

    /// Makes the database's tables, empty (any rows of an earlier run are removed).
    pub fn init(url: &str) -> Result<Db> {
        let mut conn = Conn::connect(url, target(url)?, true)?;
        let key = conn.serial_key();
        let mut sql = String::new();
        for kind in [Kind::Plain, Kind::Idempotent, Kind::DbOffsets] {
            let unique = if kind == Kind::Idempotent {
                ", UNIQUE (topic, partition, \"offset\")"
            } else {
                ""
            };
            let table = kind.table().unwrap_or_default();
            sql += &format!(
                "DROP TABLE IF EXISTS {table};\nCREATE TABLE {table} ({key}, {COLUMNS}{unique});\n"
            );
        }
        sql += &format!(
            "DROP TABLE IF EXISTS {POSITIONS};\nCREATE TABLE {POSITIONS} (topic TEXT NOT NULL, \
             partition INTEGER NOT NULL, next_offset BIGINT NOT NULL, worker TEXT NOT NULL, \
             PRIMARY KEY (topic, partition));"
        );
        conn.ddl(&sql)
            .map_err(|e| Said::new(m::TABLES_NOT_MADE, &[("url", &url)]).because(e))?;
        Ok(Db::new(conn, url))
    }

    /// Checks that the tables of `kind` are there, so a worker fails before it joins its group.
    pub fn check(&mut self, kind: Kind) -> Result<()> {
        let positions = (kind == Kind::DbOffsets).then_some(POSITIONS);
        for table in kind.table().into_iter().chain(positions) {
            let sql = format!("SELECT count(*) FROM {table} WHERE 1 = 0");
            if let Err(e) = self.conn.query(&sql, &[]) {
                let url = &self.url;
                bail!("cannot read the table {table} in {url}: {e}: make the tables with krb-effects init {url}");
            }
        }
        Ok(())
    }

    /// Applies one processing's effect: stages it for the next flush, which decides its
    /// outcome. `read_from` is, for db-offsets, the partition's position as this worker last
    /// read or wrote it, or as its staged rows move it ([`Db::moves_to`]): a partition's rows
    /// since the last flush must follow each other, on increasing offsets.
    pub fn apply(&mut self, kind: Kind, row: Row, read_from: Option<Offset>) -> Result<()> {
        self.usable()?;
        table_of(kind)?;
        if kind == Kind::DbOffsets {
            self.stage_run(&row, read_from)?;
        }
        self.staged.push((kind, row));
        Ok(())
    }

    /// The URL it was opened with, for a line that says what to do with it.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// How many effects wait for the next flush.
    pub fn staged(&self) -> usize {
        self.staged.len()
    }

    /// db-offsets: the position `partition`'s staged rows move it to, if it has any: a row of
    /// the partition joins them only from there, at an offset no lower.
    pub fn moves_to(&self, topic: &str, partition: Partition) -> Option<Offset> {
        // A batch holds a few partitions: a scan is cheaper than a key's copy of the topic.
        self.runs
            .iter()
            .find(|r| r.partition == partition && r.topic == topic)
            .map(|r| r.last + 1)
    }

    fn stage_run(&mut self, row: &Row, read_from: Option<Offset>) -> Result<()> {
        let run = self
            .runs
            .iter_mut()
            .find(|r| r.partition == row.partition && r.topic == row.topic);
        match run {
            None => self.runs.push(Run {
                topic: row.topic.clone(),
                partition: row.partition,
                read_from,
                first: row.offset,
                last: row.offset,
                worker: row.worker.clone(),
            }),
            Some(run) if read_from == Some(run.last + 1) && row.offset > run.last => {
                run.last = row.offset;
                // The position names the worker that moved it last, as row by row.
                run.worker.clone_from(&row.worker);
            }
            Some(run) => bail!(
                "p{} offset {} (from {read_from:?}) does not follow the partition's staged effects, \
                 which move it to {}: flush them first",
                row.partition,
                row.offset,
                run.last + 1
            ),
        }
        Ok(())
    }

    /// Fails once a flush failed: what was applied since the flush before is gone.
    fn usable(&self) -> Result<()> {
        if let Some(why) = &self.failed {
            bail!("the effects since the last commit are lost ({why}): nothing more is written")
        }
        Ok(())
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

    /// Writes the staged effects in one transaction and returns each one's outcome, in the
    /// order they were applied: once it returns they are there for good.
    pub fn flush(&mut self) -> Result<Vec<Outcome>> {
        self.usable()?;
        let staged = std::mem::take(&mut self.staged);
        let mut runs = std::mem::take(&mut self.runs);
        if staged.is_empty() {
            return Ok(Vec::new());
        }
        let written = self
            .write(&staged, &mut runs)
            .with_context(|| format!("cannot commit the effects to {}", self.url));
        if let Err(e) = &written {
            self.broken(e);
        }
        written
    }

    /// Each kind's effects, on PostgreSQL in one statement, which is a transaction of its own:
    /// a batch of one kind, the worker's, needs no BEGIN and COMMIT, which would be two more
    /// round trips. SQLite's go in row by row, in one transaction.
    fn write(&mut self, staged: &[(Kind, Row)], runs: &mut [Run]) -> Result<Vec<Outcome>> {
        let kinds: Vec<Kind> = [Kind::Plain, Kind::Idempotent, Kind::DbOffsets]
            .into_iter()
            .filter(|kind| staged.iter().any(|(k, _)| k == kind))
            .collect();
        let begin = kinds.len() > 1 || !self.conn.takes_arrays();
        if begin {
            self.conn.begin()?;
            self.open = true;
        }
        let mut outcomes = vec![Outcome::Applied; staged.len()];
        for kind in kinds {
            let (at, rows): (Vec<usize>, Vec<&Row>) = staged
                .iter()
                .enumerate()
                .filter(|(_, (k, _))| *k == kind)
                .map(|(i, (_, row))| (i, row))
                .unzip();
            let mut written = if self.conn.takes_arrays() {
                self.write_arrays(kind, &rows, runs)?
            } else {
                self.write_each(kind, &rows, runs)?
            };
            for (i, row) in at.into_iter().zip(rows) {
                // A message twice in the batch was written the first time.
                outcomes[i] = match kind {
                    Kind::Plain => Outcome::Applied,
                    _ if written.remove(&message(row)) => Outcome::Applied,
                    Kind::Idempotent => Outcome::AlreadyApplied,
                    _ => Outcome::Refused,
                };
            }
        }
        if begin {
            self.conn.batch("COMMIT")?;
            self.open = false;
        }
        Ok(outcomes)
    }

    /// PostgreSQL: `rows`, all of `kind`, in one statement, their columns as arrays: the
    /// messages it wrote, but plain's, which are all written.
    fn write_arrays(
        &mut self,
        kind: Kind,
        rows: &[&Row],
        runs: &mut [Run],
    ) -> Result<HashSet<Message>> {
        let table = kind.table().unwrap_or_default();
        let topics: Vec<&str> = rows.iter().map(|r| r.topic.as_str()).collect();
        let partitions: Vec<Partition> = rows.iter().map(|r| r.partition).collect();
        let offsets: Vec<Offset> = rows.iter().map(|r| r.offset).collect();
        let payloads: Vec<&str> = rows.iter().map(|r| r.payload.as_str()).collect();
        let workers: Vec<&str> = rows.iter().map(|r| r.worker.as_str()).collect();
        let ats: Vec<&str> = rows.iter().map(|r| r.at.as_str()).collect();
        let mut params: Vec<PgValue> =
            vec![&topics, &partitions, &offsets, &payloads, &workers, &ats];
        if kind != Kind::DbOffsets {
            // Idempotent returns the rows it inserted; a message twice in the batch is
            // inserted the first time.
            let returning = if kind == Kind::Idempotent {
                " ON CONFLICT DO NOTHING RETURNING topic, partition, \"offset\""
            } else {
                ""
            };
            let sql = format!(
                "INSERT INTO {table} ({ROW}) SELECT {ROW} FROM {ARRAYS} ORDER BY n{returning}"
            );
            let inserted = self.conn.query_arrays(&sql, &params)?;
            return inserted
                .into_iter()
                .map(|r| {
                    let [topic, partition, offset] = columns_of(table, r)?;
                    Ok((topic.text(), partition.int()? as Partition, offset.int()?))
                })
                .collect();
        }
        // Partitions in one order, so that two workers' batches usually lock the same
        // positions in the same order. Not a guarantee: the UPDATE locks rows in the order its
        // join visits them. Two flat-out workers whose batches move the same two partitions
        // can deadlock; PostgreSQL then aborts one statement, and that worker fails its flush
        // and exits without committing (no effect is lost).
        runs.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
        let run_topics: Vec<&str> = runs.iter().map(|r| r.topic.as_str()).collect();
        let run_partitions: Vec<Partition> = runs.iter().map(|r| r.partition).collect();
        let read_from: Vec<Option<Offset>> = runs.iter().map(|r| r.read_from).collect();
        let first: Vec<Offset> = runs.iter().map(|r| r.first).collect();
        let moved_to: Vec<Offset> = runs.iter().map(|r| r.last + 1).collect();
        let run_workers: Vec<&str> = runs.iter().map(|r| r.worker.as_str()).collect();
        let run_columns: [PgValue; 6] = [
            &run_topics,
            &run_partitions,
            &read_from,
            &first,
            &moved_to,
            &run_workers,
        ];
        params.extend(run_columns);
        let mut applied = HashSet::new();
        for r in self.conn.query_arrays(&db_offsets_batch(table), &params)? {
            let [topic, partition] = columns_of(POSITIONS, r)?;
            applied.insert((topic.text(), partition.int()? as Partition));
        }
        let applied = |r: &&&Row| applied.contains(&(r.topic.clone(), r.partition));
        Ok(rows.iter().filter(applied).map(|r| message(r)).collect())
    }

    /// SQLite: `rows`, all of `kind`, one by one, db-offsets' only where [`moves`] moved their
    /// partition's position: the messages it wrote.
    fn write_each(&mut self, kind: Kind, rows: &[&Row], runs: &[Run]) -> Result<HashSet<Message>> {
        let table = kind.table().unwrap_or_default();
        let mut applied = HashSet::new();
        for run in runs.iter().filter(|_| kind == Kind::DbOffsets) {
            let next = run.last + 1;
            let params: [&dyn Value; 6] = [
                &run.topic,
                &run.partition,
                &run.read_from,
                &run.first,
                &next,
                &run.worker,
            ];
            let mut changed = 0;
            for sql in moves() {
                let sql = format!("WITH runs ({RUN}) AS (VALUES ($1, $2, $3, $4, $5, $6)) {sql}");
                changed += self.conn.execute(&sql, &params)?;
            }
            if changed == 1 {
                applied.insert((&run.topic, run.partition));
            }
        }
        let conflict = match kind {
            Kind::Idempotent => " ON CONFLICT DO NOTHING",
            _ => "",
        };
        let sql = format!("INSERT INTO {table} ({ROW}) VALUES ($1, $2, $3, $4, $5, $6){conflict}");
        let mut written = HashSet::new();
        for r in rows {
            if kind == Kind::DbOffsets && !applied.contains(&(&r.topic, r.partition)) {
                continue;
            }
            let params: [&dyn Value; 6] = [
                &r.topic,
                &r.partition,
                &r.offset,
                &r.payload,
                &r.worker,
                &r.at,
            ];
            if self.conn.execute(&sql, &params)? == 1 {
                written.insert(message(r));
            }
        }
        Ok(written)
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
        let table = table_of(kind)?;
        let rows = self
            .conn
            .query(
                &format!("SELECT {ROW} FROM {table} WHERE topic = $1 ORDER BY id"),
                &[&topic],
            )
            .map_err(|e| {
                Said::new(m::TABLE_NOT_READ, &[("table", &table), ("url", &self.url)]).because(e)
            })?;
        rows.into_iter()
            .map(|r| {
                let [topic, partition, offset, payload, worker, at] = columns_of(table, r)?;
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

    /// The effects of `kind` for `topic` in krb-dups' report: duplicates are rows of one message.
    fn report(db: &mut Db, kind: Kind, topic: &str) -> Result<krb_dups::Report> {
        Ok(krb_dups::analyse(
            &mut crate::db_counts(db, kind, topic)?,
            None,
        ))
    }

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

    /// A database URL in a scratch folder, which lives as long as this does.
    struct Sqlite {
        url: String,
        _dir: krb_testutil::Scratch,
    }

    impl std::ops::Deref for Sqlite {
        type Target = str;

        fn deref(&self) -> &str {
            &self.url
        }
    }

    fn sqlite() -> Sqlite {
        let dir = krb_testutil::scratch_dir::<&str>("effect", &[]);
        Sqlite {
            url: format!("sqlite:{}", dir.join("effects.db").display()),
            _dir: dir,
        }
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

    use Outcome::{AlreadyApplied, Applied, Refused};

    /// Stages each row (with its db-offsets `read_from`), then flushes: the batch's outcomes.
    fn batch(db: &mut Db, kind: Kind, rows: &[(Row, Option<Offset>)]) -> Vec<Outcome> {
        for (row, read_from) in rows {
            db.apply(kind, row.clone(), *read_from).unwrap();
        }
        assert_eq!(db.staged(), rows.len());
        let outcomes = db.flush().unwrap();
        assert_eq!(db.staged(), 0);
        outcomes
    }

    /// Offsets `from..to` of `partition` by `worker`, each moving the position on from the one
    /// before, the first from `read_from`: a db-offsets worker's batch.
    fn run(
        partition: Partition,
        offsets: std::ops::Range<Offset>,
        worker: &str,
        read_from: Option<Offset>,
    ) -> Vec<(Row, Option<Offset>)> {
        let first = offsets.start;
        offsets
            .map(|o| {
                let from = if o == first { read_from } else { Some(o) };
                (row(partition, o, worker), from)
            })
            .collect()
    }

    fn plain_keeps_every_processing_idempotent_one_per_message(url: &str) {
        let mut db = Db::init(url).unwrap();
        let rows = [row(1, 400, "a"), row(1, 400, "b"), row(1, 401, "b")];
        for kind in [Kind::Plain, Kind::Idempotent] {
            db.check(kind).unwrap();
            for r in &rows {
                db.apply(kind, r.clone(), None).unwrap();
            }
        }
        // Another connection sees the effects once they are flushed, not before.
        let mut other = Db::open(url).unwrap();
        assert!(other.rows(Kind::Plain, "pay").unwrap().is_empty());
        // Both kinds in one batch; a message twice in a batch is applied the first time.
        assert_eq!(
            db.flush().unwrap(),
            [Applied, Applied, Applied, Applied, AlreadyApplied, Applied]
        );
        assert!(db.flush().unwrap().is_empty());
        assert_eq!(other.rows(Kind::Plain, "pay").unwrap().len(), 3);
        // A later batch finds the messages stored, and applies the new one once.
        let again = [
            row(1, 401, "c"),
            row(1, 402, "c"),
            row(1, 402, "c"),
            row(1, 400, "c"),
        ];
        let batch_of = |r: &[Row]| r.iter().map(|r| (r.clone(), None)).collect::<Vec<_>>();
        assert_eq!(
            batch(&mut db, Kind::Idempotent, &batch_of(&again)),
            [AlreadyApplied, Applied, AlreadyApplied, AlreadyApplied]
        );
        assert_eq!(
            batch(&mut db, Kind::Plain, &batch_of(&again[..1])),
            [Applied]
        );
        let plain = report(&mut db, Kind::Plain, "pay").unwrap();
        assert_eq!(
            plain.render(),
            "processed 4, unique 2, duplicates 2\n  p1: offset 400..401 (2) processed twice\n"
        );
        let once = report(&mut db, Kind::Idempotent, "pay").unwrap();
        assert_eq!(once.render(), "processed 3, unique 3, duplicates 0\n");
        // The rows in the order they were applied: the first of each message is kept.
        let rows = db.rows(Kind::Idempotent, "pay").unwrap();
        assert_eq!(rows, [row(1, 400, "a"), row(1, 401, "b"), row(1, 402, "c")]);
        assert!(db.rows(Kind::Plain, "other").unwrap().is_empty());
        // init empties what an earlier run left.
        drop(other);
        let mut db = Db::init(url).unwrap();
        assert!(db.rows(Kind::Plain, "pay").unwrap().is_empty());
    }

    fn db_offsets_moves_only_from_where_the_worker_read(url: &str) {
        Db::init(url).unwrap();
        let (mut a, mut b) = (Db::open(url).unwrap(), Db::open(url).unwrap());
        a.check(Kind::DbOffsets).unwrap();
        assert!(a.positions("pay").unwrap().is_empty());
        let kind = Kind::DbOffsets;
        // a starts with no position, processes 0..3 of p0 in one batch.
        assert_eq!(batch(&mut a, kind, &run(0, 0..3, "a", None)), [Applied; 3]);
        // b takes p0 over where the database says, 3, and applies offset 3.
        assert_eq!(b.positions("pay").unwrap(), BTreeMap::from([(0, 3)]));
        assert_eq!(batch(&mut b, kind, &run(0, 3..4, "b", Some(3))), [Applied]);
        // a, a zombie, finishes 3..6 late, and p1's first message: its p0 rows are refused
        // together, 4 too although the position is 4 now (a never read it there), and rolled
        // back; its p1 row, from no position, is applied.
        let mut zombie = run(0, 3..6, "a", Some(3));
        zombie.push((row(1, 0, "a"), None));
        assert_eq!(a.moves_to("pay", 0), None);
        for (r, from) in &zombie {
            a.apply(kind, r.clone(), *from).unwrap();
        }
        assert_eq!(a.moves_to("pay", 0), Some(6));
        assert_eq!(a.moves_to("pay", 1), Some(1));
        assert_eq!(a.flush().unwrap(), [Refused, Refused, Refused, Applied]);
        // b goes on with p0; it too found no position for p1, and is refused there.
        let mut owner = run(0, 4..10, "b", Some(4));
        owner.insert(2, (row(1, 0, "b"), None));
        let refused_at = 2;
        let outcomes = batch(&mut b, kind, &owner);
        for (i, outcome) in outcomes.iter().enumerate() {
            let expected = if i == refused_at { Refused } else { Applied };
            assert_eq!(*outcome, expected, "{:?}", owner[i].0);
        }
        let positions = BTreeMap::from([(0, 10), (1, 1)]);
        assert_eq!(a.positions("pay").unwrap(), positions);
        // A row that does not follow its partition's staged ones is not staged: the batch
        // could not decide it as row by row. The batch goes on without it.
        b.apply(kind, row(0, 10, "b"), Some(10)).unwrap();
        for (o, from) in [(10, Some(11)), (12, Some(10)), (12, None)] {
            let err = b.apply(kind, row(0, o, "b"), from).unwrap_err().to_string();
            assert!(err.contains("does not follow"), "{err}");
        }
        assert_eq!(b.flush().unwrap(), [Applied]);
        let effects = report(&mut Db::open(url).unwrap(), kind, "pay").unwrap();
        assert_eq!(effects.render(), "processed 12, unique 12, duplicates 0\n");
        let rows = a.rows(kind, "pay").unwrap();
        let written: Vec<_> = rows
            .iter()
            .map(|r| (r.partition, r.offset, r.worker.as_str()))
            .collect();
        let mut expected = vec![
            (0, 0, "a"),
            (0, 1, "a"),
            (0, 2, "a"),
            (0, 3, "b"),
            (1, 0, "a"),
        ];
        expected.extend((4..11).map(|o| (0, o, "b")));
        assert_eq!(written, expected);
        assert!(a.positions("other").unwrap().is_empty());
    }

    fn a_failed_write_fails_every_later_flush_and_apply(url: &str) {
        let mut db = Db::init(url).unwrap();
        assert_eq!(
            batch(&mut db, Kind::Plain, &[(row(0, 0, "a"), None)]),
            [Applied]
        );
        // Another connection drops the table between two batches: the next flush fails and
        // its transaction is rolled back.
        Db::open(url)
            .unwrap()
            .conn
            .ddl("DROP TABLE krb_effects_plain")
            .unwrap();
        db.apply(Kind::Plain, row(0, 1, "a"), None).unwrap();
        let err = format!("{:#}", db.flush().unwrap_err());
        assert!(err.contains("cannot commit the effects"), "{err}");
        nothing_passes_once_a_flush_failed(&mut db, url);
    }

    /// After a failed flush: nothing may look stored, not a flush, not a write once the tables
    /// are back.
    fn nothing_passes_once_a_flush_failed(db: &mut Db, url: &str) {
        let err = format!("{:#}", db.flush().unwrap_err());
        assert!(
            err.contains("effects since the last commit are lost"),
            "{err}"
        );
        let mut other = Db::init(url).unwrap();
        assert!(db.apply(Kind::Plain, row(0, 2, "a"), None).is_err());
        assert!(db.flush().is_err());
        assert!(other.rows(Kind::Plain, "pay").unwrap().is_empty());
        assert_eq!(db.staged(), 0);
    }

    fn db_offsets_never_moves_a_position_backwards(url: &str) {
        let mut db = Db::init(url).unwrap();
        let kind = Kind::DbOffsets;
        assert_eq!(batch(&mut db, kind, &run(0, 0..5, "a", None)), [Applied; 5]);
        // A worker that read 5 but is handed offset 3 (fetched before a seek) is refused: the
        // message was applied, and moving to 4 would apply 4 again. The rows after it in its
        // batch are refused with it: it goes on from the stored position.
        let mut late = run(0, 3..4, "b", Some(5));
        late.push((row(0, 7, "b"), Some(4)));
        assert_eq!(batch(&mut db, kind, &late), [Refused, Refused]);
        assert_eq!(db.positions("pay").unwrap(), BTreeMap::from([(0, 5)]));
        // Offsets may skip (a transaction's markers): the position moves on from where it is.
        let skips = [(row(0, 7, "b"), Some(5)), (row(0, 9, "b"), Some(8))];
        assert_eq!(batch(&mut db, kind, &skips), [Applied, Applied]);
        assert_eq!(db.positions("pay").unwrap(), BTreeMap::from([(0, 10)]));
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
    fn postgres_a_batch_whose_connection_is_cut_fails_and_nothing_later_passes() {
        let url = postgres("cut");
        let mut db = Db::init(&url).unwrap();
        assert_eq!(
            batch(&mut db, Kind::Plain, &[(row(0, 0, "a"), None)]),
            [Applied]
        );
        let pid = db.conn.query("SELECT pg_backend_pid()", &[]).unwrap()[0][0]
            .int()
            .unwrap();
        // The server ends the worker's connection, as a restart does, with a batch staged.
        for o in 1..4 {
            db.apply(Kind::Plain, row(0, o, "a"), None).unwrap();
        }
        let mut other = Db::open(&url).unwrap();
        other
            .conn
            .execute("SELECT pg_terminate_backend($1::bigint::int)", &[&pid])
            .unwrap();
        let err = format!("{:#}", db.flush().unwrap_err());
        assert!(
            err.contains("cannot commit the effects to postgres://"),
            "{err}"
        );
        assert_eq!(other.rows(Kind::Plain, "pay").unwrap().len(), 1);
        nothing_passes_once_a_flush_failed(&mut db, &url);
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
    #[ignore = "needs PostgreSQL: scripts/pg-local.sh start, KRB_PG_URL"]
    fn a_postgres_without_the_database_says_why_not_whether_it_runs() {
        let server = std::env::var("KRB_PG_URL").expect("KRB_PG_URL");
        let base = server.split('?').next().unwrap();
        let url = format!(
            "{}/krb_test_no_such_database",
            &base[..base.rfind('/').unwrap()]
        );
        let err = Db::open(&url).err().unwrap();
        let english = format!("{err:#}");
        assert!(
            english.starts_with(&format!("cannot connect to the database {url}: db error: "))
                && english.contains("krb_test_no_such_database\" does not exist"),
            "{english}"
        );
        let korean = crate::explain(krb_cli::lang::Lang::Ko, &err);
        assert!(
            korean.starts_with(&format!(
                "데이터베이스 {url}에 연결할 수 없습니다: db error: "
            )),
            "{korean}"
        );
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
