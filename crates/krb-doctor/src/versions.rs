//! The broker's Kafka version, as far as its API versions prove it.
//!
//! A Kafka broker never says its release: the closest it comes is the range of versions of each
//! API it serves (its ApiVersions answer, which librdkafka logs with `debug=feature` as
//! `ApiKey Fetch (1) Versions 4..18`). What a range proves is a lower bound: a broker cannot
//! serve a version its release does not define. The markers below are versions that a release
//! defines as stable and that the release before it does not define at all, not even as
//! unstable. They were read from the `ApiKeys` of the kafka-clients jars of 3.9.1, 4.0.0, 4.1.0,
//! 4.2.0 and 4.3.1 (`oldestVersion()`, `latestVersion(false)` and `latestVersion(true)`), and
//! the Kafka 4.3.1 broker of scripts/kafka-local.sh serves every one of them.

use std::collections::BTreeMap;

use regex::Regex;

use krb_cli::lang::Lang;

use crate::check::Check;
use crate::messages as m;

/// The versions of each API one broker serves: API key to (oldest, newest).
pub type Ranges = BTreeMap<i16, (i16, i16)>;

/// Reads the ranges out of librdkafka's `APIVERSION` debug lines, broker by broker (the
/// broker's name as librdkafka gives it, e.g. `localhost:9481/1`).
pub fn parse<'a>(lines: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, Ranges> {
    let re = Regex::new(r"(\S+):\s+ApiKey \S+ \((\d+)\) Versions (\d+)\.\.(\d+)\s*$")
        .expect("a valid pattern");
    let mut brokers: BTreeMap<String, Ranges> = BTreeMap::new();
    for line in lines {
        let Some(c) = re.captures(line) else { continue };
        let (Ok(key), Ok(min), Ok(max)) = (c[2].parse(), c[3].parse(), c[4].parse()) else {
            continue;
        };
        brokers
            .entry(c[1].to_string())
            .or_default()
            .insert(key, (min, max));
    }
    brokers
}

/// Versions of an API that a release is the first to define: (release, API key, API, version),
/// newest release first.
const MARKERS: &[(&str, i16, &str, i16)] = &[
    ("4.3", 35, "DescribeLogDirs", 5),
    ("4.2", 2, "ListOffsets", 11),
    ("4.1", 1, "Fetch", 18),
    ("4.1", 0, "Produce", 13),
    ("4.0", 3, "Metadata", 13),
    ("4.0", 68, "ConsumerGroupHeartbeat", 1),
];

const FETCH: i16 = 1;

/// KIP-848's heartbeat, the consumer group protocol lab 5 runs (on by default from Kafka 4.0).
const CONSUMER_GROUP_HEARTBEAT: i16 = 68;

