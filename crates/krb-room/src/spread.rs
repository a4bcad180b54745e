//! The numbers that vary from run to run, across the room, as pictures: one dot a participant
//! on a scale from 0, the article's number marked beside them. The numbers are krb-verify's
//! (`Verdict::numbers`), as each participant's run computed them.

use krb_cli::lang::{Lang, Msg};
use krb_verify::verdict::{DUPLICATES, OVERLAP_SECONDS};
use krb_verify::{Assignor, Lab};

use crate::messages;
use crate::room::{Participant, Room};
use krb_markup::El;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Count,
    /// Seconds, to a tenth as krb-verify's `ours` shows them: `1.6 s`.
    Seconds,
}

impl Unit {
    pub fn shown(self, value: f64) -> String {
        match self {
            Unit::Count => format!("{value:.0}"),
            Unit::Seconds => format!("{value:.1} s"),
        }
    }
}

/// One variant's number, and the article's for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    pub lab: u8,
    pub variant: String,
    /// The number's name in `Verdict::numbers`.
    pub number: &'static str,
    pub article: f64,
    pub unit: Unit,
}

impl Measure {
    fn of(lab: Lab, number: &'static str, article: f64) -> Measure {
        let (n, _, variant) = lab.names();
        // The pictures' numbers: duplicates, else seconds together.
        let unit = if number == DUPLICATES {
            Unit::Count
        } else {
            Unit::Seconds
        };
        Measure {
            lab: n,
            variant,
            number,
            article,
            unit,
        }
    }

    /// A participant's value of this number, from their latest record of the variant; none
    /// without such a record, or for a record without the number (an older krb-verify, a run
    /// that never got there).
    pub fn value(&self, p: &Participant) -> Option<f64> {
        let record = p.variants.get(&(self.lab, self.variant.clone()))?;
        record.verdict.as_ref()?.numbers.get(self.number).copied()
    }

    /// Each participant's value, by participant name, for those who have one that is a number
    /// (the room keeps no other, but a picture is drawn of numbers only).
    pub fn values(&self, room: &Room) -> Vec<(String, f64)> {
        room.participants
            .iter()
            .filter_map(|(name, p)| Some((name.clone(), self.value(p)?)))
            .filter(|(_, v)| v.is_finite())
            .collect()
    }
}

/// One picture: its rows, one a variant, on one scale.
pub struct Picture {
    pub title: Msg,
    pub rows: Vec<Measure>,
}

/// The room's pictures: lab 1's duplicates without the revoke commit, lab 2's overlap, lab 3's
/// duplicates by assignor. The article's numbers are those krb-verify's verdicts quote (82 on
/// p1, 1.6 s together in offset 3, 67 and 24).
pub fn pictures() -> Vec<Picture> {
    let lab1 = Lab::Revoke {
        revoke_commit: false,
    };
    let lab3 = |assignor| Lab::Assignor {
        assignor,
        revoke_commit: false,
    };
    let picture = |title, rows| Picture { title, rows };
    vec![
        picture(
            messages::LAB1_DUPLICATES,
            vec![Measure::of(lab1, DUPLICATES, 82.0)],
        ),
        picture(
            messages::LAB2_OVERLAP,
            vec![Measure::of(Lab::Maxpoll, OVERLAP_SECONDS, 1.6)],
        ),
        picture(
            messages::LAB3_DUPLICATES,
            vec![
                Measure::of(lab3(Assignor::Range), DUPLICATES, 67.0),
                Measure::of(lab3(Assignor::CooperativeSticky), DUPLICATES, 24.0),
            ],
        ),
    ]
}

/// A scale from 0 to a round number at or above every value, in at most five steps of 1, 2 or
/// 5 times a power of ten, so the ticks are numbers a person reads at a glance. Whatever the
/// values, its end is a finite number and it has at most [`MAX_TICKS`] ticks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    pub max: f64,
    pub step: f64,
}

