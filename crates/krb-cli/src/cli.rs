//! Command lines: bad input is one line on stderr and exit 2, as every krb tool promises.

use std::time::Duration;

use anyhow::{bail, Result};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use regex::Regex;

use crate::lang::Lang;

crate::msgs! { ;
    /// A worker's name that is not one word (`name`: quoted).
    WORKER_NAME = "the worker name {name} must be one word: it starts every log line",
        "워커 이름은 한 단어여야 해요(로그의 모든 줄이 그 이름으로 시작해요). 받은 값: {name}";
    SECONDS = "{what} must be a number of seconds, 0 or more; got {value}",
        "{what}에는 0 이상의 초를 주세요. 받은 값: {value}";
}

/// A worker's name, which starts every log line: one word.
pub fn worker_name(name: &str) -> Result<()> {
    if name.is_empty() || name.contains(char::is_whitespace) {
        bail!(WORKER_NAME.fill(Lang::of_process(), &[("name", &format!("{name:?}"))]));
    }
    Ok(())
}

/// An option's number of seconds, 0 or more.
pub fn seconds(what: &str, value: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(value).map_err(|_| {
        anyhow::anyhow!(SECONDS.fill(Lang::of_process(), &[("what", &what), ("value", &value)]))
    })
}

/// clap's error as one line: its first line without `error: `, the lines that name what is
/// missing or what was meant joined to it, then the usage and where to look next.
pub fn one_line(err: &clap::Error) -> String {
    let text = err.to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more information"))
        .map(|line| line.strip_prefix("error: ").unwrap_or(line))
        .collect();
    with_usage(Lang::En, parts.join(" "), err.get(ContextKind::Usage))
}

/// What clap says, in Korean; the English templates are clap's own words, which English keeps.
pub mod says {
    crate::msgs! { ALL;
        INVALID_VALUE = "invalid value '{value}' for '{arg}': {reason}",
            "'{arg}'의 값이 잘못됐습니다('{value}'): {reason}";
        NOT_A_CHOICE = "invalid value '{value}' for '{arg}' [possible values: {valid}]",
            "'{arg}'의 값이 잘못됐습니다('{value}'): 쓸 수 있는 값은 {valid}";
        NO_VALUE = "a value is required for '{arg}' but none was supplied", "'{arg}'에 값이 없습니다";
        UNKNOWN = "unexpected argument '{arg}' found", "알 수 없는 인자: '{arg}'";
        SIMILAR = "tip: a similar argument exists: '{arg}'", "비슷한 인자: '{arg}'";
        MISSING = "the following required arguments were not provided: {args}",
            "꼭 줘야 하는 인자가 빠졌습니다: {args}";
        UNKNOWN_SUBCOMMAND = "unrecognized subcommand '{arg}'", "알 수 없는 하위 명령: '{arg}'";
        NO_SUBCOMMAND =
            "'{arg}' requires a subcommand but one was not provided [subcommands: {valid}]",
            "'{arg}'에는 하위 명령이 필요합니다: {valid}";
        CONFLICT = "the argument '{arg}' cannot be used with '{other}'",
            "함께 쓸 수 없는 인자: '{arg}', '{other}'";
        TWICE = "the argument '{arg}' cannot be used multiple times", "두 번 줄 수 없는 인자: '{arg}'";
        TOO_MANY = "unexpected value '{value}' for '{arg}' found; no more were expected",
            "'{arg}'의 값이 너무 많습니다: '{value}'";
        EMPTY = "no arguments given", "인자가 없습니다";
        /// Any other mistake: the argument clap names, if any.
        OTHER = "the command line is wrong: '{arg}'", "명령줄이 잘못됐습니다: '{arg}'";
        TAIL = "(usage: {usage}; see --help)", "(사용법: {usage}; --help 참고)";
    }
}

/// `text`, then clap's `usage` without its word `Usage:` (none with a refused value) and where
/// to look next.
fn with_usage(lang: Lang, text: String, usage: Option<impl std::fmt::Display>) -> String {
    let Some(usage) = usage else {
        let tail = says::TAIL.text(lang);
        return format!("{text} ({}", &tail[tail.rfind("; ").map_or(0, |i| i + 2)..]);
    };
    let usage = usage.to_string();
    let usage = usage.trim().trim_start_matches("Usage:").trim();
    format!("{text} {}", says::TAIL.fill(lang, &[("usage", &usage)]))
}

