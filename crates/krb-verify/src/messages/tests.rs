//! Every message in both languages: each variant of each lab's enum has an example, says
//! itself in Korean with no English left but the glossary's Latin terms and its data, and
//! reads back from a record; a record this krb cannot read shows its English, marked.

use std::collections::BTreeSet;

use serde_json::Value;

use super::*;
use crate::Verdict;

/// Every lab's examples, each variant of each enum at least once, as messages.
fn examples() -> Vec<(Message, &'static [&'static str])> {
    fn all<T: Into<Message>>(
        examples: Vec<T>,
        names: &'static [&'static str],
    ) -> Vec<(Message, &'static [&'static str])> {
        examples.into_iter().map(|e| (e.into(), names)).collect()
    }
    [
        all(shared(), Shared::VARIANTS),
        all(lab1(), revoke::Said::VARIANTS),
        all(lab2(), maxpoll::Said::VARIANTS),
        all(lab3(), assignor::Said::VARIANTS),
        all(lab4(), static_lab::Said::VARIANTS),
        all(lab5(), protocol::Said::VARIANTS),
        all(lab6(), idempotent::Said::VARIANTS),
        all(lab7(), faults::Said::VARIANTS),
        all(lab8(), share::Said::VARIANTS),
    ]
    .concat()
}

/// Each variant of Shared at least once, with its cases (none, false, empty).
fn shared() -> Vec<Shared> {
    vec![
        Shared::AllProcessed { count: 1000 },
        Shared::NoDuplicates,
        Shared::Unique { count: 998 },
        Shared::Duplicates { count: 3 },
        Shared::Summary {
            count: 82,
            partitions: vec![1],
            range: Some((400, 481)),
        },
        Shared::Summary {
            count: 1,
            partitions: vec![0, 3],
            range: None,
        },
        Shared::Summary {
            count: 0,
            partitions: vec![],
            range: None,
        },
        Shared::Seconds { seconds: 10.36 },
        Shared::Nothing,
        Shared::Data {
            text: "lost [0]".into(),
        },
        Shared::Revoked {
            list: "[0, 1]".into(),
        },
        Shared::Committed {
            offsets: vec![(0, Some(10))],
        },
        Shared::Committed {
            offsets: vec![(0, None)],
        },
        Shared::Committed { offsets: vec![] },
    ]
}

/// Each variant of revoke::Said at least once, with its cases (none, false, empty).
fn lab1() -> Vec<revoke::Said> {
    vec![
        revoke::Said::HandedBack,
        revoke::Said::RevokedThenAssigned,
        revoke::Said::OneMoved,
        revoke::Said::CommittedInRevoke,
        revoke::Said::BeganAtThatCommit,
        revoke::Said::DuplicatesBelowCommitEvery,
        revoke::Said::DuplicatesOnlyMoved,
        revoke::Said::BeganAtLastCommit,
        revoke::Said::ARevoked {
            list: "[0, 1]".into(),
        },
        revoke::Said::NoRevoke,
        revoke::Said::Reassigned {
            list: Some("[0, 1]".into()),
            reassigned: true,
        },
        revoke::Said::Reassigned {
            list: Some("[1]".into()),
            reassigned: false,
        },
        revoke::Said::Reassigned {
            list: None,
            reassigned: false,
        },
        revoke::Said::BAssigned { list: "[1]".into() },
        revoke::Said::CommitAndLast {
            p: 1,
            commit: Some(265),
            offset: Some(264),
        },
        revoke::Said::CommitAndLast {
            p: 1,
            commit: None,
            offset: None,
        },
        revoke::Said::BFirst { p: 1, offset: None },
        revoke::Said::BFirstAndCommit {
            p: 1,
            offset: Some(200),
            commit: 200,
        },
        revoke::Said::RunsAndCommit {
            runs: Some("p1 200..275, p0 3..5".into()),
            p: 1,
            commit: 200,
            offset: Some(275),
        },
        revoke::Said::RunsAndCommit {
            runs: None,
            p: 1,
            commit: 0,
            offset: None,
        },
        revoke::Said::BFirstMessage { seconds: 1.82 },
    ]
}

/// Each variant of maxpoll::Said at least once, with its cases (none, false, empty).
fn lab2() -> Vec<maxpoll::Said> {
    let at = |t: &str| Some(t.to_string());
    vec![
        maxpoll::Said::MaxpollWarning,
        maxpoll::Said::BTookOffset3,
        maxpoll::Said::CommitFailed,
        maxpoll::Said::ConsumerKept,
        maxpoll::Said::ConsumerCommitted,
        maxpoll::Said::LostNotRevoked,
        maxpoll::Said::PollError,
        maxpoll::Said::AllOffset3Twice,
        maxpoll::Said::ConsumerAllOnce,
        maxpoll::Said::FinalCommitted,
        maxpoll::Said::NeverBackwards,
        maxpoll::Said::TogetherFor {
            seconds: 1.62,
            b_processed: true,
        },
        maxpoll::Said::TogetherFor {
            seconds: 0.4,
            b_processed: false,
        },
        maxpoll::Said::HandedAt {
            b_at: at("09:14:49.521"),
            done_at: at("09:14:51.679"),
            gave_up: Box::new(maxpoll::given_up(&krb_log::logline::Event::Lost(vec![0]))),
            lost_at: at("09:14:51.682"),
            again_at: None,
        },
        maxpoll::Said::HandedAt {
            b_at: None,
            done_at: None,
            gave_up: Box::new(maxpoll::given_up(&krb_log::logline::Event::Revoked(vec![
                0,
            ]))),
            lost_at: None,
            again_at: Some(at("13:46:35.885")),
        },
        maxpoll::Said::NoCommit,
        maxpoll::Said::Neither,
        maxpoll::Said::Maxpoll {
            seconds: Some(10.36),
        },
        maxpoll::Said::Maxpoll { seconds: None },
        maxpoll::Said::Together { seconds: Some(1.6) },
        maxpoll::Said::Together { seconds: None },
        maxpoll::Said::Offset3Twice,
    ]
}

