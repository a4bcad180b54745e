//! The log grammar on one line: the parser never panics, every line it accepts is written back
//! by its writer as a line it reads as the same, and the fast path ([`krb_log::fastpath`]) reads
//! nothing the parser does not read the same way.

use krb_log::fastpath::{commit_prefix, parse_processed, parse_processed_prefix};
use krb_log::logline::{Event, Line, LogLine};
use krb_log::reader::parse_bytes;

/// One line (any bytes, its newline or none) through the grammar and the fast path.
pub fn check(data: &[u8]) {
    let grammar = parse_bytes(data);
    if let Ok(Some(line)) = &grammar {
        round_trips(line);
    }
    let parsed = grammar.ok().flatten();
    fast_path_agrees(data, parsed.as_ref());
}

/// What the writer writes for `line` reads back as `line`, and its two writers agree.
pub fn round_trips(line: &LogLine) {
    let written = Line {
        time: line.time,
        name: &line.name,
        event: &line.event,
    };
    let mut bytes = Vec::new();
    written.write_to(&mut bytes);
    assert_eq!(
        bytes,
        format!("{written}\n").into_bytes(),
        "write_to and Display differ for {line:?}"
    );
    let text = String::from_utf8(bytes).expect("the writer writes UTF-8");
    match LogLine::parse(&text) {
        Ok(Some(again)) => assert_eq!(&again, line, "{text:?} reads back as another line"),
        other => panic!("{line:?} is written as {text:?}, which reads as {other:?}"),
    }
}

/// Whatever the fast path takes as a whole line, the grammar reads as that line.
fn fast_path_agrees(data: &[u8], grammar: Option<&LogLine>) {
    let mut core = data;
    while let [rest @ .., b'\n' | b'\r'] = core {
        core = rest;
    }
    let read =
        || grammar.unwrap_or_else(|| panic!("the fast path read {data:?}, the grammar does not"));
    if let Some((name, partition, offset)) = parse_processed(data) {
        let line = read();
        assert_eq!(line.name.as_bytes(), name, "{data:?}");
        let event = Event::Processed { partition, offset };
        assert_eq!(line.event, event, "{data:?}");
    }
    // Followed by another line, as a reader hands the fast path its block, and told a name.
    let mut followed = core.to_vec();
    followed.extend_from_slice(b"\n09:00:00.000 x p0 offset 1\n");
    let known = grammar.map_or(&b"w-a"[..], |l| l.name.as_bytes());
    for known in [&b""[..], known] {
        if let Some(c) = parse_processed_prefix(&followed, known).filter(|c| c.len == core.len()) {
            let line = read();
            assert_eq!(
                (line.name.as_bytes(), line.name.as_bytes() == known),
                (c.name, c.known)
            );
            let (partition, offset) = (c.partition, c.offset);
            assert_eq!(
                line.event,
                Event::Processed { partition, offset },
                "{data:?}"
            );
        }
        if let Some(c) = commit_prefix(&followed, known).filter(|c| c.len == core.len()) {
            let Some(line) = grammar.filter(|l| matches!(l.event, Event::Commit(_))) else {
                panic!("the fast path took {data:?} as a commit, the grammar: {grammar:?}");
            };
            assert_eq!(
                (line.name.as_bytes(), line.name.as_bytes() == known),
                (c.name, c.known),
                "{data:?}"
            );
        }
    }
}
