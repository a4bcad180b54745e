//! Lab 6, 06-idempotent.sh: the article's last advice, shown working. The same scenarios as
//! labs 1 and 2, with an effect in a database: plain effects repeat exactly where processing
//! does; idempotent ones are there once however often a message is processed.

use std::path::Path;

use crate::Effect as Kind;
use anyhow::{bail, Result};
use krb_cli::lang::Lang;
use krb_dups::Report;
use krb_log::logline::{Event, Offset, Partition};

use crate::facts::{summary, Run};
use crate::messages::{both, parts, said, Message, Shared};
use crate::{maxpoll, Lab, Verdict};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scenario {
    /// Lab 1's: 1000 messages on 2 partitions, b joins, no on_revoke commit.
    Revoke,
    /// Lab 2's: the expelled slow consumer, 10 messages on 1 partition.
    Maxpoll,
}

said! {
    /// Lab 6's statements, details and numbers.
    pub enum Said {
        EveryEffect { messages: u64 } =>
            "every one of the {messages} messages has its effect (nothing lost)",
            "메시지 {messages}개가 모두 반영됨 (잃은 것 없음)";
        EffectsRepeat =>
            "effects repeat where processing does: as many duplicate rows as duplicate processings, more than 0",
            "처리가 되풀이된 만큼 반영도 되풀이됨: 중복 행 수가 중복 처리 수와 같고 0보다 큼";
        RowsAsProcessings =>
            "effects repeat where processing does: as many duplicate rows as duplicate processings",
            "처리가 되풀이된 만큼 반영도 되풀이됨: 중복 행 수가 중복 처리 수와 같음";
        NoEffectTwice => "no message's effect twice", "두 번 반영된 메시지 없음";
        SecondsAlreadyApplied => "every second processing logged as already applied",
            "두 번째 처리는 모두 already applied로 로그에 남음";
        LateAlreadyApplied =>
            "offset 3 processed twice, and a's late processing of it logged as already applied",
            "offset 3을 두 번 처리했고, a의 늦은 처리는 already applied로 로그에 남음";
        NothingTwice =>
            "nothing processed twice: b starts where a's last transaction left each partition, not at a's last Kafka commit",
            "두 번 처리한 것 없음: b는 파티션마다 a의 마지막 Kafka commit이 아니라 a의 마지막 트랜잭션이 남긴 위치에서 시작함";
        LateRefused => "a's late transaction of offset 3 refused and rolled back",
            "offset 3을 담은 a의 늦은 트랜잭션이 거부되고 롤백됨";
        OutputOnce => "the read_committed output holds each input message once",
            "read_committed로 읽은 출력에 입력 메시지가 하나씩 한 번만 있음";
        LateAborted => "a's transaction with its late offset 3 fenced or aborted, and logged",
            "늦은 offset 3을 담은 a의 트랜잭션이 펜싱되거나 중단되었고, 로그에 남음";
        Distinct { count: u64, output_topic: bool } => |lang| match output_topic {
            false => both!(
                lang,
                "{count} distinct messages in the database",
                "데이터베이스에 서로 다른 메시지 {count}개"
            ),
            true => both!(
                lang,
                "{count} distinct messages in the output topic",
                "출력 토픽에 서로 다른 메시지 {count}개"
            ),
        };
        ProcessingsRows { processings: u64, rows: u64 } =>
            "{processings} duplicate processings, {rows} duplicate rows",
            "중복 처리 {processings}번, 중복 행 {rows}개";
        Rows { count: u64 } => "{count} duplicate rows", "중복 행 {count}개";
        Processings { count: u64 } => "{count} duplicate processings", "중복 처리 {count}번";
        AlreadyLines { count: u64, processings: u64 } =>
            "{count} already applied lines, {processings} duplicate processings",
            "already applied 줄 {count}개, 중복 처리 {processings}번";
        LateApplied { logged: bool } => |lang| match (lang, logged) {
            (Lang::En, _) => format!("a's offset 3 already applied: {logged}"),
            (Lang::Ko, true) => "a의 offset 3은 already applied로 남음".into(),
            (Lang::Ko, false) => "a의 offset 3에 already applied 없음".into(),
        };
        Refused { refused: bool } => |lang| match (lang, refused) {
            (Lang::En, _) => format!("a's offset 3 refused: {refused}"),
            (Lang::Ko, true) => "a의 offset 3은 거부됨".into(),
            (Lang::Ko, false) => "a의 offset 3은 거부되지 않음".into(),
        };
        OutputDuplicates { count: u64 } => "{count} duplicate output messages",
            "중복 출력 메시지 {count}개";
        Aborted { why: String } => "a: transaction aborted: {why}",
            "a의 로그: transaction aborted: {why}";
        NoAbort => "a aborted no transaction", "a가 중단한 트랜잭션 없음";
        Idempotent => "make the processing itself idempotent (not shown)",
            "처리 자체를 멱등하게 (글에 코드는 없음)";
        Processing { text: Box<Message> } => "processing: {text}", "처리: {text}";
        Effects { text: Box<Message> } => "effects: {text}", "반영: {text}";
    }
}

