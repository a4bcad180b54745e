//! A worker's log file read back through the grammar, with librdkafka's lines kept as text.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{Context, Result};
use chrono::{DateTime, Local, NaiveTime};

use crate::logline::{Event, LogLine, Offset, Partition};

/// One worker's log, parsed.
pub struct WorkerLog {
    /// The lines that follow the grammar, in file order.
    pub lines: Vec<LogLine>,
    /// The whole file.
    pub text: String,
}

impl WorkerLog {
    /// Reads `DIR/NAME.log`; a line that looks like a worker line but does not parse is an error.
    pub fn read(dir: &Path, name: &str) -> Result<WorkerLog> {
        let path = dir.join(format!("{name}.log"));
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if let Some(parsed) = LogLine::parse(line)
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 1))?
            {
                lines.push(parsed);
            }
        }
        Ok(WorkerLog { lines, text })
    }

    /// Index of the first line at or after `from` whose event matches.
    pub fn find(&self, from: usize, pred: impl Fn(&Event) -> bool) -> Option<usize> {
        (from..self.lines.len()).find(|&i| pred(&self.lines[i].event))
    }

    /// Time of the `nth` (0-based) line whose event matches.
    pub fn time_of(&self, nth: usize, pred: impl Fn(&Event) -> bool) -> Option<NaiveTime> {
        self.lines
            .iter()
            .filter(|l| pred(&l.event))
            .nth(nth)
            .map(|l| l.time)
    }

    /// Completed (partition, offset) pairs, in order.
    pub fn processed(&self) -> impl Iterator<Item = (Partition, Offset)> + '_ {
        self.lines.iter().filter_map(|l| match l.event {
            Event::Processed { partition, offset } => Some((partition, offset)),
            _ => None,
        })
    }

    /// Partitions in the rebalance events of `kind` between two times.
    pub fn partitions_between(
        &self,
        from: NaiveTime,
        to: NaiveTime,
        kind: fn(&Event) -> Option<&Vec<Partition>>,
    ) -> BTreeSet<Partition> {
        self.lines
            .iter()
            .filter(|l| l.time >= from && l.time < to)
            .filter_map(|l| kind(&l.event))
            .flatten()
            .copied()
            .collect()
    }
}

/// Time of day of librdkafka's MAXPOLL warning in a log (librdkafka stamps it in Unix time).
pub fn maxpoll_time(text: &str) -> Option<NaiveTime> {
    let line = text
        .lines()
        .find(|l| l.starts_with("%4|") && l.contains("|MAXPOLL|"))?;
    let (secs, millis) = line.split('|').nth(1)?.split_once('.')?;
    let at = DateTime::from_timestamp(secs.parse().ok()?, millis.parse::<u32>().ok()? * 1_000_000)?;
    Some(at.with_timezone(&Local).time())
}