/// A value parser's reason in Korean where it is clap's or Rust's own (a number out of its
/// range, not a number); a tool's own reason is the tool's, Korean where the tool says it so.
fn reason_ko(reason: &str) -> String {
    let range = Regex::new(r"^\S+ is not in (-?\d+)?\.\.(=?)(-?\d+)?$").expect("a pattern");
    if let Some(c) = range.captures(reason) {
        let (lo, hi) = (c.get(1).map(|m| m.as_str()), c.get(3).map(|m| m.as_str()));
        let upto = if &c[2] == "=" { "이하" } else { "미만" };
        return match (lo, hi) {
            (Some(lo), Some(hi)) => format!("{lo} 이상 {hi} {upto}여야 합니다"),
            (Some(lo), None) => format!("{lo} 이상이어야 합니다"),
            (None, Some(hi)) => format!("{hi} {upto}여야 합니다"),
            (None, None) => reason.to_string(),
        };
    }
    match reason {
        "invalid digit found in string" | "invalid float literal" => "숫자가 아닙니다",
        "cannot parse integer from empty string" | "cannot parse float from empty string" => {
            "값이 비어 있습니다"
        }
        "number too large to fit in target type" => "너무 큰 수입니다",
        "number too small to fit in target type" => "너무 작은 수입니다",
        other => other,
    }
    .to_string()
}

