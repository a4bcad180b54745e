//! The room as its participants' topics tell it so far: each participant's latest record of each
//! variant, and their latest record of all (where they are), in the order the records were
//! published. A participant is the owner of the topic a record was read from, never the name the
//! record gives: a record naming someone else is shown as the owner's and flagged. A message that
//! is not a record is kept as a line that says where it was and why, to be shown, and is
//! otherwise left out.

use std::collections::{BTreeMap, BTreeSet};

use krb_verify::record::Record;

/// One participant's records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Participant {
    /// The record published last: the variant they finished last.
    pub latest: Option<Record>,
    /// The latest record of each variant, by lab and variant.
    pub variants: BTreeMap<(u8, String), Record>,
    /// The other names that records in this participant's topic gave (a mistake, or a forgery).
    pub claimed: BTreeSet<String>,
}

/// Every participant's records, and what was not a record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Room {
    /// The participants, by name.
    pub participants: BTreeMap<String, Participant>,
    /// Each message that was not a record: where it was and why, in the topic's order.
    pub skipped: Vec<String>,
    /// How many records were read.
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
        let parsed = match payload {
            None => Err("an empty message".to_string()),
            Some(bytes) => serde_json::from_slice::<Record>(bytes).map_err(|e| e.to_string()),
        };
        let record = match parsed {
            Ok(record) => record,
            Err(why) => {
                let line = format!("{place}: not a lab record ({why}): skipped");
                self.skipped.push(line.clone());
                return Some(line);
            }
        };
        let p = self.participants.entry(owner.to_string()).or_default();
        if let Some(claimed) = record.namespace.as_ref().filter(|ns| *ns != owner) {
            p.claimed.insert(claimed.clone());
        }
        p.variants
            .insert((record.lab, record.variant.clone()), record.clone());
        p.latest = Some(record);
        self.records += 1;
        None
    }

    /// Every variant any participant has a record of, by lab, a lab's variants by name.
    pub fn variants(&self) -> Vec<(u8, String)> {
        let mut seen: Vec<(u8, String)> = Vec::new();
        for p in self.participants.values() {
            for key in p.variants.keys() {
                if !seen.contains(key) {
                    seen.push(key.clone());
                }
            }
        }
        seen.sort();
        seen
    }
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
}
