//! A worker's log read back through the one reader, every line placed on a day: lines carry the
//! time of day only, so a line's day is the one within 12 hours of the line before it (a run
//! across midnight goes on to the next day). A log's first line is on day 0; a group's other logs
//! are moved by whole days so that each first line is within 12 hours of the first log's. So
//! every comparison of times, in a log and across a group's, holds for runs under 12 hours.

use std::iter::repeat_n;
use std::mem::take;
use std::path::{Path, PathBuf};

use anyhow::Result;
use chrono::{DateTime, Local, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta};

use crate::logline::{Event, LogLine, Offset, ParseError, Partition};
use crate::reader::{group_files, parse_bytes, shown, Follow, Growth, Remark, Skipped, Workers};
use krb_cli::namespace::Namespace;

/// Day 0, the date every log's first line is placed on.
pub fn day_zero() -> NaiveDate {
    NaiveDate::from_ymd_opt(2000, 1, 1).expect("a valid date")
}

/// `time` on the day after a line at `previous`: within 12 hours of it, or on day 0 for the
/// first line.
pub fn place(previous: Option<NaiveDateTime>, time: NaiveTime) -> NaiveDateTime {
    previous.map_or(day_zero().and_time(time), |p| nearest(p, time))
}

/// `time` on the day that puts it within 12 hours of `near`.
pub fn nearest(near: NaiveDateTime, time: NaiveTime) -> NaiveDateTime {
    let at = near.date().and_time(time);
    let half = TimeDelta::hours(12);
    match at - near {
        d if d < -half => at + TimeDelta::days(1),
        d if d > half => at - TimeDelta::days(1),
        _ => at,
    }
}

/// One worker line, on its day, or completion lines in a row: copies, or a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The (first) line's time of day on its day.
    pub at: NaiveDateTime,
    pub name: String,
    /// The first line's.
    pub event: Event,
    /// How many lines in a row it stands for: copies of a completion line in one millisecond
    /// (10M copies are one entry) or, in a log read whole, a run of them one offset apart, same
    /// kind and partition (one entry a poll's batch); 1 for every other line.
    pub times: u32,
    /// Its lines are a run, each one offset past the line before, not copies.
    pub run: bool,
    /// When its last line was: `at`, but for a run.
    pub last: NaiveDateTime,
}

impl Entry {
    /// From 0.
    pub fn nth(&self, k: u32) -> Event {
        shifted(&self.event, if self.run { k } else { 0 })
    }

    /// The events of its lines, each once: a run's each, copies' one.
    pub fn events(&self) -> impl Iterator<Item = Event> + '_ {
        (0..if self.run { self.times } else { 1 }).map(|k| self.nth(k))
    }

    /// Its lines, each when and what: a run's lines between its first and last are placed at
    /// its first line's time.
    pub fn lines(&self) -> impl Iterator<Item = (NaiveDateTime, Event)> + '_ {
        let times = repeat_n(self.at, self.times as usize - 1).chain([self.last]);
        times.zip((0..self.times).map(|k| self.nth(k)))
    }
}

/// `event`, a completion, `by` offsets further on; any other event as it is.
fn shifted(event: &Event, by: u32) -> Event {
    let mut event = event.clone();
    if let Event::Processed { offset, .. }
    | Event::AlreadyApplied { offset, .. }
    | Event::Refused { offset, .. } = &mut event
    {
        *offset += Offset::from(by);
    }
    event
}

#[derive(Clone, Debug, Default)]
pub struct WorkerLog {
    pub path: PathBuf,
    /// The file's name without `.log`: the worker's name.
    pub name: String,
    /// The lines that follow the grammar, in file order.
    pub lines: Vec<Entry>,
    /// librdkafka's own lines (`%4|...`).
    pub librdkafka: Vec<String>,
    pub skipped: Vec<Skipped>,
    /// Only for a whole file ([`WorkerLog::read_file`]).
    pub remarks: Vec<Remark>,
    workers: Workers,
    follow: Follow,
    /// When the last line read was, to place the next one on its day.
    previous: Option<NaiveDateTime>,
    /// How many offsets the log's acknowledgement lines hold so far (see [`MAX_ACKED`]).
    acked: i64,
    /// Whether a run of completion lines is kept as one entry ([`Entry::run`]): in a log read
    /// whole, not in one followed, whose readers take each line as it comes.
    runs: bool,
}

