fn main() {
    let args: krb_live::Args = krb_cli::cli::parse("krb-live");
    match krb_live::Setup::new(args) {
        Ok(setup) => krb_cli::exit_on_error("krb-live", 1, setup.serve()),
        // The command line or the environment: the user's to fix, as a wrong option is.
        Err(err) => krb_cli::exit_on_error("krb-live", 2, Err(err)),
    }
}
