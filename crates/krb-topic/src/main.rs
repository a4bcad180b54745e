fn main() -> std::process::ExitCode {
    krb_cli::main(krb_kafka::version_line, |args| krb_topic::run(&args))
}
