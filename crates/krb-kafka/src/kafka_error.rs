//! Kafka errors rendered the way the article shows them, which is how confluent-kafka prints
//! a `KafkaError`: `KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str="Commit failed: Broker: Unknown member"}`
//! (the text's form is [`krb_log::rendered_error`]'s; the names and descriptions are librdkafka's).

use rdkafka::bindings as rdsys;
use rdkafka::error::{KafkaError, RDKafkaErrorCode};

use crate::group_admin::text;

/// librdkafka's name of an error code (`UNKNOWN_MEMBER_ID`, `_MAX_POLL_EXCEEDED`), or the
/// number itself for a code this librdkafka does not know.
pub fn error_name(code: i32) -> String {
    match rdsys::rd_kafka_resp_err_t::try_from(code) {
        // SAFETY: rd_kafka_err2name returns a pointer to a static string for every code.
        Ok(err) => unsafe { text(rdsys::rd_kafka_err2name(err)) },
        Err(_) => format!("ERR_{code}"),
    }
}

/// librdkafka's description of an error code (`Broker: Unknown member`).
pub fn error_description(code: i32) -> String {
    match rdsys::rd_kafka_resp_err_t::try_from(code) {
        // SAFETY: rd_kafka_err2str returns a pointer to a static string for every code.
        Ok(err) => unsafe { text(rdsys::rd_kafka_err2str(err)) },
        Err(_) => format!("Unknown error code {code}"),
    }
}

/// `KafkaError{code=NAME,val=N,str="TEXT"}`, NAME librdkafka's name of `code`.
pub fn render(code: i32, text: &str) -> String {
    krb_log::rendered_error::render(&error_name(code), code, text)
}

pub fn code_of(err: &KafkaError) -> Option<i32> {
    err.rdkafka_error_code().map(|c: RDKafkaErrorCode| c as i32)
}

/// A failed synchronous commit, as confluent-kafka reports it: `str="Commit failed: <description>"`.
pub fn render_commit_error(err: &KafkaError) -> String {
    match code_of(err) {
        Some(code) => render(code, &format!("Commit failed: {}", error_description(code))),
        None => render(-1, &format!("Commit failed: {err}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_the_articles_commit_failure() {
        let err = KafkaError::ConsumerCommit(RDKafkaErrorCode::UnknownMemberId);
        assert_eq!(
            render_commit_error(&err),
            r#"KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str="Commit failed: Broker: Unknown member"}"#
        );
    }

    #[test]
    fn renders_the_articles_poll_error() {
        let code = RDKafkaErrorCode::PollExceeded as i32;
        assert_eq!(
            render(
                code,
                "Application maximum poll interval (10000ms) exceeded by 356ms"
            ),
            r#"KafkaError{code=_MAX_POLL_EXCEEDED,val=-147,str="Application maximum poll interval (10000ms) exceeded by 356ms"}"#
        );
    }

    #[test]
    fn unknown_codes_still_render() {
        assert_eq!(error_name(123_456), "ERR_123456");
        assert!(error_description(123_456).contains("123456"));
    }
}
