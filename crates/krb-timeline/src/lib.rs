//! krb-timeline: a lab run drawn as an SVG timeline (what it draws: its `Args`' help).
//!
//! What is kept is what is drawn, not every line: the logs are read twice, a chunk at a time,
//! first for the counts, the ranges and the events, then for the dots, one a pixel. Every text
//! is at least 14 px at the SVG's 1200 px width, to be read on a projector.

pub mod axis;
pub mod labels;
pub mod messages;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use chrono::NaiveDateTime;
use clap::Parser;
use krb_cli::lang::{Lang, Msg};
use krb_cli::namespace::Namespace;
use krb_dups::{analyse, Counts};
use krb_log::logline::{format_time, Event, Offset, Partition};
use krb_log::overlap::overlaps;
use krb_log::reader::{group_files, Growth, Logs};
use krb_log::rendered_error::rendered_code;
use krb_log::worker_log::{Entry, WorkerLog};
use krb_markup::El;
use messages as m;

/// krb-timeline: draw a consumer group's lab run as an SVG timeline.
///
/// Reads DIR/GROUP-*.log (as krb-dups does) and writes DIR/GROUP.svg (or --output): one lane
/// per partition with every processed offset in its consumer's colour (duplicates ringed in
/// red) and the group's committed offset as a step line (what a new owner would read from),
/// one lane per consumer with its assigned / revoked / lost / commit / commit failed /
/// poll error / MAXPOLL events, a legend, and krb-dups' summary in the title.
///
/// KRB_LANG=ko writes the picture's own words in Korean; the event labels that are log lines
/// (assigned [0], commit p1=3) stay as the log writes them.
#[derive(Parser, Debug)]
#[command(name = "krb-timeline", version, verbatim_doc_comment)]
pub struct Args {
    /// The consumer group.
    pub group: String,
    #[command(flatten)]
    pub logs: Logs,
    /// Where to write the SVG [default: DIR/GROUP.svg].
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub namespace: Namespace,
}

const WIDTH: f64 = 1200.0;
/// The left margin, for the lanes' names and offsets: at least this, wider when a name needs it.
const LEFT: f64 = 120.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 76.0;
const PARTITION_LANE: f64 = 120.0;
const COLOURS: [&str; 6] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
];
const DUPLICATE: &str = "#d62728";
/// The committed position's step line, drawn so by the timeline and the live page alike.
pub const COMMITTED: &str = "fill:none;stroke:#222;stroke-width:1.5";
/// Text sizes in pixels, none below 14 (see above). [`TEXT_SIZE`] is for every text that sets
/// none (the legend, the lanes' offsets, the times).
const TEXT_SIZE: f64 = 14.0;
const TITLE_SIZE: f64 = 20.0;
const LANE_NAME_SIZE: f64 = 16.0;
const TICK_SIZE: f64 = 14.0;
/// Event labels: their size, and the rows a consumer lane has for them, a label's baseline
/// [`LABEL_TOP`] below the lane's top and each row [`LABEL_ROW`] below the one above.
const LABEL_SIZE: f64 = 14.0;
const LABEL_ROWS: usize = 5;
const LABEL_ROW: f64 = 18.0;
const LABEL_TOP: f64 = 16.0;
/// A consumer's lane: its label rows, then its line [`BASELINE`] below its top.
const CONSUMER_LANE: f64 = LABEL_TOP + LABEL_ROW * LABEL_ROWS as f64 + 8.0;
const BASELINE: f64 = CONSUMER_LANE - 8.0;
/// Below the lanes: the time axis, then the first and last times.
const AXIS: f64 = 52.0;
/// The room a tick's label needs: the widest, `5 min 30 s`, is about 84 px at 14 px.
const TICK_ROOM: f64 = 100.0;

fn millis(t: NaiveDateTime) -> f64 {
    t.and_utc().timestamp_millis() as f64
}

#[derive(Default)]
pub struct Run {
    /// The consumers' logs without their completions, which are counted here as they are read
    /// and drawn from a second reading: each keeps the lines its lane draws, each slow
    /// message's completion (for [`overlaps`]) and librdkafka's MAXPOLL warnings.
    pub consumers: Vec<WorkerLog>,
    files: Vec<PathBuf>,
    counts: Counts,
    /// Each partition's lowest and highest offset, processed or committed.
    ranges: BTreeMap<Partition, (Offset, Offset)>,
    commits: BTreeMap<Partition, Vec<(NaiveDateTime, Offset)>>,
    span: Option<(NaiveDateTime, NaiveDateTime)>,
}

