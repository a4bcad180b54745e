//! A workshop room (scripts/room.sh) lets no one in where they don't belong: on a room of the
//! test's own, alice writes 1000 messages with krb-produce through her KRB_CONFIG; then bob,
//! with his own valid login, attacks her topic and group with Kafka's own CLI and with kcat,
//! and each attack must be refused by the broker's authorizer, with the error that says so.
//! Nobody gets in without a login or with a wrong password. Alice's 1000 messages are all there
//! afterwards, read back by kcat under her login; once the teacher removes bob, his login fails.
//! The room's page can't be forged: bob publishes a record that names alice into his own topic
//! in the room, and tries hers (refused); the teacher's page, fetched over HTTP, shows alice's
//! own result as alice's and bob's as bob's, flagged as naming alice. Last, the teacher resets
//! the room: alice's topics, her group and her open transaction are gone, and she still logs in.
//!
//! kcat runs on krb's own librdkafka (2.15.0, its shared library from the build, by
//! LD_LIBRARY_PATH): Debian 12's kcat links librdkafka 2.0.2, whose SCRAM client sends a proof
//! that Kafka 4 rejects (librdkafka before 2.6.1 repeats the client nonce), so with its own
//! library even a valid login fails and no authorization would ever be reached.

use std::collections::BTreeMap;

use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Result};
use krb_e2e::{bash, http_get, serve_room, Room};
use krb_kafka::broker::BrokerArgs;
use krb_verify::messages::Shared;
use krb_verify::record::Record;
use krb_verify::Verdict;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::producer::{BaseProducer, BaseRecord, Producer};

