//! Renders crafted logs and reads the SVG back as XML: lanes, duplicates and event marks.

use std::collections::BTreeSet;
use std::path::Path;

use krb_testutil::Scratch;

use krb_cli::lang::Lang;
use krb_log::reader::Logs;
use krb_timeline::messages::ALL;
use krb_timeline::{run, Args};

fn logs(files: &[(&str, &str)]) -> Scratch {
    krb_testutil::scratch_dir("timeline", files)
}

fn with_class<'a>(doc: &'a roxmltree::Document, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|w| w == class))
        })
        .collect()
}

fn texts(node: roxmltree::Node) -> Vec<String> {
    node.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .collect()
}

#[test]
fn lab1_moved_partition_is_reread_and_marked() {
    // a processes p1 0..5 committing p1=3, hands p1 back; b re-reads p1 3..5.
    let mut a = String::from("09:00:00.000 start lab-a\n09:00:00.010 lab-a assigned [0, 1]\n");
    for o in 0..6 {
        a += &format!("09:00:00.{:03} lab-a p1 offset {o}\n", 100 + o * 10);
        if o == 2 {
            a += "09:00:00.125 lab-a commit p1=3\n";
        }
    }
    a += "09:00:00.200 lab-a revoked [0, 1]\n09:00:00.210 lab-a assigned [0]\n";
    a += "09:00:00.220 lab-a p0 offset 0\n";
    let mut b = String::from("09:00:00.050 start lab-b\n09:00:00.210 lab-b assigned [1]\n");
    for o in 3..8 {
        b += &format!("09:00:00.{:03} lab-b p1 offset {o}\n", 230 + o * 10);
    }
    let dir = logs(&[("lab-a.log", &a), ("lab-b.log", &b)]);
    let out = run(
        &Args {
            group: "lab".into(),
            logs: Logs::at(&dir),
            output: None,
            namespace: Default::default(),
        },
        Lang::En,
    )
    .unwrap()
    .0;
    assert_eq!(out, dir.join("lab.svg"));
    let text = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();

    assert_eq!(
        with_class(&doc, "lane-partition").len(),
        2,
        "one lane per partition"
    );
    assert_eq!(
        with_class(&doc, "lane-consumer").len(),
        2,
        "one lane per consumer"
    );
    assert_eq!(with_class(&doc, "processed").len(), 6 + 1 + 5);
    // Offsets 3, 4, 5 of p1 were processed by a and by b: six ringed dots, all in p1's lane.
    let dups = with_class(&doc, "dup");
    assert_eq!(dups.len(), 6);
    assert!(dups.iter().all(|d| d
        .ancestors()
        .any(|g| g.attribute("data-partition") == Some("1"))));
    // b's re-read starts lower in the lane than where a stopped: the step back is visible.
    let cy = |who: &str, offset: &str| -> f64 {
        doc.descendants()
            .find(|n| {
                n.has_tag_name("circle")
                    && n.children().any(|t| {
                        t.has_tag_name("title")
                            && t.text() == Some(&format!("{who} p1 offset {offset}"))
                    })
            })
            .and_then(|n| n.attribute("cy"))
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(
        cy("lab-b", "3") > cy("lab-a", "5"),
        "offset 3 sits below offset 5"
    );
    let a_lane = with_class(&doc, "lane-consumer")
        .into_iter()
        .find(|n| n.attribute("data-consumer") == Some("lab-a"))
        .unwrap();
    let labels = texts(a_lane);
    for expected in ["revoked [0, 1]", "assigned [0]", "commit p1=3", "start"] {
        assert!(
            labels.iter().any(|l| l == expected),
            "{expected} missing from {labels:?}"
        );
    }
    let title = texts(with_class(&doc, "title")[0]);
    assert_eq!(title, ["lab: processed 12, unique 9, duplicates 3"]);
    assert_eq!(texts(with_class(&doc, "legend")[0]).len(), 5);
}

/// A path's `d` (`M1,2H3V4H5`), command by command with its numbers.
fn steps(d: &str) -> Vec<(char, Vec<f64>)> {
    let mut out = Vec::new();
    let mut rest = d;
    while let Some(letter) = rest.chars().next() {
        let end = rest[1..]
            .find(|c: char| c.is_ascii_alphabetic())
            .map_or(rest.len(), |i| i + 1);
        let numbers = rest[1..end].split(',').map(|n| n.parse().unwrap());
        out.push((letter, numbers.collect()));
        rest = &rest[end..];
    }
    out
}

#[test]
fn each_partitions_committed_position_is_a_step_line_at_the_offset_read_next() {
    // a processes p0 0..9 committing 3 and 6, hands p0 over; b re-reads from 6 and commits 10.
    let mut a = String::from("09:00:00.000 pos-a assigned [0]\n");
    for o in 0..10 {
        a += &format!("09:00:00.{:03} pos-a p0 offset {o}\n", 100 + 50 * o);
        if o == 2 || o == 5 {
            a += &format!("09:00:00.{:03} pos-a commit p0={}\n", 120 + 50 * o, o + 1);
        }
    }
    a += "09:00:00.700 pos-a revoked [0]\n";
    let mut b = String::from("09:00:00.750 pos-b assigned [0]\n");
    for o in 6..10 {
        b += &format!("09:00:00.{:03} pos-b p0 offset {o}\n", 800 + 20 * o);
    }
    b += "09:00:01.000 pos-b commit p0=10\n09:00:01.100 pos-b p0 offset 10\n";
    let dir = logs(&[("pos-a.log", &a), ("pos-b.log", &b)]);
    let text = draw(&dir, "pos", Lang::En);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let lines = with_class(&doc, "committed");
    assert_eq!(lines.len(), 1, "one step line, in p0's lane");
    let d = lines[0].attribute("d").unwrap();
    let got = steps(d);
    let letters: String = got.iter().map(|(l, _)| *l).collect();
    // From the first commit: up at the second, up at b's, then on to the run's end.
    assert_eq!(letters, "MHVHVH", "{d}");
    let cy = |who: &str, offset: i64| -> f64 {
        let dot = doc
            .descendants()
            .find(|n| {
                n.has_tag_name("circle")
                    && texts_of_title(*n) == format!("{who} p0 offset {offset}")
            })
            .unwrap();
        dot.attribute("cy").unwrap().parse().unwrap()
    };
    let commit_x = |text: &str| -> f64 {
        let mark = with_class(&doc, "event-commit")
            .into_iter()
            .find(|n| texts_of_title(*n) == text)
            .unwrap();
        let line = mark.children().find(|n| n.has_tag_name("line")).unwrap();
        line.attribute("x1").unwrap().parse().unwrap()
    };
    let of = |letter: char| -> Vec<f64> {
        got.iter()
            .filter(|(l, _)| *l == letter)
            .map(|(_, v)| v[0])
            .collect()
    };
    let (start, xs, ys) = (&got[0].1, of('H'), of('V'));
    // Each step at its commit's time, to the pixel, and at the height of the offset read next.
    let near = |a: f64, b: f64| (a - b).abs() <= 0.5;
    assert!(near(start[0], commit_x("commit p0=3")), "{d}");
    assert!(near(xs[0], commit_x("commit p0=6")), "{d}");
    assert!(near(xs[1], commit_x("commit p0=10")), "{d}");
    assert!(near(start[1], cy("pos-a", 3)), "{d}");
    assert!(near(ys[0], cy("pos-a", 6)), "{d}");
    assert!(near(ys[1], cy("pos-b", 10)), "{d}");
    assert!(xs[2] > xs[1], "on to the end: {d}");
    // What b processed again is on the line or above it, where a's last commit left it.
    let dups = with_class(&doc, "dup");
    assert_eq!(dups.len(), 8);
    for dot in dups {
        let y: f64 = dot.attribute("cy").unwrap().parse().unwrap();
        assert!(y <= ys[0] + 0.5, "{y} below the committed {}", ys[0]);
    }
    let legend = texts(with_class(&doc, "legend")[0]);
    assert!(legend.contains(&"committed: the offset the group reads next".to_string()));
    let ko = draw(&dir, "pos", Lang::Ko);
    assert!(ko.contains("commit된 위치: 그룹이 다음에 읽을 offset"));
}

#[test]
fn lab2_two_consumers_in_one_message_and_the_failures() {
    let a = "%4|1790813686.528|MAXPOLL|slow-a#consumer-1| [thrd:main]: Application maximum poll interval (10000ms) exceeded by 356ms (adjust max.poll.interval.ms for long-running message processing): leaving group\n\
             09:14:31.388 slow-a assigned [0]\n\
             09:14:36.171 slow-a commit p0=3\n\
             09:14:36.172 slow-a p0 offset 3 slow start\n\
             09:14:51.679 slow-a p0 offset 3\n\
             09:14:51.682 slow-a commit failed: KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str=\"Commit failed: Broker: Unknown member\"}\n\
             09:14:51.682 slow-a lost [0]\n\
             09:14:51.682 slow-a poll error: KafkaError{code=_MAX_POLL_EXCEEDED,val=-147,str=\"x\"}\n";
    let b = "09:14:49.521 slow-b assigned [0]\n09:14:50.030 slow-b p0 offset 3\n09:14:50.039 slow-b commit p0=4\n";
    let dir = logs(&[
        ("slow-a.log", a),
        ("slow-b.log", b),
        ("slowx-a.log", "junk\n"),
    ]);
    let out = run(
        &Args {
            group: "slow".into(),
            logs: Logs::at(&dir),
            output: Some(dir.join("picture.svg")),
            namespace: Default::default(),
        },
        Lang::En,
    )
    .unwrap()
    .0;
    let text = std::fs::read_to_string(out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let bars = with_class(&doc, "processing");
    assert_eq!(bars.len(), 1, "a's slow offset 3 is a bar");
    let bar_x: f64 = bars[0].attribute("x").unwrap().parse().unwrap();
    let bar_w: f64 = bars[0].attribute("width").unwrap().parse().unwrap();
    let b_dot = with_class(&doc, "dup")
        .into_iter()
        .find(|n| texts_of_title(*n) == "slow-b p0 offset 3")
        .unwrap();
    let b_x: f64 = b_dot.attribute("cx").unwrap().parse().unwrap();
    assert!(
        bar_x < b_x && b_x < bar_x + bar_w,
        "b finishes offset 3 inside a's bar"
    );
    for kind in [
        "event-lost",
        "event-commit-failed",
        "event-poll-error",
        "event-maxpoll",
    ] {
        assert_eq!(with_class(&doc, kind).len(), 1, "{kind}");
    }
}

fn texts_of_title(n: roxmltree::Node) -> String {
    n.children()
        .find(|t| t.has_tag_name("title"))
        .and_then(|t| t.text())
        .unwrap_or_default()
        .trim()
        .to_string()
}

#[test]
fn no_logs_is_an_error() {
    let dir = logs(&[]);
    let err = run(
        &Args {
            group: "none".into(),
            logs: Logs::at(&dir),
            output: None,
            namespace: Default::default(),
        },
        Lang::En,
    )
    .unwrap_err();
    assert!(err.to_string().contains("no log file"), "{err}");
}

#[test]
fn bad_lines_are_skipped_and_named_not_fatal() {
    let dir = logs(&[(
        "bad-a.log",
        "09:00:00.000 bad-a assigned [0]\n09:00:00.100 bad-a p0 offset x\n09:00:00.200 bad-a p0 offset 0\n",
    )]);
    let mut bytes = std::fs::read(dir.join("bad-a.log")).unwrap();
    bytes
        .extend_from_slice(b"09:00:00.300 bad-a p0 offset 1\xff\n09:00:00.400 bad-a p0 offset 2\n");
    std::fs::write(dir.join("bad-a.log"), bytes).unwrap();
    let (out, skipped) = run(
        &Args {
            group: "bad".into(),
            logs: Logs::at(&dir),
            output: None,
            namespace: Default::default(),
        },
        Lang::En,
    )
    .unwrap();
    let lines: Vec<String> = skipped.iter().map(|s| s.to_string()).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].ends_with("bad-a.log:2: skipped: malformed processing event \"p0 offset x\""),
        "{lines:?}"
    );
    assert!(lines[1].contains("bad-a.log:4: skipped: "), "{lines:?}");
    let text = std::fs::read_to_string(out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(
        with_class(&doc, "processed").len() + with_class(&doc, "dup").len(),
        2
    );
}

#[test]
fn a_run_across_midnight_is_drawn_forwards() {
    let dir = logs(&[
        (
            "night-a.log",
            "23:59:59.000 start night-a\n23:59:59.500 night-a p0 offset 0\n00:00:00.500 night-a p0 offset 1\n",
        ),
        ("night-b.log", "00:00:01.000 start night-b\n00:00:01.500 night-b p0 offset 2\n"),
    ]);
    let (out, _) = run(
        &Args {
            group: "night".into(),
            logs: Logs::at(&dir),
            output: None,
            namespace: Default::default(),
        },
        Lang::En,
    )
    .unwrap();
    let text = std::fs::read_to_string(out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let x_of = |title: &str| -> f64 {
        with_class(&doc, "processed")
            .into_iter()
            .find(|n| texts_of_title(*n) == title)
            .unwrap_or_else(|| panic!("no dot {title}"))
            .attribute("cx")
            .unwrap()
            .parse()
            .unwrap()
    };
    let (x0, x1, x2) = (
        x_of("night-a p0 offset 0"),
        x_of("night-a p0 offset 1"),
        x_of("night-b p0 offset 2"),
    );
    assert!(x0 < x1 && x1 < x2, "{x0} {x1} {x2}");
    assert!(text.contains("23:59:59.000") && text.contains("00:00:01.500"));
}

#[test]
fn a_processing_that_wrote_nothing_is_a_hollow_ringed_dot() {
    for (end, class) in [
        ("already applied", "already-applied"),
        ("refused", "refused"),
    ] {
        let a = format!(
            "09:00:00.000 eff-a p0 offset 3 slow start\n09:00:02.000 eff-a p0 offset 3 {end}\n"
        );
        let dir = logs(&[
            ("eff-a.log", a.as_str()),
            ("eff-b.log", "09:00:01.000 eff-b p0 offset 3\n"),
        ]);
        let (out, _) = run(
            &Args {
                group: "eff".into(),
                logs: Logs::at(&dir),
                output: None,
                namespace: Default::default(),
            },
            Lang::En,
        )
        .unwrap();
        let text = std::fs::read_to_string(out).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let hollow = with_class(&doc, class);
        assert_eq!(hollow.len(), 1, "{end}");
        assert_eq!(hollow[0].attribute("fill"), Some("white"));
        assert_eq!(
            texts_of_title(hollow[0]),
            format!("eff-a p0 offset 3 {end}")
        );
        assert_eq!(
            with_class(&doc, "dup").len(),
            2,
            "both processings of offset 3 are ringed ({end})"
        );
    }
}

/// A drawn label's box, as wide as krb-timeline's estimate of its widest drawing (a full em a
/// Hangul letter).
fn label_box(n: roxmltree::Node) -> (f64, f64, f64, f64, String) {
    let num = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    let text = n.text().unwrap_or_default().trim().to_string();
    let size = num("font-size");
    let (x, y) = (num("x"), num("y"));
    let w = krb_timeline::labels::width(&text, size);
    assert!(
        n.attribute("text-anchor").is_none(),
        "labels are placed by their left edge"
    );
    (x, x + w, y - size, y, text)
}

/// Lab 2 as the article tells it, its workers GROUP-a and GROUP-b: a slow in offset 3, b
/// committing every message it re-reads after a left.
fn lab2(group: &str) -> Scratch {
    let a = "09:14:31.388 slow-a assigned [0]\n09:14:36.171 slow-a commit p0=3\n\
             09:14:36.172 slow-a p0 offset 3 slow start\n09:14:51.679 slow-a p0 offset 3\n\
             09:14:51.682 slow-a commit failed: KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str=\"x\"}\n\
             09:14:51.682 slow-a lost [0]\n09:14:53.000 slow-a assigned []\n";
    let mut b = String::from("09:14:35.000 slow-b assigned []\n09:14:50.079 slow-b assigned [0]\n");
    for o in 3..9 {
        b += &format!("09:14:50.{:03} slow-b p0 offset {o}\n", 100 + o * 20);
        b += &format!("09:14:50.{:03} slow-b commit p0={}\n", 105 + o * 20, o + 1);
    }
    b += "09:14:52.990 slow-b revoked [0]\n09:14:53.000 slow-b assigned [0]\n";
    let named = |log: &str| log.replace("slow-", &format!("{group}-"));
    logs(&[
        (&format!("{group}-a.log"), &named(a)),
        (&format!("{group}-b.log"), &named(&b)),
    ])
}

/// Draws GROUP's logs in DIR in `lang`; the SVG's text.
fn draw(dir: &Path, group: &str, lang: Lang) -> String {
    let out = run(
        &Args {
            group: group.into(),
            logs: Logs::at(dir),
            output: Some(dir.join(format!("{group}-{}.svg", lang.code()))),
            namespace: Default::default(),
        },
        lang,
    )
    .unwrap()
    .0;
    std::fs::read_to_string(out).unwrap()
}

/// Checks that no two drawn labels' boxes overlap; returns how many labels there are.
fn labels_apart(doc: &roxmltree::Document) -> usize {
    let boxes: Vec<_> = with_class(doc, "label")
        .into_iter()
        .map(label_box)
        .collect();
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let apart = a.1 <= b.0 || b.1 <= a.0 || a.3 <= b.2 || b.3 <= a.2;
            assert!(apart, "{:?} overprints {:?}", a.4, b.4);
        }
    }
    boxes.len()
}

