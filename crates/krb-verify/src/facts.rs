//! What the labs read from a run: the group's logs and what they say.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{Context, Result};
use chrono::NaiveDateTime;
use krb_cli::lang::{Lang, Msg};
use krb_cli::namespace::Namespace;
use krb_dups::Report;
use krb_log::logline::{Event, Offset, Partition};
use krb_log::worker_log::{Entry, WorkerLog};

use crate::messages::Shared;
#[cfg(feature = "kafka")]
use rdkafka::consumer::{BaseConsumer, Consumer};

krb_cli::msgs! { ;
    NO_MEMBER_LOG = "no log {name}.log of group {group}", "{group} 그룹의 로그 {name}.log가 없습니다";
    NO_START = "{member}'s log has no start line", "{member}의 로그에 start 줄이 없습니다";
    NO_STOP = "{member}'s log has no stop line", "{member}의 로그에 stop 줄이 없습니다";
    NO_SECOND_START = "{member}'s log has no second start line",
        "{member}의 로그에 두 번째 start 줄이 없습니다";
    NO_SECOND_STOP = "{member}'s log has no second stop line",
        "{member}의 로그에 두 번째 stop 줄이 없습니다";
}
/// A line a lab's verdict starts from, missing from a member's log (another lab's group, a run
/// stopped early): a start, a stop, and a restart's second ones.
pub const NO_LINE: [Msg; 4] = [NO_START, NO_STOP, NO_SECOND_START, NO_SECOND_STOP];

/// A group's logs, read and aligned once, and krb-dups' report of them.
pub struct Run {
    pub group: String,
    pub logs: Vec<WorkerLog>,
    pub report: Report,
}

impl Run {
    /// Reads group `group`'s logs in `dir`, each run of completion lines one entry if `runs`
    /// (see [`krb_log::worker_log::Entry::run`]).
    pub fn read(dir: &Path, group: &str, ns: &Namespace, runs: bool) -> Result<Run> {
        Ok(Run {
            group: group.to_string(),
            logs: WorkerLog::read_group_runs(dir, group, ns, runs)?,
            report: krb_dups::read_group(dir, group, ns)?,
        })
    }

    /// A line a lab's member must have written and did not (`msg`: which, one of [`NO_LINE`]).
    pub fn missing(msg: Msg, member: &str) -> anyhow::Error {
        anyhow::anyhow!(msg.fill(Lang::of_process(), &[("member", &member)]))
    }

    /// The log of member `GROUP-member`.
    pub fn member(&self, member: &str) -> Result<&WorkerLog> {
        let (group, name) = (&self.group, format!("{}-{member}", self.group));
        self.logs.iter().find(|l| l.name == name).with_context(|| {
            NO_MEMBER_LOG.fill(Lang::of_process(), &[("name", &name), ("group", group)])
        })
    }

    /// Every line the reader skipped, as `FILE:LINE: skipped: why`, and what it found wrong
    /// with a log it read all the same (another worker's lines, none), as `FILE[:LINE]: what`.
    pub fn skipped(&self) -> Vec<String> {
        self.logs.iter().flat_map(|l| l.notes()).collect()
    }
}

pub fn revoked(e: &Event) -> Option<&Vec<Partition>> {
    let Event::Revoked(ps) = e else { return None };
    Some(ps)
}

pub fn assigned(e: &Event) -> Option<&Vec<Partition>> {
    let Event::Assigned(ps) = e else { return None };
    Some(ps)
}

/// The last committed position of `partition` in `lines`.
pub fn last_commit(lines: &[Entry], partition: Partition) -> Option<Offset> {
    lines.iter().rev().find_map(|l| match &l.event {
        Event::Commit(ps) => ps.iter().find(|(p, _)| *p == partition).map(|(_, o)| *o),
        _ => None,
    })
}

/// The last offset of `partition` processed in `lines`.
pub fn last_processed(lines: &[Entry], partition: Partition) -> Option<Offset> {
    lines.iter().rev().find_map(|l| match l.nth(l.times - 1) {
        Event::Processed {
            partition: p,
            offset,
        } if p == partition => Some(offset),
        _ => None,
    })
}

pub fn seconds(from: NaiveDateTime, to: NaiveDateTime) -> f64 {
    (to - from).num_milliseconds() as f64 / 1000.0
}

/// `82 duplicates on p1`, `0 duplicates`, `136 duplicates on p0, p1, ...`.
pub fn summary(report: &Report) -> Shared {
    let partitions: BTreeSet<Partition> = report.runs.iter().map(|r| r.partition).collect();
    Shared::Summary {
        count: report.duplicates(),
        partitions: partitions.into_iter().collect(),
        range: None,
    }
}

#[cfg(feature = "kafka")]
/// The group's committed offsets of `topic`'s first `partitions` partitions, from the broker
/// (both names as the lab calls them: the broker's namespace applies here).
pub fn committed(
    broker: &krb_kafka::broker::BrokerArgs,
    group: &str,
    topic: &str,
    partitions: i32,
) -> Result<Vec<(Partition, Option<Offset>)>> {
    let consumer: BaseConsumer = broker
        .config("krb-verify", &[("group.id", broker.name(group))])
        .create()
        .context("cannot create a consumer to read committed offsets")?;
    read_committed(
        &consumer,
        &broker.name(topic),
        partitions,
        std::time::Duration::from_secs(10),
    )
    .map_err(|e| anyhow::anyhow!(broker.unreachable(&e)))
}

#[cfg(feature = "kafka")]
/// The committed offsets of `topic`'s first `partitions` partitions for the group `consumer`
/// was made with (its `group.id`), as librdkafka gives them (-1001: none).
pub fn read_committed(
    consumer: &BaseConsumer,
    topic: &str,
    partitions: i32,
    timeout: std::time::Duration,
) -> rdkafka::error::KafkaResult<Vec<(Partition, Option<Offset>)>> {
    let mut tpl = rdkafka::TopicPartitionList::new();
    for p in 0..partitions {
        tpl.add_partition(topic, p);
    }
    let tpl = consumer.committed_offsets(tpl, timeout)?;
    Ok(tpl
        .elements()
        .iter()
        .map(|e| (e.partition(), e.offset().to_raw()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_log_or_line_is_said_in_both_languages() {
        let mut all = vec![NO_MEMBER_LOG];
        all.extend(NO_LINE);
        assert_eq!(krb_cli::lang::table_problems(&all), Vec::<String>::new());
        assert_eq!(
            NO_LINE[2].fill(Lang::Ko, &[("member", &"a")]),
            "a의 로그에 두 번째 start 줄이 없습니다"
        );
    }
}
