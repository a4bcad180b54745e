use std::io::Write;

use krb_cli::out::stderr_line;

fn main() {
    let args: krb_dups::Args = krb_cli::cli::parse("krb-dups");
    match krb_dups::run(&args) {
        Ok((report, text)) => {
            for note in report.notes() {
                stderr_line(&format!("krb-dups: {note}"));
            }
            // A closed pipe (krb-dups g | head) is not an error.
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
        }
        Err(err) => {
            stderr_line(&format!("krb-dups: {err:#}"));
            let code = if err.downcast_ref::<krb_dups::NoLogs>().is_some() {
                2
            } else {
                1
            };
            std::process::exit(code);
        }
    }
}
