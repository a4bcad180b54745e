use krb_common::out::{stderr_line, stdout_line};

fn main() {
    let args: krb_timeline::Args = krb_common::cli::parse("krb-timeline");
    let result = krb_timeline::run(&args).map(|(out, skipped)| {
        for s in skipped {
            stderr_line(&format!("krb-timeline: {s}"));
        }
        stdout_line(&format!("wrote {}", out.display()));
    });
    krb_common::exit_on_error("krb-timeline", 1, result);
}
