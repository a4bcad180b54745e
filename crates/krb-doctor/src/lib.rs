//! krb-doctor: the Kafka side of scripts/doctor.sh, the participants' pre-flight check.
//!
//! - [`check`]: one line per check, `ok`, `warn` or `FAILED`, with a fix.
//! - [`place`]: whether the broker is on this machine, and so whether a namespace is needed.
//! - [`versions`]: what the broker's API versions prove about its Kafka release.
//! - [`clock`]: this machine's clock against the broker's.
//! - [`probe`]: the Kafka client and what it keeps of librdkafka's events.
//! - [`login`]: a workshop room's login and what its ACLs let the namespace do.

pub mod check;
pub mod clock;
pub mod login;
pub mod place;
pub mod probe;
pub mod versions;

use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use clap::Parser;
use krb_common::broker::BrokerArgs;
use rdkafka::producer::{BaseProducer, Producer};

use crate::check::{Check, Status};
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

/// The fix when a broker names an address this machine cannot use.
const ADVERTISE_FIX: &str = "the broker must give clients an address the room reaches: its host starts it with KRB_ADVERTISE=THAT-ADDRESS (scripts/kafka-local.sh start, or docker compose -p kreb up -d)";

/// Runs every check, prints its line, and says whether none FAILED.
pub fn run(args: &Args) -> bool {
    let mut ok = true;
    let mut say = |check: Check| {
        ok &= check.status != Status::Failed;
        krb_common::out::stdout_line(&check.to_string());
    };
    let bootstrap = &args.broker.bootstrap;
    let local = place::hosts(bootstrap).iter().all(|h| place::is_local(h));
    say(place::namespace(
        bootstrap,
        args.broker.namespace.ns.as_deref(),
        local,
    ));
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
                (
                    "message.timeout.ms",
                    clock::DELIVERY_TIMEOUT.as_millis().to_string(),
                ),
            ],
        )
        .create_with_context(Probe::default())
    {
        Ok(p) => p,
        Err(e) => {
            say(Check::failed(
                "broker",
                format!("cannot make a Kafka client: {e}"),
                "check the -X properties",
            ));
            return ok;
        }
    };
    let metadata = producer.client().fetch_metadata(None, REACH_TIMEOUT);
    // The log lines librdkafka queued meanwhile (ApiVersions, failures) reach the probe now.
    probe::serve(&producer, Duration::from_millis(100));
    let metadata = match metadata {
        Ok(m) => m,
        Err(e) => {
            let why = producer
                .context()
                .failure()
                .unwrap_or_else(|| e.to_string());
            say(Check::failed(
                "broker",
                format!(
                    "no Kafka broker answers at {bootstrap} within {} s ({why})",
                    REACH_TIMEOUT.as_secs()
                ),
                login::refused_fix(&args.broker, &why).unwrap_or_else(|| {
                    "start one (scripts/kafka-local.sh start, or docker compose -p kreb up -d), or point KRB_BOOTSTRAP at the room's broker (export KRB_BOOTSTRAP=HOST:9481)".into()
                }),
            ));
            return ok;
        }
    };
    let brokers: Vec<_> = metadata
        .brokers()
        .iter()
        .map(|b| (b.id(), b.host().to_string(), b.port()))
        .collect();
    let named = advertised(bootstrap, local, &brokers);
    let reachable = named.status == Status::Ok;
    say(named);
    let lines = producer.context().api_lines();
    say(versions::check(&versions::parse(
        lines.iter().map(String::as_str),
    )));
    if !reachable {
        return ok;
    }
    let admin = args.broker.admin("krb-doctor");
    if let Ok((admin, _)) = &admin {
        if let Some(access) = login::access(&args.broker, admin) {
            let denied = access.status == Status::Failed;
            say(access);
            // The clock's scratch topic would be refused the same way.
            if denied {
                return ok;
            }
        }
    }
    let measured = admin
        .and_then(|(admin, options)| clock::measure(&args.broker, &producer, &admin, &options));
    say(match measured {
        Ok(sample) => clock::judge(sample, clock::TOLERANCE_MS),
        Err(e) => Check::warn(
            "clock",
            format!("not measured: {e:#}"),
            "the clock check creates and deletes a topic of your namespace: the broker must allow it",
        ),
    });
    ok
}

/// The broker check once the bootstrap broker answered: each broker it names for the clients'
/// next connections must be reachable from here, and not this machine when the bootstrap
/// address was another (a broker started without KRB_ADVERTISE names localhost).
fn advertised(bootstrap: &str, local: bool, brokers: &[(i32, String, i32)]) -> Check {
    let mut named = Vec::new();
    for (id, host, port) in brokers {
        let at = format!("{host}:{port}");
        if !local && place::is_local(host) {
            return Check::failed(
                "broker",
                format!(
                    "{bootstrap} answers, but names its broker {id} at {at}, which is this machine, not the broker"
                ),
                ADVERTISE_FIX,
            );
        }
        if let Err(e) = connect(&at) {
            return Check::failed(
                "broker",
                format!(
                    "{bootstrap} answers, but names its broker {id} at {at}, which does not answer from here ({e})"
                ),
                ADVERTISE_FIX,
            );
        }
        named.push(format!("{id} at {at}"));
    }
    Check::ok(
        "broker",
        format!("Kafka answers at {bootstrap}: broker {}", named.join(", ")),
    )
}

/// Opens a TCP connection to `at` and closes it.
fn connect(at: &str) -> std::io::Result<()> {
    let mut last = std::io::Error::other("no address");
    for addr in at.to_socket_addrs()? {
        match TcpStream::connect_timeout(&addr, REACH_TIMEOUT) {
            Ok(_) => return Ok(()),
            Err(e) => last = e,
        }
    }
    Err(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broker_named_at_this_machine_is_refused_only_when_the_bootstrap_was_elsewhere() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port() as i32;
        let here = [(1, "127.0.0.1".to_string(), port)];
        let check = advertised("192.0.2.1:9481", false, &here);
        assert_eq!(check.status, Status::Failed);
        assert!(
            check
                .detail
                .contains("which is this machine, not the broker"),
            "{}",
            check.detail
        );
        assert!(check.fix.unwrap().contains("KRB_ADVERTISE="));
        let check = advertised("localhost:9481", true, &here);
        assert_eq!(check.status, Status::Ok, "{check}");
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
}