/// The attacks and checks, each after an `== NAME` line; its output, in sections by name.
const SCRIPT: &str = r#"
room=$KRB_ROOM_DIR
so=$(ls -t target/release/build/rdkafka-sys-*/out/librdkafka/src/librdkafka.so.1 | head -n 1)
export LD_LIBRARY_PATH=${so%/*}
jtool() { scripts/kafka-local.sh java "$@" 2>&1 || true; }
at=--bootstrap-server=localhost:9720
echo "== kcat version"; kcat -V
echo "== list"; scripts/room.sh list
# alice, as a participant: her handout, then the article's commands.
(
  source "$room/alice.env"
  echo "== alice"; krb-topic pay 2; krb-produce pay 1000 2
)
echo "== kcat read"; kcat -F "$room/bob.conf" -C -t alice-pay -o beginning -e -q 2>&1 || true
echo "== kcat write"; echo forged | kcat -F "$room/bob.conf" -P -t alice-pay 2>&1 || true
echo "== kcat commit"; timeout 30 kcat -F "$room/bob.conf" -G alice-pay-workers alice-pay -e -q 2>&1 || true
echo "== kcat create"; echo x | kcat -F "$room/bob.conf" -P -t alice-x 2>&1 || true
echo "== kcat no login"; kcat -b localhost:9720 -L -m 5 2>&1 || true
echo "== kcat wrong password"; kcat -F "$room/alice.conf" -X sasl.password=guessed -L -m 5 2>&1 || true
echo "== topics delete"; jtool org.apache.kafka.tools.TopicCommand "$at" --command-config "$room/bob.properties" --delete --topic alice-pay
echo "== records delete"
printf '{"partitions": [{"topic": "alice-pay", "partition": 0, "offset": -1}], "version": 1}' >"$room/delete.json"
jtool org.apache.kafka.tools.DeleteRecordsCommand "$at" --command-config "$room/bob.properties" --offset-json-file "$room/delete.json"
echo "== topics create"; jtool org.apache.kafka.tools.TopicCommand "$at" --command-config "$room/bob.properties" --create --topic alice-x
echo "== console read"; jtool org.apache.kafka.tools.consumer.ConsoleConsumer "$at" --command-config "$room/bob.properties" --topic alice-pay --from-beginning --max-messages 1 --timeout-ms 10000
echo "== console write"; echo forged | jtool org.apache.kafka.tools.ConsoleProducer "$at" --command-config "$room/bob.properties" --topic alice-pay
echo "== offsets"; jtool org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "$at" --command-config "$room/bob.properties" --group alice-pay-workers --reset-offsets --to-latest --topic alice-pay --execute
echo "== console wrong password"
sed 's/password="[^"]*"/password="guessed"/' "$room/alice.properties" >"$room/guess.properties"
jtool org.apache.kafka.tools.TopicCommand "$at" --command-config "$room/guess.properties" --list
# The room's page: alice publishes her record; bob one that names alice, in his topic and hers.
echo "== room alice"; (source "$room/alice.env"; krb-room publish e2e "$room/alice.jsonl" 2>&1)
echo "== room bob mistaken"; (source "$room/bob.env"; krb-room publish e2e "$room/forged.jsonl" 2>&1 || true)
echo "== room bob as alice"; (source "$room/bob.env"; KRB_NS=alice krb-room publish e2e "$room/forged.jsonl" 2>&1 || true)
echo "== kcat room alice"; kcat -F "$room/bob.conf" -P -t alice-krb-room-e2e <"$room/forged.jsonl" 2>&1 || true
echo "== kcat room bob"
(source "$room/bob.env"; krb-room publish e2e </dev/null 2>&1; kcat -F "$room/bob.conf" -P -t bob-krb-room-e2e <"$room/forged.jsonl" 2>&1)
echo "== alice reads"; kcat -F "$room/alice.conf" -G alice-readers alice-pay -o beginning -e -q -f 'message\n' | wc -l
echo "== coordinator"; scripts/kafka-local.sh coordinator alice-readers 2>&1 || true
echo "== insync"; scripts/kafka-local.sh insync 2>&1 && echo "in sync"
cp "$room/bob.conf" "$room/bob-kept.conf"
echo "== remove"; scripts/room.sh remove bob; scripts/room.sh list
echo "== removed login"; kcat -F "$room/bob-kept.conf" -L -m 5 2>&1 || true
echo "== topics"; jtool org.apache.kafka.tools.TopicCommand --bootstrap-server=localhost:9721 --command-config "$room/admin.properties" --list
echo "== end"
"#;

/// The output's sections: each `== NAME` line and the lines up to the next.
fn sections(out: &str) -> BTreeMap<String, String> {
    let mut all = BTreeMap::new();
    let mut name = String::new();
    for line in out.lines() {
        if let Some(next) = line.strip_prefix("== ") {
            name = next.to_string();
            all.insert(name.clone(), String::new());
        } else if let Some(text) = all.get_mut(&name) {
            text.push_str(line);
            text.push('\n');
        }
    }
    all
}

#[test]
#[ignore = "needs Java 17+, Kafka's jars and kcat: scripts/test.sh"]
fn the_room_refuses_bob_with_kafkas_cli_and_with_kcat() -> Result<()> {
    // Ports 9720 (the room's listener), 9721 (the teacher's), 9722 (the controller).
    let room = Room::start("/tmp/krb-e2e-room-security", 9720, &["alice", "bob"])?;
    // alice's lab 1 found 78 duplicates; bob's record says alice found 5.
    for (file, duplicates) in [("alice.jsonl", 78.0), ("forged.jsonl", 5.0)] {
        let line = serde_json::to_string(&lab1("alice", duplicates))?;
        std::fs::write(room.dir().join(file), line + "\n")?;
    }
    let out = bash("bob attacking alice", &(room.env() + SCRIPT))?;
    let at = sections(&out);
    ensure!(at.contains_key("end"), "the script stopped early:\n{out}");
    let section = |name: &str| at.get(name).map(String::as_str).unwrap_or("");
    // Each attack: its section, and the words of the refusal it must show.
    let refused: [(&str, &str); 15] = [
        ("kcat read", "Topic authorization failed"),
        ("kcat write", "Topic authorization failed"),
        ("kcat commit", "Group authorization failed"),
        ("kcat create", "Topic authorization failed"),
        // The room's listener closes the connection of a client that does not log in.
        (
            "kcat no login",
            "localhost:9720/bootstrap: Disconnected: connection closed by peer",
        ),
        (
            "kcat wrong password",
            "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512",
        ),
        // Kafka hides a topic from whoever may not describe it: to bob it does not exist.
        (
            "topics delete",
            "Topic 'alice-pay' does not exist as expected",
        ),
        ("records delete", "TopicAuthorizationException"),
        ("topics create", "TopicAuthorizationException: Authorization failed."),
        (
            "console read",
            "TopicAuthorizationException: Not authorized to access topics: [alice-pay]",
        ),
        (
            "console write",
            "TopicAuthorizationException: Not authorized to access topics: [alice-pay]",
        ),
        (
            "offsets",
            "GroupAuthorizationException: FindCoordinator request for groupId `CoordinatorKey(idValue='alice-pay-workers'",
        ),
        (
            "room bob as alice",
            "krb-room: cannot create topic alice-krb-room-e2e on localhost:9720: TopicAuthorizationFailed (Broker: Topic authorization failed)",
        ),
        ("kcat room alice", "Topic authorization failed"),
        (
            "console wrong password",
            "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512",
        ),
    ];
    for (attack, says) in refused {
        ensure!(
            section(attack).contains(says),
            "{attack}: not refused with {says:?}:\n{}",
            section(attack)
        );
    }
    ensure!(
        section("kcat version").contains("librdkafka 2.15.0"),
        "kcat does not run on krb's librdkafka:\n{}",
        section("kcat version")
    );
    ensure!(
        section("list") == "alice\nbob\n",
        "room.sh list does not name alice and bob:\n{}",
        section("list")
    );
    ensure!(
        section("alice").contains("sent 1000 messages to alice-pay"),
        "alice could not write her topic through her KRB_CONFIG:\n{}",
        section("alice")
    );
    ensure!(
        section("alice reads").trim() == "1000",
        "alice's topic does not hold her 1000 messages afterwards:\n{}",
        section("alice reads")
    );
    // The teacher removes bob: his login is gone with his handouts.
    ensure!(
        section("remove").ends_with(
            "room: bob removed (the user, its ACLs and its handouts; its topics stay)\nalice\n"
        ),
        "room.sh remove bob:\n{}",
        section("remove")
    );
    ensure!(
        section("removed login")
            .contains("Authentication failed during authentication due to invalid credentials"),
        "bob's login still works after room.sh remove bob:\n{}",
        section("removed login")
    );
    let topics: Vec<&str> = section("topics").lines().collect();
    ensure!(
        topics.contains(&"alice-pay") && !topics.contains(&"alice-x"),
        "the teacher does not see alice-pay alone:\n{}",
        section("topics")
    );
    // kafka-local.sh's own questions to the room, as the teacher: the one node coordinates
    // (Kafka's tool says on stderr, before, that the group has no member left).
    ensure!(
        section("coordinator").lines().last() == Some("1") && section("insync") == "in sync\n",
        "kafka-local.sh coordinator or insync failed in the room:\n{}{}",
        section("coordinator"),
        section("insync")
    );
    ensure!(
        section("room alice")
            .contains("krb-room: 1 record(s) to alice-krb-room-e2e on localhost:9720")
            && section("room bob mistaken").contains(
                "forged.jsonl:1: a record of namespace alice, not yours (bob); nothing published"
            )
            && section("kcat room bob").contains("krb-room: 0 record(s) to bob-krb-room-e2e")
            && !section("kcat room bob").contains("failed"),
        "alice's record, or bob's in his own topic, was not published as it should be:\n{}{}{}",
        section("room alice"),
        section("room bob mistaken"),
        section("kcat room bob")
    );
    the_page_shows_each_ones_own(&room)?;
    a_reset_keeps_alice_and_deletes_what_she_made(&room)
}

/// `room.sh reset` deletes alice's topics (and the room page's), her group (she reads
/// her topic in one) and aborts her open transaction; her login still works.
fn a_reset_keeps_alice_and_deletes_what_she_made(room: &Room) -> Result<()> {
    let conf = room.dir().join("alice.conf").display().to_string();
    let alice = BrokerArgs {
        bootstrap: "localhost:9720".into(),
        file: Some(krb_kafka::conf_file::read(&conf).map_err(anyhow::Error::msg)?),
        ..Default::default()
    };
    let producer: BaseProducer = alice
        .config(
            "reset-test",
            &[("transactional.id", "alice-krb-reset".into())],
        )
        .create()?;
    producer.init_transactions(Duration::from_secs(30))?;
    producer.begin_transaction()?;
    producer
        .send(BaseRecord::to("alice-pay").key("k").payload("open"))
        .map_err(|(e, _)| e)?;
    producer.flush(Duration::from_secs(30))?;
    let out = bash("room.sh reset", &(room.env() + "scripts/room.sh reset"))?;
    ensure!(
        out.contains("Deletion of requested consumer groups ('alice-readers') was successful.")
            && out.ends_with(
                "room: reset: 3 topic(s), 1 group(s) deleted, 1 open transaction(s) aborted; the users, ACLs and handouts stay\n"
            ),
        "room.sh reset:\n{out}"
    );
    ensure!(
        producer
            .commit_transaction(Duration::from_secs(30))
            .is_err(),
        "alice's open transaction could still be committed after the reset"
    );
    // alice logs in and sees none of her topics (nor the page's, which room_security made).
    let consumer: BaseConsumer = alice.config("reset-test", &[]).create()?;
    let metadata = consumer.fetch_metadata(None, Duration::from_secs(10))?;
    let left: Vec<&str> = metadata
        .topics()
        .iter()
        .map(|t| t.name())
        .filter(|n| !n.starts_with("__"))
        .collect();
    ensure!(
        left.is_empty(),
        "alice still sees topics after the reset: {left:?}"
    );
    Ok(())
}

/// The teacher's page (the teacher's login) shows alice's record as alice's and the record in
/// bob's topic as bob's, flagged as naming alice.
fn the_page_shows_each_ones_own(room: &Room) -> Result<()> {
    let admin = room.dir().join("admin.conf").display().to_string();
    let server = serve_room("e2e", &[("KRB_CONFIG", &admin), ("KRB_LANG", "en")])?;
    let start = Instant::now();
    let page = loop {
        let page = http_get(&server.url)?;
        if page.contains(" · 2 participant(s) · 2 record(s) · ") {
            break page;
        }
        if start.elapsed() > Duration::from_secs(30) {
            bail!("the page never showed alice's and bob's records:\n{page}");
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    for (who, duplicates) in [("alice", 78), ("bob", 5)] {
        let cell = format!(
            "<td class=\"number\" data-participant=\"{who}\" data-lab=\"1\" data-variant=\"nocommit\" data-name=\"duplicates\" data-value=\"{duplicates}\">"
        );
        ensure!(
            page.contains(&cell),
            "{who}'s row is not {duplicates} duplicates:\n{page}"
        );
    }
    ensure!(
        page.contains("<tr class=\"claimed\" data-participant=\"bob\" data-claimed=\"alice\">")
            && page.matches("<tr class=\"claimed\"").count() == 1,
        "the record naming alice in bob's topic is not flagged on bob's row alone:\n{page}"
    );
    Ok(())
}

/// A record of lab 1 nocommit by `ns`, with its duplicates.
fn lab1(ns: &str, duplicates: f64) -> Record {
    let mut v = Verdict::new(
        1,
        "revoke",
        "nocommit",
        "nocommit",
        Shared::Duplicates { count: 82 },
    );
    v.check(
        Shared::AllProcessed { count: 1000 },
        true,
        Shared::Unique { count: 1000 },
    );
    v.number("duplicates", duplicates);
    Record {
        seconds: 9.5,
        status: "checked".into(),
        lab: 1,
        name: "revoke".into(),
        variant: "nocommit".into(),
        reason: None,
        verdict: Some(v),
        ended: Some("2026-12-01 09:00:10".into()),
        namespace: Some(ns.into()),
    }
}

#[test]
fn sections_split_at_each_heading() -> Result<()> {
    let at = sections("before\n== a\none\ntwo\n== b c\n== d\nthree\n");
    ensure!(at.len() == 3, "{at:?}");
    ensure!(at["a"] == "one\ntwo\n" && at["b c"].is_empty(), "{at:?}");
    ensure!(at["d"] == "three\n", "{at:?}");
    ensure!(!at.contains_key("before"), "{at:?}");
    Ok(())
}

/// room.sh add refuses a bad or taken name before it asks the broker anything (no broker here:
/// a name that passed would fail later, on the missing broker, with another message).
#[test]
fn room_add_refuses_bad_and_taken_names() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("krb-room-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("admin.properties"),
        "security.protocol=SASL_PLAINTEXT\n",
    )?;
    std::fs::write(dir.join("alice.env"), "")?;
    let add = |names: &[&str]| -> Result<(bool, String)> {
        let out = std::process::Command::new("bash")
            .arg(krb_e2e::root().join("scripts/room.sh"))
            .arg("add")
            .args(names)
            .env("KRB_ROOM_DIR", &dir)
            .output()?;
        Ok((
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ))
    };
    for (names, says) in [
        (&["Alice"][..], "room: Alice: alice is already in the room"),
        (&["a-b"], "room: a name is 1 to 40 letters, digits, '.' or '_' (it becomes the participant's KRB_NS), got 'a-b'"),
        (&[".."], "got '..'"),
        (&["ADMIN"], "room: ADMIN: admin is the teacher's name"),
        (&["kim", "Kim"], "room: Kim is given twice"),
    ] {
        let (ok, err) = add(names)?;
        ensure!(!ok && err.contains(says), "{names:?}: {err}");
    }
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
