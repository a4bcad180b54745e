use std::io::Write;

use krb_cli::out::stderr_line;

fn main() -> std::process::ExitCode {
    krb_cli::main(krb_cli::cli::version_line, |args| {
        let (report, text) = krb_dups::run(&args).map_err(|e| {
            if e.is::<krb_dups::NoLogs>() {
                krb_cli::usage(e)
            } else {
                e
            }
        })?;
        for note in report.notes() {
            stderr_line(&format!("krb-dups: {note}"));
        }
        // A closed pipe (krb-dups g | head) is not an error.
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
        Ok(())
    })
}
