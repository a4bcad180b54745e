//! Lab 1 reads a topic it does not make (pay, filled by `topic pay 2; krb-produce pay 1000 2`).
//! Started without it, or with it empty, the script stops within seconds naming the topic and
//! the commands that make it, and starts no worker: it never waits its 60 s for a log line.

use anyhow::{ensure, Result};
use krb_e2e::{bash, serial};

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh"]
fn lab_1_without_its_topic_or_with_it_empty_stops_at_once_naming_it() -> Result<()> {
    let _one_at_a_time = serial();
    let out = bash(
        "lab 1 without its topic",
        "export KRB_NS=e2etopic
         krb-topic pay --delete >/dev/null
         run() { local s=$SECONDS code=0; scripts/01-revoke.sh notopic 2>&1 || code=$?; echo \"exit $code in $((SECONDS - s)) s\"; }
         run
         topic pay 2 >/dev/null
         run
         KRB_LANG=ko run
         krb-topic pay --delete >/dev/null",
    )?;
    let runs: Vec<&str> = out.split_inclusive(" s\n").collect();
    ensure!(runs.len() == 3, "{out}");
    for (run, cause) in runs.iter().zip([
        "krb-topic: topic e2etopic-pay does not exist",
        "krb-topic: topic e2etopic-pay holds 0 messages, not 1000",
        "krb-topic: e2etopic-pay 토픽에 메시지가 1000개가 아니라 0개 있습니다",
    ]) {
        ensure!(run.contains(cause), "no {cause:?} in:\n{run}");
        let seconds: u64 = run
            .rsplit("exit 1 in ")
            .next()
            .and_then(|t| t.trim_end_matches(" s\n").parse().ok())
            .unwrap_or(u64::MAX);
        ensure!(
            seconds < 15,
            "it took {seconds} s, or did not exit 1:\n{run}"
        );
        ensure!(
            !run.contains(" start notopic-"),
            "a worker was started:\n{run}"
        );
    }
    ensure!(
        runs[0].contains("01-revoke.sh: make topic pay first: topic pay 2; krb-produce pay 1000 2"),
        "{out}"
    );
    ensure!(
        runs[2].contains("01-revoke.sh: pay 토픽을 먼저 만드세요"),
        "{out}"
    );
    Ok(())
}
