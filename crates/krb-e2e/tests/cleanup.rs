//! What a script started is gone when it exits: common.sh's stop kills a worker that ignores
//! SIGTERM after its bound, stop_all resumes a paused one, and lab 7 interrupted mid-trial
//! stops its workers, its producer and the cluster it started.

use anyhow::{ensure, Result};
use krb_e2e::{bash, own_kafka, serial};

/// A stand-in worker that ignores SIGTERM, as a worker blocked in librdkafka did: bash that
/// registers it in logs/NAME.pid, as `start` does.
/// It holds no pipe of the test's, which would otherwise wait for it.
const STUBBORN: &str =
    "stubborn() { (trap '' TERM; exec sleep 300) >/dev/null 2>&1 & echo $! >\"logs/$1.pid\"; }";

#[test]
#[ignore = "needs the release tools: scripts/test.sh builds them"]
fn stop_kills_a_worker_that_ignores_sigterm_after_its_bound() -> Result<()> {
    let out = bash(
        "stop, a worker ignoring SIGTERM",
        &format!(
            "{STUBBORN}
             stubborn cleanup-stop-a; a=$(cat logs/cleanup-stop-a.pid)
             begun=$SECONDS; code=0; stop --wait 2 cleanup-stop-a 2>logs/cleanup-stop.err || code=$?
             echo \"stop: $code in $((SECONDS - begun)) s\"; cat logs/cleanup-stop.err
             kill -0 \"$a\" 2>/dev/null && echo 'a still runs' || echo 'a is gone'
             code=0; stop --wait x cleanup-stop-a 2>/dev/null || code=$?; echo \"bad wait: $code\""
        ),
    )?;
    ensure!(out.contains("a is gone\n"), "{out}");
    ensure!(
        out.contains("stop: 1 in 2 s\n") || out.contains("stop: 1 in 3 s\n"),
        "stop did not fail within its bound: {out}"
    );
    ensure!(
        out.contains("stop: cleanup-stop-a (pid ")
            && out.contains(") did not exit within 2 s of SIGTERM: killed (SIGKILL)\n"),
        "stop did not say it killed the worker: {out}"
    );
    ensure!(out.contains("bad wait: 2\n"), "{out}");
    Ok(())
}

#[test]
#[ignore = "needs the release tools: scripts/test.sh builds them"]
fn stop_all_ends_a_paused_worker_and_one_that_ignores_sigterm() -> Result<()> {
    let out = bash(
        "stop_all, a paused worker and one ignoring SIGTERM",
        &format!(
            "{STUBBORN}
             sleep 300 & echo $! >logs/cleanup-all-a.pid; a=$!; kill -STOP \"$a\"
             stubborn cleanup-all-b; b=$(cat logs/cleanup-all-b.pid)
             begun=$SECONDS; stop_all cleanup-all 2 2>/dev/null; echo \"stop_all: $? in $((SECONDS - begun)) s\"
             for p in \"$a\" \"$b\"; do kill -0 \"$p\" 2>/dev/null && echo \"$p still runs\" || echo \"$p is gone\"; done
             echo \"pid files left: $(workers cleanup-all | wc -l)\""
        ),
    )?;
    ensure!(
        out.lines().filter(|l| l.ends_with(" is gone")).count() == 2,
        "{out}"
    );
    ensure!(
        out.contains("stop_all: 0 in 2 s\n") || out.contains("stop_all: 0 in 3 s\n"),
        "{out}"
    );
    ensure!(out.contains("pid files left: 0\n"), "{out}");
    Ok(())
}

#[test]
#[ignore = "needs Java 17+ and Kafka's jars (scripts/kafka-local.sh jars): scripts/test.sh"]
fn lab7_interrupted_stops_what_it_started() -> Result<()> {
    let _one_at_a_time = serial();
    // A cluster home and ports of this test's own: 07-faults.sh starts the cluster and must
    // stop it. The stand-in is registered as one more worker of the trial's group.
    let out = bash(
        "lab 7 interrupted mid-trial",
        &(own_kafka("/tmp/krb-e2e-cleanup-cluster", 9681)
            + &format!(
                r#"{STUBBORN}
         rm -f logs/faults-7-1*
         scripts/07-faults.sh --seed 7 --trials 1 --faults 1 >logs/cleanup-faults.out 2>&1 & lab=$!
         z=""
         # Whatever fails here, nothing is left to run on: the lab (its own trap then stops its
         # cluster) and the stand-in.
         trap 'kill -TERM "$lab" 2>/dev/null || true; [ -z "$z" ] || kill -KILL "$z" 2>/dev/null || true' EXIT
         wait_log faults-7-1-c '^[0-9:.]+ faults-7-1-c ' 240 || {{ cat logs/cleanup-faults.out; exit 1; }}
         stubborn faults-7-1-z; z=$(cat logs/faults-7-1-z.pid)
         pids=$(cat logs/faults-7-1-[abc].pid logs/faults-7-1-z.pid)
         kill -STOP "$(cat logs/faults-7-1-a.pid)"
         begun=$SECONDS; kill -TERM "$lab"; code=0; wait "$lab" || code=$?
         echo "lab 7: $code in $((SECONDS - begun)) s"
         for p in $pids; do kill -0 "$p" 2>/dev/null && echo "$p still runs"; done
         # [k]: the pattern does not match this script's own command line.
         pgrep -f '[k]rb-produce faults-7-1 ' >/dev/null && echo 'the producer still runs'
         scripts/kafka-local.sh status >/dev/null 2>&1 && echo 'the cluster still runs'
         grep 'faults-7-1-z' logs/cleanup-faults.out
         echo done"#
            )),
    )?;
    ensure!(out.contains("lab 7: 143 in "), "{out}");
    let seconds: u64 = out
        .split("lab 7: 143 in ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or(u64::MAX);
    // 10 s for the workers, 10 for the producer, the cluster's own stop.
    ensure!(seconds <= 60, "lab 7 took {seconds} s to stop: {out}");
    ensure!(!out.contains("still runs"), "{out}");
    ensure!(
        out.contains(") did not exit within 10 s of SIGTERM: killed (SIGKILL)"),
        "the stand-in was not killed: {out}"
    );
    Ok(())
}
