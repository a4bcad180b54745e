//! The three-node cluster (`scripts/kafka-local.sh start --nodes 3`), on ports and a data folder
//! of its own beside the tests' single broker: the tools take its bootstrap list, the group's
//! coordinator, found through Kafka's own tool, killed under two workers loses nothing, lab
//! 7's seeded fault trials hold, and one of them with a zombie worker does not.

use anyhow::{ensure, Context, Result};
use krb_e2e::{bash, own_kafka, root, serial};

/// A cluster home of the tests' own on ports 9581.., sharing the cached Kafka jars.
fn own_cluster() -> String {
    own_kafka("/tmp/krb-e2e-cluster", 9581)
}

#[test]
#[ignore = "needs Java 17+ and Kafka's jars (scripts/kafka-local.sh jars): scripts/test.sh"]
fn the_coordinator_killed_under_two_workers_loses_nothing() -> Result<()> {
    let _one_at_a_time = serial();
    let out = bash(
        "three-node cluster, coordinator killed",
        &(own_cluster()
            + r#"
         trap 'scripts/kafka-local.sh stop >/dev/null' EXIT
         scripts/kafka-local.sh start --nodes 3 >/dev/null
         export KRB_BOOTSTRAP=localhost:9581,localhost:9584,localhost:9587
         groups() { scripts/kafka-local.sh java org.apache.kafka.tools.consumer.group.ConsumerGroupCommand --bootstrap-server "$KRB_BOOTSTRAP" --describe --group cl "$@"; }
         rm -f logs/cl-*.log; topic cl 6 --replication 3 >/dev/null; krb-produce cl 600 6 >/dev/null
         krb-group cl >/dev/null
         start cl-a cl cl --commit-every 10 >/dev/null; start cl-b cl cl --commit-every 10 >/dev/null
         wait_unique cl 600 90
         coordinator=$(groups --state | awk '$1 == "cl" { gsub(/[()]/, "", $3); print $3 }')
         echo "coordinator: $coordinator"
         scripts/kafka-local.sh kill "$coordinator"
         krb-produce cl 600 6 >/dev/null
         wait_unique cl 1200 120
         scripts/kafka-local.sh restart "$coordinator" >/dev/null
         stop cl-a cl-b
         krb-dups cl | head -n 1
         groups | awk '$1 == "cl" && $4 ~ /^[0-9]+$/ { s += $4 } END { print "committed: " s }'"#),
    )?;
    ensure!(
        out.lines()
            .any(|l| l.starts_with("coordinator: ") && l.len() == "coordinator: 1".len()),
        "no coordinator found: {out}"
    );
    ensure!(
        out.contains(", unique 1200,"),
        "not every message was processed: {out}"
    );
    ensure!(
        out.contains("committed: 1200\n"),
        "the group did not commit every message: {out}"
    );
    Ok(())
}

#[test]
#[ignore = "needs Java 17+ and Kafka's jars (scripts/kafka-local.sh jars): scripts/test.sh"]
fn five_seeded_fault_trials_lose_nothing_and_explain_every_duplicate() -> Result<()> {
    let _one_at_a_time = serial();
    // Seed 107's five trials draw every kind of fault, one rolling restart among them.
    let out = bash(
        "lab 7, five fault trials",
        &(own_cluster() + "scripts/07-faults.sh --trials 5 --seed 107"),
    )?;
    ensure!(
        out.contains("| trials | 5 (5 held) |"),
        "a trial failed: {out}"
    );
    let json = std::fs::read_to_string(root().join("logs/faults.json"))?;
    let summary: serde_json::Value = serde_json::from_str(&json)?;
    let number = |key: &str| {
        summary[key]
            .as_u64()
            .with_context(|| format!("no {key}: {json}"))
    };
    ensure!(number("produced")? > 1000, "too few messages: {json}");
    ensure!(
        number("lost")? == 0 && number("unexplained")? == 0,
        "{json}"
    );
    let kinds = summary["kinds"].as_object().context("no kinds")?;
    ensure!(
        kinds.len() == 8,
        "not every kind of fault was injected: {json}"
    );
    for (kind, total) in kinds {
        ensure!(
            total["duplicates"].as_u64() <= total["bound"].as_u64(),
            "{kind} caused more duplicates than its bound: {json}"
        );
    }
    ensure!(
        root().join("logs/faults-worst.svg").exists(),
        "no timeline of the worst trial: {out}"
    );
    Ok(())
}

#[test]
#[ignore = "needs Java 17+ and Kafka's jars (scripts/kafka-local.sh jars): scripts/test.sh"]
fn a_zombie_worker_fails_the_ownership_statement_of_a_trial_that_holds_without_it() -> Result<()> {
    let _one_at_a_time = serial();
    // Seed 107's first trial holds without a zombie (the five trials above); here worker a
    // processes one message after a revoke took its partition away (krb-worker --test-zombie).
    let out = bash(
        "lab 7, a trial with a zombie",
        &(own_cluster()
            + "if scripts/07-faults.sh --seed 107 --trial 1 --test-zombie a; then echo 'exit 0'; fi"),
    )?;
    ensure!(
        !out.contains("exit 0") && out.contains("trial 1 FAILED"),
        "the trial with a zombie held: {out}"
    );
    let json = std::fs::read_to_string(root().join("logs/faults.jsonl"))?;
    let record: serde_json::Value =
        serde_json::from_str(json.lines().next().context("no record")?)?;
    let checks = record["verdict"]["checks"]
        .as_array()
        .context("no checks")?;
    let ownership = checks
        .iter()
        .find(|c| c["said"] == serde_json::json!({ "Lab7": "OnlyHeld" }))
        .context("no ownership statement")?;
    ensure!(
        ownership["held"] == false,
        "the ownership statement held with a zombie: {ownership}"
    );
    // The zombie is named, not the workers that owned what it processed.
    ensure!(
        ownership["detail"]
            .as_str()
            .is_some_and(|d| d.starts_with("faults-107-1-a processed ")),
        "the ownership statement named another worker than the zombie: {ownership}"
    );
    Ok(())
}
