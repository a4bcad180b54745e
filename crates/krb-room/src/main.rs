//! krb-room's command: a participant's `publish`, the teacher's `serve`.

use std::net::{IpAddr, TcpListener};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use krb_cli::lang::Lang;
use krb_cli::out::stdout_line;
use krb_cli::usage;
use krb_kafka::broker::BrokerArgs;
use krb_room::{follow, page, publish, server, topic};

/// krb-room: a workshop room's results on one screen.
///
/// A participant's lab command publishes each variant's record to a topic of their own,
/// NS-krb-room-ROOM on the room's broker (NS: their KRB_NS), when KRB_ROOM names the room:
///
///   KRB_ROOM=monday KRB_NS=alice scripts/lab.sh
///
/// and the teacher serves the room's page, read from every participant's topic:
///
///   krb-room serve monday
///
/// The page names each participant after their topic (alice-krb-room-monday: alice), never
/// after what a record says. In a room with logins (scripts/room.sh) only alice may write
/// alice-krb-room-monday, so nobody can publish as her; the teacher serves the page with the
/// teacher's login (KRB_CONFIG=room/admin.conf). Without logins anyone can write any topic.
#[derive(Parser, Debug)]
#[command(name = "krb-room", version, verbatim_doc_comment)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// What krb-room does.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Publish lab records (krb-verify --record's JSON lines) to your topic in the room.
    ///
    /// The topic is NS-krb-room-ROOM, NS your namespace (--ns or KRB_NS, which it needs);
    /// it is created if missing. With no FILE, or -, reads stdin. Nothing is published if a
    /// line is not a record, or is the record of another namespace. No record at all checks
    /// the room: the broker answers and the topic is there.
    Publish {
        /// The room: your topic in it is NS-krb-room-ROOM.
        #[arg(value_parser = topic::parse_room)]
        room: String,
        /// Files of records, one JSON line each (logs/results.jsonl).
        files: Vec<PathBuf>,
        #[command(flatten)]
        broker: BrokerArgs,
    },
    /// Serve the room's page at http://ADDR:PORT/.
    ///
    /// A row a participant: the variant they finished last, each variant held or failed, and
    /// the numbers that vary; then their spread as pictures: lab 1's duplicates, lab 2's
    /// overlap and lab 3's duplicates by assignor. It reads every participant's topic
    /// (NS-krb-room-ROOM) from its beginning, finds new ones every 2 seconds, and names each
    /// participant after their topic; the page reloads itself every 2 seconds. KRB_LANG=ko for
    /// its words in Korean. Ctrl-C stops it.
    #[command(mut_arg("ns", |a| a.hide(true)))]
    Serve {
        /// The room: its participants' topics are NS-krb-room-ROOM.
        #[arg(value_parser = topic::parse_room)]
        room: String,
        /// The port to serve on (0: any free port, printed at start).
        #[arg(long, value_name = "N", default_value_t = 8481)]
        port: u16,
        /// The address to serve on: 127.0.0.1 shows the page on this machine only; 0.0.0.0 to
        /// every machine that can reach this one (a projector on another computer).
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
        bind: IpAddr,
        #[command(flatten)]
        broker: BrokerArgs,
    },
}

/// Runs the command: an error is the broker's or the network's (exit 1), or a [`usage`] one
/// (exit 2): a file that is not records, an unknown KRB_LANG.
fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Publish {
            room,
            files,
            broker,
        } => publish(&room, &files, &broker),
        Command::Serve {
            room,
            port,
            bind,
            broker,
        } => serve(&room, bind, port, &broker),
    }
}

fn publish(room: &str, files: &[PathBuf], broker: &BrokerArgs) -> Result<()> {
    let ns = broker.namespace.ns.as_deref().ok_or_else(|| {
        usage(anyhow::anyhow!(
            "your records go to a topic of your own, NS-krb-room-{room}: set your namespace \
             (KRB_NS=alice, or --ns alice; in a room with logins, source your handout)"
        ))
    })?;
    let lines = publish::read(files, ns).map_err(usage)?;
    let topic = topic::name(ns, room);
    let sent = topic::send(broker, &topic, &lines)?;
    stdout_line(&format!(
        "krb-room: {sent} record(s) to {topic} on {}",
        broker.bootstrap
    ));
    Ok(())
}

fn serve(room: &str, bind: IpAddr, port: u16, broker: &BrokerArgs) -> Result<()> {
    let lang = Lang::of_process();
    let listener = TcpListener::bind((bind, port))
        .with_context(|| {
            format!(
                "cannot serve on {bind}:{port}: pass another --port (or --port 0 for any free one)"
            )
        })
        .map_err(usage)?;
    let address = listener
        .local_addr()
        .context("cannot read the address served on")?;
    let topics = topic::name("NS", room);
    let shared = follow::start(broker, room)?;
    stdout_line(&format!(
        "krb-room: room {room} (topics {topics} on {}) at http://{address}/ (Ctrl-C stops)",
        broker.bootstrap
    ));
    let page = page::Page {
        room: room.to_string(),
        topics,
        bootstrap: broker.bootstrap.clone(),
        lang,
    };
    server::serve(listener, page, shared)
}

fn main() -> std::process::ExitCode {
    krb_cli::main(krb_kafka::version_line, run)
}
