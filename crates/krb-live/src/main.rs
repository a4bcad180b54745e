fn main() {
    let args: krb_live::Args = krb_common::cli::parse("krb-live");
    match krb_live::Setup::new(args) {
        Ok(setup) => krb_common::exit_on_error("krb-live", 1, setup.serve()),
        // The command line or the environment: the user's to fix, as a wrong option is.
        Err(err) => krb_common::exit_on_error("krb-live", 2, Err(err)),
    }
}
