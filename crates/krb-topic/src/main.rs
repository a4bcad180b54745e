use clap::Parser;

fn main() {
    let args = krb_topic::Args::parse();
    krb_common::exit_on_error("krb-topic", 1, krb_topic::run(&args));
}
