//! The snapshot cases: tests/cmd/en.md and tests/cmd/ko.md run the tools that need no broker
//! (krb-dups, krb-verify on the labs it judges from the logs alone, krb-timeline, krb-trial
//! plan, their usage and errors) on the logs of real lab runs in tests/cmd/logs, in English and
//! in Korean. A changed wording fails its case; `TRYCMD=overwrite cargo test -p krb-docs --test
//! cmd` writes the new output into the case on purpose. The pages may quote these lines
//! (krb-docs check f).

mod tools;

use std::path::Path;

#[test]
fn the_tools_print_what_the_cases_show() {
    let bin = tools::built();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cmd");
    // The cases name their language and logs; nothing of the caller's may change them.
    for var in [
        "KRB_NS",
        "KRB_LOGS",
        "KRB_LANG",
        "KRB_BOOTSTRAP",
        "KRB_CONFIG",
    ] {
        std::env::remove_var(var);
    }
    let cases = trycmd::TestCases::new();
    for tool in ["krb-dups", "krb-verify", "krb-timeline", "krb-trial"] {
        cases.register_bin(tool, bin.join(tool));
    }
    cases
        .env("KRB_LOGS", dir.join("logs").to_string_lossy())
        .case(dir.join("*.md"));
}
