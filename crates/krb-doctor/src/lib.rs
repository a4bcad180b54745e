//! krb-doctor: the Kafka side of scripts/doctor.sh, the participants' pre-flight check.

pub mod check;
pub mod clock;
pub mod login;
pub mod messages;
pub mod place;
pub mod probe;
pub mod versions;

use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use clap::Parser;
use krb_cli::lang::Lang;
use krb_kafka::broker::BrokerArgs;
use rdkafka::producer::{BaseProducer, Producer};

use crate::check::{Check, Status};
use crate::messages as m;
use crate::probe::Probe;

/// krb-doctor: check the broker a lab would use, one line per check.
///
/// namespace: KRB_NS is set when the broker is not on this machine (a broker others may share).
/// broker:    a Kafka broker answers at --bootstrap, and every broker it names answers too.
/// Kafka:     the newest release its API versions prove it is at least (a broker never says its
///            version), and whether it serves KIP-848's consumer group protocol (lab 5).
/// access:    with a login (a room's KRB_CONFIG), the room lets it create the namespace's topics
///            (asked without creating one).
/// clock:     this machine's clock is within 1 s of the broker's, measured on a scratch topic of
///            the namespace (created and deleted again).
///
/// Each line is `ok`, `warn` (lab 1 runs, a later lab may not) or `FAILED` (lab 1 cannot run,
/// or would disturb others), followed by what to do. Exit 1 when a check FAILED.
/// scripts/doctor.sh runs it after checking this machine.
#[derive(Parser, Debug)]
#[command(name = "krb-doctor", version, verbatim_doc_comment)]
pub struct Args {
    #[command(flatten)]
    pub broker: BrokerArgs,
}

/// How long the broker has to answer: a room's network, not a local socket.
const REACH_TIMEOUT: Duration = Duration::from_secs(5);

/// Runs every check, prints its line in `lang`, and says whether none FAILED.
pub fn run(args: &Args, lang: Lang) -> bool {
    let mut ok = true;
    let mut say = |check: Check| {
        ok &= check.status != Status::Failed;
        krb_cli::out::stdout_line(&check.line(lang));
    };
    let bootstrap = &args.broker.bootstrap;
    let local = place::hosts(bootstrap).iter().all(|h| place::is_local(h));
    let ns = args.broker.namespace.ns.as_deref();
    say(place::namespace(bootstrap, ns, local, lang));
    let timeout = clock::DELIVERY_TIMEOUT.as_millis().to_string();
    let producer: BaseProducer<Probe> = match args
        .broker
        .config(
            "krb-doctor",
            &[
                // The ApiVersions answer is logged under this debug context only.
                ("debug", "feature".into()),
                // The clock's message: one copy acknowledged is enough for a time stamp.
                ("enable.idempotence", "false".into()),
                ("acks", "1".into()),
                ("message.timeout.ms", timeout),
            ],
        )
        .create_with_context(Probe::default())
    {
        Ok(p) => p,
        Err(e) => {
            say(Check::failed(
                m::BROKER,
                m::NO_CLIENT.fill(lang, &[("why", &e)]),
                m::NO_CLIENT_FIX.text(lang),
            ));
            return ok;
        }
    };
    let metadata = producer.client().fetch_metadata(None, REACH_TIMEOUT);
    // The log lines librdkafka queued meanwhile (ApiVersions, failures) reach the probe now.
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(100) {
        producer.poll(Duration::from_millis(10));
    }
    let metadata = match metadata {
        Ok(m) => m,
        Err(e) => {
            let why = producer
                .context()
                .failure()
                .unwrap_or_else(|| e.to_string());
            let secs = REACH_TIMEOUT.as_secs();
            let values: [(&str, &dyn std::fmt::Display); 3] =
                [("bootstrap", bootstrap), ("seconds", &secs), ("why", &why)];
            let fix = login::refused_fix(&args.broker, &why, lang)
                .unwrap_or_else(|| m::START_BROKER.text(lang).into());
            say(Check::failed(
                m::BROKER,
                m::NO_BROKER.fill(lang, &values),
                fix,
            ));
            return ok;
        }
    };
    let brokers: Vec<_> = metadata
        .brokers()
        .iter()
        .map(|b| (b.id(), b.host().to_string(), b.port()))
        .collect();
    let named = advertised(bootstrap, local, &brokers, lang);
    let reachable = named.status == Status::Ok;
    say(named);
    let lines = producer.context().api_lines();
    let ranges = versions::parse(lines.iter().map(String::as_str));
    say(versions::check(&ranges, lang));
    if !reachable {
        return ok;
    }
    let admin = args.broker.admin("krb-doctor");
    if let Ok((admin, _)) = &admin {
        if let Some(access) = login::access(&args.broker, admin, lang) {
            let denied = access.status == Status::Failed;
            say(access);
            // The clock's scratch topic would be refused the same way.
            if denied {
                return ok;
            }
        }
    }
    let measured = admin.and_then(|(admin, options)| {
        clock::measure(&args.broker, &producer, &admin, &options, lang)
    });
    say(match measured {
        Ok(sample) => clock::judge(sample, clock::TOLERANCE_MS, lang),
        Err(e) => Check::warn(
            m::CLOCK,
            m::CLOCK_UNMEASURED.fill(lang, &[("why", &format!("{e:#}"))]),
            m::CLOCK_UNMEASURED_FIX.text(lang),
        ),
    });
    ok
}

