//! What a processing leaves behind besides its time (`--effect`), and, for db-offsets, where
//! the worker starts a partition it is given: at the position the database holds, not at
//! Kafka's committed offset.

use std::collections::BTreeMap;

use anyhow::Result;
use krb_common::logline::{Offset, Partition};
use krb_effect::{Db, Kind, Outcome, Row};

/// The worker's effects: its database, if any, and what db-offsets read from it.
pub struct Effects {
    kind: Kind,
    db: Option<Db>,
    /// db-offsets: each owned partition's position as this worker last read or wrote it.
    read_from: BTreeMap<Partition, Offset>,
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
        })
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
        let mut starts = Vec::new();
        for p in partitions {
            match stored.get(p) {
                Some(&o) => {
                    self.read_from.insert(*p, o);
                    starts.push((*p, o));
                }
                None => {
                    self.read_from.remove(p);
                }
            }
        }
        Ok(starts)
    }

    /// db-offsets: reads `partition`'s stored position again (after a refusal: it moved away from
    /// what this worker had read) as the one its next transaction moves on from.
    pub fn reread(&mut self, topic: &str, partition: Partition) -> Result<Option<Offset>> {
        let Some(db) = self.db.as_mut().filter(|_| self.kind == Kind::DbOffsets) else {
            return Ok(None);
        };
        let at = db.positions(topic)?.get(&partition).copied();
        match at {
            Some(o) => self.read_from.insert(partition, o),
            None => self.read_from.remove(&partition),
        };
        Ok(at)
    }

    /// Forgets what was read for partitions the worker no longer owns.
    pub fn forget(&mut self, partitions: &[Partition]) {
        for p in partitions {
            self.read_from.remove(p);
        }
    }

    /// Commits the effects applied since the last flush. The worker flushes before it waits
    /// (for a processing's time, for messages) and before any Kafka commit, so a database
    /// transaction is never open while the worker waits, and Kafka never commits past an
    /// effect the database does not hold (once a flush failed, every later one fails).
    pub fn flush(&mut self) -> Result<()> {
        match self.db.as_mut() {
            Some(db) => db.flush(),
            None => Ok(()),
        }
    }

    /// Applies one processing's effect, in the transaction the next flush commits. The row is
    /// made only when a store takes it: without one the worker copies nothing per message.
    pub fn apply(&mut self, row: impl FnOnce() -> Row) -> Result<Outcome> {
        let Some(db) = self.db.as_mut() else {
            return Ok(Outcome::Applied);
        };
        let row = row();
        let outcome = db.apply(self.kind, &row, self.read_from.get(&row.partition).copied())?;
        if outcome == Outcome::Applied && self.kind == Kind::DbOffsets {
            self.read_from.insert(row.partition, row.offset + 1);
        }
        Ok(outcome)
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
            payload: String::new(),
            worker: worker.into(),
            at: "09:00:00.000".into(),
        }
    }

    /// Applies and flushes, as the worker does before it waits.
    fn apply(e: &mut Effects, row: &Row) -> Outcome {
        let outcome = e.apply(|| row.clone()).unwrap();
        e.flush().unwrap();
        outcome
    }

    #[test]
    fn db_offsets_start_where_the_database_says_and_a_zombie_is_refused() {
        let dir = krb_common::scratch::scratch_dir::<&str>("worker-effect", &[]);
        let url = format!("sqlite:{}", dir.join("e.db").display());
        Db::init(&url).unwrap();
        let mut a = Effects::open(Kind::DbOffsets, Some(&url)).unwrap();
        let mut b = Effects::open(Kind::DbOffsets, Some(&url)).unwrap();
        assert!(a.starts("pay", &[0, 1]).unwrap().is_empty());
        for o in 0..3 {
            assert_eq!(apply(&mut a, &row(0, o, "a")), Outcome::Applied);
        }
        // b is given p0 while a is still processing offset 3.
        assert_eq!(b.starts("pay", &[0]).unwrap(), vec![(0, 3)]);
        for o in 3..10 {
            assert_eq!(apply(&mut b, &row(0, o, "b")), Outcome::Applied);
        }
        assert_eq!(apply(&mut a, &row(0, 3, "a")), Outcome::Refused);
        // Given p0 again, a starts where b left it and goes on.
        a.forget(&[0]);
        assert_eq!(a.starts("pay", &[0]).unwrap(), vec![(0, 10)]);
        assert_eq!(apply(&mut a, &row(0, 10, "a")), Outcome::Applied);
        let none = Effects::open(Kind::None, Some(&url)).unwrap();
        assert!(none.db.is_none());
    }

    #[test]
    fn a_database_that_fails_at_an_assignment_is_an_error() {
        let dir = krb_common::scratch::scratch_dir::<&str>("worker-effect", &[]);
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
