//! Lab 9 on the real broker, in the test command's short form: two rows of 09-deploy.sh as a
//! user runs them, eager without a commit in on_revoke (it must repeat messages) and the
//! consumer protocol with one (it must repeat none). The script's own verdict (every statement
//! held, else it fails) and its records, read back, are the witnesses.

use std::time::Instant;

use anyhow::{ensure, Context, Result};
use krb_e2e::{bash, serial};
use krb_verify::deploy::{DEPLOY_SECONDS, REBALANCES};
use krb_verify::verdict::DUPLICATES;

/// The short form must leave the test command room: two rows within two minutes.
const LIMIT_SECONDS: f64 = 120.0;

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab9_eager_repeats_and_the_consumer_protocol_with_on_revoke_does_not() -> Result<()> {
    let _one_at_a_time = serial();
    let started = Instant::now();
    let out = bash(
        "lab 9, rows range and consumer-revoke",
        "./scripts/09-deploy.sh e2e-deploy --only range,consumer-revoke\n\
         echo \"records: $LOGS/e2e-deploy.jsonl\"",
    )?;
    let took = started.elapsed().as_secs_f64();
    ensure!(
        took < LIMIT_SECONDS,
        "the short form took {took:.0} s, more than {LIMIT_SECONDS} s"
    );
    let path = out
        .lines()
        .find_map(|l| l.strip_prefix("records: "))
        .context("the script's records are not named")?;
    let records = krb_verify::record::read(std::path::Path::new(path))?;
    let rows: Vec<&str> = records.iter().map(|r| r.variant.as_str()).collect();
    ensure!(rows == ["range", "consumer-revoke"], "rows {rows:?}");
    let number = |i: usize, name: &str| -> Result<f64> {
        let v = records[i].verdict.as_ref().context("no verdict")?;
        ensure!(v.held(), "{}", v.failures());
        v.numbers.get(name).copied().context("no number")
    };
    ensure!(
        number(0, DUPLICATES)? > 0.0,
        "eager without a commit in on_revoke repeated nothing: the deploy did not hand over"
    );
    ensure!(
        number(0, REBALANCES)? >= 3.0,
        "range: fewer than one rebalance a restart"
    );
    ensure!(
        number(1, DUPLICATES)? == 0.0,
        "consumer-revoke repeated messages"
    );
    for i in 0..2 {
        ensure!(number(i, DEPLOY_SECONDS)? > 0.0, "row {i}: no deploy time");
    }
    // The decision table, as the script printed it: a line per row.
    for row in rows {
        ensure!(
            out.lines().any(|l| l.starts_with(&format!("{row} "))),
            "no table line for {row}:\n{out}"
        );
    }
    Ok(())
}
