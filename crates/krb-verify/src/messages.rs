//! What krb-verify prints for a person, in English and Korean (`KRB_LANG=ko`).
//!
//! A verdict is computed and recorded in English (results files are data, like the logs); it is
//! translated where it is shown: the frame of a verdict and of the table by the messages below,
//! the statements, the article's numbers, ours and the details by [`TEXTS`], template by
//! template (see [`krb_common::lang::Catalogue`]). A statement added to a lab without its
//! Korean text fails this module's tests.

use std::sync::OnceLock;

use krb_common::lang::{Catalogue, Lang, Msg};

/// `lab 1 revoke nocommit (group nocommit)`: a verdict's first line.
pub const TITLE: Msg = Msg {
    en: "lab {lab} {name} {variant} (group {group})",
    ko: "실습 {lab} {name} {variant} (그룹 {group})",
};
/// The article's number, in a verdict.
pub const ARTICLE_LINE: Msg = Msg {
    en: "  article: {text}",
    ko: "  기사:    {text}",
};
/// Our number, in a verdict.
pub const OURS_LINE: Msg = Msg {
    en: "  ours:    {text}",
    ko: "  우리:    {text}",
};
/// A statement that held.
pub const HELD_LINE: Msg = Msg {
    en: "  held   {statement} ({detail})",
    ko: "  성립   {statement} ({detail})",
};
/// A statement that did not hold.
pub const FAILED_LINE: Msg = Msg {
    en: "  FAILED {statement} ({detail})",
    ko: "  실패   {statement} ({detail})",
};
/// The table's and the page's column heads: lab, variant, article, ours, held.
pub const HEADS: [Msg; 5] = [
    Msg {
        en: "lab",
        ko: "실습",
    },
    Msg {
        en: "variant",
        ko: "변형",
    },
    Msg {
        en: "article",
        ko: "기사",
    },
    Msg {
        en: "ours",
        ko: "우리",
    },
    HELD,
];
/// Below a row whose statements did not all hold.
pub const NOT_HELD: Msg = Msg {
    en: "not held: {failures}",
    ko: "성립하지 않음: {failures}",
};
/// A mark beside a statement: held.
pub const HELD: Msg = Msg {
    en: "held",
    ko: "성립",
};
/// A mark beside a statement: did not hold.
pub const FAILED: Msg = Msg {
    en: "FAILED",
    ko: "실패",
};
/// A variant's end in the lab command: how long it took and what came of it.
pub const SECONDS: Msg = Msg {
    en: "{seconds} s, {what}",
    ko: "{seconds}초, {what}",
};
/// No verdict could be made.
pub const ERROR: Msg = Msg {
    en: "error",
    ko: "오류",
};

/// Every frame message above, for the tests.
pub const FRAME: &[Msg] = &[
    TITLE,
    ARTICLE_LINE,
    OURS_LINE,
    HELD_LINE,
    FAILED_LINE,
    HEADS[0],
    HEADS[1],
    HEADS[2],
    HEADS[3],
    NOT_HELD,
    HELD,
    FAILED,
    SECONDS,
    ERROR,
];

