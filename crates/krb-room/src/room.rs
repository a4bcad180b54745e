//! The room as its participants' topics tell it so far. A participant is the owner of the topic
//! a record was read from, never the name the record gives: a record naming someone else is
//! shown as the owner's and flagged. Anyone who can write a topic of the room writes what the
//! page is made of, so a record is checked before it is kept ([`check`]), and what the room keeps
//! is bounded.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use clap::ValueEnum;
use krb_verify::record::Record;
use krb_verify::verdict::DUPLICATES;
use krb_verify::Lab;

/// The most a record may weigh: krb-verify's are a few KB (lab 7's, with its trial, the most).
pub const MAX_RECORD: usize = 64 * 1024;
/// The most characters of a name a record gives (its lab's, variant's, namespace, status, time,
/// a number's name): the page shows them in its table.
pub const MAX_NAME: usize = 100;
/// The most characters of any other text in a record (a reason, a statement, a log line).
pub const MAX_TEXT: usize = 2000;
/// The most a number may be: a count of messages or a time in seconds, far under it in a lab.
pub const MAX_NUMBER: f64 = 1e9;
/// The most variants kept of one participant: the labs' own are fewer; a record of another
/// variant beyond it is skipped.
pub const MAX_VARIANTS: usize = 64;
/// The most other names kept of one participant's records: enough to see a forgery.
pub const MAX_CLAIMED: usize = 8;
/// The most lines kept of messages skipped: the latest.
pub const MAX_SKIPPED: usize = 100;
/// The most characters of why a message was skipped.
const MAX_WHY: usize = 200;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Participant {
    /// The record published last: the variant they finished last.
    pub latest: Option<Record>,
    /// The latest record of each variant, by lab and variant.
    pub variants: BTreeMap<(u8, String), Record>,
    /// The other names that records in this participant's topic gave (a mistake, or a forgery),
    /// at most [`MAX_CLAIMED`].
    pub claimed: BTreeSet<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Room {
    pub participants: BTreeMap<String, Participant>,
    /// The latest [`MAX_SKIPPED`] messages that were not records: where each was and why, in
    /// the topics' order.
    pub skipped: VecDeque<String>,
    pub skipped_count: usize,
    pub records: usize,
    /// The broker's last error while reading, until the next message comes.
    pub trouble: Option<String>,
}

impl Room {
    /// Takes one message of participant `owner`'s topic: its payload and where it was
    /// (`alice-krb-room-monday partition 0 offset 12`). Returns the line that says why it was
    /// skipped, if it was.
    pub fn add(&mut self, owner: &str, payload: Option<&[u8]>, place: &str) -> Option<String> {
        self.trouble = None;
        let record = match payload
            .ok_or_else(|| "an empty message".to_string())
            .and_then(record)
            .and_then(|r| self.room_for(owner, &r).map(|()| r))
        {
            Ok(record) => record,
            Err(why) => {
                let line = format!(
                    "{place}: not a lab record ({}): skipped",
                    shortened(&why, MAX_WHY)
                );
                if self.skipped.len() == MAX_SKIPPED {
                    self.skipped.pop_front();
                }
                self.skipped.push_back(line.clone());
                self.skipped_count += 1;
                return Some(line);
            }
        };
        let p = self.participants.entry(owner.to_string()).or_default();
        let full = p.claimed.len() == MAX_CLAIMED;
        if let Some(claimed) = record.namespace.as_ref().filter(|ns| *ns != owner && !full) {
            p.claimed.insert(claimed.clone());
        }
        p.variants
            .insert((record.lab, record.variant.clone()), record.clone());
        p.latest = Some(record);
        self.records += 1;
        None
    }

    /// Whether `owner` may keep `record`: a variant they have, or a new one within
    /// [`MAX_VARIANTS`].
    fn room_for(&self, owner: &str, record: &Record) -> Result<(), String> {
        let Some(p) = self.participants.get(owner) else {
            return Ok(());
        };
        let key = (record.lab, record.variant.clone());
        if p.variants.len() >= MAX_VARIANTS && !p.variants.contains_key(&key) {
            return Err(format!(
                "{owner} has records of {MAX_VARIANTS} variants already, the most kept"
            ));
        }
        Ok(())
    }

    /// Every variant any participant has a record of, by lab, a lab's variants by name.
    pub fn variants(&self) -> Vec<(u8, String)> {
        let seen: BTreeSet<_> = self
            .participants
            .values()
            .flat_map(|p| p.variants.keys())
            .collect();
        seen.into_iter().cloned().collect()
    }
}

/// A message's record, checked ([`check`]), or why it is none, in a line that never quotes the
/// message whole.
pub fn record(payload: &[u8]) -> Result<Record, String> {
    if payload.len() > MAX_RECORD {
        return Err(format!(
            "{} bytes, over the {} KB a record may be",
            payload.len(),
            MAX_RECORD / 1024
        ));
    }
    let short = |e: serde_json::Error| shortened(&e.to_string(), MAX_WHY);
    let value: serde_json::Value = serde_json::from_slice(payload).map_err(short)?;
    texts_within(&value, "")?;
    let record: Record = serde_json::from_value(value).map_err(short)?;
    check(&record)?;
    Ok(record)
}

/// Checks that every text in `value` is within [`MAX_TEXT`] characters; `at` is where `value`
/// is in the record (`verdict.checks`).
fn texts_within(value: &serde_json::Value, at: &str) -> Result<(), String> {
    use serde_json::Value;
    let inner = |key: &str| {
        if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        }
    };
    match value {
        Value::String(text) if text.chars().count() > MAX_TEXT => Err(format!(
            "{} holds a text of {} characters, over {MAX_TEXT}",
            shown_at(at),
            text.chars().count()
        )),
        Value::Array(items) => items.iter().try_for_each(|v| texts_within(v, at)),
        Value::Object(fields) => fields.iter().try_for_each(|(key, v)| {
            if key.chars().count() > MAX_NAME {
                return Err(format!(
                    "{} holds a name of {} characters, over {MAX_NAME}",
                    shown_at(at),
                    key.chars().count()
                ));
            }
            texts_within(v, &inner(key))
        }),
        _ => Ok(()),
    }
}