/// The most offsets a log's acknowledgement lines may hold together. A lab 8 member acknowledges
/// a thousand records at most; unbounded, lines of [`crate::logline::MAX_RANGE`] offsets each
/// (50 bytes a line) would make a small file fill the memory of every tool that reads it.
pub const MAX_ACKED: i64 = 4 * crate::logline::MAX_RANGE;

impl WorkerLog {
    /// Reads one log file, its runs of completion lines each one entry. Only a file that cannot
    /// be read (or is not a regular file) is an error; what is wrong in it is in
    /// [`WorkerLog::skipped`] and [`WorkerLog::remarks`].
    pub fn read_file(path: &Path) -> Result<WorkerLog> {
        WorkerLog::read_whole(path, true)
    }

    fn read_whole(path: &Path, runs: bool) -> Result<WorkerLog> {
        let mut log = WorkerLog::follow(path);
        log.runs = runs;
        log.finish()?;
        Ok(log)
    }

    /// Reads the rest of a log that is whole, as [`WorkerLog::read_file`] reads it: a last line
    /// cut short is skipped, and what is wrong with the file is said in its remarks. A reader
    /// that takes the lines of each [`WorkerLog::read_more`] first keeps no more than a chunk.
    pub fn finish(&mut self) -> Result<()> {
        let mut follow = self.follow.clone();
        let (_, cut) = follow.read_to_end(|number, bytes| self.add(number, bytes))?;
        self.skipped.extend(cut);
        self.remarks = self.workers.remarks(&self.path);
        self.follow = follow;
        Ok(())
    }

    /// A log to be read as it grows, with [`WorkerLog::read_more`]; nothing read yet.
    pub fn follow(path: &Path) -> WorkerLog {
        let name = path.file_stem().map(|s| shown(s.as_ref()));
        WorkerLog {
            path: path.to_path_buf(),
            name: name.unwrap_or_default(),
            follow: Follow::new(path),
            ..WorkerLog::default()
        }
    }

    /// Reads the lines finished since the last read (see [`Follow::read`]).
    pub fn read_more(&mut self) -> Result<Growth> {
        let mut follow = self.follow.clone();
        let growth = follow.read(|number, bytes| self.add(number, bytes))?;
        self.follow = follow;
        Ok(growth)
    }

    /// Takes the lines and librdkafka's lines read so far out of the log, which reads on from
    /// where it is: a reader that handles each line once, as it comes, need keep none.
    pub fn take_lines(&mut self) -> (Vec<Entry>, Vec<String>) {
        (take(&mut self.lines), take(&mut self.librdkafka))
    }

    pub fn last_at(&self) -> Option<NaiveDateTime> {
        self.previous
    }

    fn add(&mut self, number: u64, bytes: &[u8]) {
        match parse_bytes(bytes).and_then(|line| self.bounded(line)) {
            Ok(Some(line)) => {
                let at = place(self.previous, line.time);
                self.previous = Some(at);
                self.workers.see(number, line.name.as_bytes());
                match self.lines.last_mut() {
                    Some(last)
                        if last.name == line.name
                            && last.times < u32::MAX
                            && line.event.completion().is_some()
                            && (!last.run && last.at == at && last.event == line.event
                                || self.runs
                                    && (last.run || last.times == 1)
                                    && last.last <= at
                                    && shifted(&last.event, last.times) == line.event) =>
                    {
                        last.run = last.event != line.event;
                        last.times += 1;
                        last.last = at;
                    }
                    _ => self.lines.push(Entry {
                        at,
                        name: line.name,
                        event: line.event,
                        times: 1,
                        run: false,
                        last: at,
                    }),
                }
            }
            Ok(None) if bytes.starts_with(b"%") => self
                .librdkafka
                .push(String::from_utf8_lossy(bytes).trim_end().to_string()),
            Ok(None) => {}
            Err(e) => self
                .skipped
                .push(Skipped::new(&self.path, number, e.reason)),
        }
    }

    /// `line`, unless its acknowledged offsets take the log's past [`MAX_ACKED`].
    fn bounded(&mut self, line: Option<LogLine>) -> Result<Option<LogLine>, ParseError> {
        let offsets = match line.as_ref().map(|l| &l.event) {
            Some(Event::AcksCommitted { offsets, .. } | Event::AcksFailed { offsets, .. }) => {
                offsets.len() as i64
            }
            _ => 0,
        };
        if self.acked + offsets > MAX_ACKED {
            return Err(crate::logline::bad(format!(
                "more than {MAX_ACKED} acknowledged offsets in the log with this line: no member acknowledges so many"
            )));
        }
        self.acked += offsets;
        Ok(line)
    }

