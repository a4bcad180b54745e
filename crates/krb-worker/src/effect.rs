//! What a processing leaves behind besides its time (`--effect`), and, for db-offsets, where
//! the worker starts a partition it is given: at the position the database holds, not at
//! Kafka's committed offset.
//!
//! A database's effects are staged and written at the next flush, which decides each one's
//! outcome: until then its message has no line and no processed position. Every flush settles
//! them ([`Worker::flush_effects`]).

use std::collections::BTreeMap;

use anyhow::Result;
use chrono::NaiveTime;
use krb_effect::{Db, Kind, Outcome, Row};
use krb_log::logline::{Event, Offset, Partition};
use rdkafka::consumer::BaseConsumer;

use crate::{emit_at, lock, Worker};

/// How many effects a worker that runs flat out stages before it writes them: their messages'
/// lines and positions wait for the write, and their rows are held in memory.
const BATCH: usize = 1000;

/// How many bytes of payloads it stages at most before it writes them, whatever their count.
/// PostgreSQL takes a batch's payloads as one text[] parameter, and no field (nor the message
/// that carries it) may pass 1 GB: 1000 payloads of Kafka's 1 MB come within 5% of it, and the
/// worker holds each twice (its row, and the parameter encoded). 16 MB writes 16 such messages
/// a flush, a round trip against at least 10 ms of sending them, and holds the batch in a few
/// tens of MB; payloads of a few KB still reach [`BATCH`] first.
const BATCH_BYTES: usize = 16 << 20;

/// A processed message whose effect waits for the next flush.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Processed {
    pub partition: Partition,
    pub offset: Offset,
    /// When it was processed: its line's time, written once the flush decided it.
    pub at: NaiveTime,
}

/// The worker's effects: its database, if any, and what db-offsets read from it.
pub struct Effects {
    kind: Kind,
    db: Option<Db>,
    /// db-offsets: each owned partition's position as this worker last read or wrote it.
    read_from: BTreeMap<Partition, Offset>,
    /// The messages whose effects the database has staged, in the order processed.
    staged: Vec<Processed>,
    staged_bytes: usize,
}

impl Effects {
    /// Opens `url` and checks `kind`'s tables: a database that does not answer stops the
    /// worker before it joins its group.
    pub fn open(kind: Kind, url: Option<&str>) -> Result<Effects> {
        let db = match url {
            Some(url) if kind.table().is_some() => {
                let mut db = Db::open(url)?;
                db.check(kind)?;
                Some(db)
            }
            _ => None,
        };
        Ok(Effects {
            kind,
            db,
            read_from: BTreeMap::new(),
            staged: Vec::new(),
            staged_bytes: 0,
        })
    }

    /// Whether effects go to a database (else processing a message is all there is to it).
    pub fn stores(&self) -> bool {
        self.db.is_some()
    }

    /// Where to start each of the `partitions` just assigned, when the database says (db-offsets
    /// only); reads them as the positions this worker's transactions will move on from.
    pub fn starts(
        &mut self,
        topic: &str,
        partitions: &[Partition],
    ) -> Result<Vec<(Partition, Offset)>> {
        let Some(db) = self.db.as_mut().filter(|_| self.kind == Kind::DbOffsets) else {
            return Ok(Vec::new());
        };
        let stored = db.positions(topic)?;
        let starts: Vec<_> = partitions
            .iter()
            .filter_map(|p| Some((*p, *stored.get(p)?)))
            .collect();
        self.forget(partitions);
        self.read_from.extend(starts.iter().copied());
        Ok(starts)
    }

    /// db-offsets: reads `partition`'s stored position again (after a refusal: it moved away from
    /// what this worker had read) as the one its next transaction moves on from.
    pub fn reread(&mut self, topic: &str, partition: Partition) -> Result<Option<Offset>> {
        Ok(self.starts(topic, &[partition])?.first().map(|(_, o)| *o))
    }

    /// The database's URL (empty without one), for a line that says what to do with it.
    pub fn url(&self) -> &str {
        self.db.as_ref().map_or("", Db::url)
    }

    pub fn forget(&mut self, partitions: &[Partition]) {
        for p in partitions {
            self.read_from.remove(p);
        }
    }

    /// Whether `offset` of `partition` can join the staged effects. db-offsets decides a
    /// partition's staged effects together, each moving the position on from the one before:
    /// an offset below where they move it (read again after a seek) is staged after a flush.
    pub fn continues(&self, topic: &str, partition: Partition, offset: Offset) -> bool {
        self.db
            .as_ref()
            .filter(|_| self.kind == Kind::DbOffsets)
            .and_then(|db| db.moves_to(topic, partition))
            .is_none_or(|next| offset >= next)
    }

