//! A group's logs followed while its lab runs: the files that appear (a worker started), the
//! lines each gains, read through krb-log's one reader and grammar, and when what was read
//! belongs to a run that is no more (a lab run again deletes its group's old logs first).

use std::path::{Path, PathBuf};

use anyhow::Result;
use chrono::NaiveDateTime;
use krb_cli::namespace::Namespace;
use krb_log::logline::Event;
use krb_log::reader::{group_files, Growth, Skipped};
use krb_log::worker_log::{maxpoll_at, WorkerLog};

/// One line of a worker's log, on the group's time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The worker: its log's name without `.log`.
    pub worker: String,
    /// When, on the day [`WorkerLog`] places it, aligned across the group's logs.
    pub at: NaiveDateTime,
    pub what: What,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    Event(Event),
    /// librdkafka's MAXPOLL warning, its line as librdkafka wrote it.
    Maxpoll(String),
}

#[derive(Debug)]
pub enum Poll {
    /// The lines finished since the last poll, in time order, and the lines skipped because
    /// they look like worker lines but do not parse.
    Lines(Vec<Line>, Vec<Skipped>),
    /// A log read so far was removed or written anew: a new run began, and all that was read
    /// belongs to the old one.
    Restart,
}

/// The logs of a group, `DIR/GROUP-*.log` as krb-dups finds them, followed.
pub struct GroupLogs {
    pub(crate) dir: PathBuf,
    pub(crate) group: String,
    pub(crate) ns: Namespace,
    logs: Vec<WorkerLog>,
    /// The first line of the group's first log: every other log is placed on its day.
    near: Option<NaiveDateTime>,
}

impl GroupLogs {
    pub fn new(dir: &Path, group: &str, ns: &Namespace) -> GroupLogs {
        GroupLogs {
            dir: dir.to_path_buf(),
            group: group.to_string(),
            ns: ns.clone(),
            logs: Vec::new(),
            near: None,
        }
    }