    /// Its skipped lines and its remarks, one line each.
    pub fn notes(&self) -> Vec<String> {
        let skipped = self.skipped.iter().map(|s| s.to_string());
        skipped
            .chain(self.remarks.iter().map(|r| r.to_string()))
            .collect()
    }

    /// Moves every line by whole days so that the first is within 12 hours of `near`; the
    /// lines read after them follow. For a log followed: call it once its first line is read.
    pub fn align(&mut self, near: NaiveDateTime) {
        let Some(first) = self.lines.first() else {
            return;
        };
        let shift = nearest(near, first.at.time()) - first.at;
        for line in &mut self.lines {
            line.at += shift;
            line.last += shift;
        }
        self.previous = self.previous.map(|p| p + shift);
    }

    /// The group's logs, `DIR/GROUP-*.log` less other groups' (see
    /// [`crate::reader::group_files`]), sorted by name, each aligned to the first.
    pub fn read_group(dir: &Path, group: &str, ns: &Namespace) -> Result<Vec<WorkerLog>> {
        WorkerLog::read_group_runs(dir, group, ns, true)
    }

    /// The group's logs as [`WorkerLog::read_group`] reads them, but an entry for each
    /// completion line unless `runs`: for a reader that needs each line's time.
    pub fn read_group_runs(
        dir: &Path,
        group: &str,
        ns: &Namespace,
        runs: bool,
    ) -> Result<Vec<WorkerLog>> {
        let (files, _) = group_files(dir, group, ns)?;
        let mut logs = files
            .iter()
            .map(|f| WorkerLog::read_whole(f, runs))
            .collect::<Result<Vec<_>>>()?;
        if let Some(near) = logs.iter().find_map(|l| Some(l.lines.first()?.at)) {
            for log in &mut logs {
                log.align(near);
            }
        }
        Ok(logs)
    }

    pub fn find(&self, from: usize, pred: impl Fn(&Event) -> bool) -> Option<usize> {
        (from..self.lines.len()).find(|&i| self.lines[i].events().any(|e| pred(&e)))
    }

    /// From 0.
    pub fn time_of(&self, nth: usize, pred: impl Fn(&Event) -> bool) -> Option<NaiveDateTime> {
        self.lines
            .iter()
            .flat_map(Entry::lines)
            .filter(|(_, e)| pred(e))
            .nth(nth)
            .map(|(at, _)| at)
    }

    /// Whatever their effect did.
    pub fn processed(&self) -> impl Iterator<Item = (Partition, Offset)> + '_ {
        self.lines
            .iter()
            .flat_map(Entry::lines)
            .filter_map(|(_, e)| e.completion())
    }

    pub fn partitions_between(
        &self,
        from: NaiveDateTime,
        to: NaiveDateTime,
        kind: fn(&Event) -> Option<&Vec<Partition>>,
    ) -> std::collections::BTreeSet<Partition> {
        self.lines
            .iter()
            .filter(|l| l.at >= from && l.at < to)
            .filter_map(|l| kind(&l.event))
            .flatten()
            .copied()
            .collect()
    }

    /// When librdkafka's MAXPOLL warning came, on the day nearest the log's first line.
    pub fn maxpoll(&self) -> Option<NaiveDateTime> {
        let near = self.lines.first()?.at;
        self.librdkafka
            .iter()
            .find_map(|line| maxpoll_at(line, near))
    }
}