/// The broker check once the bootstrap broker answered: each broker it names for the clients'
/// next connections must be reachable from here, and not this machine when the bootstrap
/// address was another (a broker started without KRB_ADVERTISE names localhost).
fn advertised(bootstrap: &str, local: bool, brokers: &[(i32, String, i32)], lang: Lang) -> Check {
    let mut named = Vec::new();
    for (id, host, port) in brokers {
        let at = format!("{host}:{port}");
        let failed = |msg: krb_cli::lang::Msg, why: &dyn std::fmt::Display| {
            let values: [(&str, &dyn std::fmt::Display); 4] = [
                ("bootstrap", &bootstrap),
                ("id", id),
                ("at", &at),
                ("why", why),
            ];
            let fix = m::ADVERTISE_FIX.text(lang);
            Check::failed(m::BROKER, msg.fill(lang, &values), fix)
        };
        if !local && place::is_local(host) {
            return failed(m::NAMED_HERE, &"");
        }
        if let Err(e) = connect(&at) {
            return failed(m::NAMED_SILENT, &e);
        }
        named.push(m::BROKER_AT.fill(lang, &[("id", id), ("at", &at)]));
    }
    let brokers = named.join(", ");
    Check::ok(
        m::BROKER,
        m::BROKERS.fill(lang, &[("bootstrap", &bootstrap), ("brokers", &brokers)]),
    )
}

