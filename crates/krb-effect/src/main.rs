use clap::{Parser, Subcommand};
use krb_cli::out::stdout_line;
use krb_effect::Kind;
use krb_kafka::broker::BrokerArgs;

/// krb-effects: the database side of processing, in krb-dups' report format.
///
///   krb-effects init sqlite:logs/effects.db
///   krb-effects count sqlite:logs/effects.db pay --effect idempotent
///   krb-effects count postgres://postgres@localhost:5481/postgres pay --effect db-offsets
///   krb-effects count kafka:pay-out pay --effect kafka-eos
///
/// `init` makes the database's tables, empty, or (kafka:TOPIC) the output topic. `count` reads
/// the effects one kind left for TOPIC (a read_committed consumer reads a kafka: topic) and
/// prints them as krb-dups prints processings: a duplicate is a message whose effect is there
/// twice.
///
///   processed 1082, unique 1000, duplicates 82
///     p1: offset 400..481 (82) processed twice
///
/// A read_committed reader stops before a transaction still open: `count kafka:TOPIC` waits up
/// to 10 s for one to close, then names the offsets it holds back instead of counting short.
///
/// Exit status: 0, or 2 with one line on stderr when the URL, the database, a table or the
/// topic is wrong, or a transaction of the topic is still open.
#[derive(Parser, Debug)]
#[command(name = "krb-effects", version, verbatim_doc_comment)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Make the database and its tables, empty.
    Init {
        /// sqlite:PATH, postgres://USER@HOST:PORT/DB or kafka:TOPIC
        url: String,
        #[command(flatten)]
        broker: BrokerArgs,
    },
    /// Print the effects of one kind for a topic.
    Count {
        /// sqlite:PATH, postgres://USER@HOST:PORT/DB or kafka:TOPIC
        url: String,
        /// The topic.
        topic: String,
        /// The effect kind whose table to read.
        #[arg(long, value_enum)]
        effect: Kind,
        #[command(flatten)]
        broker: BrokerArgs,
    },
}

fn main() -> std::process::ExitCode {
    krb_cli::main(krb_kafka::version_line, |args: Args| {
        let lang = krb_cli::lang::Lang::of_process();
        let result = match &args.command {
            Command::Init { url, broker } => {
                krb_effect::init(url, broker).map(|_| stdout_line(&krb_effect::made(lang, url)))
            }
            Command::Count {
                url,
                topic,
                effect,
                broker,
            } => krb_effect::count(url, *effect, topic, broker).map(|r| print!("{}", r.render())),
        };
        // One line in the learner's language: krb-effect's own words translated, a library's
        // (PostgreSQL's, SQLite's, librdkafka's) after them as it wrote them.
        result.map_err(|err| krb_cli::usage(anyhow::anyhow!(krb_effect::explain(lang, &err))))
    })
}
