//! Two consumers in one message at once, lab 2's point: a consumer still processing a slow
//! message after the group gave its partition to another. Found once, here, for krb-verify's
//! statement and krb-timeline's marked interval, so the two cannot disagree.

use chrono::NaiveDateTime;

use crate::logline::{Event, Offset, Partition};
use crate::worker_log::WorkerLog;

/// A time when two consumers were both in one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overlap {
    pub partition: Partition,
    pub offset: Offset,
    /// The consumer in the slow message.
    pub slow: String,
    /// The consumer given the partition meanwhile.
    pub other: String,
    /// When the other was given the partition.
    pub from: NaiveDateTime,
    /// When the slow consumer finished the message.
    pub to: NaiveDateTime,
}

impl Overlap {
    pub fn seconds(&self) -> f64 {
        (self.to - self.from).num_milliseconds() as f64 / 1000.0
    }
}

/// Every overlap in a group's logs: for each slow message (its `slow start` and the same
/// worker's completion of it), each other worker given that partition in between, from that
/// assignment to the completion.
pub fn overlaps<L: std::borrow::Borrow<WorkerLog>>(logs: &[L]) -> Vec<Overlap> {
    let logs: Vec<&WorkerLog> = logs.iter().map(|l| l.borrow()).collect();
    let mut found = Vec::new();
    for &slow in &logs {
        for (i, start) in slow.lines.iter().enumerate() {
            let Event::SlowStart { partition, offset } = start.event else {
                continue;
            };
            let done = slow.lines[i + 1..]
                .iter()
                .find(|l| l.event.completion() == Some((partition, offset)));
            let Some(done) = done else { continue };
            for other in logs.iter().filter(|l| l.name != slow.name) {
                let given = other.lines.iter().find(|l| {
                    l.at > start.at
                        && l.at < done.at
                        && matches!(&l.event, Event::Assigned(ps) if ps.contains(&partition))
                });
                if let Some(given) = given {
                    found.push(Overlap {
                        partition,
                        offset,
                        slow: slow.name.clone(),
                        other: other.name.clone(),
                        from: given.at,
                        to: done.at,
                    });
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(files: &[(&str, &str)]) -> Vec<WorkerLog> {
        let dir = krb_testutil::scratch_dir("overlap", files);
        WorkerLog::read_group(&dir, "s", &Default::default()).unwrap()
    }

    #[test]
    fn b_given_the_partition_while_a_is_in_offset_3() {
        let logs = group(&[
            (
                "s-a.log",
                "10:00:00.000 s-a assigned [0]\n10:00:01.000 s-a p0 offset 3 slow start\n\
                 10:00:16.000 s-a p0 offset 3\n",
            ),
            (
                "s-b.log",
                "10:00:00.500 s-b assigned []\n10:00:14.400 s-b assigned [0]\n\
                 10:00:14.500 s-b p0 offset 3\n",
            ),
        ]);
        let found = overlaps(&logs);
        assert_eq!(found.len(), 1, "{found:?}");
        let o = &found[0];
        assert_eq!(
            (o.partition, o.offset, o.slow.as_str(), o.other.as_str()),
            (0, 3, "s-a", "s-b")
        );
        assert_eq!(o.seconds(), 1.6);
    }

    #[test]
    fn no_overlap_when_the_partition_moves_after_the_slow_message_or_never_ends() {
        let after = group(&[
            (
                "s-a.log",
                "10:00:01.000 s-a p0 offset 3 slow start\n10:00:16.000 s-a p0 offset 3\n",
            ),
            ("s-b.log", "10:00:17.000 s-b assigned [0]\n"),
        ]);
        assert!(overlaps(&after).is_empty());
        let unfinished = group(&[
            ("s-a.log", "10:00:01.000 s-a p0 offset 3 slow start\n"),
            ("s-b.log", "10:00:02.000 s-b assigned [0]\n"),
        ]);
        assert!(overlaps(&unfinished).is_empty());
    }
}
