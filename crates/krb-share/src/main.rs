fn main() {
    let args: krb_share::Args = krb_kafka::parse("krb-share");
    // A command line the worker cannot run is a usage error, exit 2 as clap's own.
    krb_cli::exit_on_error("krb-share", 2, args.validate());
    krb_cli::exit_on_error("krb-share", 1, krb_share::run(args));
}
