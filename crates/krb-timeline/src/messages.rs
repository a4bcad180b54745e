//! What krb-timeline writes in its pictures, in English and Korean (`KRB_LANG=ko`). An event
//! label that is the log grammar's own line (`assigned [0]`, `commit p1=285`) is drawn as the log
//! writes it in both languages: the docs teach those words, and the logs are data. So are names
//! and error codes.

pub use krb_log::duration::{MINUTES, MINUTES_SECONDS};
pub use krb_log::event_words::{
    COMMITTED, COMMIT_FAILED, MAXPOLL, POLL_ERROR, SECONDS, START, STOP, TXN_ABORTED,
};

// The events' words are krb-log's, shared with the live view, and so are the durations',
// shared with the report.
krb_cli::msgs! { ALL + [
    COMMITTED, COMMIT_FAILED, POLL_ERROR, TXN_ABORTED, START, STOP, MAXPOLL, SECONDS, MINUTES,
    MINUTES_SECONDS,
];
    /// What krb-timeline prints when it has drawn the picture.
    WROTE = "wrote {path}", "그림 저장: {path}";
    DOC_TITLE = "krb timeline of group {group}", "그룹 {group}의 krb 타임라인";
    /// krb-dups' totals line (`processed 1082, unique 1000, duplicates 82`), in the title.
    TOTALS = "processed {processed}, unique {unique}, duplicates {duplicates}",
        "처리 {processed}, 고유 {unique}, 중복 {duplicates}";
    LEGEND_DUPLICATE = "processed more than once", "두 번 이상 처리됨";
    LEGEND_SLOW = "slow message, start to end", "느린 메시지, 시작부터 끝까지";
    /// Two consumers in one message at once (lab 2).
    OVERLAP = "{a} and {b} both in offset {offset}: {seconds} s",
        "{a}, {b} 둘 다 offset {offset} 처리 중: {seconds}초";
    DOT = "{name} p{partition} offset {offset}", "{name} p{partition} offset {offset} 처리";
    /// A hollow dot's tooltip: a processing that wrote nothing, and why.
    DOT_WHY = "{name} p{partition} offset {offset} {why}",
        "{name} p{partition} offset {offset} 처리, {why}";
    /// A dot's tooltip when it stands for more processings, drawn at the same point.
    DOT_MERGED = "{dot}, and {more} more processings at this point", "{dot}, 같은 자리에서 {more}번 더 처리";
    /// A lane with more processings than it draws.
    DOTS_LEFT_OUT = "{count} more processings not drawn: lanes draw {max} points at most",
        "처리 {count}번은 그리지 않았어요: 한 줄에 점은 {max}개까지예요";
    /// A picture with more partitions than it draws lanes for.
    LANES_LEFT_OUT = "{count} more partitions not drawn: {max} lanes at most",
        "파티션 {count}개는 그리지 않았어요: 줄은 {max}개까지예요";
    BAR = "{name} p{partition} offset {offset}, slow", "{name} p{partition} offset {offset} 처리, 느림";
    /// Why a dot is hollow: the effect was already there.
    ALREADY_APPLIED = "already applied", "이미 반영됨";
    /// Why a dot is hollow: the transaction was refused.
    REFUSED = "refused", "거부됨";
    /// A group whose logs hold nothing to draw.
    NO_LINE = "the logs of {group} hold no worker line", "{group} 그룹의 로그에 워커의 줄이 하나도 없습니다";
}

#[cfg(test)]
mod tests {
    use super::*;
    use krb_cli::lang::{table_problems, Lang};

    #[test]
    fn every_message_has_its_korean_text_with_the_same_placeholders() {
        let problems = table_problems(ALL);
        assert!(problems.is_empty(), "{problems:#?}");
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
