//! Command lines: bad input is one line on stderr and exit 2, as every krb tool promises.

use clap::error::ErrorKind;
use clap::Parser;

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

/// Parses the command line; `--help` and `--version` print and exit 0, anything wrong prints
/// `TOOL: what is wrong (see --help)` and exits 2.
pub fn parse<T: Parser>(tool: &str) -> T {
    match T::try_parse() {
        Ok(args) => args,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            e.exit()
        }
        Err(e) => {
            crate::out::stderr_line(&format!("{tool}: {}", one_line(&e)));
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
}
