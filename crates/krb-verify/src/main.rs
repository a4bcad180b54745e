use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args as ClapArgs, Parser, Subcommand};
use krb_cli::lang::Lang;
use krb_cli::out::{stderr_line, stdout_line};
use krb_cli::usage;
use krb_kafka::broker::BrokerArgs;
use krb_log::reader::Logs;
use krb_verify::record::{self, Record};
use krb_verify::{Assignor, Lab, Protocol};

/// krb-verify: check a lab run's "must hold" statements against its logs and the broker.
///
/// Run it after a lab script, with the script's group and options (every lab script ends by
/// running it):
///
///   krb-verify revoke nocommit
///   krb-verify revoke revcommit --revoke-commit
///   krb-verify maxpoll slow
///   krb-verify assignor coop --assignor cooperative-sticky
///   krb-verify static stat --static
///   krb-verify protocol kip848 --protocol consumer
///   krb-verify idempotent once --effect idempotent --scenario maxpoll
///   krb-verify faults faults-42-1 --effect db-offsets --db postgres://postgres@localhost:5491/postgres
///   krb-verify share share --scenario kill
///   krb-verify deploy deploy-range range
///
/// Prints the article's number, ours, and each statement with `held` or `FAILED`. Lines of the
/// logs that look like worker lines but do not parse are named on stderr and left out.
///
/// The lab command records each variant (--record FILE, a JSON line each) and then prints them
/// all as one table with `krb-verify table FILE`.
///
/// Exit status: 0 when every statement held, 1 when one did not, 2 when the logs cannot be read
/// or the command line is wrong.
#[derive(Parser, Debug)]
#[command(name = "krb-verify", version, verbatim_doc_comment)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Lab 1, 01-revoke.sh GROUP [--revoke-commit].
    Revoke {
        /// The group the lab ran in.
        group: String,
        /// The lab ran with --revoke-commit.
        #[arg(long)]
        revoke_commit: bool,
        #[command(flatten)]
        out: Output,
    },
    /// Lab 2, 02-maxpoll.sh [GROUP].
    Maxpoll {
        /// The group the lab ran in (its topic has the same name).
        group: String,
        #[command(flatten)]
        out: Output,
    },
    /// Lab 3, 03-assignor.sh GROUP --assignor A [--revoke-commit].
    Assignor {
        /// The group the lab ran in.
        group: String,
        /// The assignor it ran with.
        #[arg(long, value_enum)]
        assignor: Assignor,
        /// The lab ran with --revoke-commit.
        #[arg(long)]
        revoke_commit: bool,
        #[command(flatten)]
        out: Output,
    },
    /// Lab 4, 04-static.sh GROUP [--static].
    Static {
        /// The group the lab ran in.
        group: String,
        /// The lab ran with --static.
        #[arg(long = "static")]
        static_membership: bool,
        #[command(flatten)]
        out: Output,
    },
    /// Lab 5, 05-protocol.sh GROUP --protocol P.
    Protocol {
        /// The group the lab ran in (lab 2's part ran in GROUP_maxpoll).
        group: String,
        /// The group protocol it ran with.
        #[arg(long, value_enum)]
        protocol: Protocol,
        #[command(flatten)]
        out: Output,
    },
    /// Lab 6, 06-idempotent.sh GROUP --effect E [--scenario S] [--db URL].
    Idempotent {
        /// The group the lab ran in.
        group: String,
        /// The effect it ran with.
        #[arg(long, value_enum)]
        effect: krb_effect::Kind,
        /// The scenario it ran.
        #[arg(long, value_enum, default_value = "revoke")]
        scenario: krb_verify::idempotent::Scenario,
        /// Its database, when not the SQLite file LOGS/GROUP.db.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        #[command(flatten)]
        out: Output,
    },
    /// Lab 7, one trial of 07-faults.sh in GROUP (its topic has the same name).
    Faults {
        /// The trial's group.
        group: String,
        /// The effect its workers ran with.
        #[arg(long, value_enum, default_value = "none")]
        effect: krb_effect::Kind,
        /// Its effects' store, when not lab 6's default for the group.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        /// Check a kept trial again after its group was deleted (07-faults.sh deletes every
        /// trial's topic and group): the final committed offsets are read from its witness file,
        /// Kafka's own table, instead of from the broker.
        #[arg(long)]
        recheck: bool,
        #[command(flatten)]
        out: Output,
    },
    /// Lab 8, 08-share.sh GROUP --scenario S (its topic has the same name).
    Share {
        /// The share group the lab ran in.
        group: String,
        /// The scenario it ran.
        #[arg(long, value_enum, default_value = "join")]
        scenario: krb_verify::share::Scenario,
        /// The group's share.delivery.count.limit, as the lab set it (the reject scenario).
        #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..))]
        limit: u16,
        #[command(flatten)]
        out: Output,
    },
    /// Lab 9, one row of 09-deploy.sh GROUP: group GROUP-ROW, row ROW (its topic has the
    /// group's name).
    Deploy {
        /// The row's group.
        group: String,
        /// The row it ran: range, coop, consumer, with -revoke and -static added, then kill and
        /// kill-idempotent.
        #[arg(value_name = "ROW", value_parser = parse_row)]
        matrix_row: krb_verify::deploy::Row,
        /// The idempotent rows' database, when not the SQLite file LOGS/GROUP.db.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        #[command(flatten)]
        out: Output,
    },
    /// Lab 9's rows for 09-deploy.sh GROUP, one line each, tab-separated: row, signal (TERM or
    /// KILL), membership (static or dynamic), the effects' store (- for none), the worker
    /// options. A row it does not know: one line, exit 2.
    DeployRows {
        /// The script's group: each row runs in GROUP-ROW.
        group: String,
        /// Only these rows, comma-separated.
        #[arg(long, value_name = "ROW,...")]
        only: Option<String>,
        /// Where the rows' logs (and the idempotent rows' databases) go.
        #[command(flatten)]
        logs: Logs,
    },
    /// Lab 9's decision table of 09-deploy.sh's records (exit 0 only if all held).
    DeployTable {
        /// The records, one JSON line per row.
        file: PathBuf,
    },
    /// Print the records of a lab command's run as one table (exit 0 only if all held).
    Table {
        /// The records, one JSON line per lab variant.
        file: PathBuf,
        /// Also write them as one JSON document (an array) here.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Also write them as one self-contained HTML page here, with each variant's
        /// timelines (read from --logs) inline.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        #[command(flatten)]
        logs: Logs,
    },
}

