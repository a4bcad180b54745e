//! Lab 8 on the real broker: each scenario of 08-share.sh as a user runs it, then krb-verify's
//! statements, and for the join, Kafka's own share-groups tool as a witness that the broker
//! holds every record acknowledged (no lag on either partition).

use std::process::Command;

use anyhow::{ensure, Context, Result};
use krb_e2e::{bash, bootstrap, root, serial, verify};
use krb_verify::share::Scenario;
use krb_verify::Lab;

/// The share group's lag by partition, as Kafka's kafka-share-groups tool shows it.
fn share_lag(group: &str) -> Result<Vec<(i32, i64)>> {
    let out = Command::new("bash")
        .arg(root().join("scripts/kafka-local.sh"))
        .args([
            "java",
            "org.apache.kafka.tools.consumer.group.ShareGroupCommand",
            "--bootstrap-server",
            &bootstrap(),
            "--describe",
            "--offsets",
            "--group",
            group,
        ])
        .output()
        .context("cannot run the share-groups tool")?;
    let text = String::from_utf8_lossy(&out.stdout);
    ensure!(
        out.status.success(),
        "share-groups tool failed: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // GROUP TOPIC PARTITION START-OFFSET LAG
    let lag: Vec<(i32, i64)> = text
        .lines()
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            match cols.as_slice() {
                [g, _, p, _, lag, ..] if *g == group => Some((p.parse().ok()?, lag.parse().ok()?)),
                _ => None,
            }
        })
        .collect();
    ensure!(
        !lag.is_empty(),
        "the share-groups tool shows no partition of {group}:\n{text}"
    );
    Ok(lag)
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab8_every_scenario_holds_on_the_broker() -> Result<()> {
    let _one_at_a_time = serial();
    for scenario in [
        Scenario::Join,
        Scenario::Kill,
        Scenario::Lock,
        Scenario::Reject,
    ] {
        let name = krb_kafka::group_settings::value_name(scenario);
        let group = format!("e2e-share{name}");
        let out = bash(
            &format!("lab 8 {name}"),
            &format!("./scripts/08-share.sh {group} --scenario {name}"),
        )?;
        ensure!(
            out.contains(&format!("start {group}-b")) || scenario == Scenario::Reject,
            "the script did not start b: {out}"
        );
        if scenario == Scenario::Kill {
            ensure!(
                out.contains(&format!("kill -9 {group}-a")),
                "no kill: {out}"
            );
        }
        verify(&Lab::Share { scenario, limit: 3 }, &group, None)?;
        if scenario == Scenario::Join {
            let lag = share_lag(&group)?;
            ensure!(
                lag == [(0, 0), (1, 0)],
                "the share-groups tool shows lag {lag:?}, expected none on p0 and p1"
            );
        }
    }
    Ok(())
}