#[test]
fn labels_never_overprint_and_the_overlap_and_the_time_axis_are_marked() {
    let dir = lab2("slow");
    let text = draw(&dir, "slow", Lang::En);
    let doc = roxmltree::Document::parse(&text).unwrap();

    assert!(labels_apart(&doc) >= 8);
    // Every event keeps its text as a tooltip, drawn or not.
    let events = with_class(&doc, "event");
    assert_eq!(
        events.len(),
        5 + 10,
        "a's 5 events, b's 6 commits and 4 rebalance events"
    );
    assert!(events.iter().all(|e| !texts_of_title(*e).is_empty()));

    let overlap = with_class(&doc, "overlap");
    assert_eq!(overlap.len(), 1);
    assert_eq!(
        texts_of_title(overlap[0]),
        "slow-a and slow-b both in offset 3: 1.6 s"
    );

    let ticks: Vec<String> = with_class(&doc, "tick")
        .into_iter()
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .collect();
    assert_eq!(ticks.first().map(String::as_str), Some("0 s"));
    assert!(
        ticks.len() >= 5 && ticks.iter().all(|t| t.ends_with(" s")),
        "{ticks:?}"
    );
}

/// Every text's size: its own `font-size`, or the nearest one it inherits.
fn font_sizes(doc: &roxmltree::Document) -> Vec<(String, f64)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let size = n
                .ancestors()
                .find_map(|a| a.attribute("font-size"))
                .unwrap_or_else(|| panic!("{:?} has no font-size", n.text()));
            (
                n.text().unwrap_or_default().trim().to_string(),
                size.parse().unwrap(),
            )
        })
        .collect()
}

