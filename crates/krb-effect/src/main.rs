use clap::{Parser, Subcommand};
use krb_common::out::stdout_line;
use krb_effect::{Db, Kind};

/// krb-effects: the database side of processing, in krb-dups' report format.
///
///   krb-effects init sqlite:logs/effects.db
///   krb-effects count sqlite:logs/effects.db pay --effect idempotent
///
/// `init` makes the database and its tables, empty. `count` reads the rows one effect kind left
/// for TOPIC and prints them as krb-dups prints processings: a duplicate is a message whose
/// effect is there twice.
///
///   processed 1082, unique 1000, duplicates 82
///     p1: offset 400..481 (82) processed twice
///
/// Exit status: 0, or 2 with one line on stderr when the URL, the file or a table is wrong.
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
        /// sqlite:PATH
        url: String,
    },
    /// Print the effects of one kind for a topic.
    Count {
        /// sqlite:PATH
        url: String,
        /// The topic.
        topic: String,
        /// The effect kind whose table to read.
        #[arg(long, value_enum)]
        effect: Kind,
    },
}

fn main() {
    let args: Args = krb_common::cli::parse("krb-effects");
    let result = match &args.command {
        Command::Init { url } => Db::init(url).map(|_| stdout_line(&format!("made {url}"))),
        Command::Count { url, topic, effect } => Db::open(url)
            .and_then(|mut db| krb_effect::report(&mut db, *effect, topic))
            .map(|r| print!("{}", r.render())),
    };
    krb_common::exit_on_error("krb-effects", 2, result);
}
