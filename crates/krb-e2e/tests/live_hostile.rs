//! krb-live's page in a real browser (headless Chromium) against log text made to break it: a
//! line `commit failed: <!--<script>` put the inline state's `<script>` element, read by the HTML
//! tokenizer, into its double-escaped state, which swallowed the page's own script: no title, no
//! lanes, nothing polled. The logs are written here, no broker needed: krb-live reads files.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use anyhow::{ensure, Context, Result};
use krb_e2e::{chromium, root};

/// krb-live, stopped when the test ends however it ends.
struct Started(Child);

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What a worker named `name` of group `g` writes, its last line `last`.
fn log(name: &str, last: &str) -> String {
    format!(
        "09:13:27.038 start {name}\n\
         09:13:27.040 {name} consumes pay in group g\n\
         09:13:29.861 {name} assigned [0]\n\
         09:13:29.900 {name} p0 offset 1\n\
         09:13:30.000 {name} {last}\n"
    )
}

#[test]
#[ignore = "needs Chromium (Debian's chromium): scripts/test.sh"]
fn log_text_cannot_blank_the_live_page_in_chromium() -> Result<()> {
    let logs = root().join("logs/e2e-live-hostile");
    let _ = std::fs::remove_dir_all(&logs);
    std::fs::create_dir_all(&logs)?;
    std::fs::write(
        logs.join("g-a.log"),
        log("g-a", "commit failed: <!--<script>"),
    )?;
    // A worker named so: its name is in the state too.
    std::fs::write(
        logs.join("g-<!--<script>.log"),
        log("g-<!--<script>", "commit failed: </script><!--"),
    )?;
    let mut child = Command::new(root().join("target/release/krb-live"))
        .args(["g", "--port", "0", "--logs"])
        .arg(&logs)
        .env_remove("KRB_NS")
        .env("KRB_LANG", "en")
        .stdout(Stdio::piped())
        .spawn()
        .context("cannot run target/release/krb-live")?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().context("no stdout")?).read_line(&mut line)?;
    let _server = Started(child);
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .with_context(|| format!("krb-live did not say where it serves: {line:?}"))?
        .to_string();
    let (dom, errors) = chromium(&url, &["--dump-dom", "--virtual-time-budget=1000"])?;
    ensure!(
        !errors.contains("Uncaught") && !errors.contains("CONSOLE("),
        "the page logged an error:\n{errors}"
    );
    // The page's script ran: its title, its lanes (both workers') and its feed are drawn.
    ensure!(
        dom.contains("<h1 id=\"title\">krb-live: group g</h1>"),
        "no title:\n{dom}"
    );
    // An attribute's `<` is serialized as is by older Chromiums, escaped by newer ones.
    for worker in [&["g-a"][..], &["g-<!--<script>", "g-&lt;!--&lt;script&gt;"]] {
        ensure!(
            worker
                .iter()
                .any(|w| dom.contains(&format!("data-worker=\"{w}\""))),
            "no lane for {}:\n{dom}",
            worker[0]
        );
    }
    ensure!(
        dom.contains("commit failed: &lt;!--&lt;script&gt;"),
        "the line is not shown as text in the feed:\n{dom}"
    );
    std::fs::remove_dir_all(&logs)?;
    Ok(())
}
