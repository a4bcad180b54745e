use krb_cli::lang::Lang;
use krb_cli::out::{shown, stderr_line, stdout_line};

fn main() -> std::process::ExitCode {
    krb_cli::main(krb_cli::cli::version_line, |args| {
        let lang = Lang::of_process();
        let (out, skipped) = krb_timeline::run(&args, lang)?;
        for s in skipped {
            stderr_line(&format!("krb-timeline: {s}"));
        }
        let path = shown(&out);
        stdout_line(&krb_timeline::messages::WROTE.fill(lang, &[("path", &path)]));
        Ok(())
    })
}
