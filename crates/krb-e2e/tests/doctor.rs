//! scripts/doctor.sh, the participants' pre-flight check: it passes against the tests' broker
//! and leaves nothing there; it fails with its fix line where no broker answers; it asks for a
//! namespace when the broker is not on this machine, and only then; in a workshop room
//! (scripts/room.sh), it fails with the fix for a wrong password, a missing login, a missing
//! KRB_CONFIG file and a namespace the room's ACLs do not allow.

use std::net::TcpListener;
use std::process::Command;
use std::time::Duration;

use anyhow::{ensure, Context, Result};
use krb_e2e::{bootstrap, root, said, tools, Room};
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::ClientConfig;

/// Runs scripts/doctor.sh with `env` set (and KRB_NS unset, in an English locale, unless `env`
/// sets them): its exit status and its lines.
fn doctor(env: &[(&str, &str)]) -> Result<(bool, String)> {
    let out = Command::new("bash")
        .arg("scripts/doctor.sh")
        .env_remove("KRB_NS")
        .env_remove("KRB_LANG")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C.UTF-8")
        .envs(env.iter().copied())
        .current_dir(root())
        .output()
        .context("cannot run scripts/doctor.sh")?;
    let text = said(&out);
    println!("{text}");
    Ok((out.status.success(), text))
}

#[test]
#[ignore = "needs the release tools and a broker: scripts/test.sh"]
fn doctor_passes_against_the_broker_and_leaves_no_topic() -> Result<()> {
    let (ok, out) = doctor(&[("KRB_BOOTSTRAP", &bootstrap())])?;
    ensure!(ok, "doctor failed against {}:\n{out}", bootstrap());
    for check in [
        "bash",
        "system",
        "linux tools",
        "krb tools",
        "librdkafka",
        "namespace",
        "broker",
        "Kafka",
        "clock",
    ] {
        ensure!(
            out.lines()
                .any(|l| l.starts_with(&format!("ok     {check}: "))),
            "no ok line for {check}:\n{out}"
        );
    }
    ensure!(
        out.contains("ok     Kafka: >= 4.3 ("),
        "the tests' broker is Kafka 4.3.1:\n{out}"
    );
    ensure!(
        out.contains("ok     librdkafka: 2.15.0 in every tool ("),
        "every tool runs the vendored librdkafka 2.15.0:\n{out}"
    );
    ensure!(out.ends_with("doctor: ready for lab 1\n"), "{out}");

    // A Korean locale: every check in Korean, doctor.sh's and krb-doctor's alike; only the
    // versions of bash and the system are bare values.
    let (ok, out) = doctor(&[("KRB_BOOTSTRAP", &bootstrap()), ("LANG", "ko_KR.UTF-8")])?;
    ensure!(ok, "doctor failed in Korean:\n{out}");
    let hangul = |t: &str| t.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
    for check in [
        "bash",
        "시스템",
        "Linux 도구",
        "krb 도구",
        "librdkafka",
        "namespace",
        "브로커",
        "Kafka",
        "시계",
    ] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("정상   {check}: ")))
            .with_context(|| format!("no 정상 line for {check}:\n{out}"))?;
        ensure!(
            ["bash", "시스템"].contains(&check) || hangul(&line[line.find(": ").unwrap()..]),
            "an English finding under Korean: {line}"
        );
    }
    ensure!(out.ends_with("doctor: 실습 1 준비 끝\n"), "{out}");

    // The clock's scratch topic is deleted again.
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap())
        .create()?;
    let metadata = consumer.fetch_metadata(None, Duration::from_secs(10))?;
    let left: Vec<_> = metadata
        .topics()
        .iter()
        .map(|t| t.name())
        .filter(|n| n.starts_with("krb-doctor-"))
        .collect();
    ensure!(left.is_empty(), "scratch topics left: {left:?}");
    Ok(())
}

