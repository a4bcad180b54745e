//! Lab 8's acknowledgement lines (`acks committed p0 [0..3, 7]`, `acks failed p0 [3]: ERROR`):
//! the fuzzer's bytes are the part after `acks committed ` and `acks failed `. A line the
//! grammar accepts holds ascending offsets, bounded in number however few bytes say them (a
//! 50-byte line once expanded to 2,097,151 offsets, issue 42), and round-trips.

use krb_log::logline::{Event, LogLine, Offset};

/// The most offsets one line may hold: the grammar's bound for one batch's acknowledgements.
pub const MOST: usize = 1 << 20;

pub fn check(data: &[u8]) {
    let Ok(rest) = std::str::from_utf8(data) else {
        return;
    };
    for event in ["acks committed", "acks failed"] {
        let text = format!("09:20:01.250 share-a {event} {rest}");
        let Ok(Some(line)) = LogLine::parse(&text) else {
            continue;
        };
        let offsets: &[Offset] = match &line.event {
            Event::AcksCommitted { offsets, .. } | Event::AcksFailed { offsets, .. } => offsets,
            other => panic!("{text:?} reads as {other:?}"),
        };
        assert!(
            offsets.len() <= MOST,
            "{} offsets from {} bytes: {text:?}",
            offsets.len(),
            text.len()
        );
        assert!(offsets.windows(2).all(|w| w[0] < w[1]), "{text:?}");
        crate::logline::round_trips(&line);
    }
}
