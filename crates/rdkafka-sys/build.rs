//! Builds the vendored librdkafka (vendor/librdkafka) as rust-rdkafka's rdkafka-sys 4.10.0 builds
//! its bundled one without cmake: a copy of the tree in OUT_DIR, `./configure` with the same
//! flags, `make libs`, linked statically. The tree is checked against its sha256 list first.
//! With the `ssl` feature (krb's default, for the room's SASL/SCRAM) librdkafka is built on the
//! system's OpenSSL (Debian's libssl-dev, found by configure through pkg-config) and linked to
//! its shared libssl and libcrypto; docs/en/internals/room-security.md says why not `ssl-vendored`.

#[path = "build/tree.rs"]
mod tree;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{self, Command};

/// Features rdkafka forwards that this crate does not build: refused, never silently dropped.
const UNSUPPORTED: [&str; 9] = [
    "CMAKE_BUILD",
    "CURL",
    "CURL_STATIC",
    "DYNAMIC_LINKING",
    "EXTERNAL_LZ4",
    "GSSAPI",
    "SSL_VENDORED",
    "STATIC_LINKING",
    "ZSTD",
];

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let vendor = manifest.join("../../vendor");
    let source = vendor.join("librdkafka");
    let sums_path = vendor.join("librdkafka.sha256");
    println!("cargo:rerun-if-changed=build/tree.rs");
    println!("cargo:rerun-if-changed={}", source.display());
    println!("cargo:rerun-if-changed={}", sums_path.display());
    for feature in UNSUPPORTED {
        if env::var_os(format!("CARGO_FEATURE_{feature}")).is_some() {
            fail(&format!(
                "feature {} is not built by krb's rdkafka-sys (it builds the vendored librdkafka with zlib only): leave it out of the rdkafka dependency",
                feature.to_lowercase().replace('_', "-")
            ));
        }
    }
    let sums = std::fs::read_to_string(&sums_path).unwrap_or_else(|e| {
        fail(&format!(
            "vendor/librdkafka.sha256 cannot be read ({e}); {}",
            tree::FIX
        ))
    });
    if let Err(e) = tree::check(&source, "vendor/librdkafka", &sums) {
        fail(&e);
    }

    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it"));
    // mklove builds only in its own tree, and the vendored one stays as published.
    let build = out.join("librdkafka");
    if build.exists() {
        std::fs::remove_dir_all(&build)
            .unwrap_or_else(|e| fail(&format!("cannot clear {} ({e})", build.display())));
    }
    run(
        &out,
        "cp",
        &["-a".as_ref(), source.as_os_str(), build.as_os_str()],
    );

    let ssl = env::var_os("CARGO_FEATURE_SSL").is_some();
    let mut flags = vec![
        if ssl { "--enable-ssl" } else { "--disable-ssl" },
        "--disable-gssapi",
        "--disable-curl",
        "--disable-zstd",
        "--disable-lz4-ext",
    ];
    let mut cflags: Vec<String> = env::var("CFLAGS").into_iter().collect();
    let mut ldflags: Vec<String> = env::var("LDFLAGS").into_iter().collect();
    if env::var_os("CARGO_FEATURE_LIBZ").is_some() {
        // zlib is on by default in configure; libz-sys says where its own build is, if any.
        if let Ok(root) = env::var("DEP_Z_ROOT") {
            cflags.push(format!("-I{root}/include"));
            ldflags.push(format!("-L{root}/lib"));
        }
    } else {
        flags.push("--disable-zlib");
    }
    // Upstream sets CFLAGS and LDFLAGS for its whole build script: configure and make see them.
    let (cflags, ldflags) = (cflags.join(" "), ldflags.join(" "));
    let configure = Command::new("./configure")
        .current_dir(&build)
        .args(&flags)
        .env("CFLAGS", &cflags)
        .env("LDFLAGS", &ldflags)
        .status();
    check_status("./configure", configure);
    let mut make = Command::new("make");
    make.current_dir(&build)
        .arg("libs")
        .env("CFLAGS", &cflags)
        .env("LDFLAGS", &ldflags);
    if let Some(makeflags) = env::var_os("CARGO_MAKEFLAGS") {
        make.env("MAKEFLAGS", makeflags);
    }
    // src/Makefile asks `git describe` for a version, which rd_kafka_version_str() then reports;
    // in OUT_DIR, git would find the krb checkout and its tags.
    make.env("GIT_CEILING_DIRECTORIES", &out);
    check_status("make libs", make.status());

    println!(
        "cargo:rustc-link-search=native={}",
        build.join("src").display()
    );
    println!("cargo:rustc-link-lib=static=rdkafka");
    if ssl {
        // After rdkafka, which needs them: the order a static link resolves symbols in.
        println!("cargo:rustc-link-lib=ssl");
        println!("cargo:rustc-link-lib=crypto");
    }
    println!("cargo:root={}", build.display());
}

fn run(dir: &Path, cmd: &str, args: &[&std::ffi::OsStr]) {
    let status = Command::new(cmd).current_dir(dir).args(args).status();
    check_status(cmd, status);
}

fn check_status(what: &str, status: std::io::Result<process::ExitStatus>) {
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => fail(&format!(
            "building the vendored librdkafka: {what} failed ({s}); its output is above (a C compiler, make and bash are needed, and for the ssl feature OpenSSL's headers and pkg-config: sudo apt-get install libssl-dev pkg-config)"
        )),
        Err(e) => fail(&format!(
            "building the vendored librdkafka: cannot run {what} ({e}); install a C toolchain (cc, make)"
        )),
    }
}

fn fail(line: &str) -> ! {
    eprintln!("rdkafka-sys: {line}");
    println!("cargo::error=rdkafka-sys: {line}");
    process::exit(1);
}