/// Reads `files` as [`WorkerLog::read_group`] does, each aligned to the first's first line, but
/// a chunk at a time: `each` is handed each log's new lines, with the log's place in `files`,
/// and the log keeps only those `each` puts back in its `lines`. Returns the logs.
fn stream(
    files: &[PathBuf],
    mut each: impl FnMut(usize, &mut WorkerLog, Vec<Entry>),
) -> Result<Vec<WorkerLog>> {
    let mut near = None;
    let mut logs = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let mut log = WorkerLog::follow(file);
        let (mut aligned, mut kept) = (false, 0);
        loop {
            let more = matches!(log.read_more()?, Growth::Lines(n) if n > 0);
            if !more {
                log.finish()?;
            }
            if let (false, Some(first)) = (aligned, log.lines.get(kept)) {
                log.align(*near.get_or_insert(first.at));
                aligned = true;
            }
            let lines = log.lines.split_off(kept);
            // What split_off left keeps the chunk's room: given back, or the chunk is held twice.
            log.lines.shrink_to_fit();
            each(i, &mut log, lines);
            kept = log.lines.len();
            if !more {
                break;
            }
        }
        logs.push(log);
    }
    Ok(logs)
}

/// Reads the group's logs (`GROUP-*.log`, sorted by name) through krb-log's reader; lines
/// it skipped are in each log's `skipped`.
pub fn read(dir: &Path, group: &str, ns: &Namespace) -> Result<Run> {
    let (files, _) = group_files(dir, group, ns)?;
    if files.is_empty() {
        bail!(krb_log::reader::no_logs(dir, group));
    }
    let mut run = Run {
        files,
        counts: Counts::new(),
        ..Run::default()
    };
    // Slow messages not yet completed, by consumer.
    let mut slow = HashSet::new();
    run.consumers = stream(&run.files, |i, log, lines| {
        log.librdkafka.retain(|l| l.contains("|MAXPOLL|"));
        for l in lines {
            let (a, b) = run.span.get_or_insert((l.at, l.at));
            (*a, *b) = ((*a).min(l.at), (*b).max(l.at));
            widen(&mut run.ranges, &l.event);
            let keep = match (&l.event, l.event.completion()) {
                (_, Some((p, o))) => {
                    for _ in 0..l.times {
                        run.counts.add(log.name.as_bytes(), p, o);
                    }
                    slow.remove(&(i, p, o))
                }
                (Event::SlowStart { partition, offset }, _) => {
                    slow.insert((i, *partition, *offset));
                    true
                }
                (Event::Commit(positions), _) => {
                    for &(p, o) in positions {
                        run.commits.entry(p).or_default().push((l.at, o));
                    }
                    true
                }
                _ => true,
            };
            if keep {
                log.lines.push(l);
            }
        }
    })?;
    for commits in run.commits.values_mut() {
        commits.sort_by_key(|&(t, _)| t);
    }
    Ok(run)
}

/// Widens each partition's lowest and highest offset, processed or committed (its lane's scale,
/// here and on krb-live's page), to the offsets `event` processed or committed.
pub fn widen(ranges: &mut BTreeMap<Partition, (Offset, Offset)>, event: &Event) {
    let commits = match event {
        Event::Commit(positions) => positions.as_slice(),
        _ => &[],
    };
    for &(p, o) in event.completion().iter().chain(commits) {
        let r = ranges.entry(p).or_insert((o, o));
        *r = (r.0.min(o), r.1.max(o));
    }
}

