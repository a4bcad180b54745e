//! The report page's own words, in English and Korean: its title, the run's line, and for each
//! lab a heading and what happened and what to look at, for a room in front of a projector.

use krb_cli::lang::Msg;

krb_cli::msgs! { ;
    PAGE_TITLE = "krb: the article versus ours", "krb: 글의 결과와 실측";
    NAMESPACE = "namespace {ns}", "namespace 이름 {ns}";
    TOOK = "{duration} of labs", "실습 시간 {duration}";
    SUMMARY = "{held} of {all} variants held every statement.",
        "변형 {all}개 중 {held}개에서 모든 판정 항목이 성립했어요.";
    TIME = "time", "시간";
}

/// Lab `lab`'s heading, and what happened in it and what to look at.
pub fn lab_text(lab: u8) -> (Msg, Msg) {
    LABS[usize::from(lab.clamp(1, 9)) - 1]
}

// Labs 1 to 8, then one for a lab this page does not know.
krb_cli::msgs! { ;
    LAB1 = "Lab 1: no commit in on_revoke", "실습 1: on_revoke에서 commit하지 않으면 중복이 생깁니다";
    LAB1_TEXT =
        "Consumer a reads topic pay alone; b joins part-way and the group rebalances. \
        Without a commit in on_revoke, b starts the partition that moved at \
        a's last commit, so what a processed after that commit is processed twice. \
        Look at the red-ringed dots on the moved partition, and at a's revoked line \
        beside b's assigned line. With --revoke-commit, a commits before it hands the \
        partition over, and nothing is processed twice.",
        "컨슈머 a가 pay 토픽을 혼자 처리하는 도중에 b가 들어와 리밸런스가 일어나요. \
        on_revoke에서 commit하지 않으면 b는 옮겨 간 파티션을 a의 마지막 commit부터 \
        읽으므로, a가 그 commit 뒤에 처리한 메시지는 두 번 처리됩니다. 옮겨 간 파티션의 \
        빨간 테두리 점과, a의 revoked 표시 옆 b의 assigned 표시를 보세요. \
        --revoke-commit이면 a가 반납 직전에 commit하므로 중복은 0건입니다.";
    LAB2 = "Lab 2: a slow consumer is expelled", "실습 2: 처리가 느린 컨슈머는 그룹에서 쫓겨납니다";
    LAB2_TEXT =
        "Consumer a spends 15 s on offset 3, longer than max.poll.interval.ms (10 s). \
        librdkafka's MAXPOLL warning takes a out of the group; b is assigned the \
        partition and processes offset 3 while a is still in it. Look at the red bar \
        where both are in offset 3, then at a's failed commit (UNKNOWN_MEMBER_ID) and \
        its lost [0]. The failed commit protects the group: a cannot move the \
        committed offset back.",
        "a는 offset 3에서 15초가 걸려 max.poll.interval.ms(10초)를 넘깁니다. \
        librdkafka의 MAXPOLL 경고와 함께 a가 그룹을 떠나고, 대기하던 b가 파티션을 받아 \
        a가 아직 처리 중인 offset 3을 처리해요. 둘이 offset 3을 함께 처리하는 빨간 \
        막대를 보고, 이어서 UNKNOWN_MEMBER_ID로 실패한 a의 commit과 lost [0]을 보세요. \
        commit이 실패하기 때문에 a가 그룹에 저장된 위치를 뒤로 돌리지 못합니다.";
    LAB3 = "Lab 3: eager versus cooperative assignment", "실습 3: eager 할당과 cooperative 할당";
    LAB3_TEXT =
        "Three consumers share six partitions; c joins while a and b are busy. The \
        eager range assignor takes every partition back from everyone, so duplicates \
        land on partitions that never moved; cooperative-sticky takes back only the \
        partitions that move to c. Compare the revoked marks and where the red rings \
        fall in the two pictures. With --revoke-commit neither has duplicates.",
        "컨슈머 셋이 파티션 6개를 나눠 처리하고, a와 b가 처리하는 도중에 c가 들어와요. \
        eager 할당인 range는 리밸런스마다 모든 구성원이 모든 파티션을 반납하므로 옮겨 \
        가지 않은 파티션에도 중복이 생기고, cooperative-sticky는 c로 옮겨 가는 파티션만 \
        반납합니다. 두 그림에서 revoked 표시와 빨간 테두리가 찍힌 곳을 비교해 보세요. \
        --revoke-commit이면 어느 쪽도 중복이 0건입니다.";
    LAB4 = "Lab 4: restarting with and without static membership",
        "실습 4: static membership 없이, 그리고 static membership으로 재시작하기";
    LAB4_TEXT =
        "Consumer a is restarted, as a rolling deploy does. With dynamic membership its \
        leave and its return are two rebalances, and b revokes twice. With static \
        membership (group.instance.id) a returns as the same member within the session \
        timeout: no rebalance, b revokes nothing, and a gets its own partitions back. \
        Look at b's lane: revoked marks in one picture, none in the other.",
        "배포할 때처럼 컨슈머 a를 재시작합니다. group.instance.id가 없으면 a가 떠날 때와 \
        돌아올 때 리밸런스가 두 번 일어나 b가 파티션을 두 번 반납해요. \
        group.instance.id를 준 static member는 세션 타임아웃 안에 같은 구성원으로 \
        돌아오므로 리밸런스가 없고, b는 아무것도 반납하지 않으며, a는 원래 파티션을 \
        다시 받습니다. b의 레인을 보세요: 한 그림에는 revoked 표시가 있고 다른 그림에는 없어요.";
    LAB5 = "Lab 5: the KIP-848 consumer protocol", "실습 5: KIP-848 consumer 프로토콜";
    LAB5_TEXT =
        "Labs 1 and 2 again, under the classic group protocol and under KIP-848's \
        consumer protocol, where the broker computes the assignment. Under consumer, a \
        revokes only the partition that moves. Lab 1's duplicates and lab 2's \
        expulsion happen under both: the protocol changes who decides the assignment, \
        not what a missing commit costs. Each variant has two pictures, lab 1's and \
        lab 2's.",
        "실습 1과 2를 classic 프로토콜과, 브로커가 할당을 정하는 KIP-848 consumer \
        프로토콜에서 다시 돌립니다. consumer에서는 a가 옮겨 가는 파티션만 반납해요. \
        실습 1의 중복과 실습 2의 추방은 두 프로토콜 모두에서 일어납니다: 프로토콜이 \
        바꾸는 것은 할당을 누가 정하는지이고, commit이 빠졌을 때 생기는 중복은 그대로예요. \
        변형마다 그림이 둘입니다: 실습 1의 그림과 실습 2의 그림.";
    LAB6 = "Lab 6: make the processing itself idempotent", "실습 6: 처리 자체를 멱등으로";
    LAB6_TEXT =
        "Labs 1 and 2 with an effect written for each message: plain (an insert), \
        idempotent (an insert that skips a message already applied), db-offsets (the \
        effect and the partition's position in one database transaction) and \
        kafka-eos (the output and the offsets in one Kafka transaction). Processing may \
        still repeat; what matters is whether the effect does. Compare the effects' \
        count with the processings' count in each variant's statements: only plain \
        writes an effect twice.",
        "메시지마다 반영을 남기면서 실습 1과 2를 돌립니다: plain(그냥 insert), \
        idempotent(이미 반영된 메시지는 건너뛰는 insert), db-offsets(반영과 파티션 위치를 \
        데이터베이스 트랜잭션 하나로), kafka-eos(출력과 offset을 Kafka 트랜잭션 하나로). \
        처리는 여전히 두 번 일어날 수 있고, 중요한 것은 반영도 두 번 남느냐예요. \
        변형마다 판정 항목에서 반영 수와 처리 수를 비교해 보세요: 반영을 두 번 남기는 것은 \
        plain뿐입니다.";
    LAB7 = "Lab 7: fault trials on a three-node cluster", "실습 7: 브로커 세 대에서 장애 시험";
    LAB7_TEXT =
        "Seeded fault trials: workers are killed, paused, stopped and restarted while \
        brokers, the group coordinator and partition leaders are killed. Nothing the \
        broker acknowledged may be lost, committed work may never be redone, and every \
        duplicate must be explained by a fault, within that fault's bound. Read the \
        statements first: one that failed names the message and the fault.",
        "seed로 정한 장애를 겁니다: 워커를 kill하고, 일시 정지하고, 정지하고, 다시 띄우는 동안 \
        브로커와 그룹 코디네이터와 파티션 리더도 죽입니다. 브로커가 확인한 메시지는 \
        하나도 잃으면 안 되고, commit된 작업은 다시 하면 안 되며, 모든 중복은 장애 \
        하나로, 그 장애의 한도 안에서 설명되어야 합니다. 판정 항목부터 읽으세요: 실패한 \
        판정 항목은 메시지와 장애를 짚어 줍니다.";
    LAB8 = "Lab 8: a share group (KIP-932)", "실습 8: share 그룹 (KIP-932)";
    LAB8_TEXT =
        "Labs 1 and 2 again, in a share group: members read the same partitions \
        together, and the broker lends each record to one member under a lock until \
        it is acknowledged. With no partition handed over, b's join repeats nothing. \
        What comes again is what a member held and never got acknowledged: a killed \
        member's records, and a record kept past its lock, with its delivery count up. \
        A record that fails every time is archived after its delivery count limit.",
        "실습 1과 2를 share 그룹에서 다시 돌립니다: 구성원들이 같은 파티션을 함께 \
        읽고, 브로커는 레코드를 acknowledgement가 올 때까지 잠금을 걸어 한 구성원에게 \
        빌려줍니다. 반납하는 파티션이 없으니 b가 합류해도 되풀이되는 것이 없습니다. \
        다시 오는 것은 구성원이 쥐고 있다가 acknowledgement를 받지 못한 레코드입니다: \
        죽은 구성원의 레코드, 잠금이 끝난 뒤까지 붙들고 있던 레코드가 delivery count를 \
        올린 채 다시 옵니다. 매번 실패하는 레코드는 delivery count 한도를 넘으면 \
        보관(archive)되어 더는 오지 않습니다.";
    OTHER_LAB = "Another lab", "다른 실습";
    OTHER_LAB_TEXT = "This page does not know this lab; its statements follow.",
        "이 페이지가 모르는 실습입니다. 판정 항목은 아래에 있습니다.";
}

