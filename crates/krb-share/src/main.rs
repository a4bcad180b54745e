fn main() -> std::process::ExitCode {
    krb_cli::main(krb_kafka::version_line, |args: krb_share::Args| {
        // A command line the worker cannot run is a usage error, exit 2 as clap's own.
        args.validate().map_err(krb_cli::usage)?;
        krb_share::run(args)
    })
}
