//! krb-worker under faults, on the real broker: a static member fenced by another, and the
//! broker stopped and started again under a running worker (which waits and goes on).

use anyhow::{ensure, Result};
use krb_e2e::{bash, own_kafka, root, serial};

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn a_fenced_static_member_exits_with_the_error() -> Result<()> {
    let _one_at_a_time = serial();
    let out = bash(
        "fenced static member",
        "rm -f logs/fence-*.log; topic fence 1 >/dev/null; krb-group fence >/dev/null
         opts=(--instance-id fence-same --session-timeout-ms 6000)
         start fence-a fence fence \"${opts[@]}\"; a=$(cat logs/fence-a.pid)
         wait_log fence-a 'assigned \\[0\\]'
         start fence-b fence fence \"${opts[@]}\"
         code=0; timeout 60 tail --pid=\"$a\" -f /dev/null || code=timeout
         [ \"$code\" = timeout ] || { wait \"$a\" || code=$?; }
         rm -f logs/fence-a.pid; stop fence-b
         echo \"a exited: $code\"",
    )?;
    let log = std::fs::read_to_string(root().join("logs/fence-a.log"))?;
    let last = log.lines().last().unwrap_or_default();
    ensure!(
        out.contains("a exited: 1\n"),
        "a did not exit 1: {out}\n{log}"
    );
    ensure!(
        last.starts_with("krb-worker: fatal error, the consumer cannot go on: KafkaError{code=FENCED_INSTANCE_ID,"),
        "a's last line is not the fatal error: {last}"
    );
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn a_worker_goes_on_when_the_broker_comes_back() -> Result<()> {
    let _one_at_a_time = serial();
    // A broker of the test's own (ports 9700..): stopping it stops no other test's.
    let out = bash(
        "broker outage under a worker",
        &(own_kafka("/tmp/krb-e2e-outage", 9700)
            + "trap 'stop_all outage; scripts/kafka-local.sh stop >/dev/null' EXIT
         scripts/kafka-local.sh start >/dev/null; export KRB_BOOTSTRAP=localhost:9700
         rm -f logs/outage-*.log; topic outage 1 >/dev/null; krb-produce outage 400 1; krb-group outage >/dev/null
         start outage-a outage outage --delay 0.05 --commit-every 10; a=$(cat logs/outage-a.pid)
         wait_unique outage 40
         echo \"$(now) broker stop\" >>logs/outage-a.log; scripts/kafka-local.sh stop
         sleep 8
         echo \"$(now) broker start\" >>logs/outage-a.log; scripts/kafka-local.sh start
         wait_unique outage 400 180
         # The group's last commit, made after the broker came back.
         wait_log outage-a 'commit p0=400$' 60
         stop outage-a; code=0; wait \"$a\" || code=$?
         echo \"a exited: $code\"; krb-dups outage
         scripts/kafka-local.sh java org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \\
           --bootstrap-server \"$KRB_BOOTSTRAP\" --describe --group outage \\
           | awk '$1 == \"outage\" { print \"committed p\" $3 \"=\" $4 }'"),
    )?;
    let log = std::fs::read_to_string(root().join("logs/outage-a.log"))?;
    let during: Vec<&str> = log
        .lines()
        .skip_while(|l| !l.ends_with(" broker stop"))
        .take_while(|l| !l.ends_with(" broker start"))
        .collect();
    ensure!(
        out.contains("a exited: 0\n"),
        "a did not stop cleanly: {out}"
    );
    // librdkafka says what happens while the broker is away; the synchronous commit waits for
    // the coordinator, as confluent-kafka's does, and the worker goes on once it is back.
    ensure!(
        during.iter().any(|l| l.starts_with("%3|")
            && l.contains("|FAIL|")
            && l.contains("Connection refused")),
        "librdkafka logged no connection failure while the broker was away:\n{}",
        during.join("\n")
    );
    let after: Vec<&str> = log
        .lines()
        .skip_while(|l| !l.ends_with(" broker start"))
        .collect();
    ensure!(
        after.iter().any(|l| l.contains(" outage-a commit p0=")),
        "no commit after the broker came back"
    );
    ensure!(
        out.contains("processed ") && out.contains(", unique 400,"),
        "not every message was processed: {out}"
    );
    // The final position, read by Kafka's own consumer-groups tool as well.
    let committed: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("committed "))
        .collect();
    ensure!(
        committed == ["committed p0=400"],
        "consumer-groups tool shows {committed:?}, expected p0=400"
    );
    Ok(())
}
