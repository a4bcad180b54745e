//! The krb tools' Kafka plumbing: every use of librdkafka's C API (the workspace's `unsafe`
//! FFI) is in this crate.

pub mod group_settings;

/// Each item only with the `client` feature (librdkafka linked).
macro_rules! client {
    ($($item:item)*) => { $(#[cfg(feature = "client")] $item)* };
}

client! {
    pub mod broker;
    pub mod conf_file;
    pub mod group_admin;
    pub mod kafka_error;
    pub mod produce_batch;
    pub mod rdlog;
    pub mod share_consumer;
    pub mod signals;
    pub mod topic_readers;
    pub mod worker;

    /// The librdkafka every tool runs, as the library itself says (`rd_kafka_version_str`).
    pub fn librdkafka_version() -> String {
        rdkafka::util::get_rdkafka_version().1
    }

    /// What `--version` prints after the name of a tool that talks to Kafka: its own version and
    /// the engine's, as kcat does, since a lab's result depends on both.
    pub fn version_line(own: &str) -> String {
        format!("{own} (librdkafka {})", librdkafka_version())
    }
}

#[cfg(all(test, feature = "client"))]
mod tests {
    use super::*;

    #[test]
    fn the_version_names_the_vendored_librdkafka() {
        let header = include_str!("../../../vendor/librdkafka/src/rdkafka.h");
        let vendored = vendored_version(header);
        assert_eq!(vendored, "2.15.0");
        assert_eq!(librdkafka_version(), vendored);
        assert_eq!(
            version_line("0.1.0"),
            format!("0.1.0 (librdkafka {vendored})")
        );
    }

    /// RD_KAFKA_VERSION's 0xMMmmrrpp as MM.mm.rr.
    fn vendored_version(header: &str) -> String {
        let hex = header
            .lines()
            .find_map(|l| l.strip_prefix("#define RD_KAFKA_VERSION "))
            .and_then(|v| v.trim().strip_prefix("0x"))
            .expect("rdkafka.h defines RD_KAFKA_VERSION");
        let n = u32::from_str_radix(hex, 16).expect("a hex version");
        format!("{}.{}.{}", n >> 24, (n >> 16) & 0xff, (n >> 8) & 0xff)
    }
}
