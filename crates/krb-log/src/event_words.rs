//! A worker's events as a person reads them beside a picture, in English and Korean: the live
//! view and the timeline label the same events with the same words. The log grammar itself
//! (`assigned [0]`, `commit p1=285`) is not translated: the logs are data.

use krb_cli::lang::Msg;

pub const COMMIT_FAILED: Msg = Msg {
    en: "commit failed: {code}",
    ko: "commit 실패: {code}",
};
pub const POLL_ERROR: Msg = Msg {
    en: "poll error: {code}",
    ko: "poll 오류: {code}",
};
pub const TXN_ABORTED: Msg = Msg {
    en: "transaction aborted: {code}",
    ko: "트랜잭션 중단: {code}",
};
/// common.sh started a worker: its first line.
pub const START: Msg = Msg {
    en: "start",
    ko: "시작",
};
/// common.sh stopped it: its last line.
pub const STOP: Msg = Msg {
    en: "stop",
    ko: "종료",
};
/// librdkafka's MAXPOLL warning: the consumer leaves its group.
pub const MAXPOLL: Msg = Msg {
    en: "MAXPOLL: leaving group",
    ko: "MAXPOLL: 그룹을 떠남",
};
/// A partition's committed position, drawn as a step line: what a new owner reads next.
pub const COMMITTED: Msg = Msg {
    en: "committed: the offset the group reads next",
    ko: "commit된 위치: 그룹이 다음에 읽을 offset",
};
/// A time in seconds: an axis tick, a run's length.
pub const SECONDS: Msg = Msg {
    en: "{seconds} s",
    ko: "{seconds}초",
};

/// Every word above, for the tests.
pub const ALL: &[Msg] = &[
    COMMIT_FAILED,
    POLL_ERROR,
    TXN_ABORTED,
    START,
    STOP,
    MAXPOLL,
    COMMITTED,
    SECONDS,
];

#[cfg(test)]
mod tests {
    #[test]
    fn every_word_has_its_korean_text() {
        let problems = krb_cli::lang::table_problems(super::ALL);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
