use std::process::ExitCode;

fn main() -> ExitCode {
    krb_cli::main(krb_kafka::version_line, |args| {
        let ok = krb_doctor::run(&args, krb_cli::lang::Lang::of_process());
        Ok(ExitCode::from(u8::from(!ok)))
    })
}
