//! `krb-effects count kafka:TOPIC` reads as a read_committed consumer, which stops at the last
//! stable offset: a transaction left open is reported, never a count cut short without a word.

use std::process::{Command, Output};
use std::time::Duration;

use anyhow::{ensure, Context, Result};
use krb_e2e::{bootstrap, root};
use rdkafka::producer::{BaseRecord, DefaultProducerContext, Producer, ThreadedProducer};
use rdkafka::ClientConfig;

/// Runs a krb tool of the release build, outside any namespace (the topic is named as Kafka
/// knows it).
fn krb(tool: &str, args: &[&str]) -> Result<Output> {
    krb_in("en", tool, args)
}

/// The same in language `lang` (KRB_LANG).
fn krb_in(lang: &str, tool: &str, args: &[&str]) -> Result<Output> {
    Command::new(root().join("target/release").join(tool))
        .args(args)
        .env_remove("KRB_NS")
        .env("KRB_BOOTSTRAP", bootstrap())
        .env("KRB_LANG", lang)
        .output()
        .with_context(|| format!("cannot run {tool}: cargo build --release first"))
}

/// A transactional producer of the test's own.
fn producer(id: &str) -> Result<ThreadedProducer<DefaultProducerContext>> {
    let producer: ThreadedProducer<DefaultProducerContext> = ClientConfig::new()
        .set("bootstrap.servers", bootstrap())
        .set("transactional.id", id)
        .create()?;
    producer.init_transactions(Duration::from_secs(30))?;
    Ok(producer)
}

/// Sends the effects of `topic`'s offsets `offsets` of p0 inside the producer's transaction.
fn effects(
    producer: &ThreadedProducer<DefaultProducerContext>,
    output: &str,
    topic: &str,
    offsets: std::ops::Range<i64>,
) -> Result<()> {
    for offset in offsets {
        let value = krb_effect::kafka::value(topic, 0, offset);
        producer
            .send(BaseRecord::to(output).key("w").payload(&value))
            .map_err(|(e, _)| e)?;
    }
    producer.flush(Duration::from_secs(30))?;
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn an_open_transaction_is_reported_not_cut_from_the_count() -> Result<()> {
    let (output, topic) = ("opentxn-out", "opentxn");
    let count_in = |lang| {
        krb_in(
            lang,
            "krb-effects",
            &["count", "kafka:opentxn-out", topic, "--effect", "kafka-eos"],
        )
    };
    let count = || count_in("en");
    let made = krb("krb-effects", &["init", "kafka:opentxn-out"])?;
    ensure!(made.status.success(), "{made:?}");

    let producer = producer("krb-e2e-opentxn")?;
    producer.begin_transaction()?;
    effects(&producer, output, topic, 0..2)?;
    producer.commit_transaction(Duration::from_secs(30))?;
    producer.begin_transaction()?;
    effects(&producer, output, topic, 2..5)?;

    // Offsets 0 and 1 are committed; 2..4 and their transaction's marker are not.
    let open = count()?;
    let stderr = String::from_utf8_lossy(&open.stderr);
    ensure!(
        !open.status.success(),
        "the count did not fail: {}",
        String::from_utf8_lossy(&open.stdout)
    );
    ensure!(
        stderr.starts_with("krb-effects: a transaction open for 10 s holds back offsets 3..5 of p0 of opentxn-out: ")
            && stderr.lines().count() == 1,
        "not the open transaction's line: {stderr}"
    );
    // The same in Korean, under a Korean locale.
    let open = count_in("ko")?;
    let stderr = String::from_utf8_lossy(&open.stderr);
    ensure!(
        open.status.code() == Some(2)
            && stderr.starts_with(
                "krb-effects: 10초째 열려 있는 트랜잭션이 opentxn-out 토픽의 p0의 offset 3..5에서 \
                 읽기를 막고 있습니다: read_committed로 세면 그 앞에서 멈춰요."
            )
            && stderr.lines().count() == 1,
        "not the open transaction's Korean line: {stderr}"
    );

    producer.abort_transaction(Duration::from_secs(30))?;
    let closed = count()?;
    let stdout = String::from_utf8_lossy(&closed.stdout);
    ensure!(
        closed.status.success() && stdout.starts_with("processed 2, unique 2, duplicates 0\n"),
        "after the abort: {stdout}{}",
        String::from_utf8_lossy(&closed.stderr)
    );
    Ok(())
}
