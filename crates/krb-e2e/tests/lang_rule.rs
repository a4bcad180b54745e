//! One language rule for the scripts and the tools: env.sh's `krb_say` and a tool, under the
//! same variables, choose the same language, and refuse the same `KRB_LANG` with the same line
//! and exit 2. No broker is needed.

use std::process::{Command, Output};

use krb_cli::lang::has_hangul;
use krb_e2e::root;
use krb_testutil::scratch_dir;

/// What a run chose: `en`, `ko`, or the line that refused its `KRB_LANG`, without the name of
/// the program that said it.
fn chose(out: &Output, text: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(2) if err.contains("KRB_LANG=") => {
            let line = err.trim_end();
            line[line.find(": ").map_or(0, |i| i + 2)..].to_string()
        }
        Some(_) if has_hangul(text) => "ko".into(),
        Some(_) => "en".into(),
        None => format!("killed: {err}"),
    }
}

fn run(mut command: Command, vars: &[(&str, &str)]) -> Output {
    command
        .current_dir(root())
        .env_clear()
        .env("PATH", "/usr/bin:/bin");
    command
        .envs(vars.iter().copied())
        .output()
        .expect("it runs")
}

#[test]
fn the_scripts_and_the_tools_choose_and_refuse_a_language_alike() {
    let logs = scratch_dir::<&str>("lang-rule", &[]);
    let mut chosen = Vec::new();
    for vars in [
        vec![],
        vec![("KRB_LANG", "")],
        vec![("KRB_LANG", "en")],
        vec![("KRB_LANG", "ko")],
        vec![("KRB_LANG", "KO")],
        vec![("KRB_LANG", "ko_KR.UTF-8")],
        vec![("KRB_LANG", "en-US")],
        vec![("KRB_LANG", "fr")],
        vec![("KRB_LANG", "kor")],
        vec![("KRB_LANG", "C")],
        vec![("LANG", "ko_KR.UTF-8")],
        vec![("LANG", "KO_KR")],
        vec![("LC_ALL", "C"), ("LANG", "ko_KR.UTF-8")],
        vec![("LC_ALL", ""), ("LC_MESSAGES", "ko"), ("LANG", "en_US")],
        vec![("KRB_LANG", "en"), ("LANG", "ko_KR.UTF-8")],
        vec![("KRB_LANG", "fr"), ("LANG", "ko_KR.UTF-8")],
    ] {
        let mut script = Command::new("bash");
        script.args(["-c", "source scripts/env.sh && krb_say English 한국어"]);
        let said = run(script, &vars);
        let script = chose(&said, &String::from_utf8_lossy(&said.stdout));
        // A group without logs: an error said in the tool's language.
        let mut tool = Command::new(root().join("target/release/krb-dups"));
        tool.arg("g").arg("--logs").arg(&logs);
        let said = run(tool, &vars);
        let tool = chose(&said, &String::from_utf8_lossy(&said.stderr));
        assert_eq!(script, tool, "{vars:?}");
        chosen.push(tool);
    }
    // Each answer comes up, so the rule was asked something.
    for answer in [
        "en",
        "ko",
        "KRB_LANG=fr: unknown language; use en (the default) or ko",
    ] {
        assert!(chosen.iter().any(|c| c == answer), "{answer}: {chosen:?}");
    }
}