/// The texts a verdict holds, English then Korean: statements, the article's numbers, ours and
/// details. A more specific template comes before a more general one that also matches.
pub const TEXTS: &[Msg] = &[
    // Lab 1.
    m("all 1000 messages processed", "메시지 1000개 모두 처리됨"),
    m("a handed partitions back after b joined", "b가 합류한 뒤 a가 파티션을 반납함"),
    m(
        "a logged revoked [0, 1], then assigned [..]",
        "a가 revoked [0, 1]에 이어 assigned [..]를 기록함",
    ),
    m("b was assigned the one partition that moved", "b가 옮겨 간 파티션 하나를 할당받음"),
    m("no duplicates", "중복 없음"),
    m(
        "a committed the moved partition in the revoke callback, up to its last offset",
        "a가 revoke 콜백에서 옮겨 간 파티션을 마지막 오프셋까지 커밋함",
    ),
    m("b began the moved partition at that commit", "b가 옮겨 간 파티션을 그 커밋에서 시작함"),
    m(
        "duplicates between 0 and commit-every minus 1 (99)",
        "중복은 0 이상 commit-every - 1(99) 이하",
    ),
    m(
        "duplicates only on the moved partition, from a's last commit to a's last offset",
        "중복은 옮겨 간 파티션에서만, a의 마지막 커밋부터 a의 마지막 오프셋까지",
    ),
    m(
        "b began the moved partition at a's last commit",
        "b가 옮겨 간 파티션을 a의 마지막 커밋에서 시작함",
    ),
    m(
        "a logged no revoke after b started and before its stop",
        "b가 시작한 뒤 a가 멈추기 전까지 a의 revoke 기록이 없음",
    ),
    m("82 duplicates on p1 (400..481)", "p1에서 중복 82건 (400..481)"),
    m(
        "b's first message {seconds} s after its start",
        "b의 첫 메시지는 시작 {seconds}초 뒤",
    ),
    // Lab 2.
    m(
        "librdkafka's MAXPOLL warning about 10 s after offset 3 slow start",
        "offset 3 slow start 약 10초 뒤 librdkafka의 MAXPOLL 경고",
    ),
    m(
        "b was assigned [0] and processed offset 3 while a was still in it",
        "a가 아직 offset 3을 처리하는 동안 b가 [0]을 할당받아 offset 3을 처리함",
    ),
    m(
        "a's commit after offset 3 failed with UNKNOWN_MEMBER_ID",
        "offset 3 다음 a의 커밋이 UNKNOWN_MEMBER_ID로 실패함",
    ),
    m(
        "consumer: a kept [0] until its lost [0]; b was not assigned it while a was in offset 3",
        "consumer: a가 lost [0]까지 [0]을 지킴, a가 offset 3을 처리하는 동안 b는 그것을 할당받지 않음",
    ),
    m(
        "consumer: a's commit after offset 3 succeeded (commit p0=4)",
        "consumer: offset 3 다음 a의 commit이 성공함 (commit p0=4)",
    ),
    m(
        "consumer: all 10 offsets processed once, none twice",
        "consumer: offset 10개 모두 한 번씩 처리됨, 두 번 처리된 것 없음",
    ),
    m(
        "a then logged lost [0], not revoked [0]",
        "이어서 a가 revoked [0]이 아니라 lost [0]을 기록함",
    ),
    m(
        "poll returned _MAX_POLL_EXCEEDED with librdkafka's text",
        "poll이 librdkafka의 문구와 함께 _MAX_POLL_EXCEEDED를 돌려줌",
    ),
    m(
        "all 10 offsets processed, offset 3 twice and nothing else",
        "오프셋 10개 모두 처리됨, 두 번 처리된 것은 offset 3뿐",
    ),
    m("the group's final committed offset is 10", "그룹의 마지막 커밋 오프셋이 10"),
    m("the committed offset never went backwards", "커밋 오프셋이 한 번도 뒤로 가지 않음"),
    m(
        "MAXPOLL {seconds} after the slow start",
        "slow start {seconds} 뒤 MAXPOLL",
    ),
    m("never together in offset 3", "offset 3에 함께 있지 않음"),
    m("{seconds} together in offset 3", "offset 3에 {seconds} 동안 함께"),
    m("offset 3 twice", "offset 3 두 번"),
    // Lab 3.
    m("all 3000 messages processed", "메시지 3000개 모두 처리됨"),
    m("c was assigned partitions", "c가 파티션을 할당받음"),
    m(
        "only the partitions that moved to c were revoked",
        "c로 옮겨 간 파티션만 반납됨",
    ),
    m("every partition was revoked", "모든 파티션이 반납됨"),
    m(
        "duplicates on more partitions than the ones that moved",
        "옮겨 간 파티션보다 더 많은 파티션에서 중복",
    ),
    m(
        "duplicates on the moved partitions only, and on at least one",
        "중복은 옮겨 간 파티션에서만, 적어도 하나에서",
    ),
    m(
        "{count} duplicates on all {partitions} partitions",
        "파티션 {partitions}개 모두에서 중복 {count}건",
    ),
    m(
        "{count} duplicates on the {partitions} moved partitions",
        "옮겨 간 파티션 {partitions}개에서 중복 {count}건",
    ),
    m("not measured (0 expected)", "측정하지 않음 (0 예상)"),
    m(
        "revoked {revoked} partition(s), {moved} moved",
        "파티션 {revoked}개 반납, {moved}개 이동",
    ),
    // Lab 4.
    m(
        "a owned partitions again within the session timeout (10 s) of its stop",
        "a가 멈춘 뒤 세션 타임아웃(10초) 안에 다시 파티션을 가짐",
    ),
    m("b revoked nothing", "b가 아무것도 반납하지 않음"),
    m("a got its previous partitions back", "a가 이전 파티션을 그대로 돌려받음"),
    m("b revoked twice", "b가 두 번 반납함"),
    m("a got partitions again", "a가 다시 파티션을 받음"),
    m("a got no partitions after its restart", "a가 재시작 뒤 파티션을 받지 못함"),
    m("{count} revoke(s)", "반납 {count}번"),
    m("{count} revokes", "반납 {count}번"),
    m(
        "partitions back {seconds} s after start",
        "시작 {seconds}초 뒤 파티션 복귀",
    ),
    m("the other consumer revoked twice", "다른 컨슈머가 두 번 반납"),
    m("b revoked {count} time(s)", "b가 {count}번 반납"),
    m(
        "a's partitions back never after start",
        "a의 파티션이 돌아오지 않음",
    ),
    m(
        "a's partitions back {seconds} after start",
        "a의 파티션은 시작 {seconds} 뒤 복귀",
    ),
    // Lab 5.
    m(
        "classic: a revoked every partition when b joined",
        "classic: b가 합류할 때 a가 모든 파티션을 반납함",
    ),
    m(
        "consumer: a revoked only the partition that moved",
        "consumer: a가 옮겨 간 파티션만 반납함",
    ),
    m("classic: see labs 1 and 2", "classic: 실습 1과 2를 보라"),
    m("not in the article", "기사에 없음"),
    m("{text}, a revoked nothing", "{text}, a는 아무것도 반납하지 않음"),
    m("{text}, a revoked {partitions}", "{text}, a가 {partitions} 반납"),
    m("lab {lab}: {text}", "실습 {lab}: {text}"),
    // Lab 6.
    m(
        "every one of the {count} messages has its effect (nothing lost)",
        "메시지 {count}개 하나하나에 효과가 있음 (잃은 것 없음)",
    ),
    m(
        "effects repeat where processing does: as many duplicate rows as duplicate processings, more than 0",
        "처리가 되풀이된 곳에서 효과도 되풀이됨: 중복 행 수가 중복 처리 수와 같고 0보다 큼",
    ),
    m("no message's effect twice", "어느 메시지의 효과도 두 번 있지 않음"),
    m(
        "every second processing logged as already applied",
        "두 번째 처리는 모두 already applied로 기록됨",
    ),
    m(
        "offset 3 processed twice, and a's late processing of it logged as already applied",
        "offset 3이 두 번 처리되고, a의 늦은 처리는 already applied로 기록됨",
    ),
    m(
        "nothing processed twice: b starts where a's last transaction left each partition, not at a's last Kafka commit",
        "두 번 처리된 것 없음: b는 a의 마지막 Kafka 커밋이 아니라 a의 마지막 트랜잭션이 남긴 자리에서 각 파티션을 시작함",
    ),
    m(
        "a's late transaction of offset 3 refused and rolled back",
        "offset 3에 대한 a의 늦은 트랜잭션이 거부되고 롤백됨",
    ),
    m(
        "the read_committed output holds each input message once",
        "read_committed로 읽은 출력에 입력 메시지가 하나씩 한 번만 있음",
    ),
    m(
        "a's transaction with its late offset 3 fenced or aborted, and logged",
        "늦은 offset 3을 담은 a의 트랜잭션이 펜싱되거나 중단되었고, 기록됨",
    ),
    m(
        "make the processing itself idempotent (not shown)",
        "처리 자체를 멱등으로 만든다 (코드는 없음)",
    ),
    m("processing: {text}", "처리: {text}"),
    m("effects: {text}", "효과: {text}"),
    m("{count} duplicate rows", "중복 행 {count}개"),
    m("{count} duplicate processings", "중복 처리 {count}번"),
    m("{count} duplicate output messages", "중복 출력 메시지 {count}개"),
    // Lab 7.
    m(
        "nothing lost: every message the broker acknowledged was processed",
        "잃은 것 없음: 브로커가 확인한 메시지는 모두 처리됨",
    ),
    m(
        "every message the broker acknowledged has its effect in the store",
        "브로커가 확인한 메시지마다 저장소에 효과가 있음",
    ),
    m(
        "within one assignment a worker's offsets of a partition only go up",
        "한 번의 할당 안에서 워커가 처리하는 파티션의 오프셋은 올라가기만 함",
    ),
    m(
        "no worker processed a message below an offset the group had committed before its assignment began",
        "어느 워커도 자기 할당이 시작되기 전에 그룹이 커밋한 오프셋보다 아래의 메시지를 처리하지 않음",
    ),
    m(
        "no worker committed past what it had processed",
        "어느 워커도 처리한 것을 넘어서 커밋하지 않음",
    ),
    m(
        "the group's committed offsets never moved backwards",
        "그룹의 커밋 오프셋이 한 번도 뒤로 가지 않음",
    ),
    m(
        "after the final stop each partition's position in the database, where its next owner starts, is the one after its last processed",
        "마지막 정지 뒤 데이터베이스에 있는 각 파티션의 위치(다음 소유자가 시작하는 곳)가 마지막으로 처리된 오프셋의 다음",
    ),
    m(
        "after the final stop each partition's committed offset is the one after its last processed, for librdkafka and for Kafka's own tool",
        "마지막 정지 뒤 각 파티션의 커밋 오프셋이 마지막으로 처리된 오프셋의 다음: librdkafka에서도 Kafka 자체 도구에서도",
    ),
    m(
        "every duplicate is explained by a fault, within that fault's bound",
        "모든 중복이 장애 하나로 설명되고, 그 장애의 한도 안에 있음",
    ),
    m(
        "every worker that exited on its own failed on its store, broken by a fault near",
        "스스로 끝난 워커는 모두 가까운 장애로 망가진 저장소에서 실패함",
    ),
    m("no effect is in the store twice", "저장소에 두 번 들어간 효과 없음"),
    m(
        "not in the article (one broker, clean rebalances)",
        "기사에 없음 (브로커 하나, 깨끗한 리밸런스)",
    ),
    m("{count} faults ({kinds})", "장애 {count}번 ({kinds})"),
    m(
        "{acknowledged} acknowledged, {lost} lost",
        "확인 {acknowledged}건, 유실 {lost}건",
    ),
    m(
        "{count} samples read while the trial ran",
        "시행 중 읽은 표본 {count}개",
    ),
    // Shared.
    m("unique {count}", "고유 {count}"),
    m(
        "{count} duplicates on {partitions} ({first}..{last})",
        "{partitions}에서 중복 {count}건 ({first}..{last})",
    ),
    m("{count} duplicates on {partitions}", "{partitions}에서 중복 {count}건"),
    m("{count} duplicate on {partitions}", "{partitions}에서 중복 {count}건"),
    m("{count} duplicates", "중복 {count}건"),
    m("{count} duplicate", "중복 {count}건"),
    m("none", "없음"),
    m("never", "없음"),
];