/// The label of an event in a consumer's lane, or `None` for events drawn elsewhere. A
/// rebalance event or a commit is labelled with its log line in either language: the docs teach
/// those words and the logs are data.
fn label(event: &Event, lang: Lang) -> Option<(&'static str, String)> {
    let failed = |msg: Msg, e: &str| msg.fill(lang, &[("code", &rendered_code(e))]);
    Some(match event {
        Event::Assigned(_) => ("assigned", event.to_string()),
        Event::Revoked(_) => ("revoked", event.to_string()),
        Event::Lost(_) => ("lost", event.to_string()),
        Event::Commit(_) => ("commit", event.to_string()),
        Event::CommitFailed(e) | Event::AcksFailed { error: e, .. } => {
            ("commit-failed", failed(m::COMMIT_FAILED, e))
        }
        Event::PollError(e) => ("poll-error", failed(m::POLL_ERROR, e)),
        Event::TxnAborted(e) => ("txn-aborted", failed(m::TXN_ABORTED, e)),
        Event::Start => ("start", m::START.text(lang).into()),
        Event::Stop => ("stop", m::STOP.text(lang).into()),
        Event::Processed { .. }
        | Event::AlreadyApplied { .. }
        | Event::Refused { .. }
        | Event::SlowStart { .. }
        | Event::Consumes { .. }
        // A share group's records and acknowledgements: one a record, too many to label.
        | Event::ShareConsumes { .. }
        | Event::Acquired { .. }
        | Event::Acknowledged { .. }
        | Event::AcksCommitted { .. } => return None,
    })
}

/// The most partitions drawn, each a lane: the labs have a few, a hostile log 100,000.
const MAX_LANES: usize = 64;

/// The most dots a partition's lane draws: past them, the processings are counted and said.
const MAX_DOTS: usize = 5000;

/// A partition's lane as its dots are counted: one for each (consumer, pixel, kind), with how
/// many processings it stands for, the first one's tooltip and circle; and its slow messages'
/// bars.
#[derive(Default)]
struct Lane {
    top: f64,
    lo: Offset,
    hi: Offset,
    /// Each cell's place in `dots` and `merged`.
    cells: HashMap<(usize, i64, i64, &'static str), usize>,
    dots: Vec<(El, String)>,
    /// Processings drawn in a dot drawn before, by dot.
    merged: Vec<u64>,
    /// Processings not drawn: the lane had [`MAX_DOTS`] already.
    left_out: u64,
    bars: Vec<El>,
}

impl Lane {
    fn y(&self, offset: Offset) -> f64 {
        let share = (offset - self.lo) as f64 / ((self.hi - self.lo).max(1) as f64);
        self.top + PARTITION_LANE - 14.0 - share * (PARTITION_LANE - 28.0)
    }

