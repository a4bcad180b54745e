//! A message of a room's topic, taken as the room's reader takes it ([`Room::add`]): checked
//! before it is kept, and the page made of what was kept, in both languages; and the same bytes
//! as a file `krb-room publish` reads ([`krb_room::publish::parse`]). Anyone who can write a
//! topic of the room writes these bytes (a record once took every request of the page down,
//! issue 42).

use krb_cli::lang::Lang;
use krb_room::page::Page;
use krb_room::publish::parse;
use krb_room::room::{check as checked, Room, MAX_NAME};

/// Where the message was, as the reader names it.
const PLACE: &str = "alice-krb-room-monday partition 0 offset 7";

pub fn check(data: &[u8]) {
    let mut room = Room::default();
    match room.add("alice", Some(data), PLACE) {
        Some(line) => {
            assert_eq!(room.records, 0);
            one_short_line(&line, PLACE.len() + 2 * MAX_NAME + 300);
            assert_eq!(room.skipped.back(), Some(&line));
        }
        None => {
            let record = room.participants["alice"].latest.as_ref().expect("kept");
            assert_eq!(checked(record), Ok(()));
        }
    }
    for lang in [Lang::En, Lang::Ko] {
        let page = Page {
            room: "monday".into(),
            topics: "NS-krb-room-monday".into(),
            bootstrap: "localhost:9481".into(),
            lang,
        };
        let html = page.render(&room, "09:20:01");
        // One message of at most 64 KB makes a page of a bounded size.
        assert!(html.len() < 4 << 20, "a page of {} bytes", html.len());
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(e) = parse("r.jsonl", text, "alice") {
            one_short_line(&format!("{e:#}"), 2 * MAX_NAME + 500);
        }
    }
}

/// What a reader says of a participant's bytes: one line, short, nothing raw to a terminal.
fn one_short_line(line: &str, most: usize) {
    assert!(
        line.chars().count() <= most,
        "{} characters: {line:?}",
        line.chars().count()
    );
    assert!(!line.chars().any(char::is_control), "{line:?}");
}
