//! Lab 6, 06-idempotent.sh: the article's last advice, shown working. The same scenarios as
//! labs 1 and 2, with an effect in a database: plain effects repeat exactly where processing
//! does; idempotent ones are there once however often a message is processed.

use std::path::Path;

use anyhow::{bail, Result};
use krb_dups::Report;
use krb_effect::Kind;
use krb_log::logline::Event;
use krb_log::logline::{Offset, Partition};

use crate::facts::{summary, Run};
use crate::{shown, Lab, Verdict};

/// The scenario lab 6 runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scenario {
    /// Lab 1's: 1000 messages on 2 partitions, b joins, no revoke commit.
    Revoke,
    /// Lab 2's: the expelled slow consumer, 10 messages on 1 partition.
    Maxpoll,
}

impl Scenario {
    /// How many messages the scenario processes.
    pub fn messages(self) -> u64 {
        match self {
            Scenario::Revoke => 1000,
            Scenario::Maxpoll => 10,
        }
    }
}

/// The article's sentence lab 6 shows working.
pub const ARTICLE: &str = "make the processing itself idempotent (not shown)";

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
    let (_, _, variant) = lab.names();
    let mut v = Verdict::new(6, "idempotent", &variant, &run.group, ARTICLE);
    let processing = &run.report;
    let messages = scenario.messages();
    v.check(
        &format!("every one of the {messages} messages has its effect (nothing lost)"),
        effects.unique == messages,
        format!(
            "{} distinct messages in the {}",
            effects.unique,
            if kind == Kind::KafkaEos {
                "output topic"
            } else {
                "database"
            }
        ),
    );
    let already: u64 = run
        .logs
        .iter()
        .flat_map(|l| &l.lines)
        .filter(|l| matches!(l.event, Event::AlreadyApplied { .. }))
        .count() as u64;
    match kind {
        Kind::Plain | Kind::None => {
            v.check(
                "effects repeat where processing does: as many duplicate rows as duplicate processings, more than 0",
                effects.duplicates() == processing.duplicates()
                    && effects.runs == processing.runs
                    && processing.duplicates() > 0,
                format!(
                    "{} duplicate processings, {} duplicate rows",
                    processing.duplicates(),
                    effects.duplicates()
                ),
            );
        }
        Kind::Idempotent => {
            v.check(
                "no message's effect twice",
                effects.duplicates() == 0,
                format!("{} duplicate rows", effects.duplicates()),
            );
            v.check(
                "every second processing logged as already applied",
                already == processing.duplicates(),
                format!(
                    "{already} already applied lines, {} duplicate processings",
                    processing.duplicates()
                ),
            );
            if scenario == Scenario::Maxpoll {
                let late = late_offset_3(run, |e| matches!(e, Event::AlreadyApplied { .. }))?;
                v.check(
                    "offset 3 processed twice, and a's late processing of it logged as already applied",
                    processing.duplicates() > 0 && late,
                    format!(
                        "{} duplicate processings; a's offset 3 already applied: {late}",
                        processing.duplicates()
                    ),
                );
            }
        }
        Kind::DbOffsets => {
            v.check(
                "no message's effect twice",
                effects.duplicates() == 0,
                format!("{} duplicate rows", effects.duplicates()),
            );
            match scenario {
                Scenario::Revoke => v.check(
                    "nothing processed twice: b starts where a's last transaction left each partition, not at a's last Kafka commit",
                    processing.duplicates() == 0,
                    format!("{} duplicate processings", processing.duplicates()),
                ),
                Scenario::Maxpoll => {
                    let late = late_offset_3(run, |e| matches!(e, Event::Refused { .. }))?;
                    v.check(
                        "a's late transaction of offset 3 refused and rolled back",
                        late,
                        format!("a's offset 3 refused: {late}"),
                    );
                }
            }
        }
        Kind::KafkaEos => {
            v.check(
                "the read_committed output holds each input message once",
                effects.duplicates() == 0,
                format!("{} duplicate output messages", effects.duplicates()),
            );
            if scenario == Scenario::Maxpoll {
                let a = run.member("a")?;
                let aborted: Vec<&String> = a
                    .lines
                    .iter()
                    .filter_map(|l| match &l.event {
                        Event::TxnAborted(why) => Some(why),
                        _ => None,
                    })
                    .collect();
                v.check(
                    "a's transaction with its late offset 3 fenced or aborted, and logged",
                    !aborted.is_empty(),
                    match aborted.first() {
                        Some(why) => format!("a: transaction aborted: {why}"),
                        None => "a aborted no transaction".to_string(),
                    },
                );
                v.check(
                    "the group's final committed offset is 10",
                    committed == [(0, Some(10))],
                    shown::committed(committed),
                );
            }
        }
    }
    v.ours = format!(
        "processing: {}; effects: {}",
        summary(processing),
        summary(effects)
    );
    Ok(v)
}

/// Whether a's log has offset 3 of p0 with the event `kind` (lab 2's late processing).
fn late_offset_3(run: &Run, kind: impl Fn(&Event) -> bool) -> Result<bool> {
    let a = run.member("a")?;
    Ok(a.lines
        .iter()
        .any(|l| kind(&l.event) && l.event.completion() == Some((0, 3))))
}
