//! `source scripts/common.sh` in a checkout not built yet, on a machine that lacks what the
//! build needs (a PATH without the C toolchain): not root, it prints what is missing and the
//! one line that installs it, in the learner's language, and stops, before any build; as root
//! with apt-get, it says what it installs before apt-get runs.

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

use krb_common::scratch::scratch_dir;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A folder for PATH holding bash and the few commands common.sh runs before it builds, and
/// none of the build's: no make, cc, c++, pkg-config or cargo. `id` answers `uid`; `apt-get`
/// records each call on stderr and in the file `apt-calls` beside the folder, and installs
/// nothing.
fn machine(uid: u32) -> PathBuf {
    let dir = scratch_dir(
        "common-sh",
        &[
            ("id", format!("#!/bin/sh\necho {uid}\n")),
            (
                "apt-get",
                "#!/bin/sh\necho \"apt-get was run: $*\" >&2\necho \"$*\" >>\"$(dirname \"$0\")/apt-calls\"\n"
                    .to_string(),
            ),
        ],
    );
    for shim in ["id", "apt-get"] {
        let file = dir.join(shim);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for tool in ["bash", "dirname", "mkdir", "cat"] {
        let found = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("no {tool} in /usr/bin or /bin"));
        symlink(found, dir.join(tool)).unwrap();
    }
    dir
}

/// `source scripts/common.sh` from the checkout's top with PATH `bin` alone and the tools
/// nowhere (KRB_BIN empty of them), in language `lang`: its exit status, and stderr.
fn source_common(bin: &Path, lang: &str) -> (Option<i32>, String) {
    let out = Command::new(bin.join("bash"))
        .args(["-c", "source scripts/common.sh"])
        .current_dir(root())
        .env_clear()
        .env("PATH", bin)
        .env("KRB_LANG", lang)
        .env("KRB_BIN", bin.join("no-tools"))
        .env("KRB_LOGS", bin.join("logs"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), err)
}

/// The packages the build lacks on [`machine`]: the toolchain's, and OpenSSL's headers where
/// this machine has none.
fn lacking() -> String {
    let mut packages = "make gcc g++ pkg-config".to_string();
    if !Path::new("/usr/include/openssl/ssl.h").exists() {
        packages.push_str(" libssl-dev");
    }
    packages
}

fn hangul(text: &str) -> bool {
    text.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c))
}

#[test]
fn not_root_it_prints_the_one_line_that_installs_what_is_missing_and_stops() {
    for (lang, first) in [
        (
            "en",
            format!(
                "missing: {}. Install them with this line, then source scripts/common.sh again:",
                lacking()
            ),
        ),
        (
            "ko",
            format!(
                "없는 패키지: {}. 아래 줄로 설치한 뒤 source scripts/common.sh를 다시 실행하세요:",
                lacking()
            ),
        ),
    ] {
        let bin = machine(1000);
        let (code, err) = source_common(&bin, lang);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(code, Some(1), "{lang}: exit {code:?}:\n{err}");
        assert_eq!(
            lines,
            [
                first.as_str(),
                &format!("sudo apt-get install -y {}", lacking())
            ],
            "{lang}: not what is missing and the one line to run:\n{err}"
        );
        assert_eq!(hangul(lines[0]), lang == "ko", "{lang}: {}", lines[0]);
        assert!(
            !bin.join("apt-calls").exists(),
            "{lang}: apt-get was run without root"
        );
        assert!(
            !bin.join("logs/build.log").exists(),
            "{lang}: a build was started"
        );
        std::fs::remove_dir_all(&bin).unwrap();
    }
}

#[test]
fn as_root_it_says_what_it_installs_before_apt_get_runs() {
    let bin = machine(0);
    let (code, err) = source_common(&bin, "en");
    let lines: Vec<&str> = err.lines().collect();
    let said = lines
        .iter()
        .position(|l| {
            *l == format!(
                "running as root: installing {} (apt-get update, then apt-get install -y) ...",
                lacking()
            )
        })
        .unwrap_or_else(|| panic!("it never said what it installs:\n{err}"));
    let ran = lines
        .iter()
        .position(|l| l.starts_with("apt-get was run: "))
        .unwrap_or_else(|| panic!("apt-get was not run:\n{err}"));
    assert!(said < ran, "apt-get ran before it was said:\n{err}");
    let calls = std::fs::read_to_string(bin.join("apt-calls")).unwrap();
    assert_eq!(
        calls,
        format!("update -qq\ninstall -y -qq {}\n", lacking()),
        "{err}"
    );
    // The shim installed nothing and there is no cargo: it stops there, naming Rust.
    assert_eq!(code, Some(1), "{err}");
    assert!(
        lines
            .last()
            .unwrap()
            .contains("install Rust 1.85 or newer (rustup)"),
        "{err}"
    );
    std::fs::remove_dir_all(&bin).unwrap();
}