const fn m(en: &'static str, ko: &'static str) -> Msg {
    Msg { en, ko }
}

/// `text`, written in English by a lab's verdict, in `lang`.
pub fn translate(lang: Lang, text: &str) -> String {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE
        .get_or_init(|| Catalogue::new(TEXTS))
        .translate(lang, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use krb_common::lang::table_problems;

    #[test]
    fn every_message_has_its_korean_text_with_the_same_placeholders() {
        let mut problems = table_problems(TEXTS);
        problems.extend(table_problems(FRAME));
        assert!(problems.is_empty(), "{problems:#?}");
    }

    /// Every statement a lab checks, as its source writes it: a statement without its Korean
    /// text fails here.
    #[test]
    fn every_statement_of_every_lab_has_its_korean_text() {
        let sources = [
            include_str!("revoke.rs"),
            include_str!("maxpoll.rs"),
            include_str!("assignor.rs"),
            include_str!("static_lab.rs"),
            include_str!("protocol.rs"),
            include_str!("idempotent.rs"),
            include_str!("faults/mod.rs"),
        ];
        let statement = regex::Regex::new(
            r#"\.check\(\s*(?:&format!\(\s*)?"((?:[^"\\]|\\.)*)"|\(\s*"(after the final stop[^"]*)""#,
        )
        .unwrap();
        let catalogue = Catalogue::new(TEXTS);
        let mut seen = 0;
        for source in sources {
            let code = source.split("#[cfg(test)]").next().unwrap();
            for found in statement.captures_iter(code) {
                let text = found.get(1).or(found.get(2)).unwrap().as_str();
                // `{messages}` is filled with a number before the statement is recorded.
                let text = text.replace("{messages}", "1000");
                assert!(catalogue.knows(&text), "no Korean text for {text:?}");
                assert_ne!(translate(Lang::Ko, &text), text, "{text:?}");
                seen += 1;
            }
        }
        assert!(
            seen >= 50,
            "only {seen} statements found: is the pattern stale?"
        );
    }

    #[test]
    fn numbers_and_summaries_are_translated_part_by_part() {
        let ko = |text| translate(Lang::Ko, text);
        assert_eq!(
            ko("78 duplicates on p1 (200..277)"),
            "p1에서 중복 78건 (200..277)"
        );
        assert_eq!(
            ko("47 duplicates on p0, p3; revoked 2 partition(s), 2 moved"),
            "p0, p3에서 중복 47건; 파티션 2개 반납, 2개 이동"
        );
        assert_eq!(
            ko("lab 1: 84 duplicates on p1; b's first message 1.82 s after its start, a revoked [0, 1]"),
            "실습 1: p1에서 중복 84건; b의 첫 메시지는 시작 1.82초 뒤, a가 [0, 1] 반납"
        );
        assert_eq!(ko("b revoked 0 time(s)"), "b가 0번 반납");
        assert_eq!(
            translate(Lang::En, "b revoked 0 time(s)"),
            "b revoked 0 time(s)"
        );
    }
}
