//! What krb-group says to a person when the broker refuses, in English and Korean
//! (`KRB_LANG=ko` or a Korean locale). `Deleted group G.` stays as kafka-consumer-groups.sh says it.

krb_cli::msgs! { ALL;
    /// The group is not deleted: it has live members (`has`: how many, as the language says it).
    REFUSED =
        "group {group} is not deleted: it has {has}, and the broker deletes no group with \
        members. Stop its workers first (a static member stays until its session times out: \
        --wait SECONDS)",
        "{group} 그룹을 지우지 않았습니다: {has}이 있고, 브로커는 구성원이 있는 그룹을 지우지 \
        않아요. 먼저 그 컨슈머들을 멈추세요(static member는 세션이 끝날 때까지 남아요: --wait \
        SECONDS)";
    NOT_DELETED = "cannot delete group {group}: {code}", "{group} 그룹을 지울 수 없습니다: {code}";
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_message_has_its_korean_text() {
        let problems = krb_cli::lang::table_problems(super::ALL);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
