fn main() {
    let args: krb_doctor::Args = krb_common::cli::parse("krb-doctor");
    std::process::exit(if krb_doctor::run(&args) { 0 } else { 1 });
}
