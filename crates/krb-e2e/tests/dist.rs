//! The release tarball (scripts/dist.sh) on a machine without Rust: unpacked by a user who is
//! not root, with no cargo on PATH (a `cargo` there fails loudly and leaves a mark), lab 1 runs
//! from it against the tests' broker and holds, and nothing was built.

use std::process::Command;

use anyhow::{ensure, Context, Result};
use krb_e2e::{bootstrap, root, said, tools};

/// Runs bash `script` at the repository's top; its exit status and what it printed.
fn run(script: &str) -> Result<(bool, String)> {
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(root())
        .output()
        .context("cannot run bash")?;
    let text = said(&out);
    Ok((out.status.success(), text))
}

#[test]
#[ignore = "needs cargo, a broker and root or another user: scripts/test.sh"]
fn the_release_runs_lab_1_as_another_user_without_cargo() -> Result<()> {
    let (ok, built) = run("scripts/dist.sh")?;
    println!("{built}");
    ensure!(ok, "scripts/dist.sh failed:\n{built}");
    let tarball = built
        .lines()
        .find_map(|l| l.split_once(".tar.gz").map(|(p, _)| format!("{p}.tar.gz")))
        .context("dist.sh named no tarball")?;
    let version = env!("CARGO_PKG_VERSION");
    ensure!(
        tarball == format!("dist/krb-{version}-{}-linux.tar.gz", std::env::consts::ARCH),
        "unexpected tarball name {tarball}"
    );

    // What it holds: the tools in bin/, the scripts a user runs, no source and no cargo.
    let (_, listing) = run(&format!("tar tzf {tarball}"))?;
    let top = format!("krb-{version}/");
    ensure!(listing.lines().all(|l| l.starts_with(&top)), "{listing}");
    for tool in tools() {
        ensure!(
            listing.contains(&format!("{top}bin/{tool}\n")),
            "no bin/{tool}:\n{listing}"
        );
    }
    for shipped in [
        "scripts/common.sh",
        "scripts/lab.sh",
        "scripts/doctor.sh",
        "scripts/01-revoke.sh",
        "docs/en/workshop.md",
        "README.md",
        "compose.yaml",
    ] {
        ensure!(
            listing.contains(&format!("{top}{shipped}\n")),
            "no {shipped}:\n{listing}"
        );
    }
    // The scripts that build or change the source stay out with it, and the vendored source.
    for left_out in [
        "Cargo.toml",
        "crates/",
        "target/",
        "scripts/test.sh",
        "scripts/dist.sh",
        "scripts/bench-dups.sh",
        "scripts/bench-effects.sh",
        "scripts/bench-clients.sh",
        "scripts/judge.sh",
        "scripts/vendor-librdkafka.sh",
        "vendor/",
    ] {
        ensure!(
            !listing.contains(&format!("{top}{left_out}")),
            "{left_out} is in it:\n{listing}"
        );
    }
    // The glibc the tools need, as setup and the reference say it (the tarball's pages).
    let needs = built
        .lines()
        .find_map(|l| l.strip_prefix("the tools need: glibc "))
        .and_then(|l| l.split_whitespace().next())
        .context("dist.sh did not say which glibc the tools need (objdump missing?)")?;
    for page in [
        "docs/en/setup.md",
        "docs/ko/setup.md",
        "docs/en/reference.md",
        "docs/ko/reference.md",
    ] {
        let text = std::fs::read_to_string(root().join(page))?;
        ensure!(
            text.contains(&format!("glibc {needs}")),
            "{page} does not say glibc {needs}"
        );
    }

    // Unpacked and run by a user who is not root: nobody (made if missing) when this is root.
    let script = format!(
        r#"set -euo pipefail
        user=$(id -un) made=""
        if [ "$(id -u)" = 0 ]; then
          user=nobody
          id -u nobody >/dev/null 2>&1 || {{ useradd --system --no-create-home krb-e2e-dist; user=krb-e2e-dist made=1; }}
        fi
        dir=$(mktemp -d /tmp/krb-e2e-dist.XXXXXX)
        trap 'rm -rf "$dir"; [ -z "$made" ] || userdel krb-e2e-dist' EXIT
        cp {tarball} "$dir/"
        mkdir "$dir/shim"
        # A cargo that says it was called, leaves a mark, and fails.
        printf '#!/bin/sh\necho "cargo was called: $*" >&2\ntouch "%s/cargo-called"\nexit 99\n' "$dir" >"$dir/shim/cargo"
        chmod +x "$dir/shim/cargo"
        [ "$user" = "$(id -un)" ] || chown -R "$user" "$dir"
        as() {{ if [ "$user" = "$(id -un)" ]; then "$@"; else runuser -u "$user" -- "$@"; fi; }}
        as env -i PATH="$dir/shim:/usr/local/bin:/usr/bin:/bin" HOME="$dir" \
          KRB_BOOTSTRAP={bootstrap} KRB_NS=e2e-dist bash -c '
          set -euo pipefail
          cd "$1"
          echo "user: $(id -u)"
          if command -v rustc >/dev/null; then echo "rustc is on PATH"; exit 1; fi
          tar xzf "{file}"
          cd "{top}"
          source scripts/common.sh
          echo "tools: $(command -v krb-worker)"
          topic pay 2
          krb-produce pay 1000 2
          ./scripts/01-revoke.sh nocommit
          krb-dups nocommit
        ' bash "$dir"
        ls "$dir/{top}"
        [ ! -e "$dir/cargo-called" ] || echo "cargo was called"
        [ ! -e "$dir/{top}target" ] || echo "target/ was made""#,
        bootstrap = bootstrap(),
        file = tarball.rsplit('/').next().unwrap_or(&tarball),
    );
    let (ok, out) = run(&script)?;
    println!("{out}");
    ensure!(ok, "lab 1 from the release failed:\n{out}");
    ensure!(!out.contains("user: 0\n"), "it ran as root:\n{out}");
    ensure!(
        out.contains(&format!("/{top}bin/krb-worker\n")),
        "the tools were not the release's:\n{out}"
    );
    ensure!(
        out.contains("lab 1 revoke nocommit") && !out.contains("FAILED"),
        "{out}"
    );
    ensure!(
        !out.contains("cargo was called") && !out.contains("target/ was made"),
        "{out}"
    );
    ensure!(
        out.contains(", unique 1000,"),
        "krb-dups did not count 1000 messages:\n{out}"
    );
    Ok(())
}
