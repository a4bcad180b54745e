//! Every message in both languages: each variant of each lab's enum has an example, says
//! itself in Korean with no English left but the glossary's Latin terms and its data, and
//! reads back from a record; a record this krb cannot read shows its English, marked.

use std::collections::BTreeSet;

use serde_json::Value;

use super::*;
use crate::Verdict;

/// Latin words a Korean verdict may hold: the glossary's terms (docs/ko/glossary.md), the
/// names of the article's settings and librdkafka's errors, and the words of the log's own
/// lines that statements quote (`slow start`, `already applied`, `revoked [0]`).
const LATIN: &[&str] = &[
    "commit",
    "offset",
    "on_revoke",
    "on_lost",
    "classic",
    "consumer",
    "MAXPOLL",
    "slow",
    "start",
    "revoked",
    "assigned",
    "lost",
    "already",
    "applied",
    "librdkafka",
    "Kafka",
    "poll",
    "UNKNOWN_MEMBER_ID",
    "_MAX_POLL_EXCEEDED",
    "read_committed",
    "commit-every",
    "session.timeout.ms",
    "transaction",
    "aborted",
    "acknowledgement",
    "accept",
    "release",
    "reject",
    "revoke",
    "delivery",
    "count",
    "a",
    "b",
    "c",
];

/// The English words left in `line`, a Korean line, outside [`LATIN`] and the partition names
/// (`p0`).
fn english_left(line: &str) -> Vec<String> {
    let word = regex::Regex::new(r"_?[A-Za-z][A-Za-z0-9_.\-]*[A-Za-z0-9_]|[A-Za-z]").unwrap();
    let partition = regex::Regex::new(r"^p\d+$").unwrap();
    word.find_iter(line)
        .map(|w| w.as_str())
        .filter(|w| !LATIN.contains(w) && !partition.is_match(w))
        .map(String::from)
        .collect()
}

/// The texts a message carries as data (its string values), longest first.
fn data(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| data(v, out)),
        Value::Object(fields) => fields.values().for_each(|v| data(v, out)),
        _ => {}
    }
}

/// The name of the variant a message's JSON holds, below its lab's (`{"Lab1":"HandedBack"}`:
/// `HandedBack`).
fn variant(value: &Value) -> Option<String> {
    let inner = match value {
        Value::Object(o) => o.values().next()?,
        _ => return None,
    };
    match inner {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.keys().next().cloned(),
        _ => None,
    }
}

#[test]
fn every_variant_of_every_lab_has_an_example() {
    let mut missing: Vec<&str> = Vec::new();
    let all = examples();
    let names: BTreeSet<&[&str]> = all.iter().map(|(_, n)| *n).collect();
    assert_eq!(names.len(), 9, "Shared and labs 1 to 8");
    for declared in names {
        let seen: BTreeSet<String> = all
            .iter()
            .filter(|(_, n)| *n == declared)
            .filter_map(|(m, _)| variant(&serde_json::to_value(m).unwrap()))
            .collect();
        missing.extend(declared.iter().filter(|v| !seen.contains(**v)).copied());
    }
    assert!(missing.is_empty(), "no example of {missing:?}");
}

#[test]
fn an_example_left_out_is_found() {
    let one = serde_json::to_value(Message::from(revoke::Said::HandedBack)).unwrap();
    assert_eq!(variant(&one).as_deref(), Some("HandedBack"));
    let with = serde_json::to_value(Message::from(Shared::Unique { count: 1 })).unwrap();
    assert_eq!(variant(&with).as_deref(), Some("Unique"));
}

/// Every example in Korean: Korean words around its data, nothing English left but
/// [`LATIN`], and not its English text.
#[test]
fn every_korean_verdict_line_is_korean() {
    let mut left = Vec::new();
    for (message, _) in examples() {
        let value = serde_json::to_value(&message).unwrap();
        let mut texts = Vec::new();
        data(&value, &mut texts);
        texts.sort_by_key(|t| std::cmp::Reverse(t.len()));
        let ko = message.text(Lang::Ko);
        let mut words = ko.clone();
        for t in &texts {
            words = words.replace(t.as_str(), "");
        }
        let english = english_left(&words);
        if !english.is_empty() {
            left.push(format!("{ko}: {english:?}"));
        }
        let is_data = matches!(message, Message::Shared(Shared::Data { .. }));
        let is_number = ko.chars().all(|c| !c.is_alphabetic() || c == 'p');
        if !is_data && !is_number && !krb_common::lang::has_hangul(&ko) {
            left.push(format!("{ko}: no Hangul"));
        }
    }
    assert!(left.is_empty(), "{left:#?}");
}

