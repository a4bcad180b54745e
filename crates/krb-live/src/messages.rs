//! What krb-live's page says, in English and Korean (`KRB_LANG=ko`).
//!
//! Only the page's own words are here. An event label that is the log grammar's own line
//! (`assigned [0]`, `revoked [0, 1]`, `lost [0]`) is shown as the log writes it in both
//! languages, as krb-timeline draws it: the docs teach those words, and the logs are data. So
//! are the names of workers, groups and partitions (`p1`) and Kafka's error codes.

use krb_cli::lang::{Lang, Msg};
pub use krb_log::event_words::{
    COMMITTED, COMMIT_FAILED, MAXPOLL, POLL_ERROR, SECONDS, START, STOP, TXN_ABORTED,
};

/// The page's title.
pub const TITLE: Msg = Msg {
    en: "krb-live: group {group}",
    ko: "krb-live: 그룹 {group}",
};
/// What the page follows.
pub const FOLLOWING: Msg = Msg {
    en: "group {group} from {files}",
    ko: "그룹 {group}, 로그 {files}",
};
/// The topic the workers consume.
pub const TOPIC: Msg = Msg {
    en: "topic {topic}",
    ko: "토픽 {topic}",
};
/// Before any line.
pub const WAITING: Msg = Msg {
    en: "waiting for the group's first log line",
    ko: "그룹의 첫 로그 줄을 기다리는 중",
};
/// While the server answers.
pub const LIVE: Msg = Msg {
    en: "live · last line {time}",
    ko: "실시간 · 마지막 줄 {time}",
};
/// When the server no longer answers: the page keeps what it showed.
pub const STOPPED: Msg = Msg {
    en: "krb-live is not answering: this is the last state it sent",
    ko: "krb-live가 응답하지 않음: 마지막으로 받은 상태를 보여 주는 중",
};
/// krb-dups' totals, each a label above its number.
pub const PROCESSED: Msg = Msg {
    en: "processed",
    ko: "처리",
};
/// Distinct messages processed.
pub const UNIQUE: Msg = Msg {
    en: "unique",
    ko: "고유",
};
/// Processings of a message processed before.
pub const DUPLICATES: Msg = Msg {
    en: "duplicates",
    ko: "중복",
};
/// A worker's totals.
pub const WORKER_TOTALS: Msg = Msg {
    en: "processed {processed}, duplicates {duplicates}",
    ko: "처리 {processed}, 중복 {duplicates}",
};
/// A share group member's records (lab 8): what the broker lent it and what it answered.
pub const SHARE_TOTALS: Msg = Msg {
    en: "acquired {acquired} ({again} again, delivery count up to {max}) · accepted {accepted}, released {released}, rejected {rejected} · acks committed {committed}, failed {failed}",
    ko: "acquired {acquired}개 (다시 온 것 {again}개, delivery count 최대 {max}) · accept {accepted}, release {released}, reject {rejected} · commit된 acknowledgement {committed}개, 실패 {failed}개",
};
/// The partitions a worker owns now.
pub const OWNS: Msg = Msg {
    en: "owns {partitions}",
    ko: "담당: {partitions}",
};
/// A worker that owns none.
pub const OWNS_NOTHING: Msg = Msg {
    en: "owns no partition",
    ko: "담당한 파티션 없음",
};
/// The legend: a partition owned.
pub const LEGEND_OWNED: Msg = Msg {
    en: "partition owned, assigned to revoked",
    ko: "담당한 파티션, assigned부터 revoked까지",
};
/// The legend: processing.
pub const LEGEND_PROCESSING: Msg = Msg {
    en: "processing (height: messages per step)",
    ko: "처리 (높이: 구간당 메시지 수)",
};
/// The legend: the offset processed last, a line on the partition's offsets.
pub const LEGEND_OFFSET: Msg = Msg {
    en: "offset processed last",
    ko: "마지막으로 처리한 offset",
};
/// The legend: a duplicate.
pub const LEGEND_DUPLICATE: Msg = Msg {
    en: "duplicate processing",
    ko: "중복 처리",
};
/// The list of what happened.
pub const FEED: Msg = Msg {
    en: "Latest, newest first",
    ko: "최근 일, 최신순",
};
/// A duplicate in the list, and a mark's tooltip.
pub const DUPLICATE_ITEM: Msg = Msg {
    en: "duplicate #{n}: {worker} p{partition} offset {offset}, processed {times} times",
    ko: "중복 #{n}: {worker} p{partition} offset {offset}, {times}번 처리됨",
};
/// Duplicates one after another, in the list: one item that grows as they come.
pub const DUPLICATE_RUN: Msg = Msg {
    en: "duplicates #{first}–#{last}: {worker} p{partition} offsets {from}..{to}",
    ko: "중복 #{first}–#{last}: {worker} p{partition} offset {from}..{to}",
};
/// The time of day the axis starts at.
pub const ORIGIN: Msg = Msg {
    en: "0 s = {time}",
    ko: "0초 = {time}",
};
/// Lines the reader skipped.
pub const SKIPPED: Msg = Msg {
    en: "{n} lines skipped (they look like worker lines but do not parse), as krb-dups skips them: {first}",
    ko: "워커 로그 줄처럼 보이지만 읽을 수 없는 줄 {n}개를 krb-dups처럼 건너뜀: {first}",
};
/// The logs cannot be read.
pub const ERROR: Msg = Msg {
    en: "cannot read the logs: {error}",
    ko: "로그를 읽을 수 없음: {error}",
};

