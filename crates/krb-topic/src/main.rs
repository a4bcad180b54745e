fn main() {
    let args: krb_topic::Args = krb_common::cli::parse("krb-topic");
    krb_common::exit_on_error("krb-topic", 1, krb_topic::run(&args));
}
