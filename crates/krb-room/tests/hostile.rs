//! The room's page against what its participants publish: a record made to take it down, a
//! message made to fill it, variants made up by the hundred. Each is a message on a topic of the
//! room, taken as the reader takes it ([`Room::add`]), and the page is made of them.

use std::time::Instant;

use krb_common::lang::Lang;
use krb_room::page::Page;
use krb_room::room::Room;
use krb_room::spread::{self, Scale};
use serde_json::json;

fn page() -> Page {
    Page {
        room: "monday".into(),
        topics: "NS-krb-room-monday".into(),
        bootstrap: "localhost:9481".into(),
        lang: Lang::En,
    }
}

/// A record of lab 1's `variant` as krb-verify writes it, with `duplicates`.
fn record(ns: &str, lab: u8, variant: &str, duplicates: f64) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "seconds": 9.5, "status": "checked", "lab": lab, "name": "revoke", "variant": variant,
        "verdict": {
            "lab": lab, "name": "revoke", "variant": variant, "group": variant,
            "article": "82 duplicates", "ours": "78 duplicates",
            "checks": [{"statement": "all 1000 messages processed", "held": true, "detail": "unique 1000"}],
            "numbers": {"duplicates": duplicates}
        },
        "ended": "2026-12-01 09:00:10", "namespace": ns
    }))
    .unwrap()
}

#[test]
fn a_number_too_large_to_draw_is_skipped_and_the_page_still_made() {
    let mut room = Room::default();
    room.add("alice", Some(&record("alice", 1, "nocommit", 78.0)), "a 0");
    let skipped = room.add(
        "mallory",
        Some(&record("mallory", 1, "nocommit", 1.7e308)),
        "m 0",
    );
    let line = skipped.expect("the record is skipped");
    assert!(line.contains("numbers.duplicates is 1.7e308"), "{line}");
    // Made, whatever a participant's number: before, every request panicked here.
    let html = page().render(&room, "09:00:00");
    assert!(html.contains("data-participant=\"alice\""), "{html}");
    assert!(!html.contains("data-participant=\"mallory\""));
    assert!(html.contains("numbers.duplicates is 1.7e308"));
    // Nor are a negative count, or a part of one.
    for bad in [-1.0, 2.5] {
        assert!(room
            .add("eve", Some(&record("eve", 1, "nocommit", bad)), "e")
            .is_some());
    }
    assert!(!room.participants.contains_key("eve"));
}

#[test]
fn a_scale_of_any_numbers_is_finite_with_a_few_ticks() {
    for values in [
        vec![1.7e308],
        vec![f64::MAX, 3.0],
        vec![f64::INFINITY, f64::NAN, -5.0],
        vec![1e-300],
    ] {
        let scale = Scale::new(values.iter().copied());
        assert!(
            scale.max.is_finite() && scale.max > 0.0,
            "{values:?}: {scale:?}"
        );
        let ticks = scale.ticks();
        assert!((2..=6).contains(&ticks.len()), "{values:?}: {ticks:?}");
        assert!(ticks.iter().all(|t| t.is_finite()), "{values:?}: {ticks:?}");
    }
    // A scale made by hand, its end past any number: still a few ticks.
    let wild = Scale {
        max: f64::INFINITY,
        step: 1.0,
    };
    assert!(wild.ticks().len() <= 6);
}

#[test]
fn what_is_skipped_is_named_short_and_kept_bounded() {
    let mut room = Room::default();
    // A whole record's worth of one string, where a number goes: serde quotes it.
    let long = format!(r#"{{"seconds":"{}"}}"#, "x".repeat(60_000));
    let huge = "y".repeat(1 << 20);
    for (i, payload) in [long.as_bytes(), huge.as_bytes()].iter().enumerate() {
        let line = room
            .add("mallory", Some(payload), &format!("m {i}"))
            .unwrap();
        assert!(
            line.chars().count() < 400,
            "{} characters",
            line.chars().count()
        );
    }
    // A control character in what a participant wrote is not sent to the terminal raw.
    let bell = room
        .add("mallory", Some(b"{\"lab\": \"\x07\x1b[2J\"}"), "m 2")
        .unwrap();
    assert!(!bell.contains('\x07') && !bell.contains('\x1b'), "{bell:?}");
    for i in 0..1000 {
        room.add("mallory", Some(b"not json"), &format!("m {}", i + 3));
    }
    assert!(
        room.skipped.len() <= 100,
        "{} lines kept",
        room.skipped.len()
    );
    let html = page().render(&room, "09:00:00");
    assert!(
        html.contains("Left out: 1003 message(s)"),
        "the count is of all"
    );
    assert!(
        html.contains("m 1002: not a lab record"),
        "the latest are shown"
    );
    assert!(html.len() < 100_000, "{} bytes", html.len());
}

#[test]
fn made_up_variants_do_not_multiply_the_page() {
    let participants = 200;
    let room_with = |variants: usize| {
        let mut room = Room::default();
        for p in 0..participants {
            let ns = format!("participant-{p}");
            room.add(&ns, Some(&record(&ns, 1, "nocommit", 78.0)), "x");
            for v in 0..variants {
                let made_up = format!("made-up-{p}-{v}");
                room.add(&ns, Some(&record(&ns, 1, &made_up, 1.0)), "x");
            }
        }
        room
    };
    let one = page().render(&room_with(1), "09:00:00");
    let start = Instant::now();
    let twenty = page().render(&room_with(20), "09:00:00");
    let took = start.elapsed();
    // 20 made-up variants each: a few names more a row, never a column per variant.
    assert!(
        twenty.len() < one.len() + participants * 300,
        "{} bytes with 20 made-up variants each, {} with 1",
        twenty.len(),
        one.len()
    );
    assert!(twenty.len() < 2_000_000, "{} bytes", twenty.len());
    assert_eq!(
        twenty
            .matches("class=\"v held\" data-lab=\"1\" data-variant=\"nocommit\"")
            .count(),
        participants
    );
    assert!(
        !twenty.contains("data-variant=\"made-up-"),
        "a made-up variant has a mark"
    );
    assert!(
        twenty.contains("20 variant(s) no lab has: lab 1 made-up-7-0, lab 1 made-up-7-1"),
        "{}",
        &twenty[..4000]
    );
    // Not a timing assertion of a machine's speed: a bound a hundred times over what it takes.
    assert!(took.as_secs_f64() < 5.0, "{took:?}");
    // The pictures: as many dots as participants, on a bounded number of lines.
    let svg = spread::svg(&spread::pictures()[0], &room_with(0), Lang::En);
    assert_eq!(svg.matches("<circle class=\"dot\"").count(), participants);
    let height: f64 = svg
        .split("height=\"")
        .nth(1)
        .and_then(|h| h.split('"').next())
        .and_then(|h| h.parse().ok())
        .unwrap();
    assert!(height < 600.0, "a picture {height} px high");
}