    /// Stages `row`, the effect of its message processed `at`, in the database for the next
    /// flush; returns whether the staged effects are as many, or their payloads as large, as a
    /// flush may write.
    pub fn apply(&mut self, at: NaiveTime, row: Row) -> Result<bool> {
        let Some(db) = self.db.as_mut() else {
            anyhow::bail!("no database to stage an effect in");
        };
        // db-offsets: a partition's position as the staged rows before this one leave it, if
        // they are applied; the flush applies or refuses them together.
        let read_from = db
            .moves_to(&row.topic, row.partition)
            .or_else(|| self.read_from.get(&row.partition).copied());
        let (partition, offset, bytes) = (row.partition, row.offset, row.payload.len());
        db.apply(self.kind, row, read_from)?;
        self.staged.push(Processed {
            partition,
            offset,
            at,
        });
        self.staged_bytes += bytes;
        Ok(db.staged() >= BATCH || self.staged_bytes >= BATCH_BYTES)
    }

    /// Writes the staged effects and returns their messages with each one's outcome, in the
    /// order processed. The worker flushes before it waits for messages, before any Kafka commit
    /// and, unless it runs flat out, after each message, so no database work waits on the
    /// worker, and Kafka never commits past an effect the database does not hold (once a flush
    /// failed, every later one fails).
    pub fn flush(&mut self) -> Result<Vec<(Processed, Outcome)>> {
        let Some(db) = self.db.as_mut() else {
            return Ok(Vec::new());
        };
        let staged = std::mem::take(&mut self.staged);
        self.staged_bytes = 0;
        let outcomes = db.flush()?;
        let decided: Vec<_> = staged.into_iter().zip(outcomes).collect();
        if self.kind == Kind::DbOffsets {
            for (m, outcome) in &decided {
                if *outcome == Outcome::Applied {
                    self.read_from.insert(m.partition, m.offset + 1);
                }
            }
        }
        Ok(decided)
    }
}

impl Worker {
    /// Flushes the staged effects and settles each message they decide, in the order
    /// processed: its line, with the time it was processed, then its processed position or, when
    /// refused, its partition going on from the stored position (but for partitions `leaving`,
    /// which the worker hands back). Whoever flushes settles: a commit then covers exactly the
    /// settled work, and no later line comes before a processed message's. Returns the
    /// partitions caught up (sought to their stored position).
    pub(crate) fn flush_effects(
        &self,
        consumer: &BaseConsumer<Worker>,
        leaving: &[Partition],
    ) -> Result<Vec<Partition>> {
        let mut caught_up = Vec::new();
        for (partition, refused) in self.settle()? {
            if !leaving.contains(&partition) {
                self.catch_up(consumer, partition, refused)?;
                caught_up.push(partition);
            }
        }
        Ok(caught_up)
    }