/// Each variant of assignor::Said at least once, with its cases (none, false, empty).
fn lab3() -> Vec<assignor::Said> {
    vec![
        assignor::Said::CAssigned,
        assignor::Said::OnlyMovedRevoked,
        assignor::Said::EveryRevoked,
        assignor::Said::DuplicatesOnMore,
        assignor::Said::DuplicatesOnMovedOnly,
        assignor::Said::CGot {
            list: "[4, 5]".into(),
        },
        assignor::Said::RevokedMoved {
            revoked: "[0, 3]".into(),
            moved: "[]".into(),
        },
        assignor::Said::DuplicatesMoved {
            duplicates: "[0, 1, 2, 3, 4, 5]".into(),
            moved: "[4, 5]".into(),
        },
        assignor::Said::OnAll { count: 67, n: 6 },
        assignor::Said::OnMoved { count: 24, n: 2 },
        assignor::Said::NotMeasured,
        assignor::Said::RevokedCount {
            revoked: 6,
            moved: 2,
        },
    ]
}

/// Each variant of static_lab::Said at least once, with its cases (none, false, empty).
fn lab4() -> Vec<static_lab::Said> {
    vec![
        static_lab::Said::BackWithinTimeout,
        static_lab::Said::BRevokedNothing,
        static_lab::Said::PreviousBack,
        static_lab::Said::BRevokedTwice,
        static_lab::Said::GotAgain,
        static_lab::Said::AfterStop { seconds: 3.15 },
        static_lab::Said::NoneAfterRestart,
        static_lab::Said::Revokes { count: 2 },
        static_lab::Said::BeforeAfter {
            before: Some("[0, 1]".into()),
            after: None,
        },
        static_lab::Said::NoRevokes { count: 0 },
        static_lab::Said::BackAfterStart { seconds: 0.14 },
        static_lab::Said::OtherRevokedTwice,
        static_lab::Said::BRevokedTimes { count: 2 },
        static_lab::Said::ABack {
            seconds: Some(0.16),
        },
        static_lab::Said::ABack { seconds: None },
    ]
}

/// Each variant of protocol::Said at least once, with its cases (none, false, empty).
fn lab5() -> Vec<protocol::Said> {
    let text = || Box::new(Message::from(Shared::NoDuplicates));
    vec![
        protocol::Said::ClassicRevokedEvery,
        protocol::Said::ConsumerRevokedOnlyMoved,
        protocol::Said::SeeLabs,
        protocol::Said::NotInArticle,
        protocol::Said::Lab {
            lab: 1,
            text: text(),
        },
        protocol::Said::ARevoked {
            text: text(),
            list: Some("[1]".into()),
        },
        protocol::Said::ARevoked {
            text: text(),
            list: None,
        },
    ]
}

/// Each variant of idempotent::Said at least once, with its cases (none, false, empty).
fn lab6() -> Vec<idempotent::Said> {
    let summary = || {
        Box::new(Message::from(Shared::Summary {
            count: 1,
            partitions: vec![0],
            range: None,
        }))
    };
    vec![
        idempotent::Said::EveryEffect { messages: 1000 },
        idempotent::Said::EffectsRepeat,
        idempotent::Said::RowsAsProcessings,
        idempotent::Said::NoEffectTwice,
        idempotent::Said::SecondsAlreadyApplied,
        idempotent::Said::LateAlreadyApplied,
        idempotent::Said::NothingTwice,
        idempotent::Said::LateRefused,
        idempotent::Said::OutputOnce,
        idempotent::Said::LateAborted,
        idempotent::Said::Distinct {
            count: 1000,
            output_topic: false,
        },
        idempotent::Said::Distinct {
            count: 998,
            output_topic: true,
        },
        idempotent::Said::ProcessingsRows {
            processings: 3,
            rows: 3,
        },
        idempotent::Said::Rows { count: 0 },
        idempotent::Said::Processings { count: 1 },
        idempotent::Said::AlreadyLines {
            count: 1,
            processings: 1,
        },
        idempotent::Said::LateApplied { logged: true },
        idempotent::Said::LateApplied { logged: false },
        idempotent::Said::Refused { refused: true },
        idempotent::Said::Refused { refused: false },
        idempotent::Said::OutputDuplicates { count: 0 },
        idempotent::Said::Aborted {
            why: "Broker: Producer attempted an operation with an old epoch".into(),
        },
        idempotent::Said::NoAbort,
        idempotent::Said::Idempotent,
        idempotent::Said::Processing { text: summary() },
        idempotent::Said::Effects { text: summary() },
    ]
}

