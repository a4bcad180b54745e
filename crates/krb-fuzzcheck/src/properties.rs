//! The librdkafka properties file (`--config`, KRB_CONFIG), parsed as kcat reads it: a property
//! read has a name without `=` and its line; an error names the file and the line and never
//! quotes it (a password may stand on a line of its own).

use std::path::Path;

use krb_log::properties::parse;

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("room.conf");
    match parse(path, text) {
        Ok(properties) => {
            let lines = text.lines().count();
            for w in properties.windows(2) {
                assert!(w[0].line < w[1].line, "{text:?}");
            }
            for p in &properties {
                assert!(!p.key.is_empty() && !p.key.contains('='), "{p:?}");
                assert!((1..=lines).contains(&p.line), "{p:?}");
            }
        }
        Err(e) => {
            // The one message, at a line of the file.
            let fixed = parse(path, "=").expect_err("a line starting with =");
            let (at, why) = e.split_once(": ").expect("FILE:LINE: why");
            let number = at
                .strip_prefix("room.conf:")
                .and_then(|n| n.parse::<usize>().ok());
            assert!(number.is_some_and(|n| n >= 1), "{e}");
            assert_eq!(Some(why), fixed.split_once(": ").map(|(_, w)| w), "{e}");
        }
    }
}