impl Scale {
    /// 0 to 1 when no value is above 0.
    pub fn new(values: impl IntoIterator<Item = f64>) -> Scale {
        let top = values
            .into_iter()
            .filter(|v| v.is_finite())
            .fold(0.0_f64, f64::max);
        // Up to a tenth of the largest number, so that five round steps still end at a number.
        let top = if top > 0.0 {
            top.min(f64::MAX / 10.0)
        } else {
            1.0
        };
        let rough = top / 5.0;
        let power = 10f64.powf(rough.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * power)
            .find(|s| *s >= rough * (1.0 - 1e-9))
            .unwrap_or(10.0 * power);
        // A hair below a whole step is that step: 1.6 / 0.2 is 8.000000000000002.
        let steps = (top / step - 1e-9).ceil().max(1.0);
        Scale {
            max: steps * step,
            step,
        }
    }

    /// The ticks, 0 included, the end included: at most [`MAX_TICKS`], however the scale was
    /// made.
    pub fn ticks(&self) -> Vec<f64> {
        let steps = (self.max / self.step).round();
        let n = if steps.is_finite() && steps > 0.0 {
            (steps as usize).min(MAX_TICKS - 1)
        } else {
            0
        };
        (0..=n).map(|i| i as f64 * self.step).collect()
    }

    pub fn at(&self, value: f64, length: f64) -> f64 {
        value.clamp(0.0, self.max) / self.max * length
    }

    /// A tick's label: as many decimals as the step has.
    pub fn label(&self, tick: f64) -> String {
        let decimals = (-self.step.log10().floor()).max(0.0) as usize;
        format!("{tick:.decimals$}")
    }
}

/// The most ticks a scale has: five steps and 0.
pub const MAX_TICKS: usize = 6;

/// The most lines of dots in a row: a dot that finds no room on any goes on the line that ends
/// first, over another's name (its own is in its title), so that a row's height and the time
/// to place its dots stay bounded however many participants share a value.
pub const MAX_LEVELS: usize = 8;

/// The picture's width, in pixels at a scale of 1 (two pictures side by side at 1280 pixels).
pub const WIDTH: f64 = 580.0;
/// Where the scale begins: the rows' names are to its left.
const LEFT: f64 = 170.0;
/// Where it ends, room for the last tick's label to its right.
const RIGHT: f64 = WIDTH - 30.0;
const DOT: f64 = 7.0;
const LEVEL: f64 = 26.0;
/// Text size: large enough for a projector, at a scale of 1.
const TEXT: f64 = 16.0;

/// How wide a name is at [`TEXT`], roughly (sans-serif letters average about 0.6 em).
fn text_width(text: &str) -> f64 {
    krb_cli::lang::columns(text) as f64 * TEXT * 0.6
}

/// The line of dots each point goes on, in order: the first line whose last dot and name end
/// before this dot begins, so no two overlap; past [`MAX_LEVELS`] lines, the line that ends
/// first.
pub fn levels(points: &[(f64, &str)]) -> Vec<usize> {
    let mut ends: Vec<f64> = Vec::new();
    points
        .iter()
        .map(|(x, name)| {
            let (start, end) = (x - DOT, x + DOT + 4.0 + text_width(name));
            let free = ends.iter().position(|e| *e + 4.0 <= start);
            let level = match free {
                Some(level) => level,
                None if ends.len() < MAX_LEVELS => {
                    ends.push(end);
                    ends.len() - 1
                }
                None => (0..ends.len())
                    .min_by(|a, b| ends[*a].total_cmp(&ends[*b]))
                    .unwrap_or(0),
            };
            ends[level] = ends[level].max(end);
            level
        })
        .collect()
}