/// How a verdict is printed, and where it is recorded.
#[derive(ClapArgs, Debug)]
struct Output {
    /// Print the verdict as one JSON object.
    #[arg(long, conflicts_with_all = ["row", "record"])]
    json: bool,
    /// Print the verdict as one tab-separated row: lab, variant, article, ours, held, failures.
    #[arg(long, conflicts_with = "record")]
    row: bool,
    /// Append the verdict to FILE as one JSON line and print only how many statements held.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// With --record: how long the lab script ran.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 0.0,
        requires = "record"
    )]
    seconds: f64,
    /// With --record: the lab script failed, and why.
    #[arg(long, value_name = "REASON", requires = "record")]
    script_failed: Option<String>,
    #[command(flatten)]
    logs: Logs,
    #[command(flatten)]
    broker: BrokerArgs,
}

fn held(yes: bool) -> ExitCode {
    ExitCode::from(u8::from(!yes))
}

fn parse_row(name: &str) -> Result<krb_verify::deploy::Row, String> {
    krb_verify::deploy::Row::parse(name).map_err(|m| m.text(Lang::of_process()))
}

fn main() -> ExitCode {
    // Every error is the logs' or the command line's: exit 2.
    krb_cli::main(krb_kafka::version_line, |args| run(args).map_err(usage))
}

