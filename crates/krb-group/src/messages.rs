//! What krb-group says to a person when the broker refuses, in English and Korean
//! (`KRB_LANG=ko` or a Korean locale). `Deleted group G.` stays as kafka-consumer-groups.sh says it.

use krb_cli::lang::Msg;

/// The group is not deleted: it has live members (`has`: how many, as the language says it).
pub const REFUSED: Msg = Msg {
    en: "group {group} is not deleted: it has {has}, and the broker deletes no group with \
         members. Stop its workers first (a static member stays until its session times out: \
         --wait SECONDS)",
    ko: "{group} 그룹을 지우지 않았습니다: {has}이 있고, 브로커는 구성원이 있는 그룹을 지우지 \
         않아요. 먼저 그 컨슈머들을 멈추세요(static member는 세션이 끝날 때까지 남아요: --wait \
         SECONDS)",
};
/// The broker refused another way.
pub const NOT_DELETED: Msg = Msg {
    en: "cannot delete group {group}: {code}",
    ko: "{group} 그룹을 지울 수 없습니다: {code}",
};

/// Every message above, for the tests.
pub const ALL: &[Msg] = &[REFUSED, NOT_DELETED];

#[cfg(test)]
mod tests {
    #[test]
    fn every_message_has_its_korean_text() {
        let problems = krb_cli::lang::table_problems(super::ALL);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
