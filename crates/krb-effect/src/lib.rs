//! What a message's processing leaves behind (krb-worker's `--effect`, whose help says each
//! kind), in a store a person can inspect: the effect the article's last advice ("make the
//! processing itself idempotent") is about. The store is SQLite (built from source by rusqlite,
//! so a fresh machine needs nothing) or PostgreSQL with the same SQL, or for kafka-eos an output
//! topic read back as a read_committed consumer sees it.

use anyhow::{bail, Result};
use krb_cli::lang::Lang;
use krb_kafka::broker::BrokerArgs;
use krb_kafka::group_settings::value_name;
use krb_log::logline::{Offset, Partition};

mod db;
pub mod kafka;
pub mod messages;
mod store;

pub use db::Db;
/// The kinds of effect, named with the worker's other settings (no librdkafka needed to name one).
pub use krb_kafka::group_settings::Effect as Kind;
pub use messages::{explain, Said};

/// What applying an effect did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The row was written.
    Applied,
    /// The message's row was there already: nothing changed.
    AlreadyApplied,
    /// The partition's position in the database had moved on from where this worker read it
    /// (another worker owns it now): nothing was written.
    Refused,
}

/// One processed message, as its row holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub topic: String,
    pub partition: Partition,
    pub offset: Offset,
    /// The message's payload, as text.
    pub payload: String,
    /// The worker that processed it.
    pub worker: String,
    /// When, as the worker's log line writes it.
    pub at: String,
}

/// The output topic a `kafka:TOPIC` URL names, if it is one.
pub fn kafka_topic(url: &str) -> Option<&str> {
    url.strip_prefix("kafka:")
}

/// Checks that `url` is a store `kind` writes to: kafka-eos a topic, the others a database.
pub fn check_url(kind: Kind, url: &str) -> Result<()> {
    let quoted = format!("{url:?}");
    match (kafka_topic(url), kind) {
        (_, Kind::None) => Ok(()),
        (Some(""), _) => bail!(Said::new(messages::URL_NO_TOPIC, &[("url", &quoted)])),
        (Some(_), Kind::KafkaEos) => Ok(()),
        (None, Kind::KafkaEos) => bail!(Said::new(messages::EOS_NOT_TOPIC, &[("url", &quoted)])),
        (Some(_), _) => bail!(Said::new(
            messages::DB_NOT_TOPIC,
            &[("kind", &value_name(kind)), ("url", &quoted)]
        )),
        (None, _) => store::target(url).map(|_| ()),
    }
}

/// Makes the store at `url` empty: a database's tables, or (`kafka:TOPIC`) the output topic.
pub fn init(url: &str, broker: &BrokerArgs) -> Result<()> {
    match kafka_topic(url) {
        Some(topic) => kafka::init(broker, topic),
        None => Db::init(url).map(|_| ()),
    }
}

/// [`messages::MADE`] for `url`, an SQLite file under the current folder shown from there
/// (`sqlite:logs/x.db`, as the pages show it, though lab 6 hands the tools an absolute path).
pub fn made(lang: Lang, url: &str) -> String {
    let url = match url.strip_prefix("sqlite:") {
        Some(path) => format!("sqlite:{}", krb_cli::out::shown(std::path::Path::new(path))),
        None => url.to_string(),
    };
    messages::MADE.fill(lang, &[("url", &url)])
}

/// `kind`'s effects at `url` of processing `topic`'s messages, in krb-dups' report (the
/// output topic and `topic` as the lab calls them: the broker's namespace applies here, as the
/// worker wrote Kafka's names).
pub fn count(url: &str, kind: Kind, topic: &str, broker: &BrokerArgs) -> Result<krb_dups::Report> {
    Ok(krb_dups::analyse(
        &mut counts(url, kind, topic, broker)?,
        None,
    ))
}

/// [`count`]'s effects counted per message, for a check that asks of one message whether its
/// effect is there (lab 7's), which the report's runs and gaps cannot answer.
pub fn counts(url: &str, kind: Kind, topic: &str, broker: &BrokerArgs) -> Result<krb_dups::Counts> {
    check_url(kind, url)?;
    match kafka_topic(url) {
        Some(output) => kafka::counts(broker, output, &broker.name(topic)),
        None => db_counts(&mut Db::open(url)?, kind, &broker.name(topic)),
    }
}

/// The effects of `kind` for `topic`, counted per message: a row of one message counts once.
fn db_counts(db: &mut Db, kind: Kind, topic: &str) -> Result<krb_dups::Counts> {
    let mut counts = krb_dups::Counts::new();
    for row in db.rows(kind, topic)? {
        counts.add(row.worker.as_bytes(), row.partition, row.offset);
    }
    Ok(counts)
}

/// Whether a database URL names a PostgreSQL server (else an SQLite file).
pub fn is_postgres(url: &str) -> bool {
    matches!(store::target(url), Ok(store::Target::Postgres(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_says_the_store_in_the_learners_language_from_the_current_folder() {
        let here = std::env::current_dir().unwrap();
        let url = format!("sqlite:{}", here.join("logs/idemslow.db").display());
        assert_eq!(made(Lang::En, &url), "made sqlite:logs/idemslow.db");
        assert_eq!(
            made(Lang::Ko, &url),
            "빈 저장소를 만듦: sqlite:logs/idemslow.db"
        );
        assert_eq!(
            made(Lang::En, "sqlite:/elsewhere/x.db"),
            "made sqlite:/elsewhere/x.db"
        );
        assert_eq!(
            made(Lang::Ko, "kafka:eosrev-out"),
            "빈 저장소를 만듦: kafka:eosrev-out"
        );
        assert!(krb_cli::lang::table_problems(&[messages::MADE]).is_empty());
    }
}