/// clap's error as one line in `lang`: [`one_line`] in English; in Korean said from clap's
/// context by kind, no English left but the arguments and an option's own reason (the tool's).
pub fn one_line_in(lang: Lang, err: &clap::Error) -> String {
    if lang == Lang::En {
        return one_line(err);
    }
    let text = |kind: ContextKind| match err.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join(", ")),
        // The kinds asked for below are all strings in clap's errors.
        _ => None,
    };
    // Choices as a Korean line quotes words of the command line: `'range', 'cooperative-sticky'`.
    let choices = |kind: ContextKind| match err.get(kind) {
        Some(ContextValue::Strings(v)) => v
            .iter()
            .map(|c| format!("'{c}'"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => String::new(),
    };
    let arg = text(ContextKind::InvalidArg);
    let value = text(ContextKind::InvalidValue);
    let sub = text(ContextKind::InvalidSubcommand).unwrap_or_default();
    let said = match (err.kind(), &arg, &value) {
        (ErrorKind::ValueValidation, Some(arg), Some(value)) => {
            let reason = std::error::Error::source(err)
                .map(|r| reason_ko(&r.to_string()))
                .unwrap_or_default();
            says::INVALID_VALUE.fill(lang, &[("arg", arg), ("value", value), ("reason", &reason)])
        }
        (ErrorKind::InvalidValue, Some(arg), Some(value)) if value.is_empty() => {
            says::NO_VALUE.fill(lang, &[("arg", arg)])
        }
        (ErrorKind::InvalidValue, Some(arg), Some(value)) => {
            let valid = choices(ContextKind::ValidValue);
            says::NOT_A_CHOICE.fill(lang, &[("arg", arg), ("value", value), ("valid", &valid)])
        }
        (ErrorKind::UnknownArgument, Some(arg), _) => says::UNKNOWN.fill(lang, &[("arg", arg)]),
        (ErrorKind::MissingRequiredArgument, Some(args), _) => {
            says::MISSING.fill(lang, &[("args", args)])
        }
        (ErrorKind::ArgumentConflict, Some(arg), _) => match text(ContextKind::PriorArg) {
            Some(other) if other != *arg => {
                says::CONFLICT.fill(lang, &[("arg", arg), ("other", &other)])
            }
            _ => says::TWICE.fill(lang, &[("arg", arg)]),
        },
        (ErrorKind::TooManyValues, Some(arg), Some(value)) => {
            says::TOO_MANY.fill(lang, &[("arg", arg), ("value", value)])
        }
        (ErrorKind::InvalidSubcommand, ..) => says::UNKNOWN_SUBCOMMAND.fill(lang, &[("arg", &sub)]),
        (ErrorKind::MissingSubcommand, ..) => {
            let valid = choices(ContextKind::ValidSubcommand);
            says::NO_SUBCOMMAND.fill(lang, &[("arg", &sub), ("valid", &valid)])
        }
        _ => says::OTHER.fill(lang, &[("arg", &arg.unwrap_or_default())]),
    };
    let said = match text(ContextKind::SuggestedArg) {
        Some(similar) => format!("{said}; {}", says::SIMILAR.fill(lang, &[("arg", &similar)])),
        None => said,
    };
    with_usage(lang, said, err.get(ContextKind::Usage))
}

/// What `--version` prints after the name of a tool that never talks to Kafka: its own version,
/// and that it runs no librdkafka (a Kafka tool names the one it runs, `krb_kafka::version_line`).
pub fn version_line(own: &str) -> String {
    format!("{own} (does not use librdkafka)")
}

/// What a tool says on stderr for clap's error `err` on `command`'s line: [`one_line_in`]; or
/// nothing where clap prints and exits itself: help and version (0), and in English the help
/// for a command line that gives nothing a tool needs (2), in Korean one line of subcommands.
pub fn error_line(lang: Lang, command: &clap::Command, err: &clap::Error) -> Option<String> {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => None,
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand if lang == Lang::En => None,
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let valid = command
                .get_subcommands()
                .filter(|c| !c.is_hide_set())
                .map(|c| format!("'{}'", c.get_name()))
                .collect::<Vec<_>>()
                .join(", ");
            let said = if valid.is_empty() {
                says::EMPTY.text(lang).to_string()
            } else {
                let arg = command.get_name();
                says::NO_SUBCOMMAND.fill(lang, &[("arg", &arg), ("valid", &valid)])
            };
            Some(with_usage(lang, said, Some(command.clone().render_usage())))
        }
        _ => Some(one_line_in(lang, err)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn the_value_errors_are_in_both_languages() {
        assert_eq!(
            crate::lang::table_problems(&[WORKER_NAME, SECONDS]),
            Vec::<String>::new()
        );
    }

    #[derive(Parser, Debug)]
    struct Args {
        topic: String,
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        every: Option<u64>,
    }

    #[test]
    fn a_tool_that_never_talks_to_kafka_says_so_in_its_version() {
        assert_eq!(version_line("0.1.0"), "0.1.0 (does not use librdkafka)");
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
        let clap_says = says::INVALID_VALUE.fill(
            Lang::En,
            &[("value", &"a b"), ("arg", &"--ns <NS>"), ("reason", reason)],
        );
        // clap gives no usage with a refused value.
        assert_eq!(en, format!("{clap_says} (see --help)"));
        let ko = one_line_in(Lang::Ko, &err);
        assert!(
            ko.starts_with("'--ns <NS>'의 값이 잘못됐습니다('a b'): ")
                && ko.ends_with(" (--help 참고)"),
            "{ko}"
        );
        assert!(ko.contains("KRB_NS=alice") && !ko.contains('\n'), "{ko}");
    }

    #[derive(Parser, Debug)]
    struct Tool {
        topic: String,
        #[arg(long)]
        delay: Option<f64>,
        #[arg(long, value_parser = ["range", "cooperative-sticky"])]
        assignor: Option<String>,
        #[arg(long, conflicts_with = "delay")]
        fast: bool,
    }

    use crate::lang::has_hangul as hangul;

    /// `line`'s words of Latin letters, the quoted arguments and the usage left out.
    fn english_words(line: &str) -> Vec<String> {
        let unquoted = Regex::new(r"'[^']*'|\(사용법: [^;]*;|\[[^\]]*\]|<[A-Z]+>|--[a-z-]+")
            .unwrap()
            .replace_all(line, " ");
        Regex::new(r"[A-Za-z]{2,}")
            .unwrap()
            .find_iter(&unquoted)
            .map(|m| m.as_str().to_string())
            .collect()
    }

    #[test]
    fn usage_errors_are_one_korean_line_that_names_the_argument_under_korean() {
        let usage = Regex::new(r"\((?:사용법|usage): (t [^;]*); ").unwrap();
        for (args, names) in [
            (vec!["t", "pay", "--dlay", "1"], "'--dlay'"),
            (vec!["t"], "<TOPIC>"),
            (vec!["t", "pay", "--assignor", "sticky"], "'sticky'"),
            (vec!["t", "pay", "--delay"], "'--delay <DELAY>'"),
            (vec!["t", "pay", "extra"], "'extra'"),
            (vec!["t", "pay", "--delay", "1", "--fast"], "'--fast'"),
            (vec!["t", "pay", "--fast", "--fast"], "'--fast'"),
        ] {
            let err = Tool::try_parse_from(&args).unwrap_err();
            let ko = one_line_in(Lang::Ko, &err);
            assert!(!ko.contains('\n') && hangul(&ko), "{args:?}: {ko}");
            assert!(ko.contains(names), "{args:?}: {ko}");
            // clap's usage for the error, as English shows it.
            let ko_usage = usage.captures(&ko).map(|c| c[1].to_string());
            assert!(ko.ends_with("--help 참고)"), "{args:?}: {ko}");
            let english = english_words(&ko);
            assert!(english.is_empty(), "{args:?}: English {english:?} in {ko}");
            // English is clap's own words, its usage too, on one line.
            let en = one_line_in(Lang::En, &err);
            assert!(!en.contains('\n') && !hangul(&en), "{args:?}: {en}");
            let first = err.to_string();
            let first = first.lines().next().unwrap().trim_start_matches("error: ");
            assert!(en.starts_with(first), "{args:?}: {en} / {first}");
            let en_usage = usage.captures(&en).map(|c| c[1].to_string());
            assert_eq!(en_usage, ko_usage, "{args:?}: {en}");
            assert!(en.ends_with("see --help)"), "{args:?}: {en}");
        }
        // With the usage where clap has one.
        for args in [
            vec!["t", "pay", "--dlay", "1"],
            vec!["t"],
            vec!["t", "pay", "extra"],
        ] {
            let ko = one_line_in(Lang::Ko, &Tool::try_parse_from(&args).unwrap_err());
            assert!(
                ko.contains("(사용법: t ") && ko.ends_with("; --help 참고)"),
                "{ko}"
            );
        }
        // clap's guess, said in Korean too.
        let err = Tool::try_parse_from(["t", "pay", "--dlay", "1"]).unwrap_err();
        let ko = one_line_in(Lang::Ko, &err);
        assert!(
            ko.starts_with("알 수 없는 인자: '--dlay'; 비슷한 인자: '--delay'"),
            "{ko}"
        );
        assert!(one_line_in(Lang::En, &err).starts_with("unexpected argument '--dlay' found"));
        let err = Tool::try_parse_from(["t", "pay", "--assignor", "sticky"]).unwrap_err();
        assert!(
            one_line_in(Lang::Ko, &err).contains("쓸 수 있는 값은 'range', 'cooperative-sticky'"),
            "{}",
            one_line_in(Lang::Ko, &err)
        );
    }

    #[derive(Parser, Debug)]
    #[command(name = "krb-tool")]
    struct Numbers {
        #[arg(value_parser = clap::value_parser!(u32).range(1..))]
        partitions: u32,
        #[arg(long)]
        delay: Option<f64>,
    }

    #[test]
    fn a_number_clap_refuses_is_said_in_korean() {
        for (args, says) in [
            (
                vec!["t", "0"],
                "'<PARTITIONS>'의 값이 잘못됐습니다('0'): 1 이상 4294967295 이하여야 합니다",
            ),
            (
                vec!["t", "x"],
                "'<PARTITIONS>'의 값이 잘못됐습니다('x'): 숫자가 아닙니다",
            ),
            (
                vec!["t", "1", "--delay", "soon"],
                "'--delay <DELAY>'의 값이 잘못됐습니다('soon'): 숫자가 아닙니다",
            ),
        ] {
            let err = Numbers::try_parse_from(&args).unwrap_err();
            let ko = one_line_in(Lang::Ko, &err);
            assert!(ko.starts_with(says), "{args:?}: {ko}");
            assert!(english_words(&ko).is_empty(), "{args:?}: {ko}");
            assert!(!hangul(&one_line_in(Lang::En, &err)), "{args:?}");
        }
    }

    #[derive(Parser, Debug)]
    #[command(name = "krb-tool")]
    struct Commands {
        #[command(subcommand)]
        command: Sub,
    }

    #[derive(clap::Subcommand, Debug)]
    enum Sub {
        Init { url: String },
        Count { url: String },
    }

    #[test]
    fn nothing_given_to_a_tool_of_subcommands_names_them_in_korean_and_is_clap_help_in_english() {
        let command = <Commands as clap::CommandFactory>::command();
        let err = command
            .clone()
            .try_get_matches_from(["krb-tool"])
            .unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        );
        assert_eq!(error_line(Lang::En, &command, &err), None);
        let ko = error_line(Lang::Ko, &command, &err).expect("a Korean line");
        assert_eq!(
            ko,
            "'krb-tool'에는 하위 명령이 필요합니다: 'init', 'count' \
             (사용법: krb-tool <COMMAND>; --help 참고)"
        );
        // Help and version stay clap's, in either language.
        for flag in ["--help", "--version"] {
            let err = command
                .clone()
                .version("1")
                .try_get_matches_from(["krb-tool", flag])
                .unwrap_err();
            assert_eq!(error_line(Lang::Ko, &command, &err), None, "{flag}");
        }
        let err = command
            .clone()
            .try_get_matches_from(["krb-tool", "init"])
            .unwrap_err();
        assert_eq!(
            error_line(Lang::Ko, &command, &err).as_deref(),
            Some(
                "꼭 줘야 하는 인자가 빠졌습니다: <URL> (사용법: krb-tool init <URL>; --help 참고)"
            )
        );
    }

    #[test]
    fn the_words_for_clap_are_korean_with_the_same_placeholders() {
        let problems = crate::lang::table_problems(says::ALL);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