/// Lab 2's logs with every label krb-timeline writes: MAXPOLL, a poll error, a third worker
/// that starts, has its transaction aborted, is refused an offset and stops.
fn lab2_and_more(group: &str) -> Scratch {
    let dir = lab2(group);
    let a = dir.join(format!("{group}-a.log"));
    let mut text = format!(
        "%4|1790813686.528|MAXPOLL|{group}-a#consumer-1| [thrd:main]: Application maximum poll \
         interval (10000ms) exceeded by 356ms: leaving group\n"
    );
    text += &std::fs::read_to_string(&a).unwrap();
    text += &format!(
        "09:14:51.700 {group}-a poll error: KafkaError{{code=_MAX_POLL_EXCEEDED,val=-147,str=\"x\"}}\n"
    );
    std::fs::write(&a, text).unwrap();
    let c = format!(
        "09:14:40.000 start {group}-c\n09:14:41.000 {group}-c assigned [1]\n\
         09:14:41.500 {group}-c p1 offset 0\n09:14:42.000 {group}-c p1 offset 1 refused\n\
         09:14:42.001 {group}-c transaction aborted: KafkaError{{code=PRODUCER_FENCED,val=90,str=\"x\"}}\n\
         09:14:44.000 {group}-c p1 offset 1 slow start\n09:14:45.000 {group}-c p1 offset 1\n\
         09:14:46.000 stop {group}-c\n"
    );
    std::fs::write(dir.join(format!("{group}-c.log")), c).unwrap();
    dir
}

