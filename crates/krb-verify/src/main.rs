use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use krb_common::broker::BrokerArgs;
use krb_verify::Lab;

/// The labs, by their script's short name.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Which {
    /// 01-revoke.sh
    Revoke,
    /// 02-maxpoll.sh
    Maxpoll,
    /// 03-assignor.sh
    Assignor,
    /// 04-static.sh
    Static,
    /// 05-protocol.sh
    Protocol,
}

/// krb-verify: check a lab run's "must hold" statements against its logs and the broker.
///
/// Run it after a lab script, with the script's group and options:
///
///   krb-verify revoke nocommit
///   krb-verify revoke revcommit --revoke-commit
///   krb-verify maxpoll slow
///   krb-verify assignor coop --assignor cooperative-sticky
///   krb-verify static stat --static
///   krb-verify protocol kip848 --protocol consumer
///
/// Prints the article's number, ours, and each statement with `held` or `FAILED`; exit 0 only
/// when every statement held, 1 otherwise, 2 when the logs are missing.
#[derive(Parser, Debug)]
#[command(name = "krb-verify", version, verbatim_doc_comment)]
struct Args {
    /// Which lab ran.
    #[arg(value_enum)]
    lab: Which,
    /// The group it ran in.
    group: String,
    /// The lab ran with --revoke-commit (revoke, assignor).
    #[arg(long)]
    revoke_commit: bool,
    /// The assignor it ran with (assignor).
    #[arg(long, default_value = "range", value_parser = ["range", "cooperative-sticky"])]
    assignor: String,
    /// It ran with --static (static).
    #[arg(long = "static")]
    static_membership: bool,
    /// The group protocol it ran with (protocol).
    #[arg(long, default_value = "consumer", value_parser = ["classic", "consumer"])]
    protocol: String,
    /// Print the verdict as one JSON object.
    #[arg(long, conflicts_with = "row")]
    json: bool,
    /// Print the verdict as one tab-separated row: lab, variant, article, ours, held, failures.
    #[arg(long)]
    row: bool,
    /// The folder of the logs.
    #[arg(long, value_name = "DIR", default_value = "logs")]
    logs: PathBuf,
    #[command(flatten)]
    broker: BrokerArgs,
}

fn main() {
    let args: Args = krb_common::cli::parse("krb-verify");
    let lab = match args.lab {
        Which::Revoke => Lab::Revoke {
            revoke_commit: args.revoke_commit,
        },
        Which::Maxpoll => Lab::Maxpoll,
        Which::Assignor => Lab::Assignor {
            assignor: args.assignor.clone(),
            revoke_commit: args.revoke_commit,
        },
        Which::Static => Lab::Static {
            static_membership: args.static_membership,
        },
        Which::Protocol => Lab::Protocol {
            protocol: args.protocol.clone(),
        },
    };
    let verdict = match krb_verify::verify(&lab, &args.group, &args.logs, &args.broker) {
        Ok(v) => v,
        Err(err) => {
            eprintln!("krb-verify: {err:#}");
            std::process::exit(2);
        }
    };
    let text = if args.json {
        serde_json::to_string(&verdict).unwrap_or_default() + "\n"
    } else if args.row {
        verdict.row() + "\n"
    } else {
        verdict.render()
    };
    // A closed pipe is not an error.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    std::process::exit(if verdict.held() { 0 } else { 1 });
}