const LABS: [(Msg, Msg); 9] = [
    (LAB1, LAB1_TEXT),
    (LAB2, LAB2_TEXT),
    (LAB3, LAB3_TEXT),
    (LAB4, LAB4_TEXT),
    (LAB5, LAB5_TEXT),
    (LAB6, LAB6_TEXT),
    (LAB7, LAB7_TEXT),
    (LAB8, LAB8_TEXT),
    (OTHER_LAB, OTHER_LAB_TEXT),
];

#[cfg(test)]
mod tests {
    use super::*;
    use krb_cli::lang::table_problems;

    #[test]
    fn every_text_of_the_page_has_its_korean_text() {
        let mut all = vec![PAGE_TITLE, NAMESPACE, TOOK, SUMMARY, TIME];
        for (heading, intro) in LABS {
            all.push(heading);
            all.push(intro);
        }
        let problems = table_problems(&all);
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn each_lab_says_what_happened_in_three_to_five_sentences() {
        for lab in 1..=8 {
            let (_, intro) = lab_text(lab);
            for text in [intro.en, intro.ko] {
                let sentences = text.matches(". ").count() + usize::from(text.ends_with('.'));
                assert!(
                    (3..=5).contains(&sentences),
                    "lab {lab}: {sentences}: {text}"
                );
            }
        }
        assert_eq!(lab_text(9).0.en, "Another lab");
    }
}
