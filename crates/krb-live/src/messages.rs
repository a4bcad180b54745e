//! What krb-live's page says, in English and Korean (`KRB_LANG=ko`). Log lines, names and error
//! codes are shown as they are, as krb-timeline draws them.

use krb_cli::lang::{Lang, Msg};
pub use krb_log::event_words::{
    COMMITTED, COMMIT_FAILED, MAXPOLL, POLL_ERROR, SECONDS, START, STOP, TXN_ABORTED,
};

krb_cli::msgs! { OWN;
    TITLE = "krb-live: group {group}", "krb-live: 그룹 {group}";
    /// What the page follows.
    FOLLOWING = "group {group} from {files}", "그룹 {group}, 로그 {files}";
    TOPIC = "topic {topic}", "토픽 {topic}";
    WAITING = "waiting for the group's first log line", "그룹의 첫 로그 줄을 기다리는 중";
    /// While the server answers.
    LIVE = "live · last line {time}", "실시간 · 마지막 줄 {time}";
    /// When the server no longer answers: the page keeps what it showed.
    STOPPED = "krb-live is not answering: this is the last state it sent",
        "krb-live가 응답하지 않음: 마지막으로 받은 상태를 보여 주는 중";
    /// krb-dups' totals, each a label above its number.
    PROCESSED = "processed", "처리";
    UNIQUE = "unique", "고유";
    /// Processings of a message processed before.
    DUPLICATES = "duplicates", "중복";
    WORKER_TOTALS = "processed {processed}, duplicates {duplicates}",
        "처리 {processed}, 중복 {duplicates}";
    /// A share group member's records (lab 8): what the broker lent it and what it answered.
    SHARE_TOTALS =
        "acquired {acquired} ({again} again, delivery count up to {max}) · accepted {accepted}, released {released}, rejected {rejected} · acks committed {committed}, failed {failed}",
        "acquired {acquired}개 (다시 온 것 {again}개, delivery count 최대 {max}) · accept {accepted}, release {released}, reject {rejected} · commit된 acknowledgement {committed}개, 실패 {failed}개";
    OWNS = "owns {partitions}", "담당: {partitions}";
    OWNS_NOTHING = "owns no partition", "담당한 파티션 없음";
    LEGEND_OWNED = "partition owned, assigned to revoked", "담당한 파티션, assigned부터 revoked까지";
    LEGEND_PROCESSING = "processing (height: messages per step)", "처리 (높이: 구간당 메시지 수)";
    /// The legend: the offset processed last, a line on the partition's offsets.
    LEGEND_OFFSET = "offset processed last", "마지막으로 처리한 offset";
    LEGEND_DUPLICATE = "duplicate processing", "중복 처리";
    FEED = "Latest, newest first", "최근 일, 최신순";
    /// A duplicate in the list, and a mark's tooltip.
    DUPLICATE_ITEM =
        "duplicate #{n}: {worker} p{partition} offset {offset}, processed {times} times",
        "중복 #{n}: {worker} p{partition} offset {offset}, {times}번 처리됨";
    /// Duplicates one after another, in the list: one item that grows as they come.
    DUPLICATE_RUN = "duplicates #{first}–#{last}: {worker} p{partition} offsets {from}..{to}",
        "중복 #{first}–#{last}: {worker} p{partition} offset {from}..{to}";
    /// The time of day the axis starts at.
    ORIGIN = "0 s = {time}", "0초 = {time}";
    SKIPPED =
        "{n} lines skipped (they look like worker lines but do not parse), as krb-dups skips them: {first}",
        "워커 로그 줄처럼 보이지만 읽을 수 없는 줄 {n}개를 krb-dups처럼 건너뜀: {first}";
    ERROR = "cannot read the logs: {error}", "로그를 읽을 수 없음: {error}";
}

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
        let defined = OWN.len();
        // The events' words are krb-log's, shared with the timeline.
        let shared = krb_log::event_words::ALL.len();
        assert_eq!(defined + shared, ALL.len(), "a message is missing from ALL");
        let names: std::collections::BTreeSet<&str> = ALL.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.len(), ALL.len(), "a name is used twice");
        assert_eq!(words(Lang::Ko)["duplicates"], "중복");
    }
}