/// Where in a record: `the record` at its top.
fn shown_at(at: &str) -> String {
    if at.is_empty() {
        "the record".to_string()
    } else {
        shortened(at, MAX_NAME)
    }
}

/// Checks what a record's fields mean: the names the page shows are names, and each number is
/// in range for what it counts.
pub fn check(record: &Record) -> Result<(), String> {
    let mut names = vec![
        ("name", Some(&record.name)),
        ("variant", Some(&record.variant)),
        ("status", Some(&record.status)),
        ("ended", record.ended.as_ref()),
        ("namespace", record.namespace.as_ref()),
    ];
    if let Some(v) = &record.verdict {
        names.extend([
            ("verdict.name", Some(&v.name)),
            ("verdict.variant", Some(&v.variant)),
            ("verdict.group", Some(&v.group)),
        ]);
    }
    for (field, text) in names {
        if let Some(text) = text.filter(|t| t.chars().count() > MAX_NAME) {
            return Err(format!(
                "{field} has {} characters, over {MAX_NAME}",
                text.chars().count()
            ));
        }
    }
    in_range("seconds", record.seconds, false)?;
    for (name, value) in record.verdict.iter().flat_map(|v| &v.numbers) {
        in_range(&format!("numbers.{name}"), *value, name == DUPLICATES)?;
    }
    Ok(())
}

/// Checks that number `name` is from 0 to [`MAX_NUMBER`], and whole if it is a count.
fn in_range(name: &str, value: f64, count: bool) -> Result<(), String> {
    let what = if count { "a count" } else { "a number" };
    if !(0.0..=MAX_NUMBER).contains(&value) || (count && value.fract() != 0.0) {
        // 1.7e308 as 1.7e308, not its 309 digits.
        let shown = if value.abs() < 1e15 {
            value.to_string()
        } else {
            format!("{value:e}")
        };
        return Err(format!(
            "{} is {shown}, not {what} from 0 to {MAX_NUMBER:e}",
            shortened(name, MAX_NAME)
        ));
    }
    Ok(())
}

/// `text` as one short line: at most `max` characters (then `…`), control characters escaped,
/// so that what a participant wrote is never shown whole.
pub fn shortened(text: &str, max: usize) -> String {
    let mut short = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            short.push('…');
            break;
        }
        if c.is_control() {
            short.extend(c.escape_default());
        } else {
            short.push(c);
        }
    }
    short
}

