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

pub mod axis;
pub mod labels;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use chrono::NaiveDateTime;
use clap::Parser;
use krb_common::logline::{Event, Offset, Partition};
use krb_common::namespace::Namespace;
use krb_common::overlap::overlaps;
use krb_common::reader::{Logs, Skipped};
use krb_common::worker_log::WorkerLog;
use krb_dups::{analyse, Counts};
use svg::node::element::{Circle, Group, Line, Rectangle, Text, Title};
use svg::Document;

/// krb-timeline: draw a consumer group's lab run as an SVG timeline.
///
/// Reads DIR/GROUP-*.log (as krb-dups does) and writes DIR/GROUP.svg (or --output): one lane
/// per partition with every processed offset in its consumer's colour (duplicates ringed in
/// red), one lane per consumer with its assigned / revoked / lost / commit / commit failed /
/// poll error / MAXPOLL events, a legend, and krb-dups' summary in the title.
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
const LEFT: f64 = 120.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 80.0;
const PARTITION_LANE: f64 = 120.0;
const CONSUMER_LANE: f64 = 84.0;
const COLOURS: [&str; 6] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
];
const DUPLICATE: &str = "#d62728";
/// Event labels: their size, and the rows a consumer lane has for them.
const LABEL_SIZE: f64 = 9.0;
const LABEL_ROWS: usize = 4;
const LABEL_ROW: f64 = 14.0;
/// Below the lanes: the time axis, then the first and last times.
const AXIS: f64 = 44.0;

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

/// Reads the group's logs (`GROUP-*.log`, sorted by name) through krb-common's reader; lines
/// it skipped are in each log's `skipped`.
pub fn read(dir: &Path, group: &str, ns: &Namespace) -> Result<Vec<Consumer>> {
    let logs = WorkerLog::read_group(dir, group, ns)?;
    if logs.is_empty() {
        bail!(
            "no log file {}/{group}-*.log: run the group's workers first, or pass --logs DIR",
            dir.display()
        );
    }
    Ok(logs
        .into_iter()
        .map(|log| Consumer {
            name: log.name.clone(),
            log,
        })
        .collect())
}

/// The code of a rendered Kafka error (`UNKNOWN_MEMBER_ID` of `KafkaError{code=UNKNOWN_MEMBER_ID,...}`).
fn code(err: &str) -> &str {
    err.split_once("code=")
        .and_then(|(_, rest)| rest.split(',').next())
        .unwrap_or(err)
}

/// The label of an event in a consumer's lane, or `None` for events drawn elsewhere.
fn label(event: &Event) -> Option<(&'static str, String)> {
    Some(match event {
        Event::Assigned(_) => ("assigned", event.to_string()),
        Event::Revoked(_) => ("revoked", event.to_string()),
        Event::Lost(_) => ("lost", event.to_string()),
        Event::Commit(_) => ("commit", event.to_string()),
        Event::CommitFailed(e) => ("commit-failed", format!("commit failed: {}", code(e))),
        Event::PollError(e) => ("poll-error", format!("poll error: {}", code(e))),
        Event::TxnAborted(e) => ("txn-aborted", format!("transaction aborted: {}", code(e))),
        Event::Start => ("start", "start".into()),
        Event::Stop => ("stop", "stop".into()),
        Event::Processed { .. }
        | Event::AlreadyApplied { .. }
        | Event::Refused { .. }
        | Event::SlowStart { .. }
        | Event::Consumes { .. } => return None,
    })
}

