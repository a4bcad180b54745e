fn main() {
    let args: krb_worker::Args = krb_common::cli::parse("krb-worker");
    krb_common::exit_on_error("krb-worker", 1, krb_worker::run(args));
}
