//! What krb-verify prints for a person, in English and Korean (`KRB_LANG=ko`).
//!
//! A verdict is computed and recorded in English (results files are data, like the logs); it is
//! translated where it is shown: the frame of a verdict and of the table by the messages below,
//! the statements, the article's numbers, ours and the details by [`TEXTS`], template by
//! template (see [`krb_cli::lang::Catalogue`]). A statement added to a lab without its
//! Korean text fails this module's tests.

use std::sync::OnceLock;

use krb_cli::lang::{Catalogue, Lang, Msg};

/// `lab 1 revoke nocommit (group nocommit)`: a verdict's first line.
pub const TITLE: Msg = Msg {
    en: "lab {lab} {name} {variant} (group {group})",
    ko: "실습 {lab} {name} {variant} (그룹 {group})",
};
/// The article's number, in a verdict.
pub const ARTICLE_LINE: Msg = Msg {
    en: "  article: {text}",
    ko: "  글:      {text}",
};
/// Our number, in a verdict.
pub const OURS_LINE: Msg = Msg {
    en: "  ours:    {text}",
    ko: "  실측:    {text}",
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
        ko: "글",
    },
    Msg {
        en: "ours",
        ko: "실측",
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
    m("a handed partitions back after b joined", "b가 들어온 뒤 a가 파티션을 반납함"),
    m(
        "a logged revoked [0, 1], then assigned [..]",
        "a의 로그에 revoked [0, 1], 이어서 assigned [..]가 남음",
    ),
    m("b was assigned the one partition that moved", "b가 옮겨 간 파티션 하나를 받음"),
    m("no duplicates", "중복 없음"),
    m(
        "a committed the moved partition in the revoke callback, up to its last offset",
        "a가 on_revoke에서 옮겨 가는 파티션을 처리한 위치까지 commit함",
    ),
    m("b began the moved partition at that commit", "b가 옮겨 간 파티션을 그 commit 위치부터 읽음"),
    m(
        "duplicates between 0 and commit-every minus 1 (99)",
        "중복은 0건에서 commit-every - 1(99건) 사이",
    ),
    m(
        "duplicates only on the moved partition, from a's last commit to a's last offset",
        "중복은 옮겨 간 파티션에서만, a의 마지막 commit부터 a가 마지막으로 처리한 offset까지",
    ),
    m(
        "b began the moved partition at a's last commit",
        "b가 옮겨 간 파티션을 a의 마지막 commit 위치부터 읽음",
    ),
    m(
        "a logged no revoke after b started and before its stop",
        "b가 시작한 뒤 a가 멈추기 전까지 a의 로그에 revoked가 없음",
    ),
    m("82 duplicates on p1 (400..481)", "p1에서 중복 82건 (400..481)"),
    m(
        "b's first message {seconds} s after its start",
        "b의 첫 메시지는 시작 {seconds}초 뒤",
    ),
    m(
        "a revoked {list}",
        "a가 {list} 반납",
    ),
    m(
        "revoked {list}, reassigned: true",
        "revoked {list}, 이어서 assigned 있음",
    ),
    m(
        "revoked {list}, reassigned: false",
        "revoked {list}, 이어서 assigned 없음",
    ),
    m(
        "no revoke, reassigned: false",
        "revoked 없음",
    ),
    m(
        "b assigned {list}",
        "b가 받은 파티션 {list}",
    ),
    m(
        "commit p{p}={commit}, a's last offset {offset}",
        "commit p{p}={commit}, a가 마지막으로 처리한 offset {offset}",
    ),
    m(
        "b's first offset on p{p}: {offset}",
        "b가 p{p}에서 처음 처리한 offset {offset}",
    ),
    m(
        "b's first offset on p{p}: {offset}, a's last commit {commit}",
        "b가 p{p}에서 처음 처리한 offset {offset}, a의 마지막 commit {commit}",
    ),
    m(
        "runs {runs}",
        "중복 구간 {runs}",
    ),
    m(
        "a's last commit p{p}={commit}, last offset {offset}",
        "a의 마지막 commit p{p}={commit}, 마지막으로 처리한 offset {offset}",
    ),
    // Lab 2.
    m(
        "librdkafka's MAXPOLL warning about 10 s after offset 3 slow start",
        "offset 3 slow start 약 10초 뒤 librdkafka의 MAXPOLL 경고",
    ),
    m(
        "b was assigned [0] and processed offset 3 while a was still in it",
        "a가 아직 offset 3을 처리하는 동안 b가 [0]을 받아 offset 3을 처리함",
    ),
    m(
        "a's commit after offset 3 failed with UNKNOWN_MEMBER_ID",
        "offset 3 다음 a의 commit이 UNKNOWN_MEMBER_ID로 실패함",
    ),
    m(
        "consumer: a kept [0] until its lost [0]; b was not assigned it while a was in offset 3",
        "consumer: a가 lost [0] 때까지 [0]을 맡았고, a가 offset 3을 처리하는 동안 b는 [0]을 받지 않음",
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
        "이어서 a의 로그에 revoked [0]이 아니라 lost [0]이 남음",
    ),
    m(
        "poll returned _MAX_POLL_EXCEEDED with librdkafka's text",
        "poll이 librdkafka의 문구와 함께 _MAX_POLL_EXCEEDED를 돌려줌",
    ),
    m(
        "all 10 offsets processed, offset 3 twice and nothing else",
        "offset 10개를 모두 처리함, 두 번 처리한 것은 offset 3뿐",
    ),
    m("the group's final committed offset is 10", "그룹에 마지막으로 commit된 offset이 10"),
    m("the committed offset never went backwards", "commit된 offset이 한 번도 뒤로 가지 않음"),
    m(
        "MAXPOLL {seconds} s after the slow start",
        "slow start {seconds}초 뒤 MAXPOLL",
    ),
    m(
        "no MAXPOLL after the slow start",
        "slow start 뒤 MAXPOLL 없음",
    ),
    m("never together in offset 3", "offset 3을 함께 처리한 적 없음"),
    m("{seconds} s together in offset 3", "{seconds}초 동안 offset 3을 함께 처리"),
    m("offset 3 twice", "offset 3을 두 번 처리"),
    m(
        "together for {seconds} s, b processed offset 3: true",
        "{seconds}초 동안 함께 처리, b가 offset 3을 처리함",
    ),
    m(
        "together for {seconds} s, b processed offset 3: false",
        "{seconds}초 동안 함께 처리, b는 offset 3을 처리하지 않음",
    ),
    m(
        "b assigned at {b_at}, a done at {done_at}, a {gave_up} at {lost_at}",
        "b가 [0]을 받음 {b_at}, a가 offset 3을 끝냄 {done_at}, a의 {gave_up} {lost_at}",
    ),
    m(
        "b assigned at {b_at}, a done at {done_at}, a {gave_up} at {lost_at}, a assigned [0] again at {again_at}",
        "b가 [0]을 받음 {b_at}, a가 offset 3을 끝냄 {done_at}, a의 {gave_up} {lost_at}, a가 다시 [0]을 받음 {again_at}",
    ),
    m(
        "no commit",
        "commit 기록 없음",
    ),
    m(
        "neither",
        "lost도 revoked도 없음",
    ),
    m(
        "p{p}=none",
        "p{p}: commit 없음",
    ),
    // Lab 3.
    m("all 3000 messages processed", "메시지 3000개 모두 처리됨"),
    m("c was assigned partitions", "c가 파티션을 받음"),
    m(
        "only the partitions that moved to c were revoked",
        "c로 옮겨 간 파티션만 반납됨",
    ),
    m("every partition was revoked", "모든 파티션이 반납됨"),
    m(
        "duplicates on more partitions than the ones that moved",
        "옮겨 간 파티션보다 많은 파티션에서 중복",
    ),
    m(
        "duplicates on the moved partitions only, and on at least one",
        "중복은 옮겨 간 파티션에서만, 적어도 한 곳에서",
    ),
    m(
        "{count} duplicates on all {n} partitions",
        "파티션 {n}개 모두에서 중복 {count}건",
    ),
    m(
        "{count} duplicates on the {n} moved partitions",
        "옮겨 간 파티션 {n}개에서 중복 {count}건",
    ),
    m("not measured (0 expected)", "측정하지 않음 (0건 예상)"),
    m(
        "revoked {revoked} partition(s), {moved} moved",
        "파티션 {revoked}개 반납, {moved}개 이동",
    ),
    m(
        "c assigned {list}",
        "c가 받은 파티션 {list}",
    ),
    m(
        "revoked {revoked_list}, moved {moved_list}",
        "반납 {revoked_list}, 이동 {moved_list}",
    ),
    m(
        "revoked {list}",
        "반납 {list}",
    ),
    m(
        "duplicates on {dup_list}, moved {moved_list}",
        "중복 {dup_list}, 이동 {moved_list}",
    ),
    // Lab 4.
    m(
        "a owned partitions again within the session timeout (10 s) of its stop",
        "a가 멈춘 뒤 session.timeout.ms(10초) 안에 다시 파티션을 맡음",
    ),
    m("b revoked nothing", "b가 아무것도 반납하지 않음"),
    m("a got its previous partitions back", "a가 전에 맡던 파티션을 그대로 다시 받음"),
    m("b revoked twice", "b가 두 번 반납함"),
    m("a got partitions again", "a가 다시 파티션을 받음"),
    m("a got no partitions after its restart", "a가 재시작 뒤 파티션을 받지 못함"),
    m("{count} revoke(s)", "반납 {count}번"),
    m("{count} revokes", "반납 {count}번"),
    m(
        "partitions back {seconds} s after start",
        "시작 {seconds}초 만에 파티션을 다시 받음",
    ),
    m("the other consumer revoked twice", "다른 컨슈머가 두 번 반납"),
    m("b revoked {count} time(s)", "b가 {count}번 반납"),
    m(
        "a's partitions back never after start",
        "a가 파티션을 다시 받지 못함",
    ),
    m(
        "a's partitions back {seconds} s after start",
        "a가 시작 {seconds}초 만에 파티션을 다시 받음",
    ),
    m(
        "{seconds} s after its stop",
        "멈춘 지 {seconds}초 뒤",
    ),
    m(
        "before {before_list}, after {after_list}",
        "재시작 전 {before_list}, 재시작 뒤 {after_list}",
    ),
    // Lab 5.
    m(
        "classic: a revoked every partition when b joined",
        "classic: b가 들어올 때 a가 모든 파티션을 반납함",
    ),
    m(
        "consumer: a revoked only the partition that moved",
        "consumer: a가 옮겨 가는 파티션만 반납함",
    ),
    m("classic: see labs 1 and 2", "classic: 실습 1, 2와 같음"),
    m("not in the article", "글에 없음"),
    m("{text}, a revoked nothing", "{text}, a는 아무것도 반납하지 않음"),
    m("{text}, a revoked {list}", "{text}, a가 {list} 반납"),
    m("lab {lab}: {text}", "실습 {lab}: {text}"),
    // Lab 6.
    m(
        "every one of the {count} messages has its effect (nothing lost)",
        "메시지 {count}개가 모두 반영됨 (잃은 것 없음)",
    ),
    m(
        "effects repeat where processing does: as many duplicate rows as duplicate processings, more than 0",
        "처리가 되풀이된 만큼 반영도 되풀이됨: 중복 행 수가 중복 처리 수와 같고 0보다 큼",
    ),
    m("no message's effect twice", "두 번 반영된 메시지 없음"),
    m(
        "every second processing logged as already applied",
        "두 번째 처리는 모두 already applied로 로그에 남음",
    ),
    m(
        "offset 3 processed twice, and a's late processing of it logged as already applied",
        "offset 3을 두 번 처리했고, a의 늦은 처리는 already applied로 로그에 남음",
    ),
    m(
        "nothing processed twice: b starts where a's last transaction left each partition, not at a's last Kafka commit",
        "두 번 처리한 것 없음: b는 파티션마다 a의 마지막 Kafka commit이 아니라 a의 마지막 트랜잭션이 남긴 위치에서 시작함",
    ),
    m(
        "a's late transaction of offset 3 refused and rolled back",
        "offset 3을 담은 a의 늦은 트랜잭션이 거부되고 롤백됨",
    ),
    m(
        "the read_committed output holds each input message once",
        "read_committed로 읽은 출력에 입력 메시지가 하나씩 한 번만 있음",
    ),
    m(
        "a's transaction with its late offset 3 fenced or aborted, and logged",
        "늦은 offset 3을 담은 a의 트랜잭션이 펜싱되거나 중단되었고, 로그에 남음",
    ),
    m(
        "make the processing itself idempotent (not shown)",
        "처리 자체를 멱등하게 (글에 코드는 없음)",
    ),
    m("processing: {text}", "처리: {text}"),
    m("effects: {text}", "반영: {text}"),
    m("{count} duplicate rows", "중복 행 {count}개"),
    m("{count} duplicate processings", "중복 처리 {count}번"),
    m("{count} duplicate output messages", "중복 출력 메시지 {count}개"),
    m(
        "{count} distinct messages in the database",
        "데이터베이스에 서로 다른 메시지 {count}개",
    ),
    m(
        "{count} distinct messages in the output topic",
        "출력 토픽에 서로 다른 메시지 {count}개",
    ),
    m(
        "{count} duplicate processings, {n} duplicate rows",
        "중복 처리 {count}번, 중복 행 {n}개",
    ),
    m(
        "{count} already applied lines, {n} duplicate processings",
        "already applied 줄 {count}개, 중복 처리 {n}번",
    ),
    m(
        "a's offset 3 already applied: true",
        "a의 offset 3은 already applied로 남음",
    ),
    m(
        "a's offset 3 already applied: false",
        "a의 offset 3에 already applied 없음",
    ),
    m(
        "a's offset 3 refused: true",
        "a의 offset 3은 거부됨",
    ),
    m(
        "a's offset 3 refused: false",
        "a의 offset 3은 거부되지 않음",
    ),
    m(
        "a: transaction aborted: {why}",
        "a의 로그: transaction aborted: {why}",
    ),
    m(
        "a aborted no transaction",
        "a가 중단한 트랜잭션 없음",
    ),
    // Lab 7.
    m(
        "nothing lost: every message the broker acknowledged was processed",
        "잃은 것 없음: 브로커가 확인한 메시지는 모두 처리됨",
    ),
    m(
        "every message the broker acknowledged has its effect in the store",
        "브로커가 확인한 메시지마다 저장소에 반영이 있음",
    ),
    m(
        "within one assignment a worker's offsets of a partition only go up",
        "한 번의 할당 안에서 워커가 처리하는 파티션의 offset은 올라가기만 함",
    ),
    m(
        "every worker processed only partitions it held: assigned adds, revoked and lost remove, a restart clears",
        "모든 워커가 자기가 가진 파티션만 처리함 (assigned는 더하고, revoked와 lost는 빼고, 재시작하면 비움)",
    ),
    m(
        "nothing lost: every message the broker acknowledged was processed, as the logs say or the store that holds the offsets with the effects",
        "잃은 것 없음: 브로커가 확인한 메시지는 모두 처리됨 (로그가 말하거나, 반영과 offset을 함께 가진 저장소가 말함)",
    ),
    m(
        "no worker processed a message below an offset the group had committed before its assignment began",
        "어느 워커도 자기 할당이 시작되기 전에 그룹이 commit한 offset보다 아래의 메시지를 처리하지 않음",
    ),
    m(
        "no worker committed past what it had processed",
        "어느 워커도 처리한 것을 넘어서 commit하지 않음",
    ),
    m(
        "the group's committed offsets never moved backwards",
        "그룹의 commit offset이 한 번도 뒤로 가지 않음",
    ),
    m(
        "after the final stop each partition's position in the database, where its next owner starts, is the one after its last processed",
        "마지막 정지 뒤 데이터베이스에 있는 각 파티션의 위치(다음 담당자가 시작하는 곳)가 마지막으로 처리된 offset의 다음",
    ),
    m(
        "after the final stop each partition's committed offset is the one after its last processed, for librdkafka and for Kafka's own tool",
        "마지막 정지 뒤 각 파티션의 commit offset이 마지막으로 처리된 offset의 다음: librdkafka에서도 Kafka 자체 도구에서도",
    ),
    m(
        "every duplicate is explained by a fault, within that fault's bound",
        "모든 중복이 장애 하나로 설명되고, 그 장애의 한도 안에 있음",
    ),
    m(
        "every worker that exited on its own failed on its store, broken by a fault near",
        "스스로 끝난 워커는 모두 가까운 장애로 망가진 저장소에서 실패함",
    ),
    m("no effect is in the store twice", "저장소에 두 번 들어간 반영 없음"),
    m(
        "not in the article (one broker, clean rebalances)",
        "글에 없음 (브로커 하나, 깨끗한 리밸런스)",
    ),
    m("{count} faults ({kinds})", "장애 {count}번 ({kinds})"),
    m(
        "{acknowledged} acknowledged, {lost} lost",
        "확인 {acknowledged}건, 유실 {lost}건",
    ),
    m(
        "{count} samples read while the trial ran",
        "시험 중 읽은 표본 {count}개",
    ),
    // Lab 8: share groups, the article's words (commit, offset, acknowledgement, delivery
    // count stay in Latin letters, as the logs write them).
    m(
        "lab 1: 82 duplicates on p1 (400..481)",
        "실습 1: p1에서 중복 82건 (400..481)",
    ),
    m(
        "lab 2: offset 3 twice, 1.6 s together in it",
        "실습 2: offset 3을 두 번, 1.6초 동안 함께 처리",
    ),
    m(
        "a consumer group retries it forever",
        "컨슈머 그룹이라면 끝없이 다시 시도함",
    ),
    m("all {count} records processed", "레코드 {count}개 모두 처리됨"),
    m("no record processed twice", "두 번 처리된 레코드 없음"),
    m(
        "every record accepted, the acceptance committed once",
        "모든 레코드가 accept되었고, 그 acknowledgement는 한 번만 commit됨",
    ),
    m(
        "{accepted} accepted of {want}, {missing} never committed, {twice} committed twice",
        "{want}개 중 {accepted}개 accept, commit되지 않음 {missing}개, 두 번 commit {twice}개",
    ),
    m(
        "b took records of a partition a was reading, with no hand-over",
        "반납 없이 b가 a가 읽던 파티션의 레코드를 가져감",
    ),
    m("b read {partitions}", "b가 읽은 파티션 {partitions}"),
    m("b read nothing", "b가 읽은 파티션 없음"),
    m(
        "a read {partitions} before b started",
        "b가 시작하기 전 a가 읽은 파티션 {partitions}",
    ),
    m("a read nothing before b started", "b가 시작하기 전 a가 읽은 파티션 없음"),
    m("{revokes} revokes", "revoke {revokes}번"),
    m("b took {count} of 1000", "b가 1000개 중 {count}개를 가져감"),
    m(
        "a was killed holding records it had not got acknowledged",
        "a가 acknowledgement를 commit하지 못한 레코드를 쥔 채 강제 종료됨",
    ),
    m("a held {records}", "a가 쥐고 있던 레코드 {records}"),
    m(
        "exactly those records came again, to b, with delivery count 2",
        "바로 그 레코드들이 delivery count 2로 b에게 다시 옴",
    ),
    m("delivered again: {records}", "다시 전달됨: {records}"),
    m("to {who}", "받은 구성원: {who}"),
    m(
        "duplicates only where a processed a record and died before its acknowledgement was committed",
        "중복은 a가 처리했지만 acknowledgement를 commit하기 전에 죽은 레코드에서만",
    ),
    m("twice: {records}", "두 번: {records}"),
    m("a processed and held: {records}", "a가 처리했고 쥐고 있던 것: {records}"),
    m(
        "{count} records back {seconds} s after a's last line",
        "a의 마지막 줄 {seconds}초 뒤 레코드 {count}개가 돌아옴",
    ),
    m(
        "b received offset 3 with delivery count 2 while a was still in it",
        "a가 아직 처리하는 동안 b가 offset 3을 delivery count 2로 받음",
    ),
    m(
        "a in offset 3 from {from_at} to {to_at}",
        "a가 offset 3을 처리한 때 {from_at}부터 {to_at}까지",
    ),
    m(
        "b acquired it at {b_at} (delivery {count})",
        "b가 받은 때 {b_at} (delivery {count})",
    ),
    m("b never acquired it", "b는 받지 못함"),
    m(
        "a's late acknowledgement of offset 3 was answered, and its log says how",
        "a가 늦게 보낸 offset 3의 acknowledgement에 브로커가 답했고, 그 답이 a의 로그에 있음",
    ),
    m(
        "a's late acknowledgement: committed, no error",
        "a의 늦은 acknowledgement: 오류 없이 commit됨",
    ),
    m(
        "a's late acknowledgement: failed with {code}",
        "a의 늦은 acknowledgement: {code}로 실패",
    ),
    m(
        "a's late acknowledgement: unanswered",
        "a의 늦은 acknowledgement: 답 없음",
    ),
    m(
        "duplicates exactly the records delivered again, offset 3 among them",
        "중복은 다시 전달된 레코드와 정확히 같고, offset 3도 그 안에 있음",
    ),
    m(
        "offset {offset}, released each time, delivered {n} times (the limit), then no more",
        "offset {offset}은 매번 release되어 {n}번(한도) 전달되고, 그 뒤로는 오지 않음",
    ),
    m(
        "offset {offset}, rejected, delivered once",
        "offset {offset}은 reject되어 한 번만 전달됨",
    ),
    m("deliveries {list}", "전달 {list}"),
    m("acknowledged: {kinds}", "acknowledgement 종류: {kinds}"),
    m("never acknowledged", "acknowledgement 없음"),
    m(
        "offset {offset} delivered {count} times",
        "offset {offset}은 {count}번 전달됨",
    ),
    m("offset {offset} delivered once", "offset {offset}은 한 번 전달됨"),
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
    m(
        "{seconds} s",
        "{seconds}초",
    ),
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
    use crate::Verdict;
    use krb_cli::lang::table_problems;

    #[test]
    fn every_message_has_its_korean_text_with_the_same_placeholders() {
        let mut problems = table_problems(TEXTS);
        problems.extend(table_problems(FRAME));
        assert!(problems.is_empty(), "{problems:#?}");
    }

    /// The statements a lab's source checks, as it writes them.
    fn statements(source: &str) -> Vec<String> {
        let statement = regex::Regex::new(
            r#"\.check\(\s*(?:&format!\(\s*)?"((?:[^"\\]|\\.)*)"|\(\s*"(after the final stop[^"]*)""#,
        )
        .unwrap();
        let code = source.split("#[cfg(test)]").next().unwrap();
        statement
            .captures_iter(code)
            .map(|found| {
                let text = found.get(1).or(found.get(2)).unwrap().as_str();
                // `{messages}` is filled with a number before the statement is recorded, and so
                // are lab 8's.
                text.replace("{messages}", "1000")
                    .replace("{n}", "10")
                    .replace("{RELEASE_AT}", "3")
                    .replace("{REJECT_AT}", "6")
                    .replace("{limit}", "3")
            })
            .collect()
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
            include_str!("share.rs"),
        ];
        let catalogue = Catalogue::new(TEXTS);
        let mut seen = 0;
        for source in sources {
            for text in statements(source) {
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

    /// Latin words a Korean verdict may hold: the glossary's terms (docs/ko/glossary.md), the
    /// names of the article's settings and librdkafka's errors, and the words of the log's
    /// own lines that statements quote (`slow start`, `already applied`, `revoked [0]`).
    const LATIN: &[&str] = &[
        "commit",
        "offset",
        "on_revoke",
        "on_lost",
        "classic",
        "consumer",
        "MAXPOLL",
        "slow",
        "start",
        "revoked",
        "assigned",
        "lost",
        "already",
        "applied",
        "librdkafka",
        "Kafka",
        "poll",
        "UNKNOWN_MEMBER_ID",
        "_MAX_POLL_EXCEEDED",
        "read_committed",
        "commit-every",
        "session.timeout.ms",
        "transaction",
        "aborted",
        "a",
        "b",
        "c",
    ];

    /// The part of a detail that is the log's or krb-dups' own text, shown as the article
    /// shows it: a worker event (`commit failed: KafkaError{...}`, after `a: ` too) or
    /// krb-dups' lines.
    fn article_text(detail: &str) -> Option<&str> {
        let event = |t: &str| matches!(krb_log::logline::Event::parse(t), Ok(Some(_)));
        let quoted = detail.strip_prefix("a: ").unwrap_or(detail);
        (event(quoted) || detail.starts_with("processed ")).then_some(quoted)
    }

    /// The English words left in `line`, a Korean verdict's line, outside [`LATIN`] and the
    /// partition names (`p0`).
    fn english_left(line: &str) -> Vec<String> {
        let word = regex::Regex::new(r"_?[A-Za-z][A-Za-z0-9_.\-]*[A-Za-z0-9_]|[A-Za-z]").unwrap();
        let partition = regex::Regex::new(r"^p\d+$").unwrap();
        word.find_iter(line)
            .map(|w| w.as_str())
            .filter(|w| !LATIN.contains(w) && !partition.is_match(w))
            .map(String::from)
            .collect()
    }

    /// Every detail form each lab's checks write (the `format!`s of revoke.rs, maxpoll.rs,
    /// assignor.rs, static_lab.rs, protocol.rs, idempotent.rs and of facts.rs' summary), with
    /// each of its cases: none, false, an empty list.
    const DETAILS: &[(&str, &[&str])] = &[
        (
            include_str!("revoke.rs"),
            &[
                "unique 1000",
                "unique 998",
                "a revoked [0, 1]",
                "a logged no revoke after b started and before its stop",
                "revoked [0, 1], reassigned: true",
                "revoked [1], reassigned: false",
                "no revoke, reassigned: false",
                "b assigned [1]",
                "b assigned []",
                "0 duplicates",
                "1 duplicates",
                "commit p1=265, a's last offset 264",
                "commit p1=none, a's last offset none",
                "b's first offset on p1: 265",
                "b's first offset on p1: none",
                "runs p1 200..275; a's last commit p1=200, last offset 275",
                "runs p1 200..275, p0 3..5; a's last commit p1=200, last offset 275",
                "runs none; a's last commit p1=0, last offset none",
                "b's first offset on p1: 200, a's last commit 200",
                "b's first offset on p1: none, a's last commit 0",
            ],
        ),
        (
            include_str!("maxpoll.rs"),
            &[
                "10.36 s",
                "none",
                "together for 1.62 s, b processed offset 3: true",
                "together for 0.40 s, b processed offset 3: false",
                "b assigned at 09:14:49.521, a done at 09:14:51.679, a lost [0] at 09:14:51.682",
                "b assigned at none, a done at 13:46:35.871, a lost [0] at 13:46:35.876, a assigned [0] again at 13:46:35.885",
                "b assigned at none, a done at none, a lost [0] at none",
                "b assigned at 21:21:01.032, a done at 21:21:02.251, a revoked [0] at 21:21:02.260",
                "commit failed: KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str=\"Commit failed: Broker: Unknown member\"}",
                "commit p0=4",
                "no commit",
                "lost [0]",
                "revoked [0]",
                "neither",
                "poll error: KafkaError{code=_MAX_POLL_EXCEEDED,val=-147,str=\"Application maximum poll interval (10000ms) exceeded by 356ms\"}",
                "processed 11, unique 10, duplicates 1;  p0: offset 3 (1) processed twice",
                "p0=10",
                "p0=none",
                "none",
                "[1, 2, 3, 4, 7, 4, 10]",
                "[]",
            ],
        ),
        (
            include_str!("assignor.rs"),
            &[
                "unique 3000",
                "c assigned [4, 5]",
                "c assigned []",
                "revoked [0, 3], moved [0, 3]",
                "revoked [], moved []",
                "revoked [0, 1, 2, 3, 4, 5]",
                "duplicates on [0, 1, 2, 3, 4, 5], moved [4, 5]",
                "duplicates on [], moved [0, 3]",
                "12 duplicates",
            ],
        ),
        (
            include_str!("static_lab.rs"),
            &[
                "3.15 s after its stop",
                "a got no partitions after its restart",
                "0 revoke(s)",
                "2 revoke(s)",
                "before [0, 1], after [0, 1]",
                "before none, after none",
                "[0, 1]",
                "none",
            ],
        ),
        (
            include_str!("protocol.rs"),
            &["revoked [0, 1]", "revoked [1]", "none"],
        ),
        (
            include_str!("idempotent.rs"),
            &[
                "1000 distinct messages in the database",
                "998 distinct messages in the output topic",
                "3 duplicate processings, 3 duplicate rows",
                "0 duplicate rows",
                "1 already applied lines, 1 duplicate processings",
                "1 duplicate processings; a's offset 3 already applied: true",
                "0 duplicate processings; a's offset 3 already applied: false",
                "0 duplicate processings",
                "a's offset 3 refused: true",
                "a's offset 3 refused: false",
                "0 duplicate output messages",
                "a: transaction aborted: Broker: Producer attempted an operation with an old epoch",
                "a aborted no transaction",
                "p0=10",
            ],
        ),
    ];

    /// What `ours` and the article's number can be, lab by lab (facts.rs' summary in each).
    const NUMBERS: &[&str] = &[
        "82 duplicates on p1 (400..481)",
        "0 duplicates",
        "no duplicates",
        "1 duplicate on p0",
        "84 duplicates on p1; b's first message 1.82 s after its start",
        "MAXPOLL 10.4 s after the slow start; 1.6 s together in offset 3; offset 3 twice",
        "MAXPOLL 10.1 s after the slow start; never together in offset 3; 1 duplicate on p0",
        "no MAXPOLL after the slow start; never together in offset 3; no duplicates",
        "67 duplicates on all 6 partitions",
        "24 duplicates on the 2 moved partitions",
        "not measured (0 expected)",
        "89 duplicates on p0, p1, p2, p3, p4, p5; revoked 6 partition(s), 2 moved",
        "0 revokes; partitions back 0.14 s after start",
        "the other consumer revoked twice",
        "b revoked 2 time(s); a's partitions back 0.16 s after start",
        "b revoked 0 time(s); a's partitions back never after start",
        "classic: see labs 1 and 2",
        "not in the article",
        "lab 1: 62 duplicates on p1; b's first message 5.37 s after its start, a revoked [1]; lab 2: MAXPOLL 10.1 s after the slow start; never together in offset 3; no duplicates",
        "lab 1: no duplicates, a revoked nothing; lab 2: no MAXPOLL after the slow start; 2.2 s together in offset 3; 1 duplicate on p0",
        "make the processing itself idempotent (not shown)",
        "processing: 1 duplicate on p0; effects: no duplicates",
    ];

    /// Every statement of each lab with every detail form its checks write, and every `ours`,
    /// rendered in Korean: nothing English is left but the Latin terms and the article's own
    /// text, and no placeholder took a whole detail (it would leave its English in).
    #[test]
    fn every_korean_verdict_line_is_korean() {
        let mut left = Vec::new();
        for (source, details) in DETAILS {
            let statements = statements(source);
            assert!(!statements.is_empty());
            for detail in *details {
                let mut v = Verdict::new(1, "revoke", "nocommit", "g", NUMBERS[0]);
                for statement in &statements {
                    v.check(statement, true, *detail);
                    v.check(statement, false, *detail);
                }
                let lines = v.render_in(Lang::Ko);
                for line in lines.lines().skip(3) {
                    let shown = match article_text(detail) {
                        Some(quoted) => line.replace(quoted, ""),
                        None => line.to_string(),
                    };
                    let words = english_left(&shown);
                    if !words.is_empty() {
                        left.push(format!("{line}: {words:?}"));
                    }
                }
            }
        }
        for number in NUMBERS {
            let ko = translate(Lang::Ko, number);
            let words = english_left(&ko);
            if !words.is_empty() {
                left.push(format!("{number} -> {ko}: {words:?}"));
            }
        }
        assert!(left.is_empty(), "{left:#?}");
    }

    #[test]
    fn an_english_word_left_is_found() {
        assert_eq!(
            english_left("b가 p1에서 처음 처리한 offset 200"),
            Vec::<String>::new()
        );
        assert_eq!(
            english_left("중복 처리 1 already applied lines, 1번"),
            ["lines"]
        );
        assert_eq!(
            english_left("(b's first offset on p1: 200)"),
            ["s", "first", "on"]
        );
        assert_eq!(article_text("lost [0]"), Some("lost [0]"));
        assert_eq!(article_text("a: lost [0]"), Some("lost [0]"));
        assert_eq!(article_text("a lost nothing"), None);
    }
}
