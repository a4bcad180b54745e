//! Helpers for the end-to-end tests: run the repository's scripts on the real broker and read
//! what they left behind (worker logs through krb-log's grammar, committed offsets through
//! Kafka's own consumer-groups tool).
//!
//! The tests are `#[ignore]`d so that a plain `cargo test` needs no broker; `scripts/test.sh`
//! starts one and runs them with `--ignored`. Without a broker they fail, they never pass.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use anyhow::{ensure, Context, Result};
use krb_cli::lang::Lang;
use krb_kafka::broker::DEFAULT_BOOTSTRAP;
use krb_log::logline::{Offset, Partition};

/// The tools a release's `bin/` and doctor.sh count: scripts/doctor.sh's `tools=` line.
pub fn tools() -> Vec<String> {
    let doctor = std::fs::read_to_string(root().join("scripts/doctor.sh")).expect("doctor.sh");
    let line = doctor.lines().find_map(|l| l.strip_prefix("tools=\""));
    let line = line.expect("doctor.sh's tools= line").trim_end_matches('"');
    line.split_whitespace().map(str::to_string).collect()
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// Bash that makes a Kafka home of a test's own in `home` on `port`.. (its data apart from the
/// tests' broker, the cached jars shared), for scripts/kafka-local.sh.
pub fn own_kafka(home: &str, port: u16) -> String {
    format!(
        r#"scripts/kafka-local.sh jars >/dev/null
    jars=${{KRB_KAFKA_HOME:-${{XDG_CACHE_HOME:-$HOME/.cache}}/krb/kafka-4.3.1}}/libs
    export KRB_KAFKA_HOME={home} KRB_BROKER_PORT={port}
    rm -rf "$KRB_KAFKA_HOME"; mkdir -p "$KRB_KAFKA_HOME"; ln -s "$jars" "$KRB_KAFKA_HOME/libs"
"#
    )
}

/// A workshop room with logins (scripts/room.sh) of a test's own: its Kafka home `home`, its
/// listener on `port` (the teacher's on `port + 1`, the controller on `port + 2`), stopped when
/// dropped.
pub struct Room {
    home: String,
    port: u16,
}

impl Room {
    pub fn start(home: &str, port: u16, names: &[&str]) -> Result<Room> {
        let room = Room {
            home: home.to_string(),
            port,
        };
        let what = format!("a room on port {port} with {}", names.join(", "));
        let names = names.join(" ");
        let start =
            format!("scripts/room.sh start >/dev/null; scripts/room.sh add {names} >/dev/null");
        bash(&what, &(own_kafka(home, port) + &room.env() + &start))?;
        Ok(room)
    }

    /// Bash that points room.sh at this room.
    pub fn env(&self) -> String {
        format!(
            "export KRB_KAFKA_HOME={} KRB_BROKER_PORT={} KRB_ROOM_DIR={}\n",
            self.home,
            self.port,
            self.dir().display()
        )
    }

    /// The folder of the teacher's credentials and the handouts.
    pub fn dir(&self) -> PathBuf {
        Path::new(&self.home).join("room")
    }

    /// What `name`'s handout (NAME.env) sets: KRB_BOOTSTRAP, KRB_NS and KRB_CONFIG.
    pub fn handout(&self, name: &str) -> [(&'static str, String); 3] {
        let config = format!("{}/{name}.conf", self.dir().display());
        [
            ("KRB_BOOTSTRAP", format!("localhost:{}", self.port)),
            ("KRB_NS", name.to_string()),
            ("KRB_CONFIG", config),
        ]
    }
}

impl Drop for Room {
    fn drop(&mut self) {
        let _ = bash("the room stopped", &(self.env() + "scripts/room.sh stop"));
    }
}

/// The labs share one broker and topic names: one lab at a time.
pub fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs a bash snippet at the repository's top with scripts/common.sh sourced; fails with its
/// output unless it exits 0. Prints the wall time.
pub fn bash(what: &str, snippet: &str) -> Result<String> {
    let root = root();
    ensure!(
        root.join("target/release/krb-worker").exists(),
        "target/release has no krb tools: run cargo build --release (scripts/test.sh does)"
    );
    let started = Instant::now();
    let script = format!("set -euo pipefail; source scripts/common.sh; {snippet}");
    let out = Command::new("bash")
        .args(["-c", &script])
        .current_dir(&root)
        .output()
        .context("cannot run bash")?;
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    let (secs, status) = (started.elapsed().as_secs_f64(), out.status);
    println!("{what}: {secs:.1} s\n{stdout}{stderr}");
    ensure!(
        status.success(),
        "{what} failed ({status}):\n{stdout}{stderr}"
    );
    Ok(stdout)
}

pub fn said(out: &std::process::Output) -> String {
    text(&out.stdout) + &text(&out.stderr)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A server of a room's page (`krb-room serve`), killed when dropped.
pub struct PageServer {
    child: Child,
    /// Where it serves: `http://127.0.0.1:PORT/`.
    pub url: String,
}

impl Drop for PageServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `krb-room serve ROOM` on a free port with `env` set (KRB_NS and KRB_BOOTSTRAP unset
/// unless `env` sets them), and reads where it serves from its first line.
pub fn serve_room(room: &str, env: &[(&str, &str)]) -> Result<PageServer> {
    let (server, line) = serve("krb-room", &["serve".as_ref(), room.as_ref()], env)?;
    let head = format!("krb-room: room {room} (topics NS-krb-room-{room} on ");
    ensure!(
        line.starts_with(&head),
        "krb-room serve did not say where it serves: {line:?}"
    );
    Ok(server)
}

/// Starts `krb-live GROUP --logs LOGS` on a free port, as [`serve_room`] starts a room's page.
pub fn serve_live(group: &str, logs: &Path, env: &[(&str, &str)]) -> Result<PageServer> {
    let args = [group.as_ref(), "--logs".as_ref(), logs.as_os_str()];
    Ok(serve("krb-live", &args, env)?.0)
}

/// A tool that serves a page, started with `args` and `--port 0`; it and its first line, which
/// names the address it serves at.
fn serve(
    tool: &str,
    args: &[&std::ffi::OsStr],
    env: &[(&str, &str)],
) -> Result<(PageServer, String)> {
    let child = Command::new(root().join("target/release").join(tool))
        .args(args)
        .args(["--port", "0"])
        .env_remove("KRB_NS")
        .env_remove("KRB_BOOTSTRAP")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("cannot run {tool}: build it (cargo build --release)"))?;
    // Killed when dropped, also when it says no address.
    let mut server = PageServer {
        child,
        url: String::new(),
    };
    let mut line = String::new();
    BufReader::new(server.child.stdout.take().context("no stdout")?).read_line(&mut line)?;
    let url = line.split_whitespace().find(|w| w.starts_with("http://"));
    server.url = url.unwrap_or_default().to_string();
    ensure!(
        !server.url.is_empty(),
        "{tool} did not say where it serves: {line:?}"
    );
    Ok((server, line))
}

/// What a page shows in Chromium once its script has run and polled for a second: its DOM;
/// fails if the page logged an error.
pub fn page_dom(url: &str) -> Result<String> {
    let (dom, errors) = chromium(url, &["--dump-dom", "--virtual-time-budget=1000"])?;
    ensure!(
        !errors.contains("Uncaught") && !errors.contains("CONSOLE("),
        "the page logged an error:\n{errors}"
    );
    Ok(dom)
}

/// The body of `url` (`http://HOST:PORT/PATH`), fetched over HTTP/1.1; fails unless it is 200.
pub fn http_get(url: &str) -> Result<String> {
    let rest = url
        .strip_prefix("http://")
        .with_context(|| format!("not an http URL: {url}"))?;
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let mut stream =
        std::net::TcpStream::connect(host).with_context(|| format!("cannot connect to {host}"))?;
    write!(
        stream,
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .with_context(|| format!("no HTTP answer from {url}: {answer:?}"))?;
    ensure!(head.starts_with("HTTP/1.1 200"), "{url}: {head}");
    Ok(body.to_string())
}

/// Runs Chromium (Debian's `chromium`) headless on `url` with `extra` arguments
/// (`--dump-dom`, `--screenshot=FILE`, ...); returns its stdout and stderr.
pub fn chromium(url: &str, extra: &[&str]) -> Result<(String, String)> {
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
        ])
        .args(extra)
        .arg(url)
        .output()
        .context(
            "cannot run chromium: install Debian's chromium (scripts/test.sh does, as root)",
        )?;
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    ensure!(out.status.success(), "chromium failed: {stderr}");
    Ok((stdout, stderr))
}

/// A 1280x720 screenshot of `url` in `file`, as a projector would show it; fails unless it is a
/// picture of something. Returns what Chromium said on stderr (the page's errors).
pub fn screenshot(url: &str, file: &Path) -> Result<String> {
    let (_, errors) = chromium(
        url,
        &[
            &format!("--screenshot={}", file.display()),
            "--window-size=1280,720",
            "--virtual-time-budget=1000",
        ],
    )?;
    let shot = file.display();
    let png = std::fs::read(file).with_context(|| format!("no screenshot {shot}"))?;
    let n = png.len();
    ensure!(
        png.starts_with(b"\x89PNG") && n > 20_000,
        "the screenshot {shot} is empty ({n} bytes)"
    );
    println!("screenshot: {shot} ({n} bytes of PNG)");
    Ok(errors)
}

/// The group's committed offsets, as Kafka's own consumer-groups tool reports them.
pub fn committed_offsets(group: &str) -> Result<BTreeMap<Partition, Offset>> {
    let out = Command::new("bash")
        .arg(root().join("scripts/kafka-local.sh"))
        .args([
            "java",
            "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
            "--bootstrap-server",
            &bootstrap(),
            "--describe",
            "--group",
            group,
        ])
        .output()
        .context("cannot run the consumer-groups tool")?;
    let text = text(&out.stdout);
    ensure!(
        out.status.success(),
        "consumer-groups tool failed: {}",
        said(&out)
    );
    let row = |line: &str| match line.split_whitespace().collect::<Vec<_>>()[..] {
        [g, _, p, o, ..] if g == group => Some((p.parse().ok()?, o.parse().ok()?)),
        _ => None,
    };
    let offsets: BTreeMap<_, _> = text.lines().filter_map(row).collect();
    ensure!(
        !offsets.is_empty(),
        "the consumer-groups tool shows no committed offset for {group}:\n{text}"
    );
    Ok(offsets)
}

pub fn bootstrap() -> String {
    std::env::var("KRB_BOOTSTRAP").unwrap_or_else(|_| DEFAULT_BOOTSTRAP.into())
}

/// The PostgreSQL server scripts/test.sh started (scripts/pg-local.sh), as KRB_PG_URL names it.
pub fn postgres_url() -> Result<String> {
    std::env::var("KRB_PG_URL").ok().context(
        "KRB_PG_URL names no PostgreSQL server: run scripts/pg-local.sh start and export KRB_PG_URL=$(scripts/pg-local.sh url)",
    )
}

/// Checks a lab run with krb-verify (the statements the lab command reports, its effects in the
/// database `db` if any) and fails with every statement that did not hold.
pub fn verify(lab: &krb_verify::Lab, group: &str, db: Option<&str>) -> Result<krb_verify::Verdict> {
    let broker = krb_kafka::broker::BrokerArgs {
        bootstrap: bootstrap(),
        ..Default::default()
    };
    let verdict = krb_verify::verify(*lab, group, &root().join("logs"), &broker, db)?;
    let head = format!("lab {} {} {}", verdict.lab, verdict.name, verdict.variant);
    let (article, ours) = (verdict.article.text(Lang::En), verdict.ours.text(Lang::En));
    println!("{head}: article {article}; ours {ours}");
    ensure!(
        verdict.held(),
        "{head} (group {group}):\n{}",
        verdict.failures()
    );
    Ok(verdict)
}
