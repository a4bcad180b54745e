fn main() {
    let args: krb_timeline::Args = krb_common::cli::parse("krb-timeline");
    let result = krb_timeline::run(&args).map(|out| println!("wrote {}", out.display()));
    krb_common::exit_on_error("krb-timeline", 1, result);
}
