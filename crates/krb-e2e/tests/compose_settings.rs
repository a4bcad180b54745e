//! compose.yaml and scripts/kafka-local.sh run the same Kafka: every setting of each service's
//! environment is the one kafka-local.sh writes for the same node (`kafka-local.sh config N`),
//! and kafka-local.sh writes none that compose.yaml leaves to the image. Only the addresses
//! differ, by design: inside Docker the inner listeners keep Kafka's ports on the container's
//! name, on the host they move next to the host listener.

use std::collections::BTreeMap;
use std::process::Command;

use krb_e2e::root;
use krb_testutil::scratch_dir;

type Settings = BTreeMap<String, String>;

const PASSWORD: &str = "teacher-pw";

/// What the apache/kafka image sets that compose.yaml does not name (Kafka's own defaults
/// but for the first), and kafka-local.sh writes.
const IMAGE: [(&str, &str); 6] = [
    ("group.initial.rebalance.delay.ms", "0"),
    ("inter.broker.listener.name", "PLAINTEXT"),
    ("min.insync.replicas", "1"),
    ("num.partitions", "1"),
    ("share.coordinator.state.topic.min.isr", "1"),
    ("share.coordinator.state.topic.replication.factor", "1"),
];

/// Each service's environment, YAML's merge keys (`<<: *cluster`) and aliases resolved: the
/// subset of YAML compose.yaml is written in, a map of maps at fixed indents.
fn compose_environments(yaml: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let (mut services, mut maps, mut values) = (BTreeMap::new(), BTreeMap::new(), BTreeMap::new());
    let (mut service, mut anchor, mut in_env) = (String::new(), None, false);
    for line in yaml.lines().filter(|l| !l.trim_start().starts_with('#')) {
        let indent = line.len() - line.trim_start().len();
        let (key, value) = line.trim().split_once(':').unwrap_or((line.trim(), ""));
        let value = value.trim();
        match indent {
            2 => service = key.to_string(),
            4 => {
                in_env = key == "environment";
                anchor = value.strip_prefix('&').map(str::to_string);
            }
            6 if in_env => {
                let env: &mut Settings = services.entry(service.clone()).or_default();
                if key == "<<" {
                    let merged: &Settings = &maps[value.trim_start_matches('*')];
                    env.extend(merged.clone());
                    continue;
                }
                let value = match value.split_once(' ') {
                    Some((a, rest)) if a.starts_with('&') => {
                        values.insert(a[1..].to_string(), rest.to_string());
                        rest.to_string()
                    }
                    _ if value.starts_with('*') => values[&value[1..]].clone(),
                    _ => value.trim_matches('"').to_string(),
                };
                env.insert(key.to_string(), value);
                if let Some(a) = &anchor {
                    maps.insert(a.clone(), env.clone());
                }
            }
            _ => {}
        }
    }
    services
}

/// An environment as the properties it sets: KAFKA_A_B___C is a.b-c (the image's rule), the
/// image's own settings under them, the room's password as the test gives it.
fn as_properties(env: &Settings) -> Settings {
    let mut props: Settings = IMAGE
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for (key, value) in env {
        let Some(name) = key.strip_prefix("KAFKA_").filter(|k| *k != "HEAP_OPTS") else {
            continue;
        };
        let name = name.replace("___", "-").replace('_', ".").to_lowercase();
        props.insert(
            name,
            value.replace("${KRB_ROOM_ADMIN_PASSWORD:-}", PASSWORD),
        );
    }
    addresses_apart(props)
}

/// Listeners and voters without the addresses that differ by design: a listener's name and,
/// for the host listener, its port; a voter's id.
fn addresses_apart(mut props: Settings) -> Settings {
    for key in [
        "listeners",
        "advertised.listeners",
        "controller.quorum.voters",
    ] {
        if let Some(value) = props.get_mut(key) {
            let items: Vec<String> = value
                .split(',')
                .map(|item| match item.split_once("://") {
                    Some(("HOST", address)) => {
                        format!("HOST://:{}", address.rsplit(':').next().unwrap())
                    }
                    Some((name, _)) => format!("{name}://"),
                    None => item.split('@').next().unwrap().to_string() + "@",
                })
                .collect();
            *value = items.join(",");
        }
    }
    props
}

/// The server.properties kafka-local.sh writes for node `node` of `nodes`, in a room or not.
fn kafka_local(nodes: u8, node: u8, room: bool) -> Settings {
    let dir = scratch_dir("compose-settings", &[("admin.password", PASSWORD)]);
    let mut run = Command::new("scripts/kafka-local.sh");
    run.args(["config", &node.to_string()])
        .current_dir(root())
        .env("KRB_KAFKA_HOME", dir.join("home"))
        .env("KRB_NODES", nodes.to_string())
        .env_remove("KRB_BROKER_PORT")
        .env_remove("KRB_ADVERTISE")
        .env_remove("KRB_ROOM_DIR");
    if room {
        run.env("KRB_ROOM_DIR", &*dir);
    }
    let out = run.output().expect("bash runs kafka-local.sh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let props = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .filter(|(k, _)| *k != "log.dirs")
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    addresses_apart(props)
}

#[test]
fn every_compose_service_has_kafka_locals_settings() {
    let yaml = std::fs::read_to_string(root().join("compose.yaml")).unwrap();
    let services = compose_environments(&yaml);
    let nodes = [
        ("kafka", 1, 1, false),
        ("kafka-1", 3, 1, false),
        ("kafka-2", 3, 2, false),
        ("kafka-3", 3, 3, false),
        ("kafka-room", 1, 1, true),
    ];
    assert_eq!(services.len(), nodes.len(), "{:?}", services.keys());
    let script = std::fs::read_to_string(root().join("scripts/kafka-local.sh")).unwrap();
    for (service, n, node, room) in nodes {
        let env = &services[service];
        assert_eq!(
            as_properties(env),
            kafka_local(n, node, room),
            "compose.yaml's {service} and kafka-local.sh's node {node} of {n}{}",
            if room { " in a room" } else { "" }
        );
        // The heap is a JVM option, not a property: kafka-local.sh starts the broker with it.
        assert!(script.contains(&format!("java {} ", env["KAFKA_HEAP_OPTS"])));
    }
}

#[test]
fn a_changed_setting_on_either_side_is_seen() {
    let yaml = std::fs::read_to_string(root().join("compose.yaml")).unwrap();
    let changed = yaml.replacen(
        "KAFKA_GROUP_SHARE_MIN_SESSION_TIMEOUT_MS: 6000",
        "KAFKA_GROUP_SHARE_MIN_SESSION_TIMEOUT_MS: 7000",
        1,
    );
    assert_ne!(
        as_properties(&compose_environments(&changed)["kafka"]),
        kafka_local(1, 1, false)
    );
    let merged = compose_environments(&yaml.replacen(
        "KAFKA_MIN_INSYNC_REPLICAS: 2",
        "KAFKA_MIN_INSYNC_REPLICAS: 1",
        1,
    ));
    assert_ne!(as_properties(&merged["kafka-3"]), kafka_local(3, 3, false));
}
