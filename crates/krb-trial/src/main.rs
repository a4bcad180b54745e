use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::{Parser, Subcommand};
use krb_kafka::broker::BrokerArgs;
use krb_log::trial_log::FaultKind;
use krb_trial::plan::{plan, Shape};
use krb_trial::{cluster, report};

/// krb-trial: lab 7's fault trials, the pieces scripts/07-faults.sh runs.
///
///   krb-trial plan --seed 42 --trial 3 [--store-fault restart-db|kill-output-leader]
///       trial 3's fault schedule, one step a line: WAIT KIND TARGET HOLD (seconds to wait,
///       the fault, a worker, a partition whose leader dies, db or -, seconds until it is
///       healed); with --store-fault that kind is drawn too
///   krb-trial watch GROUP PARTITIONS FILE
///       sample GROUP's committed offsets of topic GROUP four times a second into FILE
///       (`10:02:14.250 sampler commit p0=120 p1=98`) until SIGTERM
///   krb-trial report logs/faults.jsonl [--json FILE]
///       sum the trials' verdicts (krb-verify faults --record) into one table
///   krb-trial leader TOPIC P
///       print the node that leads partition P of TOPIC
///   krb-trial insync [--timeout SECONDS]
///       wait until every partition has a leader and every replica in sync (after a node
///       came back), as the cluster's metadata says
///
/// The same seed gives the same schedules on any machine: a failing trial's line
/// `replay: 07-faults.sh --seed S --trial I` runs it alone again.
///
/// Exit status: report exits 1 when a trial failed, insync when the time ran out; every
/// command exits 2 on a wrong command line or unreadable input.
#[derive(Parser, Debug)]
#[command(name = "krb-trial", version, verbatim_doc_comment)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print a trial's fault schedule.
    Plan {
        /// The run's seed.
        #[arg(long)]
        seed: u64,
        /// The trial's number in the run.
        #[arg(long)]
        trial: u64,
        /// Faults per trial.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=20))]
        faults: u64,
        /// The topic's partitions.
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(i32).range(1..))]
        partitions: i32,
        /// The workers' session timeout, in milliseconds: a pause outlasts it.
        #[arg(long, value_name = "MS", default_value_t = 3000)]
        session_timeout_ms: u32,
        /// Also draw this fault of the effects' store: restart-db (a PostgreSQL the run may
        /// stop and start) or kill-output-leader (kafka-eos's output topic's leader).
        #[arg(long, value_name = "KIND", value_parser = store_fault)]
        store_fault: Option<FaultKind>,
    },
    /// Sample a group's committed offsets until SIGTERM.
    Watch {
        /// The group (its topic has the same name).
        group: String,
        /// The topic's partitions.
        #[arg(value_parser = clap::value_parser!(i32).range(1..))]
        partitions: i32,
        /// Where the samples go.
        file: PathBuf,
        #[command(flatten)]
        broker: BrokerArgs,
    },
    /// Print the node that leads a partition.
    Leader {
        /// The topic.
        topic: String,
        /// The partition.
        #[arg(value_parser = clap::value_parser!(i32).range(0..))]
        partition: i32,
        #[command(flatten)]
        broker: BrokerArgs,
    },
    /// Wait until every partition has a leader and every replica in sync.
    Insync {
        /// How long to wait.
        #[arg(long, value_name = "SECONDS", default_value_t = 120)]
        timeout: u64,
        #[command(flatten)]
        broker: BrokerArgs,
    },
    /// Sum the trials' records into one table.
    Report {
        /// The records, one krb-verify faults --record line per trial.
        file: PathBuf,
        /// Also write the totals as JSON here.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Print only the group of the trial to look at first (the first that failed, else the
        /// slowest to recover).
        #[arg(long, conflicts_with = "json")]
        worst: bool,
    },
}

fn store_fault(name: &str) -> Result<FaultKind, String> {
    FaultKind::parse(name)
        .filter(|k| k.on_store())
        .ok_or_else(|| format!("{name:?} is no store fault: restart-db or kill-output-leader"))
}

/// Runs the command: exit 0, or 1 for a report of a failed trial.
fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Command::Plan {
            seed,
            trial,
            faults,
            partitions,
            session_timeout_ms,
            store_fault,
        } => {
            let shape = Shape {
                faults: faults as usize,
                partitions,
                session_sec: f64::from(session_timeout_ms) / 1000.0,
                store: store_fault,
            };
            for step in plan(seed, trial, shape) {
                println!("{step}");
            }
        }
        Command::Watch {
            group,
            partitions,
            file,
            broker,
        } => krb_trial::watch::watch(&broker, &group, &group, partitions, &file)?,
        Command::Leader {
            topic,
            partition,
            broker,
        } => println!("{}", cluster::leader(&broker, &topic, partition)?),
        Command::Insync { timeout, broker } => {
            cluster::insync(&broker, Duration::from_secs(timeout))?
        }
        Command::Report { file, json, worst } => {
            let summary = report::summarise(&report::read(&file)?);
            if worst {
                summary.worst.iter().for_each(|w| println!("{w}"));
                return Ok(ExitCode::SUCCESS);
            }
            let lang = krb_cli::lang::Lang::of_process();
            print!("{}", report::render(&summary, lang));
            if let Some(path) = json {
                let text = serde_json::to_string_pretty(&summary)?;
                std::fs::write(&path, text + "\n")
                    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            }
            return Ok(ExitCode::from(u8::from(!summary.failed.is_empty())));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    krb_cli::main(krb_kafka::version_line, |args: Args| {
        // Every command's error is wrong input (exit 2) but insync's: time that ran out (1).
        let insync = matches!(args.command, Command::Insync { .. });
        run(args).map_err(|e| if insync { e } else { krb_cli::usage(e) })
    })
}
