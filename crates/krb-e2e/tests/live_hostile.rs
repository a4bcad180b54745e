//! krb-live's page in a real browser (headless Chromium) against log text made to break it: a
//! line `commit failed: <!--<script>` put the inline state's `<script>` element, read by the HTML
//! tokenizer, into its double-escaped state, which swallowed the page's own script: no title, no
//! lanes, nothing polled. The logs are written here, no broker needed: krb-live reads files.

use anyhow::{ensure, Result};
use krb_e2e::{page_dom, root, serve_live};

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
    let server = serve_live("g", &logs, &[("KRB_LANG", "en")])?;
    let dom = page_dom(&server.url)?;
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
