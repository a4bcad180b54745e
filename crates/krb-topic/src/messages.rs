//! What krb-topic's check (`--expect`) says, in English and Korean (`KRB_LANG=ko`): a lab's
//! first step, which a learner meets when the topic was not made or not filled.

use krb_common::lang::Msg;

/// The topic is there, as the lab needs it.
pub const READY: Msg = Msg {
    en: "Topic {topic}: {partitions} partitions, {messages} messages.",
    ko: "{topic} 토픽: 파티션 {partitions}개, 메시지 {messages}개.",
};
/// The broker does not serve the topic.
pub const NO_TOPIC: Msg = Msg {
    en: "topic {topic} does not exist",
    ko: "{topic} 토픽이 없습니다",
};
/// The topic has another number of partitions.
pub const PARTITIONS: Msg = Msg {
    en: "topic {topic} has {found} partitions, not {partitions}",
    ko: "{topic} 토픽의 파티션이 {partitions}개가 아니라 {found}개입니다",
};
/// The topic holds another number of messages.
pub const MESSAGES: Msg = Msg {
    en: "topic {topic} holds {found} messages, not {messages}",
    ko: "{topic} 토픽에 메시지가 {messages}개가 아니라 {found}개 있습니다",
};

/// Every message above, for the tests.
pub const ALL: &[Msg] = &[READY, NO_TOPIC, PARTITIONS, MESSAGES];

#[cfg(test)]
mod tests {
    #[test]
    fn every_message_has_its_korean_text() {
        let problems = krb_common::lang::table_problems(super::ALL);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
