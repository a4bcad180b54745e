//! krb-live's page in a real browser (headless Chromium) draws each partition's committed
//! position (issue 41 item 8): a step line on every row of the partition, rising at each
//! commit, beside the offset each worker processed last. The logs are written here, no broker
//! needed: krb-live reads files.

use anyhow::{ensure, Result};
use krb_e2e::{page_dom, root, serve_live};

#[test]
#[ignore = "needs Chromium (Debian's chromium): scripts/test.sh"]
fn the_live_page_draws_the_committed_position_in_chromium() -> Result<()> {
    let logs = root().join("logs/e2e-live-committed");
    let _ = std::fs::remove_dir_all(&logs);
    std::fs::create_dir_all(&logs)?;
    // a processes 0..5 and commits 3; b, given p0, processes 3..5 again and commits 6.
    let mut a = String::from("09:00:00.000 g-a assigned [0]\n");
    for o in 0..6 {
        a += &format!("09:00:0{o}.500 g-a p0 offset {o}\n");
    }
    a += "09:00:02.600 g-a commit p0=3\n09:00:06.000 g-a revoked [0]\n";
    let mut b = String::from("09:00:06.100 g-b assigned [0]\n");
    for o in 3..6 {
        b += &format!("09:00:0{}.000 g-b p0 offset {o}\n", o + 4);
    }
    b += "09:00:09.500 g-b commit p0=6\n";
    std::fs::write(logs.join("g-a.log"), a)?;
    std::fs::write(logs.join("g-b.log"), b)?;
    let server = serve_live("g", &logs, &[("KRB_LANG", "en")])?;
    let dom = page_dom(&server.url)?;
    // One step line in each worker's row of p0: from a's commit, up at b's, on to the end.
    let steps: Vec<&str> = dom
        .split("<path class=\"committed\" d=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    ensure!(steps.len() == 2, "{} step lines:\n{dom}", steps.len());
    for d in &steps {
        let letters: String = d.chars().filter(char::is_ascii_alphabetic).collect();
        ensure!(letters == "MHVH", "not two commits' steps: {d}");
    }
    ensure!(
        dom.matches("class=\"position\"").count() == 2,
        "no line of the offset processed last in each row:\n{dom}"
    );
    let legend = dom.split("<div id=\"legend\">").nth(1).unwrap_or_default();
    ensure!(
        legend
            .split("</div>")
            .next()
            .is_some_and(|l| l.contains("committed: the offset the group reads next")),
        "no legend entry:\n{dom}"
    );
    std::fs::remove_dir_all(&logs)?;
    Ok(())
}
