//! krb-timeline: a lab run drawn as an SVG timeline.
//!
//! Time runs left to right. Each partition has a lane in which every completed message is a
//! dot at the height of its offset, in its consumer's colour, so a consumer that re-reads from
//! the last commit shows as a line of dots that steps back down; a message processed more than
//! once is ringed in red. A `--slow-at` message is a bar from its slow start to its completion,
//! so two consumers in one message at once are seen side by side. Each consumer has a lane
//! below with its rebalance events, commits, failures and librdkafka's MAXPOLL warning, their
//! labels in rows that never overprint ([`labels`]); a time axis in seconds runs below
//! ([`axis`]). When two consumers were in one message at once (lab 2), the interval is marked
//! in the partition's lane with its length.
//!
//! The picture speaks English or Korean ([`Lang`], from `KRB_LANG` in the binary): its own
//! words are in [`messages`]; the event labels that are log lines (`assigned [0]`, `revoked [0,
//! 1]`, `lost [0]`, `commit p1=285`) stay as the log writes them in both languages, since the
//! docs teach those words and the logs are data. Every text is at least 14 px at the SVG's
//! 1200 px width, to be read on a projector.

pub mod axis;
pub mod labels;
pub mod messages;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use chrono::NaiveDateTime;
use clap::Parser;
use krb_cli::lang::{Lang, Msg};
use krb_cli::namespace::Namespace;
use krb_dups::{analyse, Counts};
use krb_log::logline::{Event, Offset, Partition};
use krb_log::overlap::overlaps;
use krb_log::reader::Logs;
use krb_log::rendered_error::rendered_code;
use krb_log::worker_log::{Entry, WorkerLog};
use messages as m;
use svg::node::element::{Circle, Group, Line, Rectangle, Text, Title};
use svg::Document;

/// krb-timeline: draw a consumer group's lab run as an SVG timeline.
///
/// Reads DIR/GROUP-*.log (as krb-dups does) and writes DIR/GROUP.svg (or --output): one lane
/// per partition with every processed offset in its consumer's colour (duplicates ringed in
/// red), one lane per consumer with its assigned / revoked / lost / commit / commit failed /
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
/// The left margin, where the lanes' names and offsets are written: at least this, wider when
/// a name needs it.
const LEFT: f64 = 120.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 76.0;
const PARTITION_LANE: f64 = 120.0;
const COLOURS: [&str; 6] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
];
const DUPLICATE: &str = "#d62728";
/// Text sizes in pixels, at the SVG's 1200 px width: none below 14, so that a picture shown at
/// a page's width on a projector can be read from the back of the room. [`TEXT_SIZE`] is the
/// root's, for every text that sets none (the legend, the lanes' offsets, the times).
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

/// One consumer's log, by name.
pub struct Consumer {
    /// The worker's name.
    pub name: String,
    /// Its log.
    pub log: WorkerLog,
}

/// Reads the group's logs (`GROUP-*.log`, sorted by name) through krb-log's reader; lines
/// it skipped are in each log's `skipped`.
pub fn read(dir: &Path, group: &str, ns: &Namespace) -> Result<Vec<Consumer>> {
    let logs = WorkerLog::read_group(dir, group, ns)?;
    if logs.is_empty() {
        bail!(krb_log::reader::no_logs(dir, group));
    }
    Ok(logs
        .into_iter()
        .map(|log| Consumer {
            name: log.name.clone(),
            log,
        })
        .collect())
}

/// The label of an event in a consumer's lane, or `None` for events drawn elsewhere. A
/// rebalance event or a commit is labelled with its log line as the log writes it (`assigned
/// [0]`, `revoked [0, 1]`, `lost [0]`, `commit p1=285`), in either language: the docs teach
/// those words and the logs are data. The other labels are krb-timeline's words, in `lang`.
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

/// A partition lane's dots as they are drawn: one for each (consumer, pixel, kind), with how
/// many processings it stands for, the first one's tooltip and circle.
#[derive(Default)]
struct Dots {
    /// Each cell's place in `dots` and `merged`.
    cells: std::collections::HashMap<(usize, i64, i64, String), usize>,
    dots: Vec<(Circle, String)>,
    /// Processings drawn in a dot drawn before, by dot.
    merged: Vec<u64>,
    /// Processings not drawn: the lane had [`MAX_DOTS`] already.
    left_out: u64,
}

