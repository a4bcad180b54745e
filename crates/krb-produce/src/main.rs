fn main() {
    let args: krb_produce::Args = krb_kafka::parse("krb-produce");
    krb_cli::exit_on_error("krb-produce", 1, krb_produce::run(&args));
}
