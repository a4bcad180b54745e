//! Where the broker is: on this machine or not, and so whether the person needs a namespace.

use std::net::{SocketAddr, ToSocketAddrs, UdpSocket};

use krb_cli::lang::Lang;

use crate::check::Check;
use crate::messages as m;

/// The host of each `HOST:PORT` in a bootstrap list (`[::1]:9481` gives `::1`).
pub fn hosts(bootstrap: &str) -> Vec<String> {
    bootstrap
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(|a| {
            let host = a.rsplit_once(':').map_or(a, |(h, _)| h);
            host.trim_start_matches('[')
                .trim_end_matches(']')
                .to_string()
        })
        .collect()
}

/// Whether `host` names this machine: one of its addresses can be bound here, which holds for
/// localhost, all of 127.0.0.0/8 and every address of this machine's interfaces, whatever name
/// it goes by. A name that does not resolve is not this machine.
pub fn is_local(host: &str) -> bool {
    let mut addrs = (host, 0).to_socket_addrs().into_iter().flatten();
    addrs.any(|a| UdpSocket::bind(SocketAddr::new(a.ip(), 0)).is_ok())
}

/// The namespace check: a broker that is not on this machine is shared, as far as anyone can
/// tell from here, and there a lab run without KRB_NS recreates the topic others are reading.
pub fn namespace(bootstrap: &str, ns: Option<&str>, local: bool, lang: Lang) -> Check {
    match (ns, local) {
        (Some(ns), _) => Check::ok(m::NAMESPACE, m::NS_SET.fill(lang, &[("ns", &ns)])),
        (None, true) => Check::ok(
            m::NAMESPACE,
            m::NS_LOCAL.fill(lang, &[("bootstrap", &bootstrap)]),
        ),
        (None, false) => Check::failed(
            m::NAMESPACE,
            m::NS_NEEDED.fill(lang, &[("bootstrap", &bootstrap)]),
            m::NS_FIX.text(lang),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Status;

    #[test]
    fn hosts_drop_ports_and_brackets() {
        assert_eq!(
            hosts("localhost:9481, 192.168.0.10:9484,[::1]:9487"),
            ["localhost", "192.168.0.10", "::1"]
        );
        assert_eq!(hosts("broker"), ["broker"]);
    }

    #[test]
    fn loopback_is_local_and_another_network_is_not() {
        assert!(is_local("localhost"));
        assert!(is_local("127.0.0.1"));
        assert!(is_local("127.3.4.5"));
        // TEST-NET-1 (RFC 5737): an address no machine has.
        assert!(!is_local("192.0.2.1"));
        assert!(!is_local("no-such-host.invalid"));
    }

    #[test]
    fn a_namespace_is_needed_only_away_from_this_machine() {
        let away = namespace("192.0.2.1:9481", None, false, Lang::En);
        assert_eq!(away.status, Status::Failed);
        assert!(away.fix.unwrap().contains("export KRB_NS="));
        assert_eq!(
            namespace("192.0.2.1:9481", Some("alice"), false, Lang::En).status,
            Status::Ok
        );
        assert_eq!(
            namespace("localhost:9481", None, true, Lang::En).status,
            Status::Ok
        );
    }
}