/// Every message above, with the name the page's script knows it by.
pub const ALL: &[(&str, Msg)] = &[
    ("title", TITLE),
    ("following", FOLLOWING),
    ("topic", TOPIC),
    ("waiting", WAITING),
    ("live", LIVE),
    ("stopped", STOPPED),
    ("processed", PROCESSED),
    ("unique", UNIQUE),
    ("duplicates", DUPLICATES),
    ("workerTotals", WORKER_TOTALS),
    ("shareTotals", SHARE_TOTALS),
    ("owns", OWNS),
    ("ownsNothing", OWNS_NOTHING),
    ("legendOwned", LEGEND_OWNED),
    ("legendProcessing", LEGEND_PROCESSING),
    ("legendOffset", LEGEND_OFFSET),
    ("committed", COMMITTED),
    ("legendDuplicate", LEGEND_DUPLICATE),
    ("feed", FEED),
    ("duplicateItem", DUPLICATE_ITEM),
    ("duplicateRun", DUPLICATE_RUN),
    ("origin", ORIGIN),
    ("commitFailed", COMMIT_FAILED),
    ("pollError", POLL_ERROR),
    ("txnAborted", TXN_ABORTED),
    ("start", START),
    ("stop", STOP),
    ("maxpoll", MAXPOLL),
    ("seconds", SECONDS),
    ("skipped", SKIPPED),
    ("error", ERROR),
];

/// The page's words in `lang`, by name, for its script.
pub fn words(lang: Lang) -> serde_json::Map<String, serde_json::Value> {
    ALL.iter()
        .map(|(name, msg)| (name.to_string(), msg.text(lang).into()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use krb_cli::lang::table_problems;

    #[test]
    fn every_message_has_its_korean_text_with_the_same_placeholders() {
        let table: Vec<Msg> = ALL.iter().map(|(_, m)| *m).collect();
        let problems = table_problems(&table);
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn every_message_is_in_the_table_once_by_name() {
        let defined = krb_cli::lang::declared(include_str!("messages.rs"));
        // The events' words are krb-log's, shared with the timeline.
        let shared = krb_log::event_words::ALL.len();
        assert_eq!(defined + shared, ALL.len(), "a message is missing from ALL");
        let names: std::collections::BTreeSet<&str> = ALL.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.len(), ALL.len(), "a name is used twice");
        assert_eq!(words(Lang::Ko)["duplicates"], "중복");
    }
}