    /// Reads what the logs gained since the last poll, and the logs that appeared.
    pub fn poll(&mut self) -> Result<Poll> {
        let (files, _) = group_files(&self.dir, &self.group, &self.ns)?;
        // Sets, not searches: a folder may hold many logs.
        let present: std::collections::HashSet<&PathBuf> = files.iter().collect();
        if self.logs.iter().any(|log| !present.contains(&log.path)) {
            return Ok(Poll::Restart);
        }
        let followed: std::collections::HashSet<PathBuf> =
            self.logs.iter().map(|log| log.path.clone()).collect();
        for file in files.iter().filter(|f| !followed.contains(*f)) {
            self.logs.push(WorkerLog::follow(file));
        }
        let mut lines = Vec::new();
        let mut skipped = Vec::new();
        for log in &mut self.logs {
            let first = log.last_at().is_none();
            if let Growth::Replaced | Growth::Gone = log.read_more()? {
                return Ok(Poll::Restart);
            }
            if let (true, Some(at)) = (first, log.lines.first().map(|l| l.at)) {
                log.align(*self.near.get_or_insert(at));
            }
            let near = log.last_at();
            let (entries, librdkafka) = log.take_lines();
            lines.extend(entries.into_iter().flat_map(|e| {
                let line = Line {
                    worker: log.name.clone(),
                    at: e.at,
                    what: What::Event(e.event),
                };
                std::iter::repeat_n(line, e.times as usize)
            }));
            lines.extend(librdkafka.into_iter().filter_map(|text| {
                let at = maxpoll_at(&text, near?)?;
                Some(Line {
                    worker: log.name.clone(),
                    at,
                    what: What::Maxpoll(text),
                })
            }));
            skipped.append(&mut log.skipped);
        }
        // Each log's lines in time order already; the logs' lines merged by time (a stable
        // sort keeps a log's own order among lines of one millisecond).
        lines.sort_by_key(|l| l.at);
        Ok(Poll::Lines(lines, skipped))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn append(path: &Path, text: &str) {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        f.write_all(text.as_bytes()).unwrap();
    }

    fn lines(poll: Poll) -> Vec<(String, String)> {
        match poll {
            Poll::Lines(lines, _) => lines
                .into_iter()
                .map(|l| {
                    let what = match l.what {
                        What::Event(e) => e.to_string(),
                        What::Maxpoll(_) => "MAXPOLL".into(),
                    };
                    (l.worker, what)
                })
                .collect(),
            Poll::Restart => panic!("a restart"),
        }
    }

    #[test]
    fn logs_that_appear_and_grow_are_read_once_in_time_order() {
        let dir = krb_testutil::scratch_dir::<&str>("live-follow", &[]);
        let mut logs = GroupLogs::new(&dir, "g", &Namespace::default());
        assert!(lines(logs.poll().unwrap()).is_empty());
        append(
            &dir.join("g-a.log"),
            "09:00:00.000 start g-a\n09:00:01.000 g-a assig",
        );
        append(&dir.join("gg-a.log"), "09:00:00.000 start gg-a\n");
        assert_eq!(
            lines(logs.poll().unwrap()),
            vec![("g-a".into(), "start".into())]
        );
        append(
            &dir.join("g-a.log"),
            "ned [0, 1]\n09:00:03.000 g-a p0 offset 0\n",
        );
        append(
            &dir.join("g-b.log"),
            "09:00:02.000 start g-b\n%4|0.000|MAXPOLL|g-b#consumer-1| x\n09:00:02.500 g-b p0 offset x\n",
        );
        let Poll::Lines(read, skipped) = logs.poll().unwrap() else {
            panic!("a restart")
        };
        // librdkafka stamps its lines in Unix time: its place among the others depends on the
        // time zone, so it is looked at apart.
        let (maxpoll, read): (Vec<_>, Vec<_>) = read
            .into_iter()
            .partition(|l| matches!(l.what, What::Maxpoll(_)));
        assert_eq!(maxpoll.len(), 1);
        assert_eq!(maxpoll[0].worker, "g-b");
        let read: Vec<String> = read
            .iter()
            .map(|l| {
                format!(
                    "{} {}",
                    l.worker,
                    match &l.what {
                        What::Event(e) => e.to_string(),
                        What::Maxpoll(_) => unreachable!(),
                    }
                )
            })
            .collect();
        // Merged by time: b's start came between a's two lines.
        assert_eq!(
            read,
            vec!["g-a assigned [0, 1]", "g-b start", "g-a p0 offset 0"]
        );
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].line, 3);
        assert!(lines(logs.poll().unwrap()).is_empty());
    }

    #[test]
    fn a_line_written_again_at_once_is_read_as_often_as_it_was_written() {
        let dir = krb_testutil::scratch_dir::<&str>("live-copies", &[]);
        let mut logs = GroupLogs::new(&dir, "g", &Namespace::default());
        append(
            &dir.join("g-a.log"),
            &"09:00:00.000 g-a p0 offset 7\n".repeat(3),
        );
        assert_eq!(
            lines(logs.poll().unwrap()),
            vec![("g-a".into(), "p0 offset 7".into()); 3]
        );
    }

    #[test]
    fn a_log_removed_or_written_anew_restarts() {
        let dir = krb_testutil::scratch_dir(
            "live-restart",
            &[(
                "g-a.log",
                b"09:00:00.000 start g-a\n09:00:00.001 g-a assigned [0]\n",
            )],
        );
        let mut logs = GroupLogs::new(&dir, "g", &Namespace::default());
        assert_eq!(lines(logs.poll().unwrap()).len(), 2);
        std::fs::write(dir.join("g-a.log"), "09:10:00.000 start g-a\n").unwrap();
        assert!(matches!(logs.poll().unwrap(), Poll::Restart));
        let mut logs = GroupLogs::new(&dir, "g", &Namespace::default());
        assert_eq!(lines(logs.poll().unwrap()).len(), 1);
        std::fs::remove_file(dir.join("g-a.log")).unwrap();
        assert!(matches!(logs.poll().unwrap(), Poll::Restart));
    }
}
