//! The krb tools' Kafka plumbing: every use of librdkafka's C API (the workspace's `unsafe`
//! FFI) is in this crate.
//!
//! - [`broker`]: the broker address (`--bootstrap`, `KRB_BOOTSTRAP`, `localhost:9481`) and `-X`.
//! - [`conf_file`]: librdkafka's settings from a file (`-F`).
//! - [`group_settings`]: the assignors and group protocols, named once.
//! - [`group_admin`]: the broker's consumer groups now (classic and KIP-848): members, partitions,
//!   committed offsets, through librdkafka's admin API.
//! - [`kafka_error`]: Kafka errors rendered as the article shows them.
//! - [`produce_batch`]: runs of messages handed to librdkafka in one call (krb-produce).
//! - [`share_consumer`]: librdkafka's share consumer, KIP-932 (krb-share).
//! - [`rdlog`]: librdkafka's own log lines, printed live in librdkafka's format.
//! - [`topic_readers`]: which groups with live members read a topic (what krb-topic will not delete).
//! - [`signals`]: a worker's clean stop on the first signal, a forced one on the second.
//! - [`worker`]: NAME GROUP TOPIC and the processing's pace, for krb-worker and krb-share alike.

#[cfg(feature = "client")]
pub mod broker;
#[cfg(feature = "client")]
pub mod conf_file;
#[cfg(feature = "client")]
pub mod group_admin;
pub mod group_settings;
#[cfg(feature = "client")]
pub mod kafka_error;
#[cfg(feature = "client")]
pub mod produce_batch;
#[cfg(feature = "client")]
pub mod rdlog;
#[cfg(feature = "client")]
pub mod share_consumer;
#[cfg(feature = "client")]
pub mod signals;
#[cfg(feature = "client")]
pub mod topic_readers;
#[cfg(feature = "client")]
pub mod worker;

#[cfg(feature = "client")]
/// The librdkafka every tool runs, as the library itself says (`rd_kafka_version_str`).
pub fn librdkafka_version() -> String {
    rdkafka::util::get_rdkafka_version().1
}

#[cfg(feature = "client")]
/// What `--version` prints after the name of a tool that talks to Kafka: its own version and
/// the engine's, as kcat does, since a lab's result depends on both.
pub fn version_line(own: &str) -> String {
    format!("{own} (librdkafka {})", librdkafka_version())
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
