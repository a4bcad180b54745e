//! Lab 6, 06-idempotent.sh: the article's last advice, shown working. The same scenarios as
//! labs 1 and 2, with an effect in a database: plain effects repeat exactly where processing
//! does; idempotent ones are there once however often a message is processed.

use anyhow::{bail, Result};
use krb_common::logline::Event;
use krb_dups::Report;
use krb_effect::Kind;

use crate::facts::{summary, Run};
use crate::{Lab, Verdict};

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

/// Lab 6's verdict: `run` is the group's logs, `effects` what the database holds for its topic.
pub fn verdict(run: &Run, effects: &Report, lab: Lab) -> Result<Verdict> {
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
        format!("{} distinct messages in the database", effects.unique),
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