fn connect(at: &str) -> std::io::Result<TcpStream> {
    let none = Err(std::io::Error::other("no address"));
    at.to_socket_addrs()?.fold(none, |last, addr| {
        last.or_else(|_| TcpStream::connect_timeout(&addr, REACH_TIMEOUT))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broker_named_at_this_machine_is_refused_only_when_the_bootstrap_was_elsewhere() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port() as i32;
        let here = [(1, "127.0.0.1".to_string(), port)];
        let check = advertised("192.0.2.1:9481", false, &here, Lang::En);
        assert_eq!(check.status, Status::Failed);
        assert!(
            check
                .detail
                .contains("which is this machine, not the broker"),
            "{}",
            check.detail
        );
        assert!(check.fix.unwrap().contains("KRB_ADVERTISE="));
        let check = advertised("localhost:9481", true, &here, Lang::En);
        assert_eq!(check.status, Status::Ok, "{check:?}");
        assert_eq!(
            check.detail,
            format!("Kafka answers at localhost:9481: broker 1 at 127.0.0.1:{port}")
        );
    }

    #[test]
    fn a_broker_named_where_nothing_answers_is_refused() {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port() as i32
        };
        let check = advertised(
            "localhost:9481",
            true,
            &[(2, "127.0.0.1".to_string(), port)],
            Lang::En,
        );
        assert_eq!(check.status, Status::Failed);
        assert!(
            check.detail.contains("names its broker 2 at 127.0.0.1:"),
            "{}",
            check.detail
        );
        assert!(
            check.detail.contains("does not answer from here"),
            "{}",
            check.detail
        );
    }

    /// Each finding and fix every check can give, in Korean: none may be left in English.
    #[test]
    fn every_check_speaks_korean_under_korean() {
        let hangul = krb_cli::lang::has_hangul;
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port() as i32
        };
        let ko = Lang::Ko;
        let ranges = |pairs: &[(i16, i16, i16)]| -> versions::Ranges {
            pairs.iter().map(|&(k, a, b)| (k, (a, b))).collect()
        };
        let sample = |sent, reported, broker| clock::Sample {
            sent,
            reported,
            broker,
        };
        let denied = Some(rdkafka::error::RDKafkaErrorCode::TopicAuthorizationFailed);
        let timeout = Some(rdkafka::error::RDKafkaErrorCode::RequestTimedOut);
        let checks = [
            place::namespace("b:1", Some("alice"), false, ko),
            place::namespace("b:1", None, true, ko),
            place::namespace("b:1", None, false, ko),
            login::judge("alice", Some("alice"), "alice-doctor", None, ko),
            login::judge("alice", Some("kim"), "kim-doctor", denied, ko),
            login::judge("alice", Some("alice"), "alice-doctor", denied, ko),
            login::judge("alice", Some("alice"), "alice-doctor", timeout, ko),
            versions::check(
                &[("a".into(), ranges(&[(1, 4, 18), (35, 1, 5), (68, 0, 1)]))].into(),
                ko,
            ),
            versions::check(&[("a".into(), ranges(&[(1, 4, 18)]))].into(), ko),
            versions::check(&[("a".into(), ranges(&[(1, 0, 17)]))].into(), ko),
            versions::check(&[("a".into(), ranges(&[(0, 0, 9)]))].into(), ko),
            versions::check(&Default::default(), ko),
            clock::judge(sample(10_000, 10_010, 10_005), clock::TOLERANCE_MS, ko),
            clock::judge(sample(10_000, 10_010, 8_000), clock::TOLERANCE_MS, ko),
            clock::judge(sample(10_000, 13_000, 11_500), clock::TOLERANCE_MS, ko),
            advertised(
                "192.0.2.1:9481",
                false,
                &[(1, "127.0.0.1".into(), port)],
                ko,
            ),
            advertised("localhost:9481", true, &[(2, "127.0.0.1".into(), port)], ko),
        ];
        for check in &checks {
            let line = check.line(ko);
            assert!(hangul(&check.detail), "{line}");
            assert!(check.fix.as_deref().is_none_or(hangul), "{line}");
            assert!(
                hangul(check.name.text(ko)) || check.name.en == check.name.ko,
                "{line}"
            );
        }
        assert_eq!(
            checks[4].line(ko),
            "실패   권한: 브로커가 alice 사용자에게 kim-doctor 토픽을 만들게 해 주지 않아요(Topic \
             authorization failed): KRB_NS(kim)가 로그인 이름(alice)와 달라요; 고칠 방법: 교실은 \
             alice 사용자에게 alice-NAME 꼴의 이름만 허락해요: export KRB_NS=alice (유인물의 .env가 \
             정해 줘요), 또는 강사에게 추가해 달라고 하세요(scripts/room.sh add alice)"
        );
        let args = |argv: &[&str]| {
            Args::parse_from(std::iter::once("krb-doctor").chain(argv.iter().copied())).broker
        };
        for (argv, why) in [
            (&["-X", "sasl.username=alice"][..], "invalid credentials"),
            (&[][..], "Disconnected: connection closed by peer"),
        ] {
            let fix = login::refused_fix(&args(argv), why, ko).unwrap();
            assert!(hangul(&fix), "{fix}");
        }
    }
}