impl Dots {
    /// Counts `times` processings at `cell`: `true` when they make a new dot, which the caller
    /// then pushes to `dots`.
    fn count(&mut self, cell: (usize, i64, i64, String), times: u32) -> bool {
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

    /// Adds the dots to `lane` (its top at `y0`), each tooltip saying how many processings
    /// its dot stands for, and the processings left out, if any.
    fn draw(self, mut lane: Group, lang: Lang, y0: f64) -> Group {
        for ((dot, title), more) in self.dots.into_iter().zip(self.merged) {
            let title = match more {
                0 => title,
                more => m::DOT_MERGED.fill(lang, &[("dot", &title), ("more", &more)]),
            };
            lane = lane.add(dot.add(Title::new(title)));
        }
        if self.left_out > 0 {
            lane = lane.add(
                Text::new(
                    m::DOTS_LEFT_OUT.fill(lang, &[("count", &self.left_out), ("max", &MAX_DOTS)]),
                )
                .set("class", "left-out")
                .set("x", WIDTH - RIGHT)
                .set("y", y0 + PARTITION_LANE - 6.0)
                .set("text-anchor", "end")
                .set("fill", "#666"),
            );
        }
        lane
    }
}

/// A text with a white outline drawn under its letters, so that a line behind it stops short of
/// them.
fn halo(text: Text) -> Text {
    text.set("stroke", "white")
        .set("stroke-width", 4)
        .set("stroke-linejoin", "round")
        .set("paint-order", "stroke")
}

/// Draws the group's run, its words in `lang`.
pub fn render(group: &str, consumers: &[Consumer], lang: Lang) -> Result<Document> {
    let times = || {
        consumers
            .iter()
            .flat_map(|c| c.log.lines.iter().map(|l| l.at))
    };
    let (Some(first), Some(last)) = (times().min(), times().max()) else {
        bail!(messages::NO_LINE.fill(lang, &[("group", &group)]));
    };

    // Counts as krb-dups keeps them, and offset ranges per partition.
    let mut counts = Counts::new();
    let mut ranges: BTreeMap<Partition, (Offset, Offset)> = BTreeMap::new();
    for c in consumers {
        for (p, o) in c.log.processed() {
            counts.add(c.name.as_bytes(), p, o);
            let r = ranges.entry(p).or_insert((o, o));
            *r = (r.0.min(o), r.1.max(o));
        }
    }
    let report = analyse(&mut counts, None);
    // The lowest partitions get lanes; the others are counted in the title's corner.
    let lanes_left_out = ranges.len().saturating_sub(MAX_LANES);
    let ranges: BTreeMap<Partition, (Offset, Offset)> =
        ranges.into_iter().take(MAX_LANES).collect();
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

    let mut doc = Document::new()
        .set("viewBox", (0, 0, WIDTH, height))
        .set("width", WIDTH)
        .set("height", height)
        .set("font-family", "sans-serif")
        .set("font-size", TEXT_SIZE)
        .add(Title::new(m::DOC_TITLE.fill(lang, &[("group", &group)])))
        .add(
            Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", "white"),
        )
        .add(
            Text::new(format!("{group}: {totals}"))
                .set("class", "title")
                .set("x", left)
                .set("y", 28)
                .set("font-size", TITLE_SIZE)
                .set("font-weight", "bold"),
        );
    if lanes_left_out > 0 {
        doc = doc.add(
            Text::new(
                m::LANES_LEFT_OUT.fill(lang, &[("count", &lanes_left_out), ("max", &MAX_LANES)]),
            )
            .set("class", "left-out")
            .set("x", WIDTH - RIGHT)
            .set("y", 28)
            .set("text-anchor", "end")
            .set("fill", "#666"),
        );
    }

    // Legend: each consumer's colour, the ringed dot, the bar; each text as wide as it is.
    let mut legend = Group::new().set("class", "legend");
    let mut lx = left;
    let (ly, dot_y) = (57.0, 52.0);
    let dot = |x: f64| Circle::new().set("cx", x).set("cy", dot_y).set("r", 6);
    let entry = |legend: Group, text: String, lx: &mut f64| {
        let next = *lx + 12.0 + labels::width(&text, TEXT_SIZE) + 20.0;
        let legend = legend.add(Text::new(text).set("x", *lx + 12.0).set("y", ly));
        *lx = next;
        legend
    };
    for (i, c) in consumers.iter().enumerate() {
        legend = legend.add(dot(lx).set("fill", colour(i)));
        legend = entry(legend, c.name.clone(), &mut lx);
    }
    legend = legend.add(
        dot(lx)
            .set("fill", "none")
            .set("stroke", DUPLICATE)
            .set("stroke-width", 2),
    );
    legend = entry(legend, m::LEGEND_DUPLICATE.text(lang).into(), &mut lx);
    legend = legend.add(
        Rectangle::new()
            .set("x", lx - 8.0)
            .set("y", dot_y - 3.0)
            .set("width", 14)
            .set("height", 6)
            .set("fill", "#888")
            .set("opacity", 0.6),
    );
    legend = entry(legend, m::LEGEND_SLOW.text(lang).into(), &mut lx);
    doc = doc.add(legend);

    // Partition lanes: dots at (time, offset), and when two consumers were in one message.
    // The logs as they are, not copies: a copy of a log of 10M lines is a gigabyte.
    let logs: Vec<&WorkerLog> = consumers.iter().map(|c| &c.log).collect();
    let together = overlaps(&logs);
    let mut y0 = TOP;
    // Each partition's lines, consumer by consumer, found once: a lane does not read every
    // line of the group again.
    type LaneLines<'a> = Vec<(usize, &'a Consumer, Vec<&'a Entry>)>;
    let mut in_lane: BTreeMap<Partition, LaneLines> = BTreeMap::new();
    for (i, c) in consumers.iter().enumerate() {
        for l in &c.log.lines {
            let partition = match l.event {
                Event::SlowStart { partition, .. } => partition,
                _ => match l.event.completion() {
                    Some((partition, _)) => partition,
                    None => continue,
                },
            };
            let lane = in_lane.entry(partition).or_default();
            match lane.last_mut() {
                Some((j, _, lines)) if *j == i => lines.push(l),
                _ => lane.push((i, c, vec![l])),
            }
        }
    }
    for (&p, &(lo, hi)) in &ranges {
        let y = |o: Offset| {
            y0 + PARTITION_LANE
                - 14.0
                - (o - lo) as f64 / ((hi - lo).max(1) as f64) * (PARTITION_LANE - 28.0)
        };
        let mut lane = Group::new()
            .set("class", "lane lane-partition")
            .set("data-partition", p)
            .add(
                Rectangle::new()
                    .set("x", left)
                    .set("y", y0 + 2.0)
                    .set("width", plot)
                    .set("height", PARTITION_LANE - 4.0)
                    .set("fill", "#f4f4f4"),
            )
            .add(
                Text::new(format!("p{p}"))
                    .set("x", 10)
                    .set("y", y0 + PARTITION_LANE / 2.0 + LANE_NAME_SIZE / 3.0)
                    .set("font-size", LANE_NAME_SIZE),
            )
            .add(
                Text::new(offset_text(lo))
                    .set("x", 10)
                    .set("y", y(lo))
                    .set("fill", "#666"),
            );
        if hi > lo {
            lane = lane.add(
                Text::new(offset_text(hi))
                    .set("x", 10)
                    .set("y", y(hi) + 10.0)
                    .set("fill", "#666"),
            );
        }
        // The lane's dots, one a pixel per consumer and kind: a log of 10M lines draws no more
        // than one of 100k, and no more than MAX_DOTS in all.
        let mut dots = Dots::default();
        for (i, c, lines) in in_lane.remove(&p).unwrap_or_default() {
            let mut slow_starts: BTreeMap<Offset, NaiveDateTime> = BTreeMap::new();
            for l in lines {
                match l.event {
                    Event::SlowStart { partition, offset } if partition == p => {
                        slow_starts.insert(offset, l.at);
                    }
                    Event::Processed { partition, offset }
                    | Event::AlreadyApplied { partition, offset }
                    | Event::Refused { partition, offset }
                        if partition == p =>
                    {
                        let duplicate = counts.get(p, offset) > 1;
                        let at: [(&str, &dyn std::fmt::Display); 3] =
                            [("name", &c.name), ("partition", &p), ("offset", &offset)];
                        if let Some(start) = slow_starts.remove(&offset) {
                            lane = lane.add(
                                Rectangle::new()
                                    .set("class", "processing")
                                    .set("x", x(start))
                                    .set("y", y(offset) - 3.0)
                                    .set("width", (x(l.at) - x(start)).max(1.0))
                                    .set("height", 6)
                                    .set("fill", colour(i))
                                    .set("opacity", 0.6)
                                    .add(Title::new(m::BAR.fill(lang, &at))),
                            );
                        }
                        // A processing that wrote nothing (its effect was already there, or
                        // its transaction was refused) is a hollow dot.
                        let nothing = match l.event {
                            Event::AlreadyApplied { .. } => {
                                Some(("already-applied", m::ALREADY_APPLIED))
                            }
                            Event::Refused { .. } => Some(("refused", m::REFUSED)),
                            _ => None,
                        };
                        let already = nothing.is_some();
                        let class = match (duplicate, nothing) {
                            (true, Some((kind, _))) => format!("processed dup {kind}"),
                            (true, None) => "processed dup".to_string(),
                            (false, _) => "processed".to_string(),
                        };
                        let (cx, cy) = (x(l.at), y(offset));
                        let cell = (i, cx.round() as i64, cy.round() as i64, class.clone());
                        if !dots.count(cell, l.times) {
                            continue;
                        }
                        let mut dot = Circle::new()
                            .set("class", class)
                            .set("cx", cx)
                            .set("cy", cy)
                            .set("r", if duplicate { 3 } else { 2 })
                            .set("fill", if already { "white" } else { colour(i) });
                        if duplicate {
                            dot = dot.set("stroke", DUPLICATE).set("stroke-width", 1.5);
                        }
                        let title = match nothing {
                            Some((_, why)) => {
                                let why = why.text(lang);
                                let mut values = at.to_vec();
                                values.push(("why", &why));
                                m::DOT_WHY.fill(lang, &values)
                            }
                            None => m::DOT.fill(lang, &at),
                        };
                        dots.dots.push((dot, title));
                    }
                    _ => {}
                }
            }
        }
        lane = dots.draw(lane, lang, y0);
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
            let width = labels::width(&text, LABEL_SIZE);
            let label = labels::Label {
                x: x(o.from),
                width,
                ends_at_mark: x(o.from) + 2.0 + width > WIDTH - 4.0,
            };
            let (text_x, _) = label.span();
            lane = lane.add(
                Group::new()
                    .set("class", "overlap")
                    .add(Title::new(text.clone()))
                    .add(
                        Rectangle::new()
                            .set("x", x(o.from))
                            .set("y", y0 + 6.0)
                            .set("width", (x(o.to) - x(o.from)).max(1.0))
                            .set("height", 5)
                            .set("fill", DUPLICATE)
                            .set("opacity", 0.7),
                    )
                    .add(
                        Text::new(text)
                            .set("class", "label")
                            .set("x", text_x)
                            .set("y", y0 + 14.0 + LABEL_SIZE)
                            .set("font-size", LABEL_SIZE)
                            .set("fill", DUPLICATE),
                    ),
            );
        }
        doc = doc.add(lane);
        y0 += PARTITION_LANE;
    }

