//! The three-node cluster (`scripts/kafka-local.sh start --nodes 3`), on ports and a data folder
//! of its own beside the tests' single broker: the tools take its bootstrap list, and the
//! group's coordinator, found through Kafka's own tool, killed under two workers loses nothing.

use anyhow::{ensure, Result};
use krb_e2e::{bash, serial};

#[test]
#[ignore = "needs Java 17+ and Kafka's jars (scripts/kafka-local.sh jars): scripts/test.sh"]
fn the_coordinator_killed_under_two_workers_loses_nothing() -> Result<()> {
    let _one_at_a_time = serial();
    let out = bash(
        "three-node cluster, coordinator killed",
        r#"scripts/kafka-local.sh jars >/dev/null
         jars=${KRB_KAFKA_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/krb/kafka-4.3.1}/libs
         export KRB_KAFKA_HOME=/tmp/krb-e2e-cluster KRB_BROKER_PORT=9581
         rm -rf "$KRB_KAFKA_HOME"; mkdir -p "$KRB_KAFKA_HOME"; ln -s "$jars" "$KRB_KAFKA_HOME/libs"
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
         groups | awk '$1 == "cl" && $4 ~ /^[0-9]+$/ { s += $4 } END { print "committed: " s }'"#,
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