    /// Counts `times` processings at `cell`: `true` when they make a new dot, which the caller
    /// then pushes to `dots`.
    fn count(&mut self, cell: (usize, i64, i64, &'static str), times: u32) -> bool {
        let times = u64::from(times);
        if let Some(&d) = self.cells.get(&cell) {
            self.merged[d] += times;
            return false;
        }
        if self.merged.len() == MAX_DOTS {
            self.left_out += times;
            return false;
        }
        self.cells.insert(cell, self.merged.len());
        self.merged.push(times - 1);
        true
    }

    /// Adds the bars and the dots to `lane`, each tooltip saying how many processings its dot
    /// stands for, and the processings left out, if any.
    fn draw(self, mut lane: El, lang: Lang) -> El {
        lane = self.bars.into_iter().fold(lane, El::child);
        for ((dot, title), more) in self.dots.into_iter().zip(self.merged) {
            let title = match more {
                0 => title,
                more => m::DOT_MERGED.fill(lang, &[("dot", &title), ("more", &more)]),
            };
            lane = lane.child(dot.child(El::new("title").text(&title)));
        }
        if self.left_out > 0 {
            let text =
                m::DOTS_LEFT_OUT.fill(lang, &[("count", &self.left_out), ("max", &MAX_DOTS)]);
            let y = self.top + PARTITION_LANE - 6.0;
            lane = lane.child(left_out(&text).set("y", y));
        }
        lane
    }
}

/// The group's committed position in a lane, from its first commit to `end`: a step line that
/// rises at each commit to the offset the group reads next, so the dots on it and above it are
/// what a new owner would process again. Its path's `d`, one point a pixel column, the last
/// commit in it: as long for 10M commits as for a thousand.
fn committed(
    commits: &[(NaiveDateTime, Offset)],
    x: impl Fn(NaiveDateTime) -> f64,
    lane: &Lane,
    end: f64,
) -> Option<String> {
    let mut points: Vec<(f64, f64)> = Vec::new();
    for &(t, o) in commits {
        let (px, py) = (x(t).round(), lane.y(o));
        match points.last_mut() {
            Some(last) if last.0 == px => last.1 = py,
            Some(last) if last.1 == py => {}
            _ => points.push((px, py)),
        }
    }
    let (&(x0, y0), rest) = points.split_first()?;
    let mut d = format!("M{x0},{y0:.1}");
    for (px, py) in rest {
        d += &format!("H{px}V{py:.1}");
    }
    Some(d + &format!("H{end:.1}"))
}

fn line(x1: f64, x2: f64, y1: f64, y2: f64, stroke: &str) -> El {
    let el = El::new("line").set("x1", x1).set("x2", x2);
    el.set("y1", y1).set("y2", y2).set("stroke", stroke)
}

fn left_out(text: &str) -> El {
    let el = El::new(r##"text class="left-out" text-anchor="end" fill="#666""##);
    el.text(text).set("x", WIDTH - RIGHT)
}

/// Draws the group's run: the logs are read again for the dots.
pub fn render(group: &str, run: &mut Run, lang: Lang) -> Result<El> {
    let Some((first, last)) = run.span else {
        bail!(messages::NO_LINE.fill(lang, &[("group", &group)]));
    };
    let consumers = &run.consumers;
    let report = analyse(&mut run.counts, None);
    // The lowest partitions get lanes; the others are counted in the title's corner.
    let lanes_left_out = run.ranges.len().saturating_sub(MAX_LANES);
    let ranges: BTreeMap<_, _> = run.ranges.clone().into_iter().take(MAX_LANES).collect();
    let totals = m::TOTALS.fill(
        lang,
        &[
            ("processed", &report.processed),
            ("unique", &report.unique),
            ("duplicates", &report.duplicates()),
        ],
    );
    // A lane's lowest and highest offsets: `offset` is the article's word in either language.
    let offset_text = |o: Offset| format!("offset {o}");

    // The left margin holds the lanes' names and offsets.
    let margin = consumers
        .iter()
        .map(|c| labels::width(&c.name, LANE_NAME_SIZE))
        .chain(ranges.iter().flat_map(|(p, &(lo, hi))| {
            [
                labels::width(&format!("p{p}"), LANE_NAME_SIZE),
                labels::width(&offset_text(lo), TEXT_SIZE),
                labels::width(&offset_text(hi), TEXT_SIZE),
            ]
        }))
        .fold(0.0, f64::max);
    let left = LEFT.max(10.0 + margin + 10.0);

    let t0 = millis(first);
    let span = (millis(last) - t0).max(1.0);
    let plot = WIDTH - left - RIGHT;
    let x = |t: NaiveDateTime| left + (millis(t) - t0) / span * plot;
    let height = TOP
        + PARTITION_LANE * ranges.len() as f64
        + CONSUMER_LANE * consumers.len() as f64
        + AXIS
        + 8.0;
    let colour = |i: usize| COLOURS[i % COLOURS.len()];

    let mut doc = El::svg()
        .set("viewBox", format!("0 0 {WIDTH} {height}"))
        .set("width", WIDTH)
        .set("height", height)
        .set("font-family", "sans-serif")
        .set("font-size", TEXT_SIZE)
        .child(El::new("title").text(&m::DOC_TITLE.fill(lang, &[("group", &group)])))
        .child(El::new(r#"rect width="100%" height="100%" fill="white""#))
        .child(
            El::new(r#"text class="title" y="28" font-weight="bold""#)
                .text(&format!("{group}: {totals}"))
                .set("x", left)
                .set("font-size", TITLE_SIZE),
        );
    if lanes_left_out > 0 {
        let text = m::LANES_LEFT_OUT.fill(lang, &[("count", &lanes_left_out), ("max", &MAX_LANES)]);
        doc = doc.child(left_out(&text).set("y", 28));
    }

    // Legend: each consumer's colour, the ringed dot, the bar; each text as wide as it is.
    let mut legend = El::new(r#"g class="legend""#);
    let mut lx = left;
    let (ly, dot_y) = (57.0, 52.0);
    let dot = |x: f64| El::new("circle").set("cx", x).set("cy", dot_y).set("r", 6);
    let entry = |legend: El, text: String, lx: &mut f64| {
        let at = *lx + 12.0;
        *lx = at + labels::width(&text, TEXT_SIZE) + 20.0;
        legend.child(El::new("text").text(&text).set("x", at).set("y", ly))
    };
    for (i, c) in consumers.iter().enumerate() {
        legend = legend.child(dot(lx).set("fill", colour(i)));
        legend = entry(legend, c.name.clone(), &mut lx);
    }
    let ring = dot(lx).set("fill", "none").set("stroke", DUPLICATE);
    legend = legend.child(ring.set("stroke-width", 2));
    legend = entry(legend, m::LEGEND_DUPLICATE.text(lang).into(), &mut lx);
    let bar = El::new(r##"rect width="14" height="6" fill="#888" opacity="0.6""##);
    legend = legend.child(bar.set("x", lx - 8.0).set("y", dot_y - 3.0));
    legend = entry(legend, m::LEGEND_SLOW.text(lang).into(), &mut lx);
    let step = format!("M{},{}h7v-8h7", lx - 8.0, dot_y + 4.0);
    legend = legend.child(El::new("path").set("d", step).set("style", COMMITTED));
    legend = entry(legend, m::COMMITTED.text(lang).into(), &mut lx);
    doc = doc.child(legend);

    // Partition lanes: dots at (time, offset), the committed position, and when two consumers
    // were in one message.
    let together = overlaps(consumers);
    let mut lanes: BTreeMap<Partition, Lane> = BTreeMap::new();
    for (k, (&p, &(lo, hi))) in ranges.iter().enumerate() {
        let lane = lanes.entry(p).or_default();
        (lane.top, lane.lo, lane.hi) = (TOP + PARTITION_LANE * k as f64, lo, hi);
    }
    // The dots, from a second reading of the logs: one a pixel per consumer and kind, so a log
    // of 10M lines draws no more than one of 100k, and no more than MAX_DOTS a lane.
    let mut slow_starts: HashMap<(usize, Partition, Offset), NaiveDateTime> = HashMap::new();
    let counts = &mut run.counts;
    stream(&run.files, |i, _, lines| {
        for l in lines {
            let (partition, offset) = match l.event {
                Event::SlowStart { partition, offset } if lanes.contains_key(&partition) => {
                    slow_starts.insert((i, partition, offset), l.at);
                    continue;
                }
                _ => match l.event.completion() {
                    Some(at) => at,
                    None => continue,
                },
            };
            let Some(lane) = lanes.get_mut(&partition) else {
                continue;
            };
            let name = &consumers[i].name;
            let duplicate = counts.get(partition, offset) > 1;
            let at: [(&str, &dyn std::fmt::Display); 3] = [
                ("name", name),
                ("partition", &partition),
                ("offset", &offset),
            ];
            if let Some(start) = slow_starts.remove(&(i, partition, offset)) {
                let bar = El::new(r#"rect class="processing" height="6" opacity="0.6""#)
                    .set("x", x(start))
                    .set("y", lane.y(offset) - 3.0)
                    .set("width", (x(l.at) - x(start)).max(1.0))
                    .set("fill", colour(i));
                lane.bars
                    .push(bar.child(El::new("title").text(&m::BAR.fill(lang, &at))));
            }
            // A processing that wrote nothing (its effect was already there, or its
            // transaction was refused) is a hollow dot.
            let (nothing, dup) = match l.event {
                Event::AlreadyApplied { .. } => {
                    (Some(m::ALREADY_APPLIED), "processed dup already-applied")
                }
                Event::Refused { .. } => (Some(m::REFUSED), "processed dup refused"),
                _ => (None, "processed dup"),
            };
            let class = if duplicate { dup } else { "processed" };
            let (cx, cy) = (x(l.at), lane.y(offset));
            if !lane.count((i, cx.round() as i64, cy.round() as i64, class), l.times) {
                continue;
            }
            let fill = nothing.map_or(colour(i), |_| "white");
            let mut dot = El::new("circle")
                .set("class", class)
                .set("cx", cx)
                .set("cy", cy);
            dot = dot
                .set("r", if duplicate { 3 } else { 2 })
                .set("fill", fill);
            if duplicate {
                dot = dot.set("stroke", DUPLICATE).set("stroke-width", 1.5);
            }
            let title = match nothing.map(|why| why.text(lang)) {
                Some(why) => m::DOT_WHY.fill(lang, &[at[0], at[1], at[2], ("why", &why)]),
                None => m::DOT.fill(lang, &at),
            };
            lane.dots.push((dot, title));
        }
    })?;
    let mut y0 = TOP;
    for (p, l) in lanes {
        let (lo, hi) = (l.lo, l.hi);
        let mut lane = El::new(r#"g class="lane lane-partition""#)
            .set("data-partition", p)
            .child(
                El::new(r##"rect fill="#f4f4f4""##)
                    .set("x", left)
                    .set("y", y0 + 2.0)
                    .set("width", plot)
                    .set("height", PARTITION_LANE - 4.0),
            )
            .child(
                El::new(r#"text x="10""#)
                    .text(&format!("p{p}"))
                    .set("y", y0 + PARTITION_LANE / 2.0 + LANE_NAME_SIZE / 3.0)
                    .set("font-size", LANE_NAME_SIZE),
            );
        let offset = |o: Offset, y: f64| {
            El::new(r##"text x="10" fill="#666""##)
                .text(&offset_text(o))
                .set("y", y)
        };
        lane = lane.child(offset(lo, l.y(lo)));
        if hi > lo {
            lane = lane.child(offset(hi, l.y(hi) + 10.0));
        }
        let step = run
            .commits
            .get(&p)
            .and_then(|c| committed(c, x, &l, left + plot));
        lane = l.draw(lane, lang);
        if let Some(d) = step {
            let path = El::new(r#"path class="committed""#).set("d", d);
            lane = lane.child(path.set("style", COMMITTED));
        }
        for o in together.iter().filter(|o| o.partition == p) {
            let text = m::OVERLAP.fill(
                lang,
                &[
                    ("a", &o.slow),
                    ("b", &o.other),
                    ("offset", &o.offset),
                    ("seconds", &format!("{:.1}", o.seconds())),
                ],
            );
            let (text_x, _) = labels::Label::at(x(o.from), &text, LABEL_SIZE).span();
            let bar = El::new(r#"rect height="5" opacity="0.7""#)
                .set("x", x(o.from))
                .set("y", y0 + 6.0)
                .set("width", (x(o.to) - x(o.from)).max(1.0));
            let said = El::new(r#"text class="label""#)
                .text(&text)
                .set("x", text_x)
                .set("y", y0 + 14.0 + LABEL_SIZE)
                .set("font-size", LABEL_SIZE);
            let overlap = El::new(r#"g class="overlap""#).child(El::new("title").text(&text));
            lane = lane.child(
                overlap
                    .child(bar.set("fill", DUPLICATE))
                    .child(said.set("fill", DUPLICATE)),
            );
        }
        doc = doc.child(lane);
        y0 += PARTITION_LANE;
    }

    // Consumer lanes: events with labels, in rows so that none overprints another.
    for (i, c) in consumers.iter().enumerate() {
        let base = y0 + BASELINE;
        let mut lane = El::new(r#"g class="lane lane-consumer""#)
            .set("data-consumer", c.name.clone())
            .child(line(left, left + plot, base, base, colour(i)))
            .child(
                El::new(r#"text x="10""#)
                    .text(&c.name)
                    .set("y", base - 3.0)
                    .set("font-size", LANE_NAME_SIZE)
                    .set("fill", colour(i)),
            );
        let mut marks: Vec<(NaiveDateTime, &'static str, String)> = c
            .lines
            .iter()
            .filter_map(|l| label(&l.event, lang).map(|(kind, text)| (l.at, kind, text)))
            .collect();
        if let Some(t) = c.maxpoll() {
            marks.push((t, "maxpoll", m::MAXPOLL.text(lang).into()));
        }
        marks.sort_by_key(|a| a.0);
        let boxes: Vec<labels::Label> = marks
            .iter()
            .map(|(t, _, text)| labels::Label::at(x(*t), text, LABEL_SIZE))
            .collect();
        let rows = labels::place(&boxes, LABEL_ROWS);
        // A mark's line runs down from its label's row, through the rows below: drawn row by
        // row from the top, every label is drawn after the lines that cross its row, and its
        // white halo keeps them off its letters.
        let mut drawn: Vec<_> = marks
            .into_iter()
            .zip(rows.into_iter().zip(&boxes))
            .collect();
        drawn.sort_by_key(|(_, (row, _))| *row);
        for ((t, kind, text), (row, b)) in drawn {
            let strong = matches!(
                kind,
                "lost" | "commit-failed" | "poll-error" | "txn-aborted" | "maxpoll"
            );
            let stroke = if strong { DUPLICATE } else { colour(i) };
            let ty = row.map(|r| y0 + LABEL_TOP + LABEL_ROW * r as f64);
            let y1 = ty.map_or(base - 10.0, |ty| ty + 3.0);
            let mut mark = El::new("g")
                .set("class", format!("event event-{kind}"))
                .child(El::new("title").text(&text))
                .child(line(x(t), x(t), y1, base, stroke));
            // A label with no clear row is left to the mark's tooltip.
            if let Some(ty) = ty {
                mark = mark.child(
                    El::new(r#"text stroke="white" stroke-width="4" stroke-linejoin="round" paint-order="stroke""#)
                        .text(&text)
                        .set("class", "label")
                        .set("x", b.span().0)
                        .set("y", ty)
                        .set("font-size", LABEL_SIZE)
                        .set("fill", stroke),
                );
            }
            lane = lane.child(mark);
        }
        doc = doc.child(lane);
        y0 += CONSUMER_LANE;
    }

    // The time axis: seconds from the first line, each tick's label room enough.
    let (_, ticks) = axis::ticks(span as i64, (plot / TICK_ROOM) as i64);
    let mut time_axis =
        El::new(r#"g class="axis""#).child(line(left, left + plot, y0 + 4.0, y0 + 4.0, "#444"));
    for ms in ticks {
        let tx = left + ms as f64 / span * plot;
        let text = axis::label(ms, lang);
        // A label that would run off the picture ends at its edge.
        let (anchor, text_x) = if tx + labels::width(&text, TICK_SIZE) / 2.0 > WIDTH - 2.0 {
            ("end", WIDTH - 2.0)
        } else {
            ("middle", tx)
        };
        time_axis = time_axis
            .child(line(tx, tx, y0 + 4.0, y0 + 9.0, "#444"))
            .child(
                El::new(r#"text class="tick""#)
                    .text(&text)
                    .set("x", text_x)
                    .set("y", y0 + 9.0 + TICK_SIZE)
                    .set("text-anchor", anchor)
                    .set("font-size", TICK_SIZE),
            );
    }
    let time = |text: &str, x: f64| {
        let el = El::new(r#"text class="time""#).text(text);
        el.set("x", x).set("y", y0 + AXIS - 4.0)
    };
    let (from, to) = (format_time(first.time()), format_time(last.time()));
    let to = format!("{to} ({})", axis::seconds(span / 1000.0, lang));
    doc = doc.child(time_axis).child(time(&from, left));
    doc = doc.child(time(&to, left + plot).set("text-anchor", "end"));
    Ok(doc)
}

/// Reads the logs and writes the SVG, its words in `lang`; returns where, and what the reader
/// said of the logs, one line each: the lines it skipped and what it found wrong with a log it
/// read all the same (another worker's lines in it, none).
pub fn run(args: &Args, lang: Lang) -> Result<(PathBuf, Vec<String>)> {
    let mut run = read(&args.logs.dir, &args.group, &args.namespace)?;
    let doc = render(&args.group, &mut run, lang)?;
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| args.logs.dir.join(format!("{}.svg", args.group)));
    std::fs::write(&out, doc.to_string())
        .with_context(|| format!("cannot write {}", out.display()))?;
    let notes = run.consumers.iter().flat_map(|c| c.notes()).collect();
    Ok((out, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_line_has_a_point_a_pixel_column_the_last_commit_in_it() {
        let t = |ms: i64| {
            krb_log::worker_log::day_zero()
                .and_hms_opt(9, 0, 0)
                .unwrap()
                + chrono::TimeDelta::milliseconds(ms)
        };
        // A pixel every 10 ms; offset 0 at 106 px, 100 at 14 px.
        let x = |at: NaiveDateTime| (at - t(0)).num_milliseconds() as f64 / 10.0;
        let lane = Lane {
            hi: 100,
            ..Lane::default()
        };
        let commits = [(0, 10), (3, 20), (10, 20), (20, 30), (24, 40), (50, 40)];
        let commits: Vec<_> = commits.iter().map(|&(ms, o)| (t(ms), o)).collect();
        // Column 0 ends at 20, column 1 stays there, column 2 ends at 40, column 5 stays.
        let d = committed(&commits, x, &lane, 100.0);
        assert_eq!(d.as_deref(), Some("M0,87.6H2V69.2H100.0"));
        assert_eq!(committed(&[], x, &lane, 100.0), None);
        // 100,000 commits over 10 s: one point a pixel column at most.
        let many: Vec<_> = (0..100_000).map(|i| (t(i / 10), i)).collect();
        let d = committed(&many, x, &lane, 1000.0).unwrap();
        assert!(d.matches('H').count() <= 1001, "{}", d.len());
    }
}