/// The picture as inline SVG: one row a measure, one dot a participant (named, with its value
/// in `data-value` as krb-verify recorded it), the article's number a dashed line.
pub fn svg(picture: &Picture, room: &Room, lang: Lang) -> String {
    let rows: Vec<Vec<(String, f64)>> = picture.rows.iter().map(|m| m.values(room)).collect();
    let scale = Scale::new(
        rows.iter()
            .flatten()
            .map(|(_, v)| *v)
            .chain(picture.rows.iter().map(|m| m.article)),
    );
    let x = |v: f64| LEFT + scale.at(v, RIGHT - LEFT);
    let (f0, f1) = (|v: f64| format!("{v:.0}"), |v: f64| format!("{v:.1}"));
    let text = |tag, x: String, y: String, text: &str| {
        El::new(tag)
            .set("x", x)
            .set("y", y)
            .set("font-size", TEXT)
            .text(text)
    };
    let line = |x1: String, y1: f64, x2: String, y2: f64, stroke: &str| {
        let from = El::new("line").set("x1", x1).set("y1", f0(y1));
        from.set("x2", x2).set("y2", f0(y2)).set("stroke", stroke)
    };
    let mut body = Vec::new();
    let mut y = 0.0;
    for (measure, values) in picture.rows.iter().zip(&rows) {
        let mut sorted: Vec<&(String, f64)> = values.iter().collect();
        sorted.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        let placed: Vec<(f64, &str)> = sorted.iter().map(|(n, v)| (x(*v), n.as_str())).collect();
        let level = levels(&placed);
        let lines = level.iter().max().map_or(1, |l| l + 1);
        let height = 44.0 + lines as f64 * LEVEL;
        let (ax, first) = (f1(x(measure.article)), f0(y + 44.0 + LEVEL / 2.0));
        let shown = measure.unit.shown(measure.article);
        let article = messages::ARTICLE.fill(lang, &[("value", &shown)]);
        let tag = r##"text class="article" text-anchor="middle" fill="#444""##;
        let article = text(tag, ax.clone(), f0(y + 17.0), &article);
        let dashed = line(ax.clone(), y + 24.0, ax, y + height, "#777");
        let name = text(
            r#"text font-weight="bold""#,
            "0".into(),
            first.clone(),
            &measure.variant,
        );
        let mut row = El::new(r#"g class="row""#)
            .set("data-lab", measure.lab)
            .set("data-variant", &measure.variant)
            .child(name)
            .child(dashed.set("stroke-width", 2).set("stroke-dasharray", "6 4"))
            .child(article);
        if values.is_empty() {
            let none = messages::NO_VALUES.text(lang);
            row = row.child(text(r##"text fill="#666""##, LEFT.to_string(), first, none));
        }
        for (((name, value), (px, _)), l) in sorted.iter().zip(&placed).zip(&level) {
            let cy = y + 44.0 + *l as f64 * LEVEL + LEVEL / 2.0 - 6.0;
            let shown = format!("{name}: {}", measure.unit.shown(*value));
            let dot = El::new(r#"circle class="dot""#)
                .set("data-participant", name)
                .set("data-value", value)
                .set("cx", f1(*px))
                .set("cy", f1(cy))
                .set("r", DOT)
                .set("fill", "#1f5fa8");
            let halo = r##"text stroke="#fff" stroke-width="4" paint-order="stroke""##;
            row = row.child(dot.child(El::new("title").text(&shown)));
            row = row.child(text(halo, f1(px + DOT + 4.0), f1(cy + 5.5), name));
        }
        y += height + 8.0;
        body.extend([row, line("0".into(), y, WIDTH.to_string(), y, "#ddd")]);
    }
    let axis = y + 8.0;
    let bold = |l: El| l.set("stroke-width", 2);
    let axis_line = line(LEFT.to_string(), axis, RIGHT.to_string(), axis, "#111");
    body.push(bold(axis_line));
    for tick in scale.ticks() {
        let tx = f1(x(tick));
        body.push(bold(line(tx.clone(), axis, tx.clone(), axis + 6.0, "#111")));
        let (tag, label) = (r#"text text-anchor="middle""#, scale.label(tick));
        body.push(text(tag, tx, f0(axis + 24.0), &label));
    }
    let height = f0(axis + 32.0);
    let svg = El::svg()
        .set("class", "spread")
        .set("width", WIDTH)
        .set("height", &height)
        .set("viewBox", format!("0 0 {WIDTH} {height}"))
        .set("font-family", "sans-serif")
        .set("data-max", scale.max);
    body.into_iter().fold(svg, El::child).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::tests::record;

    #[test]
    fn the_scale_ends_at_a_round_number_at_or_above_every_value() {
        let s = Scale::new([78.0, 82.0, 64.0]);
        assert_eq!((s.max, s.step), (100.0, 20.0));
        assert_eq!(s.ticks(), [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(s.label(40.0), "40");
        assert_eq!(s.at(50.0, 400.0), 200.0);
        // Seconds: steps of a tenth, and a value on a step ends the scale there.
        let s = Scale::new([1.6, 1.2]);
        assert_eq!(s.step, 0.5);
        assert_eq!(s.max, 2.0);
        assert_eq!(s.label(1.5), "1.5");
        let s = Scale::new([0.4]);
        assert_eq!((s.max, s.step), (0.4, 0.1));
        assert_eq!(s.ticks().len(), 5);
        assert_eq!(s.label(0.30000000000000004), "0.3");
        // Exactly a step's multiple: no step more.
        assert_eq!(Scale::new([100.0]).max, 100.0);
        assert_eq!(Scale::new([101.0]).max, 150.0);
        // Nothing above 0, or nothing at all: 0 to 1, no division by zero.
        for empty in [
            Scale::new([]),
            Scale::new([0.0, 0.0]),
            Scale::new([f64::NAN]),
        ] {
            assert_eq!((empty.max, empty.step), (1.0, 0.2), "{empty:?}");
            assert_eq!(empty.at(0.0, 400.0), 0.0);
        }
        // At most five steps, and the values inside.
        for top in [0.7, 3.0, 9.9, 12.0, 49.0, 51.0, 99.0, 250.0, 1234.0] {
            let s = Scale::new([top]);
            assert!(s.max >= top && s.ticks().len() <= 6, "{top}: {s:?}");
            assert!(s.at(top, 1.0) <= 1.0);
        }
        // A value past the end (never, from new) stays on the line.
        assert_eq!(Scale::new([10.0]).at(11.0, 100.0), 100.0);
    }

    #[test]
    fn dots_too_close_for_their_names_go_on_the_next_line() {
        // In order along the line: p2 is on p1's name, so below it; p3 is past p1's name,
        // so back on the first line, and so is p4, far off.
        let levels = levels(&[(0.0, "p1"), (5.0, "p2"), (60.0, "p3"), (300.0, "p4")]);
        assert_eq!(levels, [0, 1, 0, 0]);
    }

    #[test]
    fn each_participant_is_a_dot_with_their_number_on_the_picture() {
        let mut room = crate::room::Room::default();
        for (ns, dups) in [("p1", 78.0), ("p2", 64.0), ("p3", 91.0)] {
            let r = record(ns, 1, "nocommit", true, dups);
            room.add(ns, Some(&serde_json::to_vec(&r).unwrap()), "here");
        }
        let pictures = pictures();
        let lab1 = svg(&pictures[0], &room, Lang::En);
        for (ns, dups) in [("p1", "78"), ("p2", "64"), ("p3", "91")] {
            assert!(
                lab1.contains(&format!(
                    r#"<circle class="dot" data-participant="{ns}" data-value="{dups}""#
                )),
                "{lab1}"
            );
        }
        // 91 and the article's 82 on a scale to 100: the article's line at 82 %.
        assert!(lab1.contains(r#"data-max="100""#), "{lab1}");
        let at = LEFT + 0.82 * (RIGHT - LEFT);
        assert!(lab1.contains(&format!(r#"<line x1="{at:.1}""#)), "{lab1}");
        assert!(lab1.contains(">article 82</text>"), "{lab1}");
        // Lab 3's picture has no records yet: both rows say so, in Korean too.
        let lab3 = svg(&pictures[2], &room, Lang::Ko);
        assert_eq!(lab3.matches("아직").count(), 2, "{lab3}");
        assert!(lab3.contains(r#"data-variant="cooperative-sticky""#));
    }
}
