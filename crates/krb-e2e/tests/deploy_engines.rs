//! Lab 9 on its two other engines, one row each as a user runs it: `--engine python` (the
//! article's stack, confluent-kafka in the venv the script makes) and `--engine java` (Kafka's
//! own client). The row is consumer-revoke, whose statements hold however long a client takes
//! to start: no static member waits for it. The script's verdict and its records are the
//! witnesses; the workers' pid files say which program ran.

use anyhow::{ensure, Context, Result};
use krb_e2e::{bash, serial};
use krb_verify::verdict::DUPLICATES;

#[test]
#[ignore = "needs a Kafka broker (scripts/test.sh starts one), python3 with venv and a JDK 17+"]
fn lab9_consumer_revoke_repeats_nothing_on_python_and_on_java() -> Result<()> {
    let _one_at_a_time = serial();
    for (engine, program) in [("python", "worker.py"), ("java", "JavaWorker")] {
        let group = format!("e2e-{engine}");
        // While the row runs, the command line of a worker it started.
        let out = bash(
            &format!("lab 9 on {engine}, row consumer-revoke"),
            &format!(
                "(sleep 8; cat /proc/$(cat \"$LOGS/{group}-consumer-revoke-a.pid\")/cmdline \
                 | tr '\\0' ' ' > \"$LOGS/{group}.cmdline\") &\n\
                 ./scripts/09-deploy.sh {group} --engine {engine} --only consumer-revoke\n\
                 wait\necho \"records: $LOGS/{group}.jsonl\"; cat \"$LOGS/{group}.cmdline\""
            ),
        )?;
        ensure!(out.contains(program), "{engine}: no {program} ran:\n{out}");
        let path = out
            .lines()
            .find_map(|l| l.strip_prefix("records: "))
            .context("the script's records are not named")?;
        let records = krb_verify::record::read(std::path::Path::new(path))?;
        ensure!(records.len() == 1, "{engine}: {} records", records.len());
        let v = records[0].verdict.as_ref().context("no verdict")?;
        ensure!(v.held(), "{engine}: {}", v.failures());
        ensure!(
            v.numbers.get(DUPLICATES) == Some(&0.0),
            "{engine}: consumer-revoke repeated messages"
        );
    }
    Ok(())
}
