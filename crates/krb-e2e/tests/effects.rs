//! The effect of processing, in a database, on the real broker: the same messages processed by
//! two groups leave every row twice with --effect plain, and once with --effect idempotent.

use anyhow::{ensure, Result};
use krb_e2e::{bash, serial};

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn plain_effects_repeat_idempotent_ones_do_not() -> Result<()> {
    let _one_at_a_time = serial();
    for (effect, rows) in [
        ("plain", "processed 200, unique 100, duplicates 100"),
        ("idempotent", "processed 100, unique 100, duplicates 0"),
    ] {
        let out = bash(
            &format!("effect {effect}"),
            &format!(
                "db=sqlite:logs/effects-e2e.db; rm -f logs/eff{effect}*.log
                 krb-effects init \"$db\" >/dev/null; topic eff 2 >/dev/null; krb-produce eff 100 2 >/dev/null
                 for g in eff{effect}one eff{effect}two; do
                   krb-group \"$g\" >/dev/null
                   start \"$g-a\" \"$g\" eff --commit-every 10 --effect {effect} --db \"$db\" >/dev/null
                   wait_unique \"$g\" 100 60; stop \"$g-a\"
                 done
                 echo \"rows: $(krb-effects count \"$db\" eff --effect {effect} | head -n 1)\"
                 echo \"second: $(krb-dups eff{effect}two | head -n 1)\"
                 echo \"already: $(grep -c ' already applied$' logs/eff{effect}two-a.log || true)\""
            ),
        )?;
        ensure!(out.contains(&format!("rows: {rows}\n")), "{effect}: {out}");
        // The second group processed every message once, whatever its effect did.
        ensure!(
            out.contains("second: processed 100, unique 100, duplicates 0\n"),
            "{effect}: {out}"
        );
        let already = if effect == "idempotent" { 100 } else { 0 };
        ensure!(
            out.contains(&format!("already: {already}\n")),
            "{effect}: {out}"
        );
    }
    Ok(())
}