    /// [`Worker::flush_effects`] but the catching up: returns the partitions refused, once each,
    /// with the first offset refused.
    pub(crate) fn settle(&self) -> Result<Vec<(Partition, Offset)>> {
        let decided = self.effects().flush()?;
        let mut refused = Vec::new();
        let mut positions = lock(&self.positions);
        for (m, outcome) in decided {
            let (partition, offset) = (m.partition, m.offset);
            emit_at(
                m.at,
                &self.name,
                match outcome {
                    Outcome::Applied => Event::Processed { partition, offset },
                    Outcome::AlreadyApplied => Event::AlreadyApplied { partition, offset },
                    Outcome::Refused => Event::Refused { partition, offset },
                },
            );
            match outcome {
                // A refused effect is not applied: no commit may pass it.
                Outcome::Refused if !refused.iter().any(|(p, _)| *p == partition) => {
                    refused.push((partition, offset))
                }
                Outcome::Refused => {}
                _ => positions.processed(partition, offset),
            }
        }
        Ok(refused)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The row of `worker`'s processing of `pay`'s `partition` at `offset`.
    pub(crate) fn row(partition: Partition, offset: Offset, worker: &str) -> Row {
        Row {
            topic: "pay".into(),
            partition,
            offset,
            payload: String::new(),
            worker: worker.into(),
            at: "09:00:00.000".into(),
        }
    }

    fn processed(partition: Partition, offset: Offset) -> Processed {
        Processed {
            partition,
            offset,
            at: NaiveTime::MIN,
        }
    }

    /// Stages `offsets` of `partition`, then flushes, as a worker that runs flat out does
    /// before it waits: each message's outcome.
    fn batch(
        e: &mut Effects,
        partition: Partition,
        offsets: std::ops::Range<Offset>,
        worker: &str,
    ) -> Vec<Outcome> {
        for o in offsets {
            assert!(e.continues("pay", partition, o));
            e.apply(NaiveTime::MIN, row(partition, o, worker)).unwrap();
        }
        e.flush().unwrap().into_iter().map(|(_, o)| o).collect()
    }

    #[test]
    fn db_offsets_start_where_the_database_says_and_a_zombie_is_refused() {
        let dir = krb_testutil::scratch_dir::<&str>("worker-effect", &[]);
        let url = format!("sqlite:{}", dir.join("e.db").display());
        Db::init(&url).unwrap();
        let mut a = Effects::open(Kind::DbOffsets, Some(&url)).unwrap();
        let mut b = Effects::open(Kind::DbOffsets, Some(&url)).unwrap();
        assert!(a.starts("pay", &[0, 1]).unwrap().is_empty());
        assert_eq!(batch(&mut a, 0, 0..3, "a"), [Outcome::Applied; 3]);
        assert_eq!(a.read_from, BTreeMap::from([(0, 3)]));
        // b is given p0 while a is still processing offset 3.
        assert_eq!(b.starts("pay", &[0]).unwrap(), vec![(0, 3)]);
        assert_eq!(batch(&mut b, 0, 3..10, "b"), [Outcome::Applied; 7]);
        // a's late batch is refused whole; what it had read stays until it reads again.
        assert_eq!(batch(&mut a, 0, 3..5, "a"), [Outcome::Refused; 2]);
        assert_eq!(a.read_from, BTreeMap::from([(0, 3)]));
        assert_eq!(a.reread("pay", 0).unwrap(), Some(10));
        assert_eq!(a.read_from, BTreeMap::from([(0, 10)]));
        // Given p0 again, a starts where b left it and goes on.
        a.forget(&[0]);
        assert_eq!(a.starts("pay", &[0]).unwrap(), vec![(0, 10)]);
        assert_eq!(batch(&mut a, 0, 10..11, "a"), [Outcome::Applied]);
        let none = Effects::open(Kind::None, Some(&url)).unwrap();
        assert!(none.db.is_none() && !none.stores());
    }

    #[test]
    fn a_db_offsets_batch_takes_only_offsets_after_its_own() {
        let dir = krb_testutil::scratch_dir::<&str>("worker-effect", &[]);
        let url = format!("sqlite:{}", dir.join("e.db").display());
        Db::init(&url).unwrap();
        let mut a = Effects::open(Kind::DbOffsets, Some(&url)).unwrap();
        for o in [0, 1, 5] {
            a.apply(NaiveTime::MIN, row(0, o, "a")).unwrap();
        }
        // After a seek the partition's offsets start lower: staged after a flush.
        assert!(!a.continues("pay", 0, 5) && a.continues("pay", 0, 6));
        assert!(a.continues("pay", 1, 0));
        let decided = a.flush().unwrap();
        assert_eq!(
            decided,
            [0, 1, 5].map(|o| (processed(0, o), Outcome::Applied))
        );
        assert!(a.continues("pay", 0, 0));
        // Other kinds take a message twice in a batch: the database decides.
        let mut i = Effects::open(Kind::Idempotent, Some(&url)).unwrap();
        i.apply(NaiveTime::MIN, row(0, 0, "a")).unwrap();
        assert!(i.continues("pay", 0, 0));
    }

    #[test]
    fn a_batch_is_full_at_its_count_or_at_its_bytes_whichever_comes_first() {
        let dir = krb_testutil::scratch_dir::<&str>("worker-effect", &[]);
        let url = format!("sqlite:{}", dir.join("e.db").display());
        Db::init(&url).unwrap();
        let mut e = Effects::open(Kind::Plain, Some(&url)).unwrap();
        let stage = |e: &mut Effects, offset, payload: &str| {
            let mut r = row(0, offset, "a");
            r.payload = payload.into();
            e.apply(NaiveTime::MIN, r).unwrap()
        };
        // Kafka's largest messages: 16 MB of them fill a batch, not 1000.
        let large = "x".repeat(1 << 20);
        let full: Vec<bool> = (0..16).map(|o| stage(&mut e, o, &large)).collect();
        assert_eq!(full.iter().position(|f| *f), Some(15), "{full:?}");
        assert_eq!(e.flush().unwrap().len(), 16);
        // The bytes start again at each flush: small payloads fill it at their count.
        let full: Vec<bool> = (16..1016).map(|o| stage(&mut e, o, "small")).collect();
        assert_eq!(full.iter().position(|f| *f), Some(999));
    }

    #[test]
    fn a_database_that_fails_at_an_assignment_is_an_error() {
        let dir = krb_testutil::scratch_dir::<&str>("worker-effect", &[]);
        let path = dir.join("e.db");
        let url = format!("sqlite:{}", path.display());
        Db::init(&url).unwrap();
        let mut a = Effects::open(Kind::DbOffsets, Some(&url)).unwrap();
        // The file is overwritten under the worker: its next read fails.
        std::fs::write(&path, vec![7u8; 8192]).unwrap();
        let err = format!("{:#}", a.starts("pay", &[0]).unwrap_err());
        assert!(err.contains("cannot read the positions"), "{err}");
    }
}