/// Each variant of faults::Said at least once, with its cases (none, false, empty).
fn lab7() -> Vec<faults::Said> {
    let first = || "p0 offset 12".to_string();
    vec![
        faults::Said::NothingLost,
        faults::Said::NothingLostOrStored,
        faults::Said::EveryEffect,
        faults::Said::OnlyUp,
        faults::Said::OnlyHeld,
        faults::Said::NoneBelowCommitted,
        faults::Said::NoCommitAhead,
        faults::Said::NeverBackwards,
        faults::Said::FinalCommitted,
        faults::Said::FinalInDatabase,
        faults::Said::Explained,
        faults::Said::ExitsExplained,
        faults::Said::NoEffectTwice,
        faults::Said::AllProcessed {
            acknowledged: 400,
            unknown: 2,
        },
        faults::Said::NeverProcessed {
            lost: 1,
            acknowledged: 400,
            first: first(),
        },
        faults::Said::EachEffect { acknowledged: 400 },
        faults::Said::WithoutEffect {
            missing: 1,
            acknowledged: 400,
            first: first(),
        },
        faults::Said::NoneDown,
        faults::Said::InAssignment,
        faults::Said::AtOrAfter,
        faults::Said::Follows,
        faults::Said::Samples { count: 30 },
        faults::Said::Final {
            partitions: 2,
            committed: "p0=201 p1=199".into(),
        },
        faults::Said::Over {
            kind: "kill".into(),
            target: "w1".into(),
            at: 12.3,
            duplicates: 9,
            bound: 5,
        },
        faults::Said::Unexplained {
            count: 2,
            first: first(),
        },
        faults::Said::WithinBounds { count: 7 },
        faults::Said::ExitsUnexplained {
            count: 1,
            first: "w2".into(),
        },
        faults::Said::Exited { count: 1 },
        faults::Said::EffectsOf {
            effects: 400,
            messages: 400,
        },
        faults::Said::NotInArticle,
        faults::Said::Faults {
            count: 3,
            kinds: "kill, pause".into(),
        },
        faults::Said::AckedLost {
            acknowledged: 400,
            lost: 0,
        },
    ]
}

/// Each variant of share::Said at least once, with its cases (none, false, empty).
fn lab8() -> Vec<share::Said> {
    let records = || Some("p1 100..119, p0 3".to_string());
    vec![
        share::Said::AllRecords { count: 1000 },
        share::Said::NoneTwice,
        share::Said::AcceptedOnce,
        share::Said::NoHandOver,
        share::Said::KilledHolding,
        share::Said::CameAgain,
        share::Said::DuplicatesWhereDied,
        share::Said::ReceivedWhileIn,
        share::Said::LateAnswered,
        share::Said::DuplicatesDeliveredAgain,
        share::Said::Released {
            offset: 3,
            limit: 3,
        },
        share::Said::Rejected { offset: 6 },
        share::Said::Accepted {
            accepted: 1000,
            want: 1000,
            missing: 0,
            twice: 0,
        },
        share::Said::BRead {
            partitions: "p0, p1".into(),
        },
        share::Said::BRead {
            partitions: String::new(),
        },
        share::Said::ARead {
            partitions: "p0".into(),
        },
        share::Said::ARead {
            partitions: String::new(),
        },
        share::Said::Revokes { count: 0 },
        share::Said::BTook { count: 480 },
        share::Said::AHeld { records: records() },
        share::Said::DeliveredAgain { records: None },
        share::Said::To { who: "b #2".into() },
        share::Said::Twice { records: records() },
        share::Said::ProcessedHeld { records: records() },
        share::Said::Back {
            count: 20,
            seconds: 30.1,
        },
        share::Said::InOffset3 {
            from_at: Some("09:14:40.001".into()),
            to_at: None,
        },
        share::Said::BAcquired {
            b_at: "09:14:50.512".into(),
            count: 2,
        },
        share::Said::BNever,
        share::Said::LateCommitted,
        share::Said::LateFailed {
            code: "INVALID_RECORD_STATE".into(),
        },
        share::Said::LateUnanswered,
        share::Said::Deliveries {
            list: "[1, 2, 3]".into(),
        },
        share::Said::Acknowledged {
            kinds: "release, release".into(),
        },
        share::Said::NeverAcknowledged,
        share::Said::Delivered {
            offset: 3,
            count: 3,
        },
        share::Said::Delivered {
            offset: 6,
            count: 1,
        },
        share::Said::Lab1,
        share::Said::Lab2,
        share::Said::NotInArticle,
    ]
}

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
        if !is_data && !is_number && !krb_cli::lang::has_hangul(&ko) {
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
    assert_eq!(krb_cli::lang::table_problems(FRAME), Vec::<String>::new());
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
