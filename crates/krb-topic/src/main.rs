fn main() {
    let args: krb_topic::Args = krb_kafka::parse("krb-topic");
    krb_cli::exit_on_error("krb-topic", 1, krb_topic::run(&args));
}
