fn main() {
    let args: krb_worker::Args = krb_kafka::parse("krb-worker");
    // A command line the worker cannot run is a usage error, exit 2 as clap's own.
    krb_cli::exit_on_error("krb-worker", 2, args.validate());
    krb_cli::exit_on_error("krb-worker", 1, krb_worker::run(args));
}