/// When `line`, one of librdkafka's, is its MAXPOLL warning (`%4|1790813686.528|MAXPOLL|...`:
/// the consumer went longer than max.poll.interval.ms between polls and leaves its group),
/// the time it came, on the day nearest `near`: librdkafka stamps its lines in Unix time, the
/// log's lines in local time of day.
pub fn maxpoll_at(line: &str, near: NaiveDateTime) -> Option<NaiveDateTime> {
    if !(line.starts_with("%4|") && line.contains("|MAXPOLL|")) {
        return None;
    }
    let (secs, millis) = line.split('|').nth(1)?.split_once('.')?;
    let at = DateTime::from_timestamp(
        secs.parse().ok()?,
        millis.parse::<u32>().ok()?.checked_mul(1_000_000)?,
    )?;
    Some(nearest(near, at.with_timezone(&Local).time()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(files: &[(&str, &str)]) -> krb_testutil::Scratch {
        krb_testutil::scratch_dir("worker-log", files)
    }

    #[test]
    fn a_run_across_midnight_goes_on_the_next_day() {
        let d = dir(&[(
            "g-a.log",
            "23:59:59.900 g-a p0 offset 1\n00:00:00.100 g-a p0 offset 3\n23:59:59.950 g-a p0 offset 5\n01:00:00.000 g-a p0 offset 7\n",
        )]);
        let log = WorkerLog::read_file(&d.join("g-a.log")).unwrap();
        let days: Vec<i64> = log
            .lines
            .iter()
            .map(|l| (l.at.date() - day_zero()).num_days())
            .collect();
        // A line written a moment before midnight after one just past it stays on its day.
        assert_eq!(days, vec![0, 1, 0, 1]);
        assert!(log.lines[1].at > log.lines[0].at);
        assert_eq!(
            log.lines[3].at - log.lines[0].at,
            TimeDelta::milliseconds(3_600_100)
        );
    }

    #[test]
    fn a_log_that_starts_after_midnight_follows_the_groups_first() {
        let d = dir(&[
            (
                "g-a.log",
                "23:59:50.000 start g-a\n23:59:51.000 g-a p0 offset 1\n",
            ),
            (
                "g-b.log",
                "00:00:05.000 start g-b\n00:00:06.000 g-b p0 offset 1\n",
            ),
        ]);
        let logs = WorkerLog::read_group(&d, "g", &Default::default()).unwrap();
        let b_start = logs[1].time_of(0, |e| e == &Event::Start).unwrap();
        let a_start = logs[0].time_of(0, |e| e == &Event::Start).unwrap();
        assert_eq!(b_start - a_start, TimeDelta::seconds(15));
    }

    #[test]
    fn bad_lines_are_skipped_with_their_number_not_fatal() {
        let d = dir(&[(
            "g-a.log",
            "09:00:00.000 g-a p0 offset 1\n09:00:00.001 g-a p0 offset x\n\u{fffd}\n%4|1790813686.528|MAXPOLL|g-a#consumer-1| x\n09:00:00.002 g-a assigned [0, y]\n09:00:00.003 g-a p0 offset 2\n",
        )]);
        let mut bytes = std::fs::read(d.join("g-a.log")).unwrap();
        bytes.extend_from_slice(b"09:00:00.004 g-a p0 offset 3 \xff\n");
        std::fs::write(d.join("g-a.log"), bytes).unwrap();
        let log = WorkerLog::read_file(&d.join("g-a.log")).unwrap();
        assert_eq!(log.processed().collect::<Vec<_>>(), vec![(0, 1), (0, 2)]);
        let lines: Vec<u64> = log.skipped.iter().map(|s| s.line).collect();
        assert_eq!(lines, vec![2, 5, 7]);
        assert!(
            log.skipped[0]
                .to_string()
                .ends_with("g-a.log:2: skipped: malformed processing event \"p0 offset x\""),
            "{}",
            log.skipped[0]
        );
        assert_eq!(log.librdkafka.len(), 1);
    }

    #[test]
    fn a_worker_line_with_a_malformed_time_is_skipped_with_its_file_and_line() {
        let d = dir(&[(
            "bl-a.log",
            "09:00:00.100 bl-a p0 offset 0\n09:00:00.2xx bl-a p0 offset 1\n1000 messages sent\n09:00:00.300 bl-a p0 offset 2\n",
        )]);
        let log = WorkerLog::read_file(&d.join("bl-a.log")).unwrap();
        assert_eq!(log.processed().collect::<Vec<_>>(), vec![(0, 0), (0, 2)]);
        let skipped: Vec<String> = log.skipped.iter().map(|s| s.to_string()).collect();
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert!(
            skipped[0].ends_with("bl-a.log:2: skipped: \"09:00:00.2xx\" is not a time of day HH:MM:SS.mmm in \"09:00:00.2xx bl-a p0 offset 1\""),
            "{}",
            skipped[0]
        );
    }

    #[test]
    fn another_workers_lines_no_lines_and_a_cut_last_line_are_each_named() {
        let d = dir(&[
            (
                "g-a.log",
                "09:00:00.000 start g-a\n09:00:00.001 g-a p0 offset 1\n09:00:00.002 g-b p0 offset 2\n09:00:00.003 g-a p0 offset 3\n09:00:00.004 g-a p0 offset 4",
            ),
            ("g-b.log", ""),
            ("g-c.log", "%4|1790813686.528|MAXPOLL|g-c#consumer-1| x\n"),
        ]);
        let a = WorkerLog::read_file(&d.join("g-a.log")).unwrap();
        // g-b's line is read, and said; the cut last line (offset 4, or 40, or 41...) is not.
        assert_eq!(
            a.processed().collect::<Vec<_>>(),
            vec![(0, 1), (0, 2), (0, 3)]
        );
        let path = d.join("g-a.log");
        assert_eq!(
            a.notes(),
            vec![
                format!(
                    "{}:5: skipped: the last line has no newline: cut short by its writer, not read",
                    path.display()
                ),
                format!(
                    "{}:3: a line of worker g-b, in the log of worker g-a: a log holds one worker's lines (read all the same)",
                    path.display()
                ),
            ]
        );
        for empty in ["g-b", "g-c"] {
            let log = WorkerLog::read_file(&d.join(format!("{empty}.log"))).unwrap();
            assert_eq!(
                log.notes(),
                vec![format!(
                    "{}: no worker line in it: the log is empty",
                    d.join(format!("{empty}.log")).display()
                )]
            );
        }
    }

    #[test]
    fn a_log_holds_a_bounded_number_of_acknowledged_offsets_and_says_where_it_stopped() {
        // Each line at the bound of one line; the file over its own bound from its fifth.
        let line = |i: i64| {
            let from = i * crate::logline::MAX_RANGE;
            format!(
                "09:00:00.000 s-a acks committed p0 [{from}..{}]\n",
                from + crate::logline::MAX_RANGE - 1
            )
        };
        let text: String = (0..20).map(line).collect();
        let d = dir(&[("s-a.log", &text)]);
        let log = WorkerLog::read_file(&d.join("s-a.log")).unwrap();
        let kept: i64 = log
            .lines
            .iter()
            .map(|l| match &l.event {
                Event::AcksCommitted { offsets, .. } => offsets.len() as i64,
                _ => 0,
            })
            .sum();
        assert_eq!(kept, MAX_ACKED);
        let skipped: Vec<u64> = log.skipped.iter().map(|s| s.line).collect();
        assert_eq!(skipped, (5..=20).collect::<Vec<u64>>());
        assert!(
            log.skipped[0].to_string().ends_with(&format!(
                "s-a.log:5: skipped: more than {MAX_ACKED} acknowledged offsets in the log with this line: no member acknowledges so many"
            )),
            "{}",
            log.skipped[0]
        );
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn a_completion_line_written_again_at_once_is_counted_not_kept_again() {
        let copies = "09:00:00.000 g-a p0 offset 7\n".repeat(100_000);
        let d = dir(&[(
            "g-a.log",
            &format!(
                "{copies}09:00:00.000 g-a revoked [0]\n09:00:00.000 g-a revoked [0]\n{copies}09:00:00.001 g-a p0 offset 7\n"
            ),
        )]);
        let log = WorkerLog::read_file(&d.join("g-a.log")).unwrap();
        // Other lines are kept each; a copy at another time is another entry.
        assert_eq!(log.lines.len(), 5);
        let times: Vec<u32> = log.lines.iter().map(|l| l.times).collect();
        assert_eq!(times, vec![100_000, 1, 1, 100_000, 1]);
        assert_eq!(log.processed().count(), 200_001);
        let seventh = |e: &Event| e.completion() == Some((0, 7));
        assert_eq!(log.time_of(199_999, seventh), Some(log.lines[3].at));
        assert_eq!(log.time_of(200_000, seventh), Some(log.lines[4].at));
        assert_eq!(log.time_of(200_001, seventh), None);
    }

    #[test]
    fn a_run_of_completion_lines_is_one_entry_in_a_log_read_whole() {
        let text = "09:00:00.000 g-a p0 offset 5\n09:00:00.001 g-a p0 offset 6\n09:00:00.003 g-a p0 offset 7\n\
                    09:00:00.003 g-a p0 offset 9\n09:00:00.003 g-a p0 offset 9\n09:00:00.004 g-a p0 offset 10\n\
                    09:00:00.005 g-a p1 offset 11\n09:00:00.006 g-a p1 offset 12 already applied\n\
                    09:00:00.007 g-a commit p1=13\n09:00:00.008 g-a p1 offset 13\n09:00:00.002 g-a p1 offset 14\n";
        let d = dir(&[("g-a.log", text)]);
        let whole = WorkerLog::read_file(&d.join("g-a.log")).unwrap();
        // A run ends at a gap, at copies, at another partition or kind, at any other line, and
        // at a line written earlier than the one before.
        let entries: Vec<(u32, bool)> = whole.lines.iter().map(|l| (l.times, l.run)).collect();
        assert_eq!(
            entries,
            [
                (3, true),
                (2, false),
                (1, false),
                (1, false),
                (1, false),
                (1, false),
                (1, false),
                (1, false)
            ]
        );
        let mut followed = WorkerLog::follow(&d.join("g-a.log"));
        followed.finish().unwrap();
        assert_eq!(followed.lines.len(), 10);
        let each: Vec<_> = followed.processed().collect();
        assert_eq!(whole.processed().collect::<Vec<_>>(), each);
        assert_eq!(each[..4], [(0, 5), (0, 6), (0, 7), (0, 9)]);
        let sixth = |e: &Event| e.completion() == Some((0, 6));
        assert_eq!(whole.find(0, sixth), Some(0));
        let p0 = |e: &Event| e.completion().is_some_and(|(p, _)| p == 0);
        let at = |ms| day_zero().and_hms_milli_opt(9, 0, 0, ms).unwrap();
        // A run's last line at its time; the lines before it at its first's.
        assert_eq!(whole.time_of(2, p0), Some(at(3)));
        assert_eq!(whole.time_of(1, p0), Some(at(0)));
        assert_eq!(whole.lines[0].last, at(3));
    }

    #[test]
    fn maxpoll_is_placed_near_the_logs_lines() {
        let d = dir(&[("g-a.log", "")]);
        let at = DateTime::from_timestamp(1_790_813_686, 528_000_000)
            .unwrap()
            .with_timezone(&Local);
        let before = at - TimeDelta::seconds(10);
        std::fs::write(
            d.join("g-a.log"),
            format!(
                "{} g-a p0 offset 3 slow start\n%4|1790813686.528|MAXPOLL|g-a#consumer-1| [thrd:main]: x\n",
                before.format("%H:%M:%S%.3f")
            ),
        )
        .unwrap();
        let log = WorkerLog::read_file(&d.join("g-a.log")).unwrap();
        assert_eq!(
            log.maxpoll().unwrap() - log.lines[0].at,
            TimeDelta::seconds(10)
        );
    }

    #[test]
    fn a_log_followed_reads_what_the_whole_file_reader_reads() {
        let text = "23:59:59.900 start g-a\n23:59:59.950 g-a assigned [0]\n00:00:00.100 g-a p0 offset 1\n\
                    %4|1790813686.528|MAXPOLL|g-a#consumer-1| x\n00:00:00.200 g-a p0 offset x\n00:00:00.300 g-a revoked [0]\n";
        let d = dir(&[("g-a.log", "")]);
        let path = d.join("g-a.log");
        let mut followed = WorkerLog::follow(&path);
        let (mut lines, mut librdkafka) = (Vec::new(), Vec::new());
        // Written a few bytes at a time, lines cut anywhere.
        let mut written = 0;
        while written < text.len() {
            let next = (written + 7).min(text.len());
            std::fs::write(&path, &text[..next]).unwrap();
            written = next;
            assert!(matches!(followed.read_more().unwrap(), Growth::Lines(_)));
            let (l, r) = followed.take_lines();
            lines.extend(l);
            librdkafka.extend(r);
        }
        let whole = WorkerLog::read_file(&path).unwrap();
        assert_eq!(lines, whole.lines);
        assert_eq!(librdkafka, whole.librdkafka);
        assert_eq!(followed.skipped, whole.skipped);
        assert_eq!(whole.skipped[0].line, 5);
        // The run went past midnight in the middle of the reading.
        assert_eq!((lines[2].at.date() - day_zero()).num_days(), 1);
        assert_eq!(followed.last_at(), Some(lines[3].at));
    }

    #[test]
    fn a_maxpoll_line_is_read_only_from_librdkafkas_maxpoll_warning() {
        let near = day_zero().and_time(NaiveTime::MIN);
        assert!(maxpoll_at("%4|1790813686.528|MAXPOLL|g-a#consumer-1| x", near).is_some());
        for other in [
            "%4|1790813686.528|SESSTMOUT|g-a#consumer-1| x",
            "%7|1790813686.528|MAXPOLL|g-a#consumer-1| x",
            "%4|17908x3686.528|MAXPOLL|g-a#consumer-1| x",
        ] {
            assert_eq!(maxpoll_at(other, near), None, "{other}");
        }
    }
}
