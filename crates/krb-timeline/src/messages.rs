//! What krb-timeline writes in its pictures, in English and Korean (`KRB_LANG=ko`).
//!
//! Only krb-timeline's own words are here: the title, the legend, the lanes' texts, the
//! tooltips, the failure labels and the axis. An event label that is the log grammar's own line
//! (`assigned [0]`, `revoked [0, 1]`, `lost [0]`, `commit p1=285`) is drawn as the log writes it
//! in both languages: the docs teach those words, and the logs are data. So are the names of
//! workers, groups and partitions (`p1`) and the error codes (`UNKNOWN_MEMBER_ID`).

use krb_cli::lang::Msg;
pub use krb_log::duration::{MINUTES, MINUTES_SECONDS};
pub use krb_log::event_words::{
    COMMITTED, COMMIT_FAILED, MAXPOLL, POLL_ERROR, SECONDS, START, STOP, TXN_ABORTED,
};

/// What krb-timeline prints when it has drawn the picture.
pub const WROTE: Msg = Msg {
    en: "wrote {path}",
    ko: "그림 저장: {path}",
};
/// The SVG's `<title>`.
pub const DOC_TITLE: Msg = Msg {
    en: "krb timeline of group {group}",
    ko: "그룹 {group}의 krb 타임라인",
};
/// krb-dups' totals line (`processed 1082, unique 1000, duplicates 82`), in the title.
pub const TOTALS: Msg = Msg {
    en: "processed {processed}, unique {unique}, duplicates {duplicates}",
    ko: "처리 {processed}, 고유 {unique}, 중복 {duplicates}",
};
/// The legend's ringed dot.
pub const LEGEND_DUPLICATE: Msg = Msg {
    en: "processed more than once",
    ko: "두 번 이상 처리됨",
};
/// The legend's bar.
pub const LEGEND_SLOW: Msg = Msg {
    en: "slow message, start to end",
    ko: "느린 메시지, 시작부터 끝까지",
};
/// Two consumers in one message at once (lab 2).
pub const OVERLAP: Msg = Msg {
    en: "{a} and {b} both in offset {offset}: {seconds} s",
    ko: "{a}, {b} 둘 다 offset {offset} 처리 중: {seconds}초",
};
/// A dot's tooltip.
pub const DOT: Msg = Msg {
    en: "{name} p{partition} offset {offset}",
    ko: "{name} p{partition} offset {offset} 처리",
};
/// A hollow dot's tooltip: a processing that wrote nothing, and why.
pub const DOT_WHY: Msg = Msg {
    en: "{name} p{partition} offset {offset} {why}",
    ko: "{name} p{partition} offset {offset} 처리, {why}",
};
/// A dot's tooltip when it stands for more processings, drawn at the same point.
pub const DOT_MERGED: Msg = Msg {
    en: "{dot}, and {more} more processings at this point",
    ko: "{dot}, 같은 자리에서 {more}번 더 처리",
};
/// A lane with more processings than it draws.
pub const DOTS_LEFT_OUT: Msg = Msg {
    en: "{count} more processings not drawn: lanes draw {max} points at most",
    ko: "처리 {count}번은 그리지 않았어요: 한 줄에 점은 {max}개까지예요",
};
/// A picture with more partitions than it draws lanes for.
pub const LANES_LEFT_OUT: Msg = Msg {
    en: "{count} more partitions not drawn: {max} lanes at most",
    ko: "파티션 {count}개는 그리지 않았어요: 줄은 {max}개까지예요",
};
/// A slow message's bar's tooltip.
pub const BAR: Msg = Msg {
    en: "{name} p{partition} offset {offset}, slow",
    ko: "{name} p{partition} offset {offset} 처리, 느림",
};
/// Why a dot is hollow: the effect was already there.
pub const ALREADY_APPLIED: Msg = Msg {
    en: "already applied",
    ko: "이미 반영됨",
};
/// Why a dot is hollow: the transaction was refused.
pub const REFUSED: Msg = Msg {
    en: "refused",
    ko: "거부됨",
};
/// A group whose logs hold nothing to draw.
pub const NO_LINE: Msg = Msg {
    en: "the logs of {group} hold no worker line",
    ko: "{group} 그룹의 로그에 워커의 줄이 하나도 없습니다",
};

/// Every message above.
pub const ALL: &[Msg] = &[
    WROTE,
    NO_LINE,
    DOC_TITLE,
    TOTALS,
    LEGEND_DUPLICATE,
    LEGEND_SLOW,
    COMMITTED,
    OVERLAP,
    DOT,
    DOT_WHY,
    DOT_MERGED,
    DOTS_LEFT_OUT,
    LANES_LEFT_OUT,
    BAR,
    ALREADY_APPLIED,
    REFUSED,
    COMMIT_FAILED,
    POLL_ERROR,
    TXN_ABORTED,
    START,
    STOP,
    MAXPOLL,
    SECONDS,
    MINUTES,
    MINUTES_SECONDS,
];

#[cfg(test)]
mod tests {
    use super::*;
    use krb_cli::lang::{table_problems, Lang};

    #[test]
    fn every_message_has_its_korean_text_with_the_same_placeholders() {
        let problems = table_problems(ALL);
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn every_message_is_in_the_table() {
        let defined = krb_cli::lang::declared(include_str!("messages.rs"));
        // The events' words are krb-log's, shared with the live view, and so are the
        // durations', shared with the report.
        let shared = krb_log::event_words::ALL.len() + krb_log::duration::ALL.len();
        assert_eq!(defined + shared, ALL.len(), "a message is missing from ALL");
    }

    /// The title's totals say what krb-dups' report says, word for word, in English.
    #[test]
    fn the_totals_are_krb_dups_line() {
        let mut counts = krb_dups::Counts::new();
        for (who, o) in [("a", 0), ("a", 1), ("b", 1)] {
            counts.add(who.as_bytes(), 0, o);
        }
        let report = krb_dups::analyse(&mut counts, None);
        let ours = TOTALS.fill(
            Lang::En,
            &[
                ("processed", &report.processed),
                ("unique", &report.unique),
                ("duplicates", &report.duplicates()),
            ],
        );
        assert_eq!(ours, report.totals());
    }
}
