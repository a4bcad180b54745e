//! What the room's page says, in English and Korean (`KRB_LANG=ko`). Held, FAILED, error and
//! the statements are krb-verify's own words (its message tables), as its table shows them.
//! Names are data and stay as they are: participants, labs' and variants' names, topics.

krb_cli::msgs! { TABLE;
    TITLE = "krb-room: room {room}", "krb-room: 교실 {room}";
    /// Where the records come from, and how many.
    STATUS =
        "topics {topics} on {bootstrap} · {participants} participant(s) · {records} record(s) · as of {time}",
        "{bootstrap}의 토픽 {topics} · 참가자 {participants}명 · 기록 {records}개 · {time} 기준";
    /// Whose each record is: the page's rule, and what it is worth.
    NAMES =
        "Each participant is named after their topic (alice-krb-room-{room} is alice's), never after what a record says: in a room with logins only alice may write that topic; without logins anyone can.",
        "참가자 이름은 기록에 적힌 이름이 아니라 토픽 이름에서 가져옵니다(alice-krb-room-{room}은 alice의 것). 로그인하는 교실에서는 alice만 그 토픽에 쓸 수 있고, 로그인 없는 교실에서는 누구나 쓸 수 있어요.";
    WAITING =
        "No record yet: each participant runs scripts/lab.sh with KRB_ROOM={room} and a KRB_NS of their own, and it publishes to their topic NS-krb-room-{room}.",
        "아직 기록이 없습니다: 참가자마다 KRB_ROOM={room}과 각자의 KRB_NS로 scripts/lab.sh를 실행하면 자기 토픽 NS-krb-room-{room}으로 보냅니다.";
    /// Records in a participant's topic that give another name.
    CLAIMED = "records in {participant}'s topic name {names}: shown as {participant}'s",
        "{participant}의 토픽에 든 기록이 {names}의 이름을 적었습니다: {participant}의 것으로 보여 줌";
    PARTICIPANT = "participant", "참가자";
    /// The variant a participant finished last.
    LATEST = "last finished", "마지막으로 끝낸 실습";
    AT = "lab {lab} {variant}", "실습 {lab} {variant}";
    VARIANTS = "variants (✓ held, ✗ failed)", "변형 (✓ 성립, ✗ 실패)";
    /// The variants of a participant's records that no lab has: a few named, all counted.
    OTHERS = "{count} variant(s) no lab has: {names}{more}", "실습에 없는 변형 {count}개: {names}{more}";
    /// A number's column: its lab and variant, then what it counts.
    COLUMN = "lab {lab} {variant}: {what}", "실습 {lab} {variant}: {what}";
    DUPLICATES = "duplicates", "중복";
    OVERLAP = "both in offset 3", "offset 3 동시 처리";
    SPREAD = "The numbers that vary from run to run, as each run measured them",
        "실행마다 달라지는 숫자 (각 실행이 잰 값)";
    LAB1_DUPLICATES = "Lab 1: duplicates without the commit in on_revoke",
        "실습 1: on_revoke에서 commit하지 않을 때의 중복";
    LAB2_OVERLAP = "Lab 2: seconds a and b were both in offset 3",
        "실습 2: a와 b가 offset 3을 함께 처리한 시간(초)";
    LAB3_DUPLICATES = "Lab 3: duplicates by assignor", "실습 3: 할당 전략별 중복";
    ARTICLE = "article {value}", "글 {value}";
    /// A picture's row before any record of its variant.
    NO_VALUES = "no record yet", "아직 기록 없음";
    /// Messages on the topics that were not records.
    SKIPPED = "Left out: {count} message(s) on the topics that are not lab records",
        "제외됨: 토픽에서 실습 기록이 아닌 메시지 {count}개";
    TROUBLE = "reading the topics: {error} (librdkafka retries)",
        "토픽 읽기: {error} (librdkafka가 다시 시도함)";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_has_its_korean_text_with_the_same_placeholders() {
        let problems = krb_cli::lang::table_problems(TABLE);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
