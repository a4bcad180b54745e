fn main() {
    let args: krb_produce::Args = krb_common::cli::parse("krb-produce");
    krb_common::exit_on_error("krb-produce", 1, krb_produce::run(&args));
}
