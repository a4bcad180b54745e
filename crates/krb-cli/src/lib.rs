//! The krb tools' command lines, languages and output, shared by every tool, those that talk to
//! Kafka (through krb-kafka) and those that only read logs (through krb-log).

use std::process::{ExitCode, Termination};

use clap::Parser;
use lang::Lang;

pub mod cli;
pub mod lang;
pub mod namespace;
pub mod out;

/// An error the user fixes in the command line or the environment: exit 2, as clap's own.
#[derive(Debug)]
pub struct Usage(anyhow::Error);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for Usage {}

pub fn usage(err: impl Into<anyhow::Error>) -> anyhow::Error {
    Usage(err.into()).into()
}

/// What a tool says for `err` and how it exits: `TOOL: error` on one line; 2 for a [`Usage`]
/// error, 1 for any other.
pub fn failure(tool: &str, err: &anyhow::Error) -> (String, u8) {
    let code = if err.is::<Usage>() { 2 } else { 1 };
    (format!("{tool}: {err:#}"), code)
}

/// A tool's `main`: parses its command line (`--help` and `--version`, the tool's version as
/// `version_line` says it, print and exit 0; a wrong line is [`cli::error_line`], exit 2),
/// refuses a `KRB_LANG` it does not speak (exit 2), then `run`s; an error is [`failure`].
pub fn main<T: Parser, R: Termination>(
    version_line: fn(&str) -> String,
    run: impl FnOnce(T) -> anyhow::Result<R>,
) -> ExitCode {
    let command = T::command();
    let tool = command.get_name().to_string();
    let version = version_line(command.get_version().unwrap_or(""));
    // clap keeps a version only as &'static str; this runs once in a process.
    let command = command.version(&*Box::leak(version.into_boxed_str()));
    let parsed = command
        .clone()
        .try_get_matches()
        .and_then(|matches| T::from_arg_matches(&matches));
    let result = match parsed {
        Ok(args) => Lang::from_env().map_err(usage).and_then(|_| run(args)),
        Err(e) => match cli::error_line(Lang::of_process(), &command, &e) {
            Some(line) => Err(usage(anyhow::anyhow!(line))),
            None => {
                // Help and version, and the help English shows for an empty command line.
                let _ = e.print();
                return ExitCode::from(e.exit_code() as u8);
            }
        },
    };
    result.map_or_else(
        |err| {
            let (line, code) = failure(&tool, &err);
            out::stderr_line(&line);
            ExitCode::from(code)
        },
        Termination::report,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_one_line_after_the_tool_and_exits_2_only_for_usage() {
        let err = anyhow::anyhow!("no such file").context("cannot read logs/a.log");
        assert_eq!(
            failure("krb-x", &err),
            ("krb-x: cannot read logs/a.log: no such file".into(), 1)
        );
        assert_eq!(
            failure("krb-x", &usage(err)),
            ("krb-x: cannot read logs/a.log: no such file".into(), 2)
        );
    }
}
