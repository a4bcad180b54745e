use krb_cli::lang::Lang;
use krb_cli::out::{shown, stderr_line, stdout_line};

fn main() {
    let args: krb_timeline::Args = krb_cli::cli::parse("krb-timeline");
    // A language krb-timeline does not speak is a usage error, as a bad argument is.
    let lang = Lang::from_env().unwrap_or_else(|e| {
        stderr_line(&format!("krb-timeline: {e:#}"));
        std::process::exit(2)
    });
    let result = krb_timeline::run(&args, lang).map(|(out, skipped)| {
        for s in skipped {
            stderr_line(&format!("krb-timeline: {s}"));
        }
        let path = shown(&out);
        stdout_line(&krb_timeline::messages::WROTE.fill(lang, &[("path", &path)]));
    });
    krb_cli::exit_on_error("krb-timeline", 1, result);
}
