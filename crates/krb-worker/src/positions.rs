//! What the worker has processed and committed, per owned partition: what a commit may send.

use std::collections::BTreeMap;

use krb_log::logline::{Offset, Partition};

#[derive(Debug, Default)]
pub struct Positions {
    /// Next offset to read after what was processed.
    processed: BTreeMap<Partition, Offset>,
    /// Last committed next offset.
    committed: BTreeMap<Partition, Offset>,
}

impl Positions {
    pub fn processed(&mut self, partition: Partition, offset: Offset) {
        self.processed.insert(partition, offset + 1);
    }

    /// The positions that advanced past the last commit, ascending.
    pub fn uncommitted(&self) -> Vec<(Partition, Offset)> {
        self.processed
            .iter()
            .filter(|(p, o)| self.committed.get(p).is_none_or(|c| *o > c))
            .map(|(p, o)| (*p, *o))
            .collect()
    }

    /// Every processed position among `partitions`, committed before or not, ascending.
    pub fn of(&self, partitions: &[Partition]) -> Vec<(Partition, Offset)> {
        self.processed
            .iter()
            .filter(|(p, _)| partitions.contains(p))
            .map(|(p, o)| (*p, *o))
            .collect()
    }

    pub fn committed(&mut self, positions: &[(Partition, Offset)]) {
        self.committed.extend(positions.iter().copied());
    }

    /// Forgets partitions the worker no longer owns, so no later commit can move their position.
    pub fn forget(&mut self, partitions: &[Partition]) {
        for p in partitions {
            self.processed.remove(p);
            self.committed.remove(p);
        }
    }

    /// Forgets what was processed since the last commit (its transaction was aborted: it is
    /// processed again).
    pub fn rewind(&mut self) {
        self.processed = self.committed.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_only_what_advanced_and_is_still_owned() {
        let mut pos = Positions::default();
        pos.processed(0, 10);
        pos.processed(1, 20);
        assert_eq!(pos.uncommitted(), vec![(0, 11), (1, 21)]);
        pos.committed(&[(0, 11), (1, 21)]);
        assert!(pos.uncommitted().is_empty());
        assert_eq!(pos.of(&[0]), vec![(0, 11)]);
        pos.processed(1, 21);
        assert_eq!(pos.uncommitted(), vec![(1, 22)]);
        pos.forget(&[1]);
        assert!(pos.uncommitted().is_empty());
        assert!(pos.of(&[1]).is_empty());
        pos.processed(0, 30);
        pos.processed(2, 5);
        pos.rewind();
        assert!(pos.uncommitted().is_empty());
        assert_eq!(pos.of(&[0, 2]), vec![(0, 11)]);
    }
}
