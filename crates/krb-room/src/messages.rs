//! What the room's page says, in English and Korean (`KRB_LANG=ko`). Held, FAILED, error and
//! the statements are krb-verify's own words (its message tables), as its table shows them.
//! Names are data and stay as they are: participants, labs' and variants' names, topics.

use krb_common::lang::Msg;

/// The page's title and heading.
pub const TITLE: Msg = Msg {
    en: "krb-room: room {room}",
    ko: "krb-room: 교실 {room}",
};
/// Where the records come from, and how many.
pub const STATUS: Msg = Msg {
    en: "topic {topic} on {bootstrap} · {participants} participant(s) · {records} record(s) · as of {time}",
    ko: "{bootstrap}의 토픽 {topic} · 참가자 {participants}명 · 기록 {records}개 · {time} 기준",
};
/// Before the first record.
pub const WAITING: Msg = Msg {
    en: "No record yet: each participant runs scripts/lab.sh with KRB_ROOM={room} (and a KRB_NS of their own).",
    ko: "아직 기록이 없습니다: 참가자마다 KRB_ROOM={room}(그리고 각자의 KRB_NS)으로 scripts/lab.sh를 실행합니다.",
};
/// The table's first column.
pub const PARTICIPANT: Msg = Msg {
    en: "participant",
    ko: "참가자",
};
/// The variant a participant finished last.
pub const LATEST: Msg = Msg {
    en: "last finished",
    ko: "마지막으로 끝낸 실습",
};
/// A lab's variant.
pub const AT: Msg = Msg {
    en: "lab {lab} {variant}",
    ko: "실습 {lab} {variant}",
};
/// Each variant's result.
pub const VARIANTS: Msg = Msg {
    en: "variants (✓ held, ✗ failed)",
    ko: "변형 (✓ 성립, ✗ 실패)",
};
/// A number's column: its lab and variant, then what it counts.
pub const COLUMN: Msg = Msg {
    en: "lab {lab} {variant}: {what}",
    ko: "실습 {lab} {variant}: {what}",
};
/// krb-dups' duplicates.
pub const DUPLICATES: Msg = Msg {
    en: "duplicates",
    ko: "중복",
};
/// Lab 2's overlap.
pub const OVERLAP: Msg = Msg {
    en: "both in offset 3",
    ko: "offset 3 동시 처리",
};
/// The pictures' heading.
pub const SPREAD: Msg = Msg {
    en: "The numbers that vary from run to run, as each run measured them",
    ko: "실행마다 달라지는 숫자 (각 실행이 잰 값)",
};
/// Lab 1's picture.
pub const LAB1_DUPLICATES: Msg = Msg {
    en: "Lab 1: duplicates without the commit in the revoke callback",
    ko: "실습 1: on_revoke에서 commit하지 않을 때의 중복",
};
/// Lab 2's picture.
pub const LAB2_OVERLAP: Msg = Msg {
    en: "Lab 2: seconds a and b were both in offset 3",
    ko: "실습 2: a와 b가 offset 3을 함께 처리한 시간(초)",
};
/// Lab 3's picture.
pub const LAB3_DUPLICATES: Msg = Msg {
    en: "Lab 3: duplicates by assignor",
    ko: "실습 3: 할당 전략별 중복",
};
/// The article's number in a picture.
pub const ARTICLE: Msg = Msg {
    en: "article {value}",
    ko: "글 {value}",
};
/// A picture's row before any record of its variant.
pub const NO_VALUES: Msg = Msg {
    en: "no record yet",
    ko: "아직 기록 없음",
};
/// Messages on the topic that were not records.
pub const SKIPPED: Msg = Msg {
    en: "Left out: {count} message(s) on the topic that are not lab records",
    ko: "제외됨: 토픽에서 실습 기록이 아닌 메시지 {count}개",
};
/// The broker's error while reading.
pub const TROUBLE: Msg = Msg {
    en: "reading the topic: {error} (librdkafka retries)",
    ko: "토픽 읽기: {error} (librdkafka가 다시 시도함)",
};

/// Every message, for the checks.
pub const TABLE: &[Msg] = &[
    TITLE,
    STATUS,
    WAITING,
    PARTICIPANT,
    LATEST,
    AT,
    VARIANTS,
    COLUMN,
    DUPLICATES,
    OVERLAP,
    SPREAD,
    LAB1_DUPLICATES,
    LAB2_OVERLAP,
    LAB3_DUPLICATES,
    ARTICLE,
    NO_VALUES,
    SKIPPED,
    TROUBLE,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_has_its_korean_text_with_the_same_placeholders() {
        let problems = krb_common::lang::table_problems(TABLE);
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn every_message_is_in_the_table() {
        let declared = krb_common::lang::declared(include_str!("messages.rs"));
        assert_eq!(declared, TABLE.len());
    }
}
