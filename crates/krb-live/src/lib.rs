//! krb-live: a live view of a consumer group while its lab runs (what it shows: its `Args`'
//! help). The logs are read through krb-log's one reader and grammar, and counted by krb-dups.

pub mod follow;
pub mod live;
pub mod messages;
pub mod page;
pub mod server;
pub mod state;
pub mod view;

use std::net::{IpAddr, TcpListener};

use anyhow::{anyhow, bail, Context, Result};
use clap::Parser;
use krb_cli::lang::Lang;
use krb_cli::namespace::Namespace;
use krb_log::reader::Logs;

/// krb-live: watch a consumer group's lab run live, in a browser.
///
/// Follows DIR/GROUP-*.log as the group's workers write them (new files as workers start) and
/// serves a page at http://ADDR:PORT/ that shows, for each worker, the partitions it owns over
/// time (assigned to revoked or lost), its processing, its rebalance events (start, assigned,
/// revoked, lost, MAXPOLL, commit failed, poll error, stop) and each duplicate processing as it
/// happens, with the running count krb-dups would print. The page updates within a second of
/// each log line, fetches nothing from the internet, and keeps the last state it showed once
/// the run (or krb-live) has ended. A rerun of the lab, which deletes the group's old logs,
/// starts the page afresh. Its state as JSON is at /state.
///
/// Run it in a second terminal before the lab:
///
///   krb-live nocommit            then, in the first: ./scripts/01-revoke.sh nocommit
///
/// KRB_LANG=ko gives the page's own words in Korean. Ctrl-C stops it.
#[derive(Parser, Debug)]
#[command(name = "krb-live", version, verbatim_doc_comment)]
pub struct Args {
    /// The consumer group: its workers' logs are DIR/GROUP-*.log.
    pub group: String,
    #[command(flatten)]
    pub logs: Logs,
    #[command(flatten)]
    pub namespace: Namespace,
    /// The port to serve on (0: any free port, printed at start).
    #[arg(long, value_name = "N", default_value_t = 8480)]
    pub port: u16,
    /// The address to serve on: 127.0.0.1 shows the page on this machine only; 0.0.0.0 to
    /// every machine that can reach this one (a room's projector on another computer).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: IpAddr,
}

/// What the command line and the environment ask for, checked: the page's language and a log
/// folder that is there. Anything wrong here is the user's to fix (exit 2).
pub struct Setup {
    args: Args,
    lang: Lang,
}

impl Setup {
    pub fn new(args: Args) -> Result<Setup> {
        let lang = Lang::from_env()?;
        if args.group.is_empty() || args.group.contains('/') {
            bail!(
                "{:?} is not a group name: name the group whose logs are DIR/GROUP-*.log, e.g. krb-live nocommit",
                args.group
            );
        }
        let dir = &args.logs.dir;
        if !dir.is_dir() {
            bail!(
                "no log folder {}: run krb-live where the lab writes its logs (the repository's top, or KRB_LOGS), or pass --logs DIR",
                dir.display()
            );
        }
        Ok(Setup { args, lang })
    }

    /// Listens, prints where, and serves until Ctrl-C.
    pub fn serve(self) -> Result<()> {
        let Setup { args, lang } = self;
        let listener = TcpListener::bind((args.bind, args.port)).map_err(|e| {
            anyhow!(
                "cannot serve on {}:{} ({e}): pass another --port N (or --port 0 for any free one)",
                args.bind,
                args.port
            )
        })?;
        let address = listener
            .local_addr()
            .context("cannot read the address served on")?;
        let live = live::Live::new(&args.logs.dir, &args.group, &args.namespace);
        let files = live.files();
        let published = live.start();
        let values: [(&str, &dyn std::fmt::Display); 3] = [
            ("group", &args.group),
            ("files", &files),
            ("address", &address),
        ];
        krb_cli::out::stdout_line(&STARTED.fill(lang, &values));
        server::serve(listener, page::Page::new(lang), published)
    }
}

krb_cli::msgs! { ;
    /// What krb-live prints when it serves (not the page's words: the page names no address).
    STARTED = "krb-live: group {group} from {files} at http://{address}/ (Ctrl-C stops)",
        "krb-live: 그룹 {group}, 로그 {files}, 주소 http://{address}/ (Ctrl-C로 멈춤)";
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_start_line_has_its_korean_text() {
        let problems = krb_cli::lang::table_problems(&[super::STARTED]);
        assert!(problems.is_empty(), "{problems:#?}");
    }

    use super::*;

    fn args(line: &[&str]) -> Args {
        Args::try_parse_from(std::iter::once("krb-live").chain(line.iter().copied())).unwrap()
    }

    #[test]
    fn a_missing_log_folder_or_a_path_for_a_group_is_refused_in_one_line() {
        let dir = krb_testutil::scratch_dir::<&str>("live-setup", &[]);
        let logs = dir.to_str().unwrap();
        assert!(Setup::new(args(&["nocommit", "--logs", logs])).is_ok());
        for (line, says) in [
            (
                vec!["nocommit", "--logs", "/no/such/folder"],
                "no log folder /no/such/folder",
            ),
            (vec!["a/b", "--logs", logs], "\"a/b\" is not a group name"),
        ] {
            let err = Setup::new(args(&line)).err().expect("refused").to_string();
            assert!(err.starts_with(says) && !err.contains('\n'), "{err}");
        }
    }

    #[test]
    fn a_port_in_use_is_refused_in_one_line_that_says_what_to_do() {
        let dir = krb_testutil::scratch_dir::<&str>("live-port", &[]);
        let taken = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = taken.local_addr().unwrap().port().to_string();
        let setup = Setup::new(args(&[
            "g",
            "--logs",
            dir.to_str().unwrap(),
            "--port",
            &port,
        ]));
        let err = setup.unwrap().serve().unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("cannot serve on 127.0.0.1:{port} ("))
                && err.contains("--port 0"),
            "{err}"
        );
    }
}
