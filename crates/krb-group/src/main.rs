fn main() {
    let args: krb_group::Args = krb_kafka::parse("krb-group");
    krb_cli::exit_on_error("krb-group", 1, krb_group::run(&args));
}
