use std::io::Write;


fn main() {
    let args: krb_dups::Args = krb_common::cli::parse("krb-dups");
    match krb_dups::run(&args) {
        Ok(report) => {
            // A closed pipe (krb-dups g | head) is not an error.
            let _ = std::io::stdout().lock().write_all(report.as_bytes());
        }
        Err(err) => {
            eprintln!("krb-dups: {err:#}");
            let code = if err.downcast_ref::<krb_dups::NoLogs>().is_some() {
                2
            } else {
                1
            };
            std::process::exit(code);
        }
    }
}
