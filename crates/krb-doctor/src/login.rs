//! A workshop room's login (scripts/room.sh): the broker refusing who you are, and the room
//! refusing what your namespace would do. Each gets the fix a participant can act on.

use krb_kafka::broker::{wait, BrokerArgs, REACH_TIMEOUT};
use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::DefaultClientContext;
use rdkafka::error::RDKafkaErrorCode;

use krb_cli::lang::Lang;

use crate::check::Check;
use crate::messages as m;

/// The login librdkafka would use: `sasl.username`, from -X, else the KRB_CONFIG file.
pub fn username(args: &BrokerArgs) -> Option<String> {
    let file = args.file.iter().flat_map(|f| &f.properties);
    let file = file.map(|p| (&p.key, &p.value));
    let x = args.properties.iter().map(|(k, v)| (k, v));
    let (_, user) = file.chain(x).rfind(|(k, _)| *k == "sasl.username")?;
    Some(user.clone())
}

/// The fix when the broker did not answer because of the login (librdkafka's reason `why`):
/// `None` when the reason is another (nothing listens, a wrong address).
pub fn refused_fix(args: &BrokerArgs, why: &str, lang: Lang) -> Option<String> {
    if why.contains("invalid credentials") {
        let source = match &args.file {
            Some(f) if !f.path.as_os_str().is_empty() => {
                format!("KRB_CONFIG ({})", f.path.display())
            }
            _ => "-X".to_string(),
        };
        Some(m::LOGIN_REFUSED_FIX.fill(
            lang,
            &[
                ("user", &username(args).unwrap_or_else(|| "?".into())),
                ("source", &source),
            ],
        ))
    } else if username(args).is_none() && (why.contains("SASL") || why.contains("Disconnected")) {
        Some(m::NO_LOGIN_FIX.text(lang).into())
    } else {
        None
    }
}

/// The room's rule for a participant: with a login, the namespace must be the prefix the
/// room's ACLs give that login, and the broker must let it create topics there. Asked with a
/// CreateTopics that only validates (nothing is created). `None` without a login.
pub fn access(
    args: &BrokerArgs,
    admin: &AdminClient<DefaultClientContext>,
    lang: Lang,
) -> Option<Check> {
    let user = username(args)?;
    let topic = args.name("doctor");
    let answer = wait(
        admin.create_topics(
            [&NewTopic::new(&topic, 1, TopicReplication::Fixed(-1))],
            &AdminOptions::new()
                .request_timeout(Some(REACH_TIMEOUT))
                .validate_only(true),
        ),
    );
    let code = match answer {
        Ok(results) => match results.into_iter().next() {
            Some(Err((_, code))) => Some(code),
            _ => None,
        },
        Err(e) => e.rdkafka_error_code(),
    };
    let ns = args.namespace.ns.as_deref();
    Some(judge(&user, ns, &topic, code, lang))
}

/// The access line from what the broker said of creating `topic` as `user` (`code`: its error,
/// none when it would have been created).
pub fn judge(
    user: &str,
    ns: Option<&str>,
    topic: &str,
    code: Option<RDKafkaErrorCode>,
    lang: Lang,
) -> Check {
    match code {
        None | Some(RDKafkaErrorCode::TopicAlreadyExists) => Check::ok(
            m::ACCESS,
            m::ACCESS_OK.fill(lang, &[("user", &user), ("topic", &topic)]),
        ),
        Some(RDKafkaErrorCode::TopicAuthorizationFailed)
        | Some(RDKafkaErrorCode::ClusterAuthorizationFailed) => Check::failed(
            m::ACCESS,
            match ns {
                Some(ns) if ns != user => m::ACCESS_OTHER_NS
                    .fill(lang, &[("user", &user), ("topic", &topic), ("ns", &ns)]),
                _ => m::ACCESS_NO_ACL.fill(lang, &[("user", &user), ("topic", &topic)]),
            },
            m::ACCESS_FIX.fill(lang, &[("user", &user)]),
        ),
        Some(other) => Check::warn(
            m::ACCESS,
            m::ACCESS_UNKNOWN.fill(lang, &[("topic", &topic), ("code", &other)]),
            m::ACCESS_UNKNOWN_FIX.text(lang),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Status;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        broker: BrokerArgs,
    }

    fn args(argv: &[&str]) -> BrokerArgs {
        Cli::parse_from(std::iter::once("t").chain(argv.iter().copied())).broker
    }

    #[test]
    fn the_login_is_x_s_else_the_files() {
        let file =
            std::env::temp_dir().join(format!("krb-doctor-login-{}.conf", std::process::id()));
        std::fs::write(&file, "sasl.username=alice\nsasl.password=p\n").unwrap();
        let path = file.to_str().unwrap();
        assert_eq!(
            username(&args(&["--config", path])).as_deref(),
            Some("alice")
        );
        assert_eq!(
            username(&args(&["--config", path, "-X", "sasl.username=bob"])).as_deref(),
            Some("bob")
        );
        assert_eq!(username(&args(&[])), None);
        let fix = refused_fix(
            &args(&["--config", path]),
            "SASL authentication error: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512",
            Lang::En,
        )
        .unwrap();
        assert!(
            fix.contains("refused the login alice of KRB_CONFIG ("),
            "{fix}"
        );
        assert!(fix.contains(path), "{fix}");
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn only_a_login_s_refusal_gets_the_login_s_fix() {
        let none = args(&[]);
        for why in [
            "Disconnected: verify that security.protocol is correctly configured, broker might require SASL authentication",
            "Disconnected: connection closed by peer: receive 0 after POLLIN",
        ] {
            let fix = refused_fix(&none, why, Lang::En).unwrap();
            assert!(fix.contains("source your handout"), "{fix}");
        }
        assert_eq!(
            refused_fix(
                &none,
                "Connect to ipv4#127.0.0.1:9481 failed: Connection refused",
                Lang::En
            ),
            None
        );
    }

    #[test]
    fn access_fails_when_the_broker_refuses_the_namespace() {
        let denied = Some(RDKafkaErrorCode::TopicAuthorizationFailed);
        let check = judge("alice", Some("kim"), "kim-doctor", denied, Lang::En);
        assert_eq!(check.status, Status::Failed);
        assert!(
            check.detail.contains("KRB_NS is kim, not alice"),
            "{check:?}"
        );
        assert!(
            check
                .fix
                .as_deref()
                .unwrap()
                .contains("export KRB_NS=alice"),
            "{check:?}"
        );
        let check = judge("alice", Some("alice"), "alice-doctor", denied, Lang::En);
        assert_eq!(check.status, Status::Failed);
        assert!(
            check.detail.contains("the room has no ACL for it"),
            "{check:?}"
        );
        for allowed in [None, Some(RDKafkaErrorCode::TopicAlreadyExists)] {
            assert_eq!(
                judge("alice", Some("alice"), "alice-doctor", allowed, Lang::En).status,
                Status::Ok
            );
        }
        let check = judge(
            "alice",
            Some("alice"),
            "alice-doctor",
            Some(RDKafkaErrorCode::RequestTimedOut),
            Lang::En,
        );
        assert_eq!(check.status, Status::Warn);
    }
}
