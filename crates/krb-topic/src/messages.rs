//! What krb-topic says to a person, in English and Korean (`KRB_LANG=ko` or a Korean locale).
//! `Created topic T.` stays the article's: kafka-topics.sh prints it on create, nothing on delete.

krb_cli::msgs! { ALL;
    READY = "Topic {topic}: {partitions} partitions, {messages} messages.",
        "{topic} 토픽: 파티션 {partitions}개, 메시지 {messages}개.";
    NO_TOPIC = "topic {topic} does not exist", "{topic} 토픽이 없습니다";
    PARTITIONS = "topic {topic} has {found} partitions, not {partitions}",
        "{topic} 토픽의 파티션이 {partitions}개가 아니라 {found}개입니다";
    MESSAGES = "topic {topic} holds {found} messages, not {messages}",
        "{topic} 토픽에 메시지가 {messages}개가 아니라 {found}개 있습니다";
    REFUSED_ONE =
        "topic {topic} is not deleted: {readers} reads it. Use topics of your own \
        (KRB_NS=yourname), or wait until those workers stop; --force deletes it anyway",
        "{topic} 토픽을 지우지 않았습니다: {readers}이 읽고 있어요. 자기 토픽을 쓰거나\
        (KRB_NS=yourname) 그 컨슈머들이 멈출 때까지 기다리세요. --force를 주면 그래도 지웁니다";
    REFUSED_MANY =
        "topic {topic} is not deleted: {readers} read it. Use topics of your own \
        (KRB_NS=yourname), or wait until those workers stop; --force deletes it anyway",
        REFUSED_ONE.ko;
    UNSURE_ONE =
        "topic {topic} is not deleted: group {groups} is still in a rebalance after {seconds} s, \
        so who reads it cannot be told. Run it again once the group is through, or stop its \
        workers; --force deletes it anyway",
        "{topic} 토픽을 지우지 않았습니다: {groups} 그룹이 {seconds}초가 지나도 아직 리밸런스 \
        중이라 누가 읽는지 알 수 없어요. 리밸런스가 끝난 뒤 다시 실행하거나 그 컨슈머들을 \
        멈추세요. --force를 주면 그래도 지웁니다";
    UNSURE_MANY =
        "topic {topic} is not deleted: groups {groups} are still in a rebalance after {seconds} \
        s, so who reads it cannot be told. Run it again once the group is through, or stop its \
        workers; --force deletes it anyway",
        UNSURE_ONE.ko;
    NOT_CREATED = "cannot create topic {topic}: {code}", "{topic} 토픽을 만들 수 없습니다: {code}";
    NOT_DELETED = "cannot delete the old topic {topic}: {code}", "예전 {topic} 토픽을 지울 수 없습니다: {code}";
    NO_LEADER = "topic {topic} was created but its partitions had no leader within {seconds} s",
        "{topic} 토픽을 만들었지만 {seconds}초 안에 파티션의 리더가 정해지지 않았습니다";
    STILL_SERVED = "topic {topic} was deleted but the broker still served it after {seconds} s",
        "{topic} 토픽을 지웠지만 {seconds}초가 지나도 브로커가 아직 그 토픽을 내주고 있습니다";
    DELETED = "Deleted topic {topic}.", "{topic} 토픽을 지웠습니다.";
    ABSENT = "Topic {topic} does not exist.", "{topic} 토픽이 없습니다.";
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_message_has_its_korean_text() {
        let problems = krb_cli::lang::table_problems(super::ALL);
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn delete_is_said_in_korean_under_korean_and_as_before_in_english() {
        use krb_cli::lang::Lang;
        let t = [("topic", &"pay" as &dyn std::fmt::Display)];
        assert_eq!(super::DELETED.fill(Lang::En, &t), "Deleted topic pay.");
        assert_eq!(super::DELETED.fill(Lang::Ko, &t), "pay 토픽을 지웠습니다.");
        assert_eq!(
            super::ABSENT.fill(Lang::En, &t),
            "Topic pay does not exist."
        );
        assert_eq!(super::ABSENT.fill(Lang::Ko, &t), "pay 토픽이 없습니다.");
    }
}