#[test]
fn an_english_word_left_is_found() {
    assert_eq!(
        english_left("b가 p1에서 처음 처리한 offset 200"),
        Vec::<String>::new()
    );
    assert_eq!(
        english_left("중복 처리 1 already applied lines, 1번"),
        ["lines"]
    );
    assert_eq!(
        english_left("(b's first offset on p1: 200)"),
        ["s", "first", "on"]
    );
}

#[test]
fn every_message_reads_back_from_its_record() {
    for (message, _) in examples() {
        let (english, said) = message.to_record();
        assert_eq!(english, message.text(Lang::En));
        let back = Message::from_record(english, said);
        assert_eq!(back, message);
    }
}

#[test]
fn the_frame_has_its_korean_text_with_the_same_placeholders() {
    assert_eq!(
        krb_common::lang::table_problems(FRAME),
        Vec::<String>::new()
    );
}

#[test]
fn numbers_and_summaries_say_themselves_part_by_part() {
    let summary = |count, partitions: Vec<i32>, range| Shared::Summary {
        count,
        partitions,
        range,
    };
    let ko = |m: Message| m.text(Lang::Ko);
    assert_eq!(
        ko(summary(78, vec![1], Some((200, 277))).into()),
        "p1에서 중복 78건 (200..277)"
    );
    let parts: Message = vec![
        summary(47, vec![0, 3], None).into(),
        assignor::Said::RevokedCount {
            revoked: 2,
            moved: 2,
        }
        .into(),
    ]
    .into();
    assert_eq!(
        parts.text(Lang::En),
        "47 duplicates on p0, p3; revoked 2 partition(s), 2 moved"
    );
    assert_eq!(ko(parts), "p0, p3에서 중복 47건; 파티션 2개 반납, 2개 이동");
    assert_eq!(
        summary(1, vec![0], Some((3, 3))).text(Lang::En),
        "1 duplicate on p0 (3..3)"
    );
    assert_eq!(summary(0, vec![], None).text(Lang::En), "0 duplicates");
    assert_eq!(summary(0, vec![], None).text(Lang::Ko), "중복 0건");
}

/// A record of an older krb (no message) or a newer one (a message this krb does not know):
/// its English text, marked under Korean, as it is under English.
#[test]
fn a_record_this_krb_cannot_read_shows_its_english_marked() {
    let old = r#"{"lab":1,"name":"revoke","variant":"nocommit","group":"g","article":"82 duplicates on p1 (400..481)","ours":"78 duplicates on p1","checks":[{"statement":"all 1000 messages processed","held":true,"detail":"unique 1000"}]}"#;
    let newer = r#"{"lab":1,"name":"revoke","variant":"nocommit","group":"g","article":"82 duplicates","article_said":{"Lab9":"Sometime"},"ours":"","checks":[{"statement":"a new statement","said":{"Lab1":{"Renamed":{"x":1}}},"held":false,"detail":"d","detail_said":7}]}"#;
    let v: Verdict = serde_json::from_str(old).unwrap();
    assert_eq!(
        v.render_in(Lang::Ko).lines().nth(3).unwrap(),
        "  성립   all 1000 messages processed (en) (unique 1000 (en))"
    );
    assert_eq!(
        v.render_in(Lang::En).lines().nth(3).unwrap(),
        "  held   all 1000 messages processed (unique 1000)"
    );
    let v: Verdict = serde_json::from_str(newer).unwrap();
    let ko = v.render_in(Lang::Ko);
    assert!(ko.contains("글:      82 duplicates (en)"), "{ko}");
    assert!(ko.contains("실패   a new statement (en) (d (en))"), "{ko}");
    // Written again, it keeps its English and loses nothing an older reader reads.
    let again = serde_json::to_string(&v).unwrap();
    assert!(
        again.contains(r#""statement":"a new statement""#),
        "{again}"
    );
}

#[test]
fn a_record_keeps_the_english_text_beside_the_message() {
    let mut v = Verdict::new(1, "revoke", "nocommit", "g", Shared::NoDuplicates);
    v.check(
        Shared::AllProcessed { count: 1000 },
        true,
        Shared::Unique { count: 1000 },
    );
    let line = serde_json::to_string(&v).unwrap();
    assert!(
        line.contains(r#""statement":"all 1000 messages processed","said":{"Shared":{"AllProcessed":{"count":1000}}}"#),
        "{line}"
    );
    assert!(
        line.contains(r#""article":"no duplicates","article_said""#),
        "{line}"
    );
    let back: Verdict = serde_json::from_str(&line).unwrap();
    assert_eq!(back, v);
    assert_eq!(
        back.render_in(Lang::Ko).lines().nth(3).unwrap(),
        "  성립   메시지 1000개 모두 처리됨 (고유 1000)"
    );
}