#[test]
#[ignore = "needs the release tools: scripts/test.sh"]
fn doctor_fails_with_its_fix_where_no_broker_answers() -> Result<()> {
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let at = format!("localhost:{port}");
    let (ok, out) = doctor(&[("KRB_BOOTSTRAP", &at)])?;
    ensure!(!ok, "doctor passed with no broker at {at}:\n{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("FAILED broker: "))
        .with_context(|| format!("no FAILED broker line:\n{out}"))?;
    ensure!(
        line.contains(&format!(
            "no Kafka broker answers at {at} within 5 s (Connect to "
        )) && line.contains("Connection refused); fix: start one (scripts/kafka-local.sh start"),
        "{line}"
    );
    // What does not depend on the broker still holds.
    ensure!(
        out.contains("ok     krb tools: ") && out.contains("ok     namespace: "),
        "{out}"
    );
    ensure!(
        out.ends_with("doctor: not ready: fix each FAILED line before lab 1\n"),
        "{out}"
    );
    // The same in Korean: the failure, its fix and the verdict.
    let (ok, out) = doctor(&[("KRB_BOOTSTRAP", &at), ("KRB_LANG", "ko")])?;
    ensure!(!ok, "doctor passed with no broker at {at}:\n{out}");
    ensure!(
        out.lines().any(|l| l.starts_with(&format!(
            "실패   브로커: {at}에서 5초 안에 답하는 Kafka 브로커가 없어요 (Connect to "
        )) && l
            .contains("; 고칠 방법: 브로커를 띄우거나(scripts/kafka-local.sh start")),
        "{out}"
    );
    ensure!(
        out.ends_with("doctor: 준비 안 됨: 실습 1 전에 실패 줄을 모두 고치세요\n"),
        "{out}"
    );
    Ok(())
}

#[test]
#[ignore = "needs the release tools: scripts/test.sh"]
fn doctor_asks_for_a_namespace_when_the_broker_is_elsewhere() -> Result<()> {
    // TEST-NET-1 (RFC 5737): an address that is never this machine.
    let away = "192.0.2.1:9481";
    let (ok, out) = doctor(&[("KRB_BOOTSTRAP", away)])?;
    ensure!(!ok, "{out}");
    ensure!(
        out.contains(&format!(
            "FAILED namespace: KRB_NS is not set and the broker ({away}) is not on this machine"
        )) && out.contains("; fix: pick a name of your own: export KRB_NS=yourname"),
        "{out}"
    );
    let (_, out) = doctor(&[("KRB_BOOTSTRAP", away), ("KRB_NS", "alice")])?;
    ensure!(
        out.contains(
            "ok     namespace: KRB_NS=alice: your topics and groups on the broker are alice-NAME"
        ),
        "{out}"
    );
    // On this machine none is asked for.
    let (_, out) = doctor(&[("KRB_BOOTSTRAP", &bootstrap())])?;
    ensure!(
        out.contains("ok     namespace: none set, none needed"),
        "{out}"
    );
    Ok(())
}

#[test]
#[ignore = "needs the release tools: scripts/test.sh"]
fn doctor_fails_when_the_tools_run_two_librdkafkas() -> Result<()> {
    // Twelve of this build's tools and one that says it runs 2.12.1, as a tool of an older
    // build copied beside them would.
    let bin = std::env::temp_dir().join(format!("krb-doctor-mixed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&bin);
    std::fs::create_dir_all(&bin)?;
    let release = root().join("target/release");
    for tool in tools().iter().filter(|t| *t != "krb-dups") {
        std::os::unix::fs::symlink(release.join(tool), bin.join(tool))?;
    }
    let old = bin.join("krb-dups");
    std::fs::write(
        &old,
        "#!/bin/sh\necho 'krb-dups 0.1.0 (librdkafka 2.12.1)'\n",
    )?;
    std::fs::set_permissions(&old, std::os::unix::fs::PermissionsExt::from_mode(0o755))?;
    let (ok, out) = doctor(&[
        ("KRB_BOOTSTRAP", &bootstrap()),
        ("KRB_BIN", bin.to_str().context("a UTF-8 temp path")?),
    ])?;
    std::fs::remove_dir_all(&bin)?;
    ensure!(!ok, "doctor passed with tools of two engines:\n{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("FAILED librdkafka: "))
        .with_context(|| format!("no FAILED librdkafka line:\n{out}"))?;
    ensure!(
        line.contains("1 tools 2.12.1, 10 tools 2.15.0 (of thirteen)")
            && line.contains("fix: build them again together: cargo build --release"),
        "{line}"
    );
    Ok(())
}

#[test]
#[ignore = "needs the release tools, Java 17+ and Kafka's jars: scripts/test.sh"]
fn doctor_in_a_room_fails_with_the_fix_for_each_login_mistake() -> Result<()> {
    // Ports 9730 (the room's listener) to 9732.
    let room = Room::start("/tmp/krb-e2e-doctor-room", 9730, &["alice"])?;
    let [bootstrap, ns, config] = room.handout("alice");
    let conf = config.1.clone();
    let alice = [
        (bootstrap.0, bootstrap.1.as_str()),
        (ns.0, ns.1.as_str()),
        (config.0, conf.as_str()),
    ];
    let dir = room.dir();
    let (ok, out) = doctor(&alice)?;
    ensure!(ok, "doctor failed with alice's handout:\n{out}");
    ensure!(
        out.contains(&format!("ok     login: KRB_CONFIG={conf} (user alice)"))
            && out.contains("ok     access: alice may create and use alice-doctor"),
        "{out}"
    );
    // A wrong password: the broker refuses the login, and the fix is the handout's.
    let wrong = dir.join("wrong.conf").display().to_string();
    let text = std::fs::read_to_string(&conf)?;
    let guessed: String = text
        .lines()
        .map(|l| match l.starts_with("sasl.password=") {
            true => "sasl.password=guessed\n".to_string(),
            false => format!("{l}\n"),
        })
        .collect();
    ensure!(
        guessed != text,
        "alice.conf has no sasl.password line:\n{text}"
    );
    std::fs::write(&wrong, guessed)?;
    let (ok, out) = doctor(&[alice[0], alice[1], ("KRB_CONFIG", &wrong)])?;
    ensure!(!ok, "{out}");
    ensure!(
        out.contains("FAILED broker: no Kafka broker answers at localhost:9730 within 5 s (SASL authentication error: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512); fix: the broker refused the login alice of KRB_CONFIG ("),
        "{out}"
    );
    // No login at all.
    let (ok, out) = doctor(&alice[..2])?;
    ensure!(!ok, "{out}");
    ensure!(
        out.contains("FAILED broker: ")
            && out.contains("fix: the broker closed the connection, as a workshop room does to a client without a login: source your handout"),
        "{out}"
    );
    // A namespace the room gives alice no ACL for.
    let (ok, out) = doctor(&[alice[0], ("KRB_NS", "kim"), alice[2]])?;
    ensure!(!ok, "{out}");
    ensure!(
        out.contains("FAILED access: the broker does not let alice create kim-doctor (Topic authorization failed): KRB_NS is kim, not alice; fix: the room lets alice use only names that start with alice-: export KRB_NS=alice"),
        "{out}"
    );
    // The handout's file is not where KRB_CONFIG says.
    let missing = dir.join("elsewhere.conf").display().to_string();
    let (ok, out) = doctor(&[alice[0], alice[1], ("KRB_CONFIG", &missing)])?;
    ensure!(!ok, "{out}");
    ensure!(
        out.contains(&format!("FAILED login: KRB_CONFIG={missing}: no such file, or not readable; fix: source your handout's NAME.env")),
        "{out}"
    );
    Ok(())
}
