//! What the lab command does not run: lab 2 twice in a row (a rerun measures the same), with
//! Kafka's own consumer-groups tool as a witness, and lab 6 on PostgreSQL. The script runs as a
//! user runs it, then krb-verify checks each of the lab's "must hold" statements. Labs 1 to 6
//! as `lab.sh` runs them are in room.rs (twice at once, in two namespaces).

use std::collections::BTreeMap;

use anyhow::{ensure, Result};
use krb_e2e::{bash, committed_offsets, serial, verify};
use krb_effect::Kind;
use krb_kafka::group_settings::value_name;
use krb_verify::idempotent::Scenario;
use krb_verify::Lab;

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab2_maxpoll_twice_in_a_row() -> Result<()> {
    let _one_at_a_time = serial();
    for run in 1..=2 {
        bash(&format!("lab 2 run {run}"), "./scripts/02-maxpoll.sh")?;
        verify(&Lab::Maxpoll, "slow", None)?;
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
#[ignore = "needs a Kafka broker and PostgreSQL: scripts/test.sh starts both"]
fn lab6_on_postgres_plain_repeats_idempotent_and_db_offsets_do_not() -> Result<()> {
    let _one_at_a_time = serial();
    let db = krb_e2e::postgres_url()?;
    for (name, effect, scenario) in [
        ("plainrev", Kind::Plain, Scenario::Revoke),
        ("idemrev", Kind::Idempotent, Scenario::Revoke),
        ("dbrev", Kind::DbOffsets, Scenario::Revoke),
        ("plainslow", Kind::Plain, Scenario::Maxpoll),
        ("idemslow", Kind::Idempotent, Scenario::Maxpoll),
        ("dbslow", Kind::DbOffsets, Scenario::Maxpoll),
    ] {
        let group = format!("e2e-pg-{name}");
        let out = bash(
            &format!("lab 6 {group}"),
            &format!(
                "./scripts/06-idempotent.sh {group} --effect {} --scenario {} --db {db}",
                value_name(effect),
                value_name(scenario),
            ),
        )?;
        ensure!(
            out.contains("== effects (krb-effects count "),
            "the script did not show the effects: {out}"
        );
        let lab = Lab::Idempotent {
            effect,
            scenario,
            postgres: true,
        };
        verify(&lab, &group, Some(&db))?;
    }
    Ok(())
}