/// Every variant of every lab, as their records name them: the page's columns. Lab 8's
/// scenarios are its variants whatever the group's limit.
pub fn lab_variants() -> BTreeSet<(u8, String)> {
    fn each<T: ValueEnum + Copy, O>(make: impl FnMut(T) -> O) -> Vec<O> {
        T::value_variants().iter().copied().map(make).collect()
    }
    let bools = [false, true];
    let mut labs = vec![Lab::Maxpoll];
    for b in bools {
        labs.push(Lab::Revoke { revoke_commit: b });
        labs.push(Lab::Static {
            static_membership: b,
        });
        labs.extend(each(|assignor| Lab::Assignor {
            assignor,
            revoke_commit: b,
        }));
        labs.extend(each(|effect| Lab::Faults { effect, recheck: b }));
        labs.extend(
            each(|effect| {
                each(move |scenario| Lab::Idempotent {
                    effect,
                    scenario,
                    postgres: b,
                })
            })
            .concat(),
        );
    }
    labs.extend(each(|protocol| Lab::Protocol { protocol }));
    labs.extend(each(|scenario| Lab::Share { scenario, limit: 0 }));
    labs.into_iter()
        .map(Lab::names)
        .map(|(n, _, v)| (n, v))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use krb_verify::messages::Shared;
    use krb_verify::Verdict;

    /// A record of `lab`'s `variant` that ended at `ended`, held or not, with `duplicates`.
    pub(crate) fn record(ns: &str, lab: u8, variant: &str, held: bool, duplicates: f64) -> Record {
        let mut v = Verdict::new(
            lab,
            "revoke",
            variant,
            variant,
            Shared::Duplicates { count: 82 },
        );
        v.check(
            Shared::AllProcessed { count: 1000 },
            held,
            Shared::Unique { count: 1000 },
        );
        v.number("duplicates", duplicates);
        Record {
            seconds: 9.5,
            status: "checked".into(),
            lab,
            name: "revoke".into(),
            variant: variant.into(),
            reason: None,
            verdict: Some(v),
            ended: Some("2026-12-01 09:00:10".into()),
            namespace: Some(ns.into()),
        }
    }

    fn json(r: &Record) -> Vec<u8> {
        serde_json::to_vec(r).unwrap()
    }

    #[test]
    fn records_are_grouped_by_participant_and_the_latest_of_each_variant_is_kept() {
        let mut room = Room::default();
        let first = record("alice", 1, "nocommit", false, 120.0);
        let again = record("alice", 1, "nocommit", true, 78.0);
        let lab2 = record("alice", 2, "expel", true, 1.0);
        let bob = record("bob", 1, "nocommit", true, 64.0);
        for (i, r) in [&first, &bob, &lab2, &again].iter().enumerate() {
            let owner = r.namespace.clone().unwrap();
            let skipped = room.add(&owner, Some(&json(r)), &format!("offset {i}"));
            assert_eq!(skipped, None);
        }
        assert_eq!(room.records, 4);
        assert_eq!(
            room.participants.keys().collect::<Vec<_>>(),
            ["alice", "bob"]
        );
        let alice = &room.participants["alice"];
        // The rerun of lab 1 replaces the first; lab 2 stays; the latest is the rerun.
        assert_eq!(alice.variants.len(), 2);
        assert_eq!(alice.variants[&(1, "nocommit".into())], again);
        assert_eq!(alice.variants[&(2, "expel".into())], lab2);
        assert_eq!(alice.latest.as_ref(), Some(&again));
        assert_eq!(room.participants["bob"].latest.as_ref(), Some(&bob));
        assert_eq!(
            room.variants(),
            [(1, "nocommit".to_string()), (2, "expel".to_string())]
        );
    }

    #[test]
    fn a_message_that_is_not_a_record_is_reported_and_skipped() {
        let mut room = Room::default();
        let good = record("alice", 1, "nocommit", true, 78.0);
        room.add("alice", Some(&json(&good)), "partition 0 offset 0");
        let skipped = room.add("mallory", Some(b"{\"lab\": 1"), "partition 0 offset 1");
        let line = skipped.expect("a broken record is reported");
        assert!(
            line.starts_with("partition 0 offset 1: not a lab record (")
                && line.ends_with("): skipped"),
            "{line}"
        );
        let empty = room.add("mallory", None, "partition 0 offset 2");
        assert_eq!(
            empty.as_deref(),
            Some("partition 0 offset 2: not a lab record (an empty message): skipped")
        );
        assert_eq!(room.skipped.len(), 2);
        // Skipped, not counted, and no participant made of them; the good record stays.
        assert_eq!(room.records, 1);
        assert_eq!(room.participants.keys().collect::<Vec<_>>(), ["alice"]);
        let after = record("alice", 2, "expel", true, 1.0);
        assert_eq!(
            room.add("alice", Some(&json(&after)), "partition 0 offset 3"),
            None
        );
        assert_eq!(room.records, 2);
    }

    #[test]
    fn a_record_is_its_topics_owners_whatever_name_it_gives() {
        let mut room = Room::default();
        let alice = record("alice", 1, "nocommit", true, 78.0);
        // bob's own run, its record edited to name alice, in bob's topic.
        let forged = record("alice", 1, "nocommit", false, 500.0);
        let unnamed = Record {
            namespace: None,
            ..record("x", 2, "expel", true, 1.0)
        };
        room.add(
            "alice",
            Some(&json(&alice)),
            "alice-krb-room-r partition 0 offset 0",
        );
        room.add(
            "bob",
            Some(&json(&forged)),
            "bob-krb-room-r partition 0 offset 0",
        );
        room.add(
            "bob",
            Some(&json(&unnamed)),
            "bob-krb-room-r partition 0 offset 1",
        );
        let a = &room.participants["alice"];
        assert_eq!(a.variants[&(1, "nocommit".into())], alice);
        assert!(a.claimed.is_empty());
        let b = &room.participants["bob"];
        assert_eq!(b.variants[&(1, "nocommit".into())], forged);
        assert_eq!(b.variants.len(), 2, "a record naming no one is the owner's");
        assert_eq!(b.claimed.iter().collect::<Vec<_>>(), ["alice"]);
        assert_eq!(room.participants.len(), 2);
    }

    #[test]
    fn a_record_is_checked_before_it_is_kept() {
        let good = record("alice", 2, "expel", true, 1.0);
        let mut overlap = good.clone();
        overlap.verdict.as_mut().unwrap().numbers = [("overlap_seconds".to_string(), 1.5)].into();
        assert_eq!(check(&overlap), Ok(()), "seconds need not be whole");
        let mut long_variant = good.clone();
        long_variant.variant = "v".repeat(MAX_NAME + 1);
        let mut long_statement = good.clone();
        long_statement.verdict.as_mut().unwrap().checks[0].detail =
            krb_verify::messages::Message::English("d".repeat(MAX_TEXT + 1));
        let mut negative = good.clone();
        negative.seconds = -1.0;
        let mut too_many = good.clone();
        too_many.verdict.as_mut().unwrap().numbers =
            [(DUPLICATES.to_string(), MAX_NUMBER + 1.0)].into();
        for (bad, why) in [
            (&long_variant, "(variant has 101 characters, over 100)"),
            (
                &long_statement,
                "(verdict.checks.detail holds a text of 2001 characters, over 2000)",
            ),
            (&negative, "(seconds is -1, not a number from 0 to 1e9)"),
            (
                &too_many,
                "(numbers.duplicates is 1000000001, not a count from 0 to 1e9)",
            ),
        ] {
            let mut room = Room::default();
            let line = room.add("alice", Some(&json(bad)), "here").unwrap();
            assert_eq!(line, format!("here: not a lab record {why}: skipped"));
            assert!(room.participants.is_empty());
        }
        let mut room = Room::default();
        let heavy = vec![b' '; MAX_RECORD + 1];
        let line = room.add("alice", Some(&heavy), "here").unwrap();
        assert_eq!(
            line,
            "here: not a lab record (65537 bytes, over the 64 KB a record may be): skipped"
        );
    }

    #[test]
    fn what_a_participant_can_make_the_room_keep_is_bounded() {
        let mut room = Room::default();
        for i in 0..MAX_VARIANTS + 10 {
            let made_up = record("mallory", 1, &format!("v{i}"), true, 1.0);
            room.add("mallory", Some(&json(&made_up)), "m");
        }
        let again = record("mallory", 1, "v0", false, 2.0);
        assert_eq!(room.add("mallory", Some(&json(&again)), "m"), None);
        let m = &room.participants["mallory"];
        assert_eq!(m.variants.len(), MAX_VARIANTS);
        assert_eq!(
            m.variants[&(1, "v0".into())],
            again,
            "a variant kept is replaced"
        );
        assert_eq!(room.skipped_count, 10);
        assert!(room.skipped[0].contains("mallory has records of 64 variants already"));
        for i in 0..MAX_CLAIMED + 5 {
            let forged = record(&format!("n{i}"), 1, "v1", true, 1.0);
            room.add("mallory", Some(&json(&forged)), "m");
        }
        assert_eq!(room.participants["mallory"].claimed.len(), MAX_CLAIMED);
        for i in 0..2 * MAX_SKIPPED {
            room.add("mallory", None, &format!("offset {i}"));
        }
        assert_eq!(room.skipped.len(), MAX_SKIPPED);
        assert_eq!(room.skipped_count, 10 + 2 * MAX_SKIPPED);
        assert!(room.skipped.back().unwrap().starts_with("offset 199: "));
    }

    #[test]
    fn the_labs_own_variants_hold_every_variant_lab_sh_runs() {
        let known = lab_variants();
        let script = include_str!("../../../scripts/lab.sh");
        let runs: Vec<(u8, String)> = script
            .lines()
            .filter_map(|l| {
                let mut fields = l.trim().strip_prefix('"')?.split('|');
                let lab = fields.next()?.parse().ok()?;
                let _name = fields.next()?;
                Some((lab, fields.next()?.to_string()))
            })
            .collect();
        assert!(runs.len() > 20, "{runs:?}");
        for run in &runs {
            assert!(known.contains(run), "{run:?} is not among {known:?}");
        }
        assert!(known.contains(&(7, "kafka-eos".into())));
        assert!(!known.contains(&(1, "made-up".into())));
    }
}
