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

#[test]
#[ignore = "needs a Kafka broker and PostgreSQL's programs: scripts/test.sh"]
fn postgres_stopped_under_a_worker_stops_it_without_committing_past_what_was_applied() -> Result<()>
{
    let _one_at_a_time = serial();
    // A server of the test's own, so that stopping it stops nothing else.
    let out = bash(
        "PostgreSQL stopped under a worker",
        "export KRB_PG_PORT=5494 KRB_PG_HOME=/tmp/krb-postgres-e2e-stop
         scripts/pg-local.sh start >/dev/null; db=$(scripts/pg-local.sh url)
         rm -f logs/pgstop-*.log; krb-effects init \"$db\" >/dev/null
         topic pgstop 1 >/dev/null; krb-group pgstop >/dev/null; krb-produce pgstop 2000 1 >/dev/null
         start pgstop-a pgstop pgstop --delay 0.005 --commit-every 7 --revoke-commit --effect idempotent --db \"$db\" >/dev/null
         a=$(cat logs/pgstop-a.pid)
         wait_log pgstop-a 'p0 offset 100$' 60
         scripts/pg-local.sh stop >/dev/null
         code=0; timeout 60 tail --pid=\"$a\" -f /dev/null || code=timeout
         [ \"$code\" = timeout ] || { wait \"$a\" || code=$?; }
         rm -f logs/pgstop-a.pid
         scripts/pg-local.sh start >/dev/null
         echo \"a exited: $code\"
         echo \"rows: $(krb-effects count \"$db\" pgstop --effect idempotent | head -n 1)\"
         scripts/pg-local.sh stop >/dev/null",
    )?;
    let log = std::fs::read_to_string(krb_e2e::root().join("logs/pgstop-a.log"))?;
    ensure!(
        out.contains("a exited: 1\n"),
        "the worker did not exit 1: {out}\n{log}"
    );
    let last = log.lines().last().unwrap_or_default();
    ensure!(
        ["write the effect", "commit the effects"]
            .iter()
            .any(|what| last.starts_with(&format!("krb-worker: cannot {what} to postgres://"))),
        "the worker's last line is not the database's error: {last}"
    );
    // One worker applies offsets in order, so its rows are offsets 0..R. It commits each
    // effect before it waits (--delay > 0) and logs a processing once its commit answered, so
    // every processing logged has its row, and at most one row more: the one whose COMMIT the
    // server made while it stopped but never answered. Every offset below the group's
    // committed one has its row: the commit did not pass what was applied.
    let logged = log.lines().filter(|l| l.contains(" p0 offset ")).count() as i64;
    let rows: i64 = out
        .split("rows: processed ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(-1);
    ensure!(
        out.contains(&format!(
            "rows: processed {rows}, unique {rows}, duplicates 0\n"
        )) && (logged..=logged + 1).contains(&rows),
        "{logged} processings logged, but: {out}"
    );
    let committed = krb_e2e::committed_offsets("pgstop")?;
    let committed = committed.get(&0).copied().unwrap_or(0);
    ensure!(
        committed >= 100 && committed <= rows,
        "committed p0={committed}, past the {rows} effects applied"
    );
    Ok(())
}
