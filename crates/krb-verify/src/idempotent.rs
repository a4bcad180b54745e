//! Lab 6, 06-idempotent.sh: the article's last advice, shown working. The same scenarios as
//! labs 1 and 2, with an effect in a database: plain effects repeat exactly where processing
//! does; idempotent ones are there once however often a message is processed.

use anyhow::Result;
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
pub fn verdict(run: &Run, effects: &Report, kind: Kind, scenario: Scenario) -> Result<Verdict> {
    let (_, _, variant) = Lab::Idempotent {
        effect: kind,
        scenario,
    }
    .names();
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
                let a = run.member("a")?;
                let late = a.lines.iter().any(|l| {
                    l.event
                        == Event::AlreadyApplied {
                            partition: 0,
                            offset: 3,
                        }
                });
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
    }
    v.ours = format!(
        "processing: {}; effects: {}",
        summary(processing),
        summary(effects)
    );
    Ok(v)
}
