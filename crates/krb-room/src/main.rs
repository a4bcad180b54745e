fn main() {
    let args: krb_room::Args = krb_kafka::parse("krb-room");
    let code = krb_room::run(args);
    std::process::exit(code);
}
