//! Lab 9 on the article's own stack, one row as a user runs it: `--engine python`
//! (confluent-kafka in the venv the script makes), about 30 s. The row is consumer-revoke, whose
//! statements hold however long a client takes to start: no static member waits for it. The
//! script's verdict and its records are the witnesses; a worker's command line says which
//! program ran. `--engine java` is left to the page's command (a row takes 80 s and more: a JVM
//! starts for each restart).

use anyhow::{ensure, Context, Result};
use krb_e2e::{bash, serial};
use krb_verify::verdict::DUPLICATES;

#[test]
#[ignore = "needs a Kafka broker (scripts/test.sh starts one) and python3 with venv"]
fn lab9_consumer_revoke_repeats_nothing_on_python() -> Result<()> {
    let _one_at_a_time = serial();
    // While the row runs, the command line of a worker it started, once its pid file is there
    // (the venv may take a while on a fresh machine).
    let out = bash(
        "lab 9 on python, row consumer-revoke",
        "pid=$LOGS/e2e-python-consumer-revoke-a.pid; rm -f \"$pid\" \"$LOGS/e2e-python.cmdline\"\n\
         (for _ in $(seq 240); do p=$(cat \"$pid\" 2>/dev/null) && [ -n \"$p\" ] && \
         tr '\\0' ' ' < \"/proc/$p/cmdline\" > \"$LOGS/e2e-python.cmdline\" && break; \
         sleep 0.5; done) &\n\
         ./scripts/09-deploy.sh e2e-python --engine python --only consumer-revoke\n\
         wait\necho \"records: $LOGS/e2e-python.jsonl\"; cat \"$LOGS/e2e-python.cmdline\"",
    )?;
    ensure!(out.contains("worker.py"), "no worker.py ran:\n{out}");
    let path = out
        .lines()
        .find_map(|l| l.strip_prefix("records: "))
        .context("the script's records are not named")?;
    let records = krb_verify::record::read(std::path::Path::new(path))?;
    ensure!(records.len() == 1, "{} records", records.len());
    let v = records[0].verdict.as_ref().context("no verdict")?;
    ensure!(v.held(), "{}", v.failures());
    ensure!(
        v.numbers.get(DUPLICATES) == Some(&0.0),
        "consumer-revoke repeated messages on python"
    );
    Ok(())
}