/// Where 06-idempotent.sh keeps `kind`'s effects unless told: the SQLite file DIR/GROUP.db, or
/// for kafka-eos the topic GROUP-out.
pub fn default_store(kind: Kind, group: &str, dir: &Path) -> String {
    match kind {
        Kind::KafkaEos => format!("kafka:{group}-out"),
        _ => format!("sqlite:{}", dir.join(format!("{group}.db")).display()),
    }
}

/// Lab 6's verdict: `run` is the group's logs, `effects` what the database (or the output topic)
/// holds for its topic, `committed` the group's committed offsets read from the broker.
pub fn verdict(
    run: &Run,
    effects: &Report,
    committed: &[(Partition, Option<Offset>)],
    lab: Lab,
) -> Result<Verdict> {
    let Lab::Idempotent {
        effect: kind,
        scenario,
        ..
    } = lab
    else {
        bail!("lab 6's verdict is for lab 6, not {lab:?}");
    };
    let mut v = Verdict::of(lab, &run.group, Said::Idempotent);
    let processing = &run.report;
    let messages = match scenario {
        Scenario::Revoke => 1000,
        Scenario::Maxpoll => 10,
    };
    v.check(
        Said::EveryEffect { messages },
        effects.unique == messages,
        Said::Distinct {
            count: effects.unique,
            output_topic: kind == Kind::KafkaEos,
        },
    );
    let already: u64 = run
        .logs
        .iter()
        .flat_map(|l| &l.lines)
        .filter(|l| matches!(l.event, Event::AlreadyApplied { .. }))
        .map(|l| u64::from(l.times))
        .sum();
    // Duplicate processings, and duplicate rows (or output messages).
    let (dups, rows) = (processing.duplicates(), effects.duplicates());
    match kind {
        Kind::Plain | Kind::None => {
            // Lab 2's offset 3 is processed twice in every run. Lab 1's duplicates are 0 to 99:
            // none when a's last commit came just before its revoke.
            let (statement, made_one) = match scenario {
                Scenario::Maxpoll => (Said::EffectsRepeat, dups > 0),
                Scenario::Revoke => (Said::RowsAsProcessings, true),
            };
            v.check(
                statement,
                rows == dups && effects.runs == processing.runs && made_one,
                Said::ProcessingsRows {
                    processings: dups,
                    rows,
                },
            );
        }
        Kind::Idempotent | Kind::DbOffsets => {
            v.check(Said::NoEffectTwice, rows == 0, Said::Rows { count: rows });
            match (kind, scenario) {
                (Kind::Idempotent, _) => {
                    v.check(
                        Said::SecondsAlreadyApplied,
                        already == dups,
                        Said::AlreadyLines {
                            count: already,
                            processings: dups,
                        },
                    );
                    if scenario == Scenario::Maxpoll {
                        let late =
                            late_offset_3(run, |e| matches!(e, Event::AlreadyApplied { .. }))?;
                        v.check(
                            Said::LateAlreadyApplied,
                            dups > 0 && late,
                            parts![
                                Said::Processings { count: dups },
                                Said::LateApplied { logged: late },
                            ],
                        );
                    }
                }
                (_, Scenario::Revoke) => v.check(
                    Said::NothingTwice,
                    dups == 0,
                    Said::Processings { count: dups },
                ),
                (_, Scenario::Maxpoll) => {
                    let late = late_offset_3(run, |e| matches!(e, Event::Refused { .. }))?;
                    v.check(Said::LateRefused, late, Said::Refused { refused: late });
                }
            }
        }
        Kind::KafkaEos => {
            v.check(
                Said::OutputOnce,
                rows == 0,
                Said::OutputDuplicates { count: rows },
            );
            if scenario == Scenario::Maxpoll {
                let a = run.member("a")?;
                let aborted = a.lines.iter().find_map(|l| match &l.event {
                    Event::TxnAborted(why) => Some(why.clone()),
                    _ => None,
                });
                v.check(
                    Said::LateAborted,
                    aborted.is_some(),
                    aborted.map_or(Said::NoAbort, |why| Said::Aborted { why }),
                );
                v.check(
                    maxpoll::Said::FinalCommitted,
                    committed == [(0, Some(10))],
                    Shared::Committed {
                        offsets: committed.to_vec(),
                    },
                );
            }
        }
    }
    v.ours = parts![
        Said::Processing {
            text: Box::new(summary(processing).into()),
        },
        Said::Effects {
            text: Box::new(summary(effects).into()),
        },
    ];
    Ok(v)
}

/// Whether a's log has offset 3 of p0 with the event `kind` (lab 2's late processing).
fn late_offset_3(run: &Run, kind: impl Fn(&Event) -> bool) -> Result<bool> {
    let a = run.member("a")?;
    Ok(a.find(0, |e| kind(e) && e.completion() == Some((0, 3)))
        .is_some())
}
