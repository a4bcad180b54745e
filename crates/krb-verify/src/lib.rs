//! krb-verify: checks a lab's "must hold" statements against what the lab left behind (workers'
//! logs, krb-dups' analysis, the broker's committed offsets), once for the lab scripts that print
//! the verdicts, the lab command that tabulates them and the end-to-end tests that assert them.

pub mod assignor;
pub mod deploy;
pub mod facts;
pub mod faults;
pub mod html;
pub mod idempotent;
pub mod maxpoll;
pub mod messages;
pub mod page_text;
pub mod protocol;
pub mod record;
pub mod revoke;
pub mod share;
pub mod shown;
pub mod static_lab;
pub mod verdict;

pub use facts::Run;
use krb_kafka::group_settings::value_name;
pub use krb_kafka::group_settings::{Assignor, Effect, GroupProtocol as Protocol};
pub use verdict::{Check, Verdict};

/// A lab and its variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lab {
    /// Lab 1, 01-revoke.sh.
    Revoke { revoke_commit: bool },
    /// Lab 2, 02-maxpoll.sh.
    Maxpoll,
    /// Lab 3, 03-assignor.sh.
    Assignor {
        assignor: Assignor,
        revoke_commit: bool,
    },
    /// Lab 4, 04-static.sh.
    Static { static_membership: bool },
    /// Lab 5, 05-protocol.sh.
    Protocol { protocol: Protocol },
    /// Lab 6, 06-idempotent.sh (its database is DIR/GROUP.db or its --db).
    Idempotent {
        effect: Effect,
        scenario: idempotent::Scenario,
        /// The database is PostgreSQL (`--db postgres://...`), not SQLite.
        postgres: bool,
    },
    /// Lab 8, 08-share.sh.
    Share {
        scenario: share::Scenario,
        /// The group's share.delivery.count.limit (the reject scenario's).
        limit: u16,
    },
    /// Lab 9, one row of 09-deploy.sh (its topic has the group's name).
    Deploy { row: deploy::Row },
    /// Lab 7, one trial of 07-faults.sh (its effects are in its --db, or lab 6's default).
    Faults {
        effect: Effect,
        /// `--recheck`: the trial's group is gone; its final offsets are the witness's.
        recheck: bool,
    },
}

impl Lab {
    /// The lab's number, name and variant, as its verdict names them.
    pub fn names(self) -> (u8, &'static str, String) {
        let pick = |on: bool, yes: &str, no: &str| if on { yes } else { no }.to_string();
        match self {
            Lab::Revoke { revoke_commit } => {
                (1, "revoke", pick(revoke_commit, "revcommit", "nocommit"))
            }
            Lab::Maxpoll => (2, "maxpoll", "expel".into()),
            Lab::Assignor {
                assignor,
                revoke_commit,
            } => (
                3,
                "assignor",
                value_name(assignor) + &pick(revoke_commit, " --revoke-commit", ""),
            ),
            Lab::Static { static_membership } => {
                (4, "static", pick(static_membership, "--static", "dynamic"))
            }
            Lab::Protocol { protocol } => (5, "protocol", value_name(protocol)),
            Lab::Idempotent {
                effect,
                scenario,
                postgres,
            } => (
                6,
                "idempotent",
                value_name(effect) + " " + &value_name(scenario) + &pick(postgres, " postgres", ""),
            ),
            Lab::Faults { effect, .. } => (7, "faults", value_name(effect)),
            Lab::Share { scenario, .. } => (8, "share", value_name(scenario)),
            Lab::Deploy { row } => (deploy::LAB, "deploy", row.name()),
        }
    }
}

#[cfg(feature = "kafka")]
/// Checks one lab variant that ran in `group`, with its logs in `dir`; lab 6's effects are in
/// `db` (default: the SQLite file DIR/GROUP.db).
pub fn verify(
    lab: Lab,
    group: &str,
    dir: &std::path::Path,
    broker: &krb_kafka::broker::BrokerArgs,
    db: Option<&str>,
) -> anyhow::Result<Verdict> {
    // Labs 7 and 9 place faults and restarts between completion lines: they need each one.
    let runs = !matches!(lab, Lab::Faults { .. } | Lab::Deploy { .. });
    let run = Run::read(dir, group, &broker.namespace, runs)?;
    let store = |kind| db.map_or_else(|| idempotent::default_store(kind, group, dir), String::from);
    let mut verdict = match lab {
        Lab::Revoke { revoke_commit } => revoke::verdict(&run, revoke_commit)?,
        Lab::Maxpoll => maxpoll::verdict(&run, &facts::committed(broker, group, group, 1)?)?,
        Lab::Assignor {
            assignor,
            revoke_commit,
        } => assignor::verdict(&run, assignor, revoke_commit)?,
        Lab::Static { static_membership } => static_lab::verdict(&run, static_membership)?,
        Lab::Share { scenario, limit } => share::verdict(&run, scenario, limit)?,
        Lab::Deploy { row } => {
            let kind = krb_effect::Kind::Idempotent;
            let effects = row
                .idempotent
                .then(|| krb_effect::count(&store(kind), kind, group, broker))
                .transpose()?;
            let produced = deploy::produced(broker, group)?;
            deploy::verdict(&run, row, produced, effects.as_ref())?
        }
        Lab::Idempotent {
            effect, scenario, ..
        } => {
            let (topic, partitions) = match scenario {
                idempotent::Scenario::Revoke => ("pay", 2),
                idempotent::Scenario::Maxpoll => (group, 1),
            };
            let effects = krb_effect::count(&store(effect), effect, topic, broker)?;
            let committed = facts::committed(broker, group, topic, partitions)?;
            idempotent::verdict(&run, &effects, &committed, lab)?
        }
        Lab::Faults { effect, recheck } => {
            let trial = faults::read(dir, group, broker, effect, db, recheck)?;
            let (v, stats) = faults::verdict(&trial);
            return Ok(Verdict {
                trial: Some(stats),
                skipped: [run.skipped(), trial.skipped].concat(),
                ..v
            });
        }
        Lab::Protocol { protocol } => {
            let slow = protocol::maxpoll_group(group);
            let lab2 = Run::read(dir, &slow, &broker.namespace, true)?;
            let committed = facts::committed(broker, &slow, &slow, 1)?;
            let v = protocol::verdict(&run, &lab2, &committed, protocol)?;
            return Ok(Verdict {
                skipped: [run.skipped(), lab2.skipped()].concat(),
                ..v
            });
        }
    };
    verdict.skipped = run.skipped();
    Ok(verdict)
}

#[cfg(test)]
mod tests;