/// What one broker's ranges prove about its release.
#[derive(Debug, PartialEq, Eq)]
pub enum Release {
    /// This release or a newer one, and the version that proves it.
    AtLeast(&'static str, String),
    /// Before 4.0: it still serves Fetch v0 to v3, which Kafka 4.0 removed (KIP-896).
    Before4(String),
    /// Nothing above applies (the ranges are empty or unlike any release's).
    Unknown,
}

/// The newest release a marker proves; else whether the broker predates 4.0.
pub fn release(ranges: &Ranges, lang: Lang) -> Release {
    for &(release, key, api, version) in MARKERS {
        if ranges.get(&key).is_some_and(|&(_, max)| max >= version) {
            let values: [(&str, &dyn std::fmt::Display); 3] =
                [("api", &api), ("version", &version), ("release", &release)];
            return Release::AtLeast(release, m::NEW_IN.fill(lang, &values));
        }
    }
    match ranges.get(&FETCH) {
        Some(&(min, _)) if min < 4 => {
            Release::Before4(m::OLD_FETCH.fill(lang, &[("version", &min)]))
        }
        // Fetch from v4 only: Kafka 4.0 removed v0 to v3, and no release before it did.
        Some(_) => Release::AtLeast("4.0", m::NEW_FETCH.text(lang).into()),
        None => Release::Unknown,
    }
}

/// The version check: the release the weakest broker is at least, and whether lab 5's consumer
/// protocol is served. Lab 1 runs on any of them, so this only warns.
pub fn check(brokers: &BTreeMap<String, Ranges>, lang: Lang) -> Check {
    let fix = m::KAFKA_FIX.text(lang);
    // The weakest broker decides: with several, the one proving the oldest release.
    let weakest = brokers
        .values()
        .map(|r| (release(r, lang), r.contains_key(&CONSUMER_GROUP_HEARTBEAT)))
        .min_by_key(|(rel, _)| match rel {
            Release::Unknown => (0, ""),
            Release::Before4(_) => (1, ""),
            Release::AtLeast(v, _) => (2, *v),
        });
    let Some((release, kip848)) = weakest else {
        return Check::warn(m::KAFKA, m::NO_VERSIONS.text(lang), fix);
    };
    let protocol = if kip848 { m::KIP848 } else { m::NO_KIP848 }.text(lang);
    let detail = match release {
        Release::AtLeast(v, why) => {
            let detail = m::AT_LEAST.fill(
                lang,
                &[("release", &v), ("why", &why), ("protocol", &protocol)],
            );
            if kip848 {
                return Check::ok(m::KAFKA, detail);
            }
            detail
        }
        Release::Before4(why) => m::BEFORE_4.fill(lang, &[("why", &why), ("protocol", &protocol)]),
        Release::Unknown => m::UNTOLD.fill(lang, &[("protocol", &protocol)]),
    };
    Check::warn(m::KAFKA, detail, fix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Status;

    /// What librdkafka 2.12 logs for the Kafka 4.3.1 broker of scripts/kafka-local.sh (a few of
    /// its 75 lines), as rust-rdkafka hands them to a client context's log.
    const KAFKA_4_3_1: &[&str] = &[
        "[thrd:localhost:9881/bootstrap]: localhost:9881/bootstrap: Broker API support:",
        "[thrd:localhost:9881/bootstrap]: localhost:9881/bootstrap:   ApiKey Produce (0) Versions 0..13",
        "[thrd:localhost:9881/bootstrap]: localhost:9881/bootstrap:   ApiKey Fetch (1) Versions 4..18",
        "[thrd:localhost:9881/bootstrap]: localhost:9881/bootstrap:   ApiKey ListOffsets (2) Versions 1..11",
        "[thrd:localhost:9881/bootstrap]: localhost:9881/bootstrap:   ApiKey Metadata (3) Versions 0..13",
        "[thrd:localhost:9881/bootstrap]: localhost:9881/bootstrap:   ApiKey DescribeLogDirs (35) Versions 1..5",
        "[thrd:localhost:9881/bootstrap]: localhost:9881/bootstrap:   ApiKey ConsumerGroupHeartbeat (68) Versions 0..1",
        "[thrd:localhost:9881/bootstrap]: localhost:9881/bootstrap:  Feature MsgVer2: Produce (3..3) supported by broker",
    ];

    fn ranges(pairs: &[(i16, i16, i16)]) -> Ranges {
        pairs.iter().map(|&(k, a, b)| (k, (a, b))).collect()
    }

    #[test]
    fn reads_each_brokers_ranges_from_librdkafkas_lines() {
        let brokers = parse(KAFKA_4_3_1.iter().copied());
        let r = &brokers["localhost:9881/bootstrap"];
        assert_eq!(brokers.len(), 1);
        assert_eq!(r.len(), 6);
        assert_eq!(r[&1], (4, 18));
        assert_eq!(r[&68], (0, 1));
    }

    #[test]
    fn kafka_4_3_1_is_at_least_4_3_with_kip_848() {
        let check = check(&parse(KAFKA_4_3_1.iter().copied()), Lang::En);
        assert_eq!(check.status, Status::Ok);
        assert!(
            check
                .detail
                .starts_with(">= 4.3 (DescribeLogDirs v5, new in 4.3)"),
            "{}",
            check.detail
        );
    }

    /// The newest stable versions of kafka-clients 4.0.0, 4.1.0 and 4.2.0 (`ApiKeys`), which
    /// their brokers serve at most: each is placed at its own release, not a newer one.
    #[test]
    fn each_release_is_placed_at_itself() {
        let v4_0 = ranges(&[
            (0, 3, 12),
            (1, 4, 17),
            (2, 1, 10),
            (3, 0, 13),
            (35, 1, 4),
            (68, 0, 1),
        ]);
        let v4_1 = ranges(&[
            (0, 3, 13),
            (1, 4, 18),
            (2, 1, 10),
            (3, 0, 13),
            (35, 1, 4),
            (68, 0, 1),
        ]);
        let v4_2 = ranges(&[
            (0, 3, 13),
            (1, 4, 18),
            (2, 1, 11),
            (3, 0, 13),
            (35, 1, 4),
            (68, 0, 1),
        ]);
        for (r, v) in [(v4_0, "4.0"), (v4_1, "4.1"), (v4_2, "4.2")] {
            assert!(
                matches!(release(&r, Lang::En), Release::AtLeast(got, _) if got == v),
                "{v}: {:?}",
                release(&r, Lang::En)
            );
        }
    }

    /// Kafka 3.9.1's newest versions (every unstable one included): older than 4.0, and no
    /// stable KIP-848 heartbeat to offer.
    #[test]
    fn kafka_3_9_is_older_than_4_0_and_lab_5_is_warned() {
        let v3_9 = ranges(&[(0, 0, 11), (1, 0, 17), (2, 0, 9), (3, 0, 12), (35, 0, 4)]);
        assert!(matches!(release(&v3_9, Lang::En), Release::Before4(_)));
        let check = check(&[("b".to_string(), v3_9)].into(), Lang::En);
        assert_eq!(check.status, Status::Warn);
        assert!(
            check.detail.contains("older than 4.0 (it serves Fetch v0"),
            "{}",
            check.detail
        );
        assert!(
            check.detail.contains("lab 5's consumer variant cannot run"),
            "{}",
            check.detail
        );
    }

    /// Every kind of broker, in Korean: the reason is Korean too, not only its frame (it was
    /// English inline for a broker proven by its Fetch range alone, 4.0, and for one before 4.0).
    #[test]
    fn the_kafka_line_is_all_korean_under_korean_for_every_broker() {
        let v4_0 = ranges(&[(1, 4, 17), (35, 1, 4), (68, 0, 1)]);
        let v3_9 = ranges(&[(1, 0, 17), (35, 0, 4)]);
        let v4_3 = parse(KAFKA_4_3_1.iter().copied());
        for brokers in [
            [("a".to_string(), v4_0)].into(),
            [("b".to_string(), v3_9)].into(),
            v4_3,
        ] {
            let detail = check(&brokers, Lang::Ko).detail;
            let english = ["serves", "removed", "only", "from v4", "new in"];
            assert!(
                !english.iter().any(|w| detail.contains(w)),
                "English left in {detail:?}"
            );
        }
    }

    #[test]
    fn the_weakest_broker_decides_and_no_answer_is_a_warning() {
        let new = ranges(&[(1, 4, 18), (35, 1, 5), (68, 0, 1)]);
        let old = ranges(&[(1, 0, 17), (35, 0, 4)]);
        let both = [("a".to_string(), new.clone()), ("b".to_string(), old)].into();
        assert!(check(&both, Lang::En).detail.starts_with("older than 4.0"));
        assert!(check(&[("a".to_string(), new)].into(), Lang::En)
            .detail
            .starts_with(">= 4.3"));
        assert_eq!(check(&BTreeMap::new(), Lang::En).status, Status::Warn);
    }
}
