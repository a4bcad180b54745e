//! A worker's events as a person reads them beside a picture, in English and Korean: the live
//! view and the timeline label the same events with the same words. The log grammar itself
//! (`assigned [0]`, `commit p1=285`) is not translated: the logs are data.

krb_cli::msgs! { ALL;
    COMMIT_FAILED = "commit failed: {code}", "commit 실패: {code}";
    POLL_ERROR = "poll error: {code}", "poll 오류: {code}";
    TXN_ABORTED = "transaction aborted: {code}", "트랜잭션 중단: {code}";
    /// common.sh started a worker: its first line.
    START = "start", "시작";
    /// common.sh stopped it: its last line.
    STOP = "stop", "종료";
    /// librdkafka's MAXPOLL warning: the consumer leaves its group.
    MAXPOLL = "MAXPOLL: leaving group", "MAXPOLL: 그룹을 떠남";
    /// A partition's committed position, drawn as a step line: what a new owner reads next.
    COMMITTED = "committed: the offset the group reads next",
        "commit된 위치: 그룹이 다음에 읽을 offset";
    /// A time in seconds: an axis tick, a run's length.
    SECONDS = "{seconds} s", "{seconds}초";
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_word_has_its_korean_text() {
        let problems = krb_cli::lang::table_problems(super::ALL);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
