//! A Kafka error as the worker's log carries it, which is how confluent-kafka prints a
//! `KafkaError`: `KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str="Commit failed: Broker: Unknown member"}`.
//! Written here for krb-kafka (which knows the code's name from librdkafka) and read back here by
//! the tools that only read logs.

pub fn render(name: &str, code: i32, text: &str) -> String {
    format!("KafkaError{{code={name},val={code},str=\"{text}\"}}")
}

/// The code of an error as [`render`] wrote it (`UNKNOWN_MEMBER_ID` of
/// `KafkaError{code=UNKNOWN_MEMBER_ID,...}`), or the whole text when it names none.
pub fn rendered_code(text: &str) -> &str {
    text.split_once("code=")
        .and_then(|(_, rest)| rest.split(',').next())
        .unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rendered_errors_code_reads_back() {
        assert_eq!(
            rendered_code(&render("UNKNOWN_MEMBER_ID", 25, "x")),
            "UNKNOWN_MEMBER_ID"
        );
        assert_eq!(rendered_code("something else"), "something else");
    }
}