fn run(args: Args) -> Result<ExitCode> {
    let lang = Lang::of_process();
    let (lab, group, out, db) = match args.command {
        Command::Revoke {
            group,
            revoke_commit,
            out,
        } => (Lab::Revoke { revoke_commit }, group, out, None),
        Command::Maxpoll { group, out } => (Lab::Maxpoll, group, out, None),
        Command::Share {
            group,
            scenario,
            limit,
            out,
        } => (Lab::Share { scenario, limit }, group, out, None),
        Command::Assignor {
            group,
            assignor,
            revoke_commit,
            out,
        } => (
            Lab::Assignor {
                assignor,
                revoke_commit,
            },
            group,
            out,
            None,
        ),
        Command::Static {
            group,
            static_membership,
            out,
        } => (Lab::Static { static_membership }, group, out, None),
        Command::Protocol {
            group,
            protocol,
            out,
        } => (Lab::Protocol { protocol }, group, out, None),
        Command::Idempotent {
            group,
            effect,
            scenario,
            db,
            out,
        } => (
            Lab::Idempotent {
                effect,
                scenario,
                postgres: db.as_deref().is_some_and(krb_effect::is_postgres),
            },
            group,
            out,
            db,
        ),
        Command::Faults {
            group,
            effect,
            db,
            recheck,
            out,
        } => (Lab::Faults { effect, recheck }, group, out, db),
        Command::Deploy {
            group,
            matrix_row,
            db,
            out,
        } => (Lab::Deploy { row: matrix_row }, group, out, db),
        Command::DeployRows { group, only, logs } => {
            let rows = krb_verify::deploy::Row::select(only.as_deref())
                .map_err(|m| anyhow::anyhow!(m.text(lang)))?;
            for row in rows {
                stdout_line(&row.script_line(&format!("{group}-{}", row.name()), &logs.dir));
            }
            return Ok(ExitCode::SUCCESS);
        }
        Command::DeployTable { file } => {
            let records = record::read(&file)?;
            print!("{}", krb_verify::deploy::table(&records, lang));
            return Ok(held(records.iter().all(Record::held)));
        }
        Command::Table {
            file,
            json,
            html,
            logs,
        } => {
            let records = record::read(&file)?;
            let write = |path: &Path, text: String| {
                std::fs::write(path, text)
                    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
            };
            if let Some(path) = html {
                write(&path, krb_verify::html::page(&records, &logs.dir, lang))?;
            }
            if let Some(path) = json {
                write(&path, serde_json::to_string_pretty(&records)? + "\n")?;
            }
            print!("{}", record::table_in(&records, lang));
            return Ok(held(records.iter().all(Record::held)));
        }
    };
    let verdict = krb_verify::verify(lab, &group, &out.logs.dir, &out.broker, db.as_deref());
    for s in verdict.iter().flat_map(|v| &v.skipped) {
        stderr_line(&format!("krb-verify: {s}"));
    }
    if let Some(file) = &out.record {
        let (n, name, variant) = lab.names();
        let reason = match (&verdict, &out.script_failed) {
            (Ok(_), r) => r.clone(),
            (Err(e), Some(r)) => Some(format!("{r}; krb-verify: {e:#}")),
            (Err(e), None) => Some(format!("krb-verify: {e:#}")),
        };
        let verdict = verdict.ok();
        let record = Record {
            seconds: out.seconds,
            status: verdict.as_ref().map_or("error", |_| "checked").into(),
            lab: n,
            name: name.into(),
            variant,
            reason,
            verdict,
            ended: Some(chrono::Local::now().format("%Y-%m-%d %H:%M:%S").to_string()),
            namespace: out.broker.namespace.ns.clone(),
        };
        record.append(file)?;
        stdout_line(&record.summary_in(lang));
        return Ok(held(record.held()));
    }
    let v = verdict?;
    let text = if out.json {
        serde_json::to_string(&v).unwrap_or_default()
    } else if out.row {
        v.row()
    } else {
        v.render_in(lang).trim_end().to_string()
    };
    stdout_line(&text);
    Ok(held(v.held()))
}
