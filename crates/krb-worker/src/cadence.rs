//! When the worker commits: after a count of processed messages (the article's
//! `--commit-every`), after a time since the last commit (`--commit-interval-ms`, as Kafka
//! Streams' `commit.interval.ms`), or whichever comes first.

use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cadence {
    /// Commit after this many processed messages.
    pub every: Option<u64>,
    /// Commit once this long has passed since the last commit.
    pub interval: Option<Duration>,
}

/// What the worker has processed since its last commit.
#[derive(Debug)]
pub struct SinceCommit {
    processed: u64,
    at: Instant,
}

impl SinceCommit {
    pub fn new(now: Instant) -> SinceCommit {
        SinceCommit {
            processed: 0,
            at: now,
        }
    }

    pub fn processed(&mut self) {
        self.processed += 1;
    }

    /// A commit was made (or there was nothing to commit) at `now`.
    pub fn committed(&mut self, now: Instant) {
        *self = SinceCommit::new(now);
    }

    /// Whether `cadence` asks for a commit at `now`. Time alone never asks while nothing was
    /// processed: an idle worker has nothing to commit.
    pub fn due(&self, cadence: Cadence, now: Instant) -> bool {
        let by_count = cadence.every.is_some_and(|n| self.processed >= n);
        let by_time = cadence
            .interval
            .is_some_and(|t| self.processed > 0 && now.duration_since(self.at) >= t);
        by_count || by_time
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn a_count_commits_after_that_many_messages_whatever_the_time() {
        let t0 = Instant::now();
        let cadence = Cadence {
            every: Some(3),
            interval: None,
        };
        let mut since = SinceCommit::new(t0);
        since.processed();
        since.processed();
        assert!(!since.due(cadence, t0 + 3_600_000 * MS));
        since.processed();
        assert!(since.due(cadence, t0));
    }

    #[test]
    fn an_interval_commits_once_it_has_passed_with_something_processed() {
        let t0 = Instant::now();
        let cadence = Cadence {
            every: None,
            interval: Some(100 * MS),
        };
        let mut since = SinceCommit::new(t0);
        assert!(!since.due(cadence, t0 + 500 * MS), "nothing processed");
        since.processed();
        assert!(!since.due(cadence, t0 + 99 * MS));
        assert!(since.due(cadence, t0 + 100 * MS));
        since.committed(t0 + 100 * MS);
        since.processed();
        assert!(!since.due(cadence, t0 + 150 * MS));
        assert!(since.due(cadence, t0 + 200 * MS));
    }

    #[test]
    fn both_commit_at_whichever_comes_first() {
        let t0 = Instant::now();
        let cadence = Cadence {
            every: Some(2),
            interval: Some(100 * MS),
        };
        let mut since = SinceCommit::new(t0);
        since.processed();
        assert!(since.due(cadence, t0 + 100 * MS));
        since.committed(t0);
        since.processed();
        since.processed();
        assert!(since.due(cadence, t0 + MS));
    }
}