#[test]
fn every_text_is_at_least_14_px_in_either_language() {
    let dir = lab2_and_more("big");
    for lang in [Lang::En, Lang::Ko] {
        let text = draw(&dir, "big", lang);
        let doc = roxmltree::Document::parse(&text).unwrap();
        assert_eq!(doc.root_element().attribute("width"), Some("1200"));
        let sizes = font_sizes(&doc);
        assert!(sizes.len() > 30, "{sizes:?}");
        for (text, size) in sizes {
            assert!(size >= 14.0, "{text:?} is {size} px ({lang:?})");
        }
    }
}

/// The words of a text, ASCII letters only (a placeholder's name is not a word).
fn words(text: &str) -> BTreeSet<String> {
    let mut plain = String::new();
    let mut in_placeholder = false;
    for c in text.chars() {
        match c {
            '{' => in_placeholder = true,
            '}' => in_placeholder = false,
            c if !in_placeholder => plain.push(c),
            _ => {}
        }
    }
    plain
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn in_korean_the_labels_are_korean_apart_from_the_log_lines_and_none_overprints() {
    // English words of the table that its Korean texts do not keep (`MAXPOLL`, `krb`, `p` and
    // the glossary's Latin terms, `offset`, `commit`, `poll`, do).
    let english: BTreeSet<String> = ALL
        .iter()
        .flat_map(|m| {
            words(m.en)
                .difference(&words(m.ko))
                .cloned()
                .collect::<Vec<_>>()
        })
        .collect();
    for w in [
        "slow",
        "both",
        "start",
        "stop",
        "failed",
        "processed",
        "leaving",
        "s",
    ] {
        assert!(english.contains(w), "{w} {english:?}");
    }
    // Workers named with no word of the table.
    let dir = lab2_and_more("lab");
    let ko = draw(&dir, "lab", Lang::Ko);
    let en = draw(&dir, "lab", Lang::En);
    let doc = roxmltree::Document::parse(&ko).unwrap();
    let english_doc = roxmltree::Document::parse(&en).unwrap();

    assert!(labels_apart(&doc) >= 10);
    let log_line = |n: &roxmltree::Node| {
        n.ancestors().any(|a| {
            a.attribute("class").is_some_and(|c| {
                [
                    "event-assigned",
                    "event-revoked",
                    "event-lost",
                    "event-commit",
                ]
                .iter()
                .any(|k| c.split(' ').any(|w| w == *k))
            })
        })
    };
    let mut seen = 0;
    for n in doc
        .descendants()
        .filter(|n| n.has_tag_name("text") || n.has_tag_name("title"))
        .filter(|n| !log_line(n))
    {
        let text = n.text().unwrap_or_default();
        let left: Vec<_> = words(text).intersection(&english).cloned().collect();
        assert!(left.is_empty(), "{text:?} holds English {left:?}");
        seen += 1;
    }
    assert!(seen > 40, "{seen} texts");
    for expected in [
        "그룹 lab의 krb 타임라인",
        "lab: 처리 10, 고유 8, 중복 2",
        "두 번 이상 처리됨",
        "lab-a, lab-b 둘 다 offset 3 처리 중: 1.6초",
        "commit 실패: UNKNOWN_MEMBER_ID",
        "poll 오류: _MAX_POLL_EXCEEDED",
        "트랜잭션 중단: PRODUCER_FENCED",
        "MAXPOLL: 그룹을 떠남",
        "lab-c p1 offset 1 처리, 거부됨",
        "lab-c p1 offset 1 처리, 느림",
        "시작",
        "종료",
        "0초",
    ] {
        assert!(ko.contains(expected), "{expected} missing");
    }

    // The log lines are drawn as the log writes them, the same in both languages.
    let log_labels = |doc: &roxmltree::Document| -> Vec<String> {
        with_class(doc, "label")
            .into_iter()
            .filter(log_line)
            .filter_map(|n| n.text().map(|t| t.trim().to_string()))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    let lines = log_labels(&doc);
    for expected in ["assigned [0]", "assigned []", "lost [0]", "commit p0=4"] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    assert_eq!(lines, log_labels(&english_doc));
}

#[test]
fn krb_lang_picks_the_language_and_a_bad_one_is_a_usage_error() {
    let dir = lab2("lang");
    let tool = env!("CARGO_BIN_EXE_krb-timeline");
    let drawn = std::process::Command::new(tool)
        .args(["--logs", dir.to_str().unwrap(), "lang"])
        .env("KRB_LANG", "ko")
        .output()
        .unwrap();
    assert!(drawn.status.success(), "{drawn:?}");
    let svg = std::fs::read_to_string(dir.join("lang.svg")).unwrap();
    assert!(svg.contains("그룹 lang의 krb 타임라인"), "not Korean");
    std::fs::remove_file(dir.join("lang.svg")).unwrap();

    let refused = std::process::Command::new(tool)
        .args(["--logs", dir.to_str().unwrap(), "lang"])
        .env("KRB_LANG", "fr")
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let err = String::from_utf8(refused.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("krb-timeline: KRB_LANG=fr: unknown language"),
        "{err}"
    );
    assert!(!dir.join("lang.svg").exists(), "nothing drawn");
}

#[test]
fn another_workers_lines_an_empty_log_and_a_cut_last_line_are_named() {
    let dir = logs(&[
        (
            "two-a.log",
            "09:00:00.000 two-a assigned [0]\n09:00:00.100 two-b p0 offset 0\n09:00:00.200 two-a p0 offset 1",
        ),
        ("two-b.log", ""),
    ]);
    let (_, notes) = run(
        &Args {
            group: "two".into(),
            logs: Logs::at(&dir),
            output: None,
            namespace: Default::default(),
        },
        Lang::En,
    )
    .unwrap();
    let (a, b) = (dir.join("two-a.log"), dir.join("two-b.log"));
    assert_eq!(
        notes,
        vec![
            format!("{}:3: skipped: the last line has no newline: cut short by its writer, not read", a.display()),
            format!("{}:2: a line of worker two-b, in the log of worker two-a: a log holds one worker's lines (read all the same)", a.display()),
            format!("{}: no worker line in it: the log is empty", b.display()),
        ]
    );
}

/// The SVG of `files` (group `many`), as text.
fn drawn(files: &[(&str, &str)]) -> String {
    let dir = logs(files);
    let out = run(
        &Args {
            group: "many".into(),
            logs: Logs::at(&dir),
            output: None,
            namespace: Default::default(),
        },
        Lang::En,
    )
    .unwrap()
    .0;
    let text = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    text
}

#[test]
fn many_lines_at_one_point_are_one_dot_that_says_how_many() {
    let mut a = String::new();
    for _ in 0..20_000 {
        a += "09:00:00.000 many-a p0 offset 7\n";
    }
    a += "09:00:10.000 many-a p0 offset 8\n";
    let text = drawn(&[("many-a.log", &a)]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let dots = with_class(&doc, "processed");
    assert_eq!(dots.len(), 2);
    let said: u64 = dots
        .iter()
        .map(|d| {
            let title = d.children().find(|t| t.has_tag_name("title")).unwrap();
            let text = title.text().unwrap();
            text.split(", and ").nth(1).map_or(1, |n| {
                1 + n.split(' ').next().unwrap().parse::<u64>().unwrap()
            })
        })
        .sum();
    assert_eq!(said, 20_001);
}

#[test]
fn a_lane_draws_a_bounded_number_of_dots_and_says_how_many_it_left_out() {
    // 20,000 offsets one a millisecond, in no order: more points than a lane draws.
    let mut a = String::new();
    for i in 0..20_000 {
        let o = i * 7919 % 20_000;
        a += &format!(
            "09:00:{:02}.{:03} many-a p0 offset {o}\n",
            i / 1000,
            i % 1000
        );
    }
    let text = drawn(&[("many-a.log", &a)]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let dots = with_class(&doc, "processed").len();
    assert!(dots <= 5000, "{dots} dots");
    let left_out = texts(with_class(&doc, "left-out")[0]);
    let n: usize = left_out[0].split(' ').next().unwrap().parse().unwrap();
    let merged: usize = with_class(&doc, "processed")
        .iter()
        .map(|d| {
            let title = d.children().find(|t| t.has_tag_name("title")).unwrap();
            title.text().unwrap().split(", and ").nth(1).map_or(0, |n| {
                n.split(' ').next().unwrap().parse::<usize>().unwrap()
            })
        })
        .sum();
    assert_eq!(dots + merged + n, 20_000);
    assert!(text.len() < 4 << 20, "{} bytes", text.len());
}

#[test]
fn a_line_written_again_at_once_is_one_dot_that_counts_each_copy() {
    let a = "09:00:00.000 many-a p0 offset 7\n".repeat(1000);
    let text = drawn(&[(
        "many-a.log",
        &format!("{a}09:00:01.000 many-a p0 offset 8\n"),
    )]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let titles: Vec<String> = with_class(&doc, "processed")
        .into_iter()
        .map(texts_of_title)
        .collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert!(
        titles[0].ends_with(", and 999 more processings at this point"),
        "{}",
        titles[0]
    );
}

#[test]
fn a_log_of_many_partitions_draws_a_bounded_number_of_lanes_and_says_so() {
    let mut a = String::new();
    for p in 0..200 {
        a += &format!("09:00:00.{:03} many-a p{} offset 1\n", p % 1000, 4096 + p);
    }
    let text = drawn(&[("many-a.log", &a)]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(with_class(&doc, "lane-partition").len(), 64);
    let said = texts(with_class(&doc, "left-out")[0]);
    assert_eq!(said, ["136 more partitions not drawn: 64 lanes at most"]);
}

#[test]
fn a_consumer_name_with_quotes_markup_and_an_ampersand_reads_back_as_written() {
    // A worker's name is whatever its command line gave, in an attribute and in a text.
    let name = r#"q-a"<&b>"#;
    let log = format!("09:00:00.000 start {name}\n09:00:00.010 {name} assigned [0]\n09:00:00.020 {name} p0 offset 0\n");
    let dir = logs(&[(&format!("{name}.log"), &log)]);
    let args = Args {
        group: "q".into(),
        logs: Logs::at(&dir),
        output: None,
        namespace: Default::default(),
    };
    let text = std::fs::read_to_string(run(&args, Lang::En).unwrap().0).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let lane = with_class(&doc, "lane-consumer");
    assert_eq!(lane[0].attribute("data-consumer"), Some(name), "{text}");
    assert!(texts(lane[0]).contains(&name.to_string()), "{text}");
}