    // Consumer lanes: events with labels, in rows so that none overprints another.
    for (i, c) in consumers.iter().enumerate() {
        let mut lane = Group::new()
            .set("class", "lane lane-consumer")
            .set("data-consumer", c.name.clone())
            .add(
                Line::new()
                    .set("x1", left)
                    .set("x2", left + plot)
                    .set("y1", y0 + BASELINE)
                    .set("y2", y0 + BASELINE)
                    .set("stroke", colour(i)),
            )
            .add(
                Text::new(c.name.clone())
                    .set("x", 10)
                    .set("y", y0 + BASELINE - 3.0)
                    .set("font-size", LANE_NAME_SIZE)
                    .set("fill", colour(i)),
            );
        let mut marks: Vec<(NaiveDateTime, &'static str, String)> = c
            .log
            .lines
            .iter()
            .filter_map(|l| label(&l.event, lang).map(|(kind, text)| (l.at, kind, text)))
            .collect();
        if let Some(t) = c.log.maxpoll() {
            marks.push((t, "maxpoll", m::MAXPOLL.text(lang).into()));
        }
        marks.sort_by_key(|a| a.0);
        let boxes: Vec<labels::Label> = marks
            .iter()
            .map(|(t, _, text)| {
                let width = labels::width(text, LABEL_SIZE);
                labels::Label {
                    x: x(*t),
                    width,
                    // A label that would run off the picture ends at its mark instead.
                    ends_at_mark: x(*t) + 2.0 + width > WIDTH - 4.0,
                }
            })
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
            let mut mark = Group::new()
                .set("class", format!("event event-{kind}"))
                .add(Title::new(text.clone()))
                .add(
                    Line::new()
                        .set("x1", x(t))
                        .set("x2", x(t))
                        .set("y1", ty.map_or(y0 + BASELINE - 10.0, |ty| ty + 3.0))
                        .set("y2", y0 + BASELINE)
                        .set("stroke", stroke),
                );
            // A label with no clear row is left to the mark's tooltip.
            if let Some(ty) = ty {
                mark = mark.add(
                    halo(Text::new(text))
                        .set("class", "label")
                        .set("x", b.span().0)
                        .set("y", ty)
                        .set("font-size", LABEL_SIZE)
                        .set("fill", stroke),
                );
            }
            lane = lane.add(mark);
        }
        doc = doc.add(lane);
        y0 += CONSUMER_LANE;
    }