/// Draws the group's run.
pub fn render(group: &str, consumers: &[Consumer]) -> Result<Document> {
    let times = || {
        consumers
            .iter()
            .flat_map(|c| c.log.lines.iter().map(|l| l.at))
    };
    let (Some(first), Some(last)) = (times().min(), times().max()) else {
        bail!("the logs of {group} hold no worker line");
    };
    let t0 = millis(first);
    let span = (millis(last) - t0).max(1.0);
    let plot = WIDTH - LEFT - RIGHT;
    let x = |t: NaiveDateTime| LEFT + (millis(t) - t0) / span * plot;

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
    let totals = analyse(&mut counts, None).totals();
    let height = TOP
        + PARTITION_LANE * ranges.len() as f64
        + CONSUMER_LANE * consumers.len() as f64
        + AXIS
        + 20.0;
    let colour = |i: usize| COLOURS[i % COLOURS.len()];

    let mut doc = Document::new()
        .set("viewBox", (0, 0, WIDTH, height))
        .set("width", WIDTH)
        .set("height", height)
        .set("font-family", "sans-serif")
        .set("font-size", 11)
        .add(Title::new(format!("krb timeline of group {group}")))
        .add(
            Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", "white"),
        )
        .add(
            Text::new(format!("{group}: {totals}"))
                .set("class", "title")
                .set("x", LEFT)
                .set("y", 24)
                .set("font-size", 16)
                .set("font-weight", "bold"),
        );

    // Legend.
    let mut legend = Group::new().set("class", "legend");
    let mut lx = LEFT;
    let dot = |x: f64| Circle::new().set("cx", x).set("cy", 48).set("r", 5);
    for (i, c) in consumers.iter().enumerate() {
        legend = legend
            .add(dot(lx).set("fill", colour(i)))
            .add(Text::new(c.name.clone()).set("x", lx + 9.0).set("y", 52));
        lx += 20.0 + 7.0 * c.name.len() as f64;
    }
    legend = legend
        .add(
            dot(lx)
                .set("fill", "none")
                .set("stroke", DUPLICATE)
                .set("stroke-width", 2),
        )
        .add(
            Text::new("processed more than once")
                .set("x", lx + 9.0)
                .set("y", 52),
        )
        .add(
            Rectangle::new()
                .set("x", lx + 180.0)
                .set("y", 45)
                .set("width", 24)
                .set("height", 6)
                .set("fill", "#888")
                .set("opacity", 0.6),
        )
        .add(
            Text::new("slow message, start to end")
                .set("x", lx + 210.0)
                .set("y", 52),
        );
    doc = doc.add(legend);

    // Partition lanes: dots at (time, offset), and when two consumers were in one message.
    let logs: Vec<WorkerLog> = consumers.iter().map(|c| c.log.clone()).collect();
    let together = overlaps(&logs);
    let mut y0 = TOP;
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
                    .set("x", LEFT)
                    .set("y", y0 + 2.0)
                    .set("width", plot)
                    .set("height", PARTITION_LANE - 4.0)
                    .set("fill", "#f4f4f4"),
            )
            .add(
                Text::new(format!("p{p}"))
                    .set("x", 10)
                    .set("y", y0 + PARTITION_LANE / 2.0)
                    .set("font-size", 14),
            )
            .add(
                Text::new(format!("offset {lo}"))
                    .set("x", 10)
                    .set("y", y(lo))
                    .set("fill", "#666"),
            )
            .add(
                Text::new(format!("offset {hi}"))
                    .set("x", 10)
                    .set("y", y(hi) + 8.0)
                    .set("fill", "#666"),
            );
        for (i, c) in consumers.iter().enumerate() {
            let mut slow_starts: BTreeMap<Offset, NaiveDateTime> = BTreeMap::new();
            for l in &c.log.lines {
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
                                    .add(Title::new(format!(
                                        "{} p{p} offset {offset}, slow",
                                        c.name
                                    ))),
                            );
                        }
                        // A processing that wrote nothing (its effect was already there, or
                        // its transaction was refused) is a hollow dot.
                        let nothing = match l.event {
                            Event::AlreadyApplied { .. } => Some("already applied"),
                            Event::Refused { .. } => Some("refused"),
                            _ => None,
                        };
                        let already = nothing.is_some();
                        let class = match (duplicate, nothing) {
                            (true, Some(why)) => format!("processed dup {}", why.replace(' ', "-")),
                            (true, None) => "processed dup".to_string(),
                            (false, _) => "processed".to_string(),
                        };
                        let mut dot = Circle::new()
                            .set("class", class)
                            .set("cx", x(l.at))
                            .set("cy", y(offset))
                            .set("r", if duplicate { 3 } else { 2 })
                            .set("fill", if already { "white" } else { colour(i) });
                        if duplicate {
                            dot = dot.set("stroke", DUPLICATE).set("stroke-width", 1.5);
                        }
                        let title = match nothing {
                            Some(why) => format!("{} p{p} offset {offset} {why}", c.name),
                            None => format!("{} p{p} offset {offset}", c.name),
                        };
                        lane = lane.add(dot.add(Title::new(title)));
                    }
                    _ => {}
                }
            }
        }
        for o in together.iter().filter(|o| o.partition == p) {
            let text = format!(
                "{} and {} both in offset {}: {:.1} s",
                o.slow,
                o.other,
                o.offset,
                o.seconds()
            );
            let label = labels::Label {
                x: x(o.from),
                width: labels::width(&text, LABEL_SIZE),
                ends_at_mark: x(o.from) + labels::width(&text, LABEL_SIZE) > WIDTH - 4.0,
            };
            let (left, _) = label.span();
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
                            .set("x", left)
                            .set("y", y0 + 22.0)
                            .set("font-size", LABEL_SIZE)
                            .set("fill", DUPLICATE),
                    ),
            );
        }
        doc = doc.add(lane);
        y0 += PARTITION_LANE;
    }

    // Consumer lanes: events with labels, in rows so that none overprints another.
    let baseline = CONSUMER_LANE - 8.0;
    for (i, c) in consumers.iter().enumerate() {
        let mut lane = Group::new()
            .set("class", "lane lane-consumer")
            .set("data-consumer", c.name.clone())
            .add(
                Line::new()
                    .set("x1", LEFT)
                    .set("x2", LEFT + plot)
                    .set("y1", y0 + baseline)
                    .set("y2", y0 + baseline)
                    .set("stroke", colour(i)),
            )
            .add(
                Text::new(c.name.clone())
                    .set("x", 10)
                    .set("y", y0 + baseline - 2.0)
                    .set("fill", colour(i)),
            );
        let mut marks: Vec<(NaiveDateTime, &'static str, String)> = c
            .log
            .lines
            .iter()
            .filter_map(|l| label(&l.event).map(|(kind, text)| (l.at, kind, text)))
            .collect();
        if let Some(t) = c.log.maxpoll() {
            marks.push((t, "maxpoll", "MAXPOLL: leaving group".into()));
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
        for ((t, kind, text), (row, b)) in marks.into_iter().zip(rows.into_iter().zip(&boxes)) {
            let strong = matches!(
                kind,
                "lost" | "commit-failed" | "poll-error" | "txn-aborted" | "maxpoll"
            );
            let stroke = if strong { DUPLICATE } else { colour(i) };
            let ty = row.map(|r| y0 + 12.0 + LABEL_ROW * r as f64);
            let mut mark = Group::new()
                .set("class", format!("event event-{kind}"))
                .add(Title::new(text.clone()))
                .add(
                    Line::new()
                        .set("x1", x(t))
                        .set("x2", x(t))
                        .set("y1", ty.map_or(y0 + baseline - 10.0, |ty| ty + 2.0))
                        .set("y2", y0 + baseline)
                        .set("stroke", stroke),
                );
            // A label with no clear row is left to the mark's tooltip.
            if let Some(ty) = ty {
                mark = mark.add(
                    Text::new(text)
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

    // The time axis: seconds from the first line.
    let (_, ticks) = axis::ticks(span as i64);
    let mut time_axis = Group::new().set("class", "axis").add(
        Line::new()
            .set("x1", LEFT)
            .set("x2", LEFT + plot)
            .set("y1", y0 + 4.0)
            .set("y2", y0 + 4.0)
            .set("stroke", "#444"),
    );
    for ms in ticks {
        let tx = LEFT + ms as f64 / span * plot;
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
                Text::new(axis::label(ms))
                    .set("class", "tick")
                    .set("x", tx)
                    .set("y", y0 + 20.0)
                    .set("text-anchor", "middle")
                    .set("font-size", 10),
            );
    }
    doc = doc
        .add(time_axis)
        .add(
            Text::new(krb_common::logline::format_time(first.time()))
                .set("x", LEFT)
                .set("y", y0 + AXIS - 8.0),
        )
        .add(
            Text::new(format!(
                "{} ({:.1} s)",
                krb_common::logline::format_time(last.time()),
                span / 1000.0
            ))
            .set("x", LEFT + plot)
            .set("y", y0 + AXIS - 8.0)
            .set("text-anchor", "end"),
        );
    Ok(doc)
}

/// Reads the logs and writes the SVG; returns where, and the lines the reader skipped.
pub fn run(args: &Args) -> Result<(PathBuf, Vec<Skipped>)> {
    let consumers = read(&args.logs.dir, &args.group, &args.namespace)?;
    let doc = render(&args.group, &consumers)?;
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| args.logs.dir.join(format!("{}.svg", args.group)));
    svg::save(&out, &doc).with_context(|| format!("cannot write {}", out.display()))?;
    let skipped = consumers.into_iter().flat_map(|c| c.log.skipped).collect();
    Ok((out, skipped))
}
