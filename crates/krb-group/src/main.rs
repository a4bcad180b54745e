use clap::Parser;

fn main() {
    let args = krb_group::Args::parse();
    krb_common::exit_on_error("krb-group", 1, krb_group::run(&args));
}