    // The time axis: seconds from the first line, each tick's label room enough.
    let (_, ticks) = axis::ticks(span as i64, (plot / TICK_ROOM) as i64);
    let mut time_axis = Group::new().set("class", "axis").add(
        Line::new()
            .set("x1", left)
            .set("x2", left + plot)
            .set("y1", y0 + 4.0)
            .set("y2", y0 + 4.0)
            .set("stroke", "#444"),
    );
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
            .add(
                Line::new()
                    .set("x1", tx)
                    .set("x2", tx)
                    .set("y1", y0 + 4.0)
                    .set("y2", y0 + 9.0)
                    .set("stroke", "#444"),
            )
            .add(
                Text::new(text)
                    .set("class", "tick")
                    .set("x", text_x)
                    .set("y", y0 + 9.0 + TICK_SIZE)
                    .set("text-anchor", anchor)
                    .set("font-size", TICK_SIZE),
            );
    }
    doc = doc
        .add(time_axis)
        .add(
            Text::new(krb_log::logline::format_time(first.time()))
                .set("class", "time")
                .set("x", left)
                .set("y", y0 + AXIS - 4.0),
        )
        .add(
            Text::new(format!(
                "{} ({})",
                krb_log::logline::format_time(last.time()),
                axis::seconds(span / 1000.0, lang)
            ))
            .set("class", "time")
            .set("x", left + plot)
            .set("y", y0 + AXIS - 4.0)
            .set("text-anchor", "end"),
        );
    Ok(doc)
}

/// Reads the logs and writes the SVG, its words in `lang`; returns where, and what the reader
/// said of the logs, one line each: the lines it skipped and what it found wrong with a log it
/// read all the same (another worker's lines in it, none).
pub fn run(args: &Args, lang: Lang) -> Result<(PathBuf, Vec<String>)> {
    let consumers = read(&args.logs.dir, &args.group, &args.namespace)?;
    let doc = render(&args.group, &consumers, lang)?;
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| args.logs.dir.join(format!("{}.svg", args.group)));
    svg::save(&out, &doc).with_context(|| format!("cannot write {}", out.display()))?;
    let notes = consumers.iter().flat_map(|c| c.log.notes()).collect();
    Ok((out, notes))
}
