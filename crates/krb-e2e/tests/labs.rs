//! Every lab of the article (1, 2) and beyond it (3, 4, 5, 6) on the real broker: the script runs
//! as a user runs it, then krb-verify checks each of the lab's "must hold" statements.

use std::collections::BTreeMap;

use anyhow::{ensure, Result};
use krb_common::group::value_name;
use krb_e2e::{bash, committed_offsets, serial, verify, verify_db};
use krb_effect::Kind;
use krb_verify::idempotent::Scenario;
use krb_verify::{Assignor, Lab, Protocol};

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab1_revoke_without_and_with_the_revoke_commit() -> Result<()> {
    let _one_at_a_time = serial();
    for (group, revoke_commit) in [("e2e-nocommit", false), ("e2e-revcommit", true)] {
        let flag = if revoke_commit {
            " --revoke-commit"
        } else {
            ""
        };
        let out = bash(
            &format!("lab 1 {group}"),
            &format!("topic pay 2; krb-produce pay 1000 2; ./scripts/01-revoke.sh {group}{flag}"),
        )?;
        ensure!(
            out.contains(&format!(" start {group}-b\n")),
            "no start line for b: {out}"
        );
        verify(&Lab::Revoke { revoke_commit }, group)?;
    }
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab2_maxpoll_twice_in_a_row() -> Result<()> {
    let _one_at_a_time = serial();
    for run in 1..=2 {
        bash(&format!("lab 2 run {run}"), "./scripts/02-maxpoll.sh")?;
        verify(&Lab::Maxpoll, "slow")?;
        // The final position, read by Kafka's own consumer-groups tool as well.
        let committed = committed_offsets("slow")?;
        ensure!(
            committed == BTreeMap::from([(0, 10)]),
            "run {run}: consumer-groups tool shows {committed:?}, expected p0=10"
        );
    }
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab3_eager_revokes_everything_cooperative_only_what_moves() -> Result<()> {
    let _one_at_a_time = serial();
    for (group, assignor, revoke_commit) in [
        ("e2e-range", Assignor::Range, false),
        ("e2e-coop", Assignor::CooperativeSticky, false),
        ("e2e-rangerc", Assignor::Range, true),
        ("e2e-cooprc", Assignor::CooperativeSticky, true),
    ] {
        let flag = if revoke_commit {
            " --revoke-commit"
        } else {
            ""
        };
        bash(
            &format!("lab 3 {group}"),
            &format!(
                "./scripts/03-assignor.sh {group} --assignor {}{flag}",
                value_name(assignor)
            ),
        )?;
        verify(
            &Lab::Assignor {
                assignor,
                revoke_commit,
            },
            group,
        )?;
    }
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab4_static_member_restarts_without_a_rebalance() -> Result<()> {
    let _one_at_a_time = serial();
    for (group, static_membership) in [("e2e-dynamic", false), ("e2e-static", true)] {
        let flag = if static_membership { " --static" } else { "" };
        let out = bash(
            &format!("lab 4 {group}"),
            &format!("./scripts/04-static.sh {group}{flag}"),
        )?;
        ensure!(
            out.contains("session.timeout.ms 10000"),
            "the script did not say its session timeout"
        );
        verify(&Lab::Static { static_membership }, group)?;
    }
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab5_classic_and_consumer_protocols() -> Result<()> {
    let _one_at_a_time = serial();
    for (group, protocol) in [
        ("e2e-classic", Protocol::Classic),
        ("e2e-kip848", Protocol::Consumer),
    ] {
        bash(
            &format!("lab 5 {}", value_name(protocol)),
            &format!(
                "./scripts/05-protocol.sh {group} --protocol {}",
                value_name(protocol)
            ),
        )?;
        verify(&Lab::Protocol { protocol }, group)?;
    }
    Ok(())
}

/// Runs lab 6's database variants with the database `db` (None: each group's SQLite file),
/// and without one kafka-eos's.
fn lab6(prefix: &str, db: Option<&str>) -> Result<()> {
    let _one_at_a_time = serial();
    let mut variants = vec![
        ("plainrev", Kind::Plain, Scenario::Revoke),
        ("idemrev", Kind::Idempotent, Scenario::Revoke),
        ("dbrev", Kind::DbOffsets, Scenario::Revoke),
        ("plainslow", Kind::Plain, Scenario::Maxpoll),
        ("idemslow", Kind::Idempotent, Scenario::Maxpoll),
        ("dbslow", Kind::DbOffsets, Scenario::Maxpoll),
    ];
    if db.is_none() {
        variants.push(("eosrev", Kind::KafkaEos, Scenario::Revoke));
        variants.push(("eosslow", Kind::KafkaEos, Scenario::Maxpoll));
    }
    for (name, effect, scenario) in variants {
        let group = format!("{prefix}-{name}");
        let out = bash(
            &format!("lab 6 {group}"),
            &format!(
                "./scripts/06-idempotent.sh {group} --effect {} --scenario {}{}",
                value_name(effect),
                value_name(scenario),
                db.map(|url| format!(" --db {url}")).unwrap_or_default()
            ),
        )?;
        ensure!(
            out.contains("== effects (krb-effects count "),
            "the script did not show the effects: {out}"
        );
        let lab = Lab::Idempotent {
            effect,
            scenario,
            postgres: db.is_some(),
        };
        verify_db(&lab, &group, db)?;
    }
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab6_on_sqlite_and_kafka_plain_repeats_idempotent_db_offsets_and_kafka_eos_do_not() -> Result<()>
{
    lab6("e2e", None)
}

#[test]
#[ignore = "needs a Kafka broker and PostgreSQL: scripts/test.sh starts both"]
fn lab6_on_postgres_plain_repeats_idempotent_and_db_offsets_do_not() -> Result<()> {
    lab6("e2e-pg", Some(&krb_e2e::postgres_url()?))
}
