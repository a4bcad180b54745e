use clap::Parser;

fn main() {
    let args = krb_worker::Args::parse();
    krb_common::exit_on_error("krb-worker", 1, krb_worker::run(args));
}
