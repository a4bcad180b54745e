fn main() -> std::process::ExitCode {
    krb_cli::main(krb_cli::cli::version_line, |args| {
        // The command line or the environment: the user's to fix, as a wrong option is.
        krb_live::Setup::new(args).map_err(krb_cli::usage)?.serve()
    })
}
