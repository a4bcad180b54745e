fn main() {
    let args: krb_group::Args = krb_common::cli::parse("krb-group");
    krb_common::exit_on_error("krb-group", 1, krb_group::run(&args));
}
