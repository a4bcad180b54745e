use clap::Parser;

fn main() {
    let args = krb_produce::Args::parse();
    krb_common::exit_on_error("krb-produce", 1, krb_produce::run(&args));
}
