//! Command lines: bad input is one line on stderr and exit 2, as every krb tool promises.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::Parser;

use crate::lang::{Lang, Msg};

/// A worker's name, which starts every log line: one word.
pub fn worker_name(name: &str) -> Result<()> {
    if name.is_empty() || name.contains(char::is_whitespace) {
        bail!("the worker name {name:?} must be one word: it starts every log line");
    }
    Ok(())
}

/// An option's number of seconds, 0 or more.
pub fn seconds(what: &str, value: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(value)
        .with_context(|| format!("{what} must be a number of seconds, 0 or more; got {value}"))
}

/// clap's error as one line: its first line without `error: `, the lines that name what is
/// missing joined to it, and where to look next.
pub fn one_line(err: &clap::Error) -> String {
    let text = err.to_string();
    let mut parts = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        parts.push(line.strip_prefix("error: ").unwrap_or(line));
    }
    format!("{} (see --help)", parts.join(" "))
}

/// A value an option refused, with the option's own reason: clap's line, and its Korean.
pub const INVALID_VALUE: Msg = Msg {
    en: "invalid value '{value}' for '{arg}': {reason} (see --help)",
    ko: "'{arg}'의 값이 잘못됐습니다('{value}'): {reason} (--help 참고)",
};

/// clap's error as one line in `lang`: [`one_line`], but in Korean a value an option refused
/// (a bad KRB_NS, say) is said in Korean around the option's own reason. clap's other errors
/// stay as clap writes them.
pub fn one_line_in(lang: Lang, err: &clap::Error) -> String {
    if lang == Lang::Ko && err.kind() == ErrorKind::ValueValidation {
        let arg = err.get(ContextKind::InvalidArg);
        let value = err.get(ContextKind::InvalidValue);
        let reason = std::error::Error::source(err);
        if let (Some(ContextValue::String(arg)), Some(ContextValue::String(value)), Some(reason)) =
            (arg, value, reason)
        {
            return INVALID_VALUE.fill(lang, &[("arg", arg), ("value", value), ("reason", reason)]);
        }
    }
    one_line(err)
}

/// The librdkafka every tool runs, as the library itself says (`rd_kafka_version_str`).
pub fn librdkafka_version() -> String {
    rdkafka::util::get_rdkafka_version().1
}

/// What `--version` prints after the tool's name: its own version and the engine's, as kcat
/// does, since a lab's result depends on both.
pub fn version_line(own: &str) -> String {
    format!("{own} (librdkafka {})", librdkafka_version())
}

/// Parses the command line; `--help` and `--version` print and exit 0, anything wrong prints
/// `TOOL: what is wrong (see --help)` and exits 2.
pub fn parse<T: Parser>(tool: &str) -> T {
    let command = T::command();
    let own = command.get_version().unwrap_or("").to_string();
    // clap keeps a version only as &'static str; this runs once in a process.
    let version: &'static str = Box::leak(version_line(&own).into_boxed_str());
    let parsed = command
        .version(version)
        .try_get_matches()
        .and_then(|matches| T::from_arg_matches(&matches));
    match parsed {
        Ok(args) => args,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            e.exit()
        }
        Err(e) => {
            let lang = Lang::from_env().unwrap_or_default();
            crate::out::stderr_line(&format!("{tool}: {}", one_line_in(lang, &e)));
            std::process::exit(2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Parser, Debug)]
    struct Args {
        topic: String,
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        every: Option<u64>,
    }

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

    #[test]
    fn errors_are_one_line_that_names_the_problem() {
        let err = Args::try_parse_from(["t", "pay", "--every", "0"]).unwrap_err();
        let line = one_line(&err);
        assert!(!line.contains('\n'), "{line}");
        assert!(line.starts_with("invalid value '0' for '--every"), "{line}");
        let err = Args::try_parse_from(["t"]).unwrap_err();
        let line = one_line(&err);
        assert!(!line.contains('\n'), "{line}");
        assert!(line.contains("<TOPIC>"), "{line}");
    }

    #[derive(Parser, Debug)]
    struct Named {
        #[command(flatten)]
        ns: crate::namespace::Namespace,
    }

    #[test]
    fn a_refused_value_is_said_in_korean_around_its_reason() {
        let err = Named::try_parse_from(["t", "--ns", "a b"]).unwrap_err();
        let en = one_line_in(Lang::En, &err);
        assert_eq!(en, one_line(&err));
        // The English template is clap's own line.
        let reason = std::error::Error::source(&err).expect("the namespace's reason");
        assert_eq!(
            en,
            INVALID_VALUE.fill(
                Lang::En,
                &[("value", &"a b"), ("arg", &"--ns <NS>"), ("reason", reason)]
            )
        );
        let ko = one_line_in(Lang::Ko, &err);
        assert!(
            ko.starts_with("'--ns <NS>'의 값이 잘못됐습니다('a b'): ")
                && ko.ends_with("(--help 참고)"),
            "{ko}"
        );
        assert!(ko.contains("KRB_NS=alice") && !ko.contains('\n'), "{ko}");
        // Any other error stays clap's.
        let err = Args::try_parse_from(["t"]).unwrap_err();
        assert_eq!(one_line_in(Lang::Ko, &err), one_line(&err));
        assert!(crate::lang::table_problems(&[INVALID_VALUE]).is_empty());
    }
}
