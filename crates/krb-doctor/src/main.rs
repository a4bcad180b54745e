use krb_cli::lang::Lang;
use krb_cli::out::stderr_line;

fn main() {
    let args: krb_doctor::Args = krb_kafka::parse("krb-doctor");
    // A language krb-doctor does not speak is a usage error, as a bad argument is.
    let lang = Lang::from_env().unwrap_or_else(|e| {
        stderr_line(&format!("krb-doctor: {e:#}"));
        std::process::exit(2)
    });
    std::process::exit(if krb_doctor::run(&args, lang) { 0 } else { 1 });
}
