//! A room as hostile participants make it, served as `krb-room serve` serves it, with no broker:
//! PARTICIPANTS (default 500) each publish lab 1's nocommit and VARIANTS (default 20) variants
//! of their own making, every record failed, about 1 KB each. Each record is taken as the
//! topics' reader takes a message ([`Room::add`]), then the page is served until killed. For
//! scripts/bench-hostile.sh's room mode, which asks for the page and times it.
//!
//!   cargo run --release -p krb-room --example hostile-room -- [PARTICIPANTS [VARIANTS]]

use std::net::TcpListener;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use krb_common::lang::Lang;
use krb_room::page::Page;
use krb_room::room::Room;
use serde_json::json;

/// A failed record of lab 1's `variant`, as krb-verify writes one.
fn record(ns: &str, variant: &str, duplicates: u64) -> Vec<u8> {
    let check = |statement: &str, held: bool, detail: &str| json!({"statement": statement, "held": held, "detail": detail});
    serde_json::to_vec(&json!({
        "seconds": 31.5, "status": "checked", "lab": 1, "name": "revoke", "variant": variant,
        "verdict": {
            "lab": 1, "name": "revoke", "variant": variant, "group": variant,
            "article": "p1 offsets 490-571 processed twice (82 duplicates)",
            "ours": format!("{duplicates} duplicates"),
            "checks": [
                check("all 1000 messages processed", true, "unique 1000"),
                check("the revoke callback does not commit", true, "no commit line in a's log"),
                check("b re-reads what a processed after its last commit", false, "no re-read"),
                check("the duplicates are in the partition that moved", false, "p0 and p1"),
                check("a's revoked line comes before b's assigned line", true, "09:13:29.854 < 09:13:29.861"),
            ],
            "numbers": {"duplicates": duplicates}
        },
        "ended": "2026-12-01 09:00:10", "namespace": ns
    }))
    .unwrap_or_default()
}

fn main() -> ExitCode {
    let numbers: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap_or(0))
        .collect();
    let participants = numbers.first().copied().unwrap_or(500);
    let variants = numbers.get(1).copied().unwrap_or(20);
    let mut room = Room::default();
    let (mut records, mut bytes) = (0, 0);
    for p in 0..participants {
        let ns = format!("participant{p:03}");
        let topic = format!("{ns}-krb-room-bench");
        let names = std::iter::once("nocommit".to_string())
            .chain((0..variants).map(|v| format!("made-up-{p}-{v}")));
        for (offset, variant) in names.enumerate() {
            let payload = record(&ns, &variant, 60 + (p as u64 * 7 + offset as u64) % 50);
            bytes += payload.len();
            records += 1;
            room.add(
                &ns,
                Some(&payload),
                &format!("{topic} partition 0 offset {offset}"),
            );
        }
    }
    let listener = match TcpListener::bind("127.0.0.1:0").and_then(|l| Ok((l.local_addr()?, l))) {
        Ok(bound) => bound,
        Err(e) => {
            eprintln!("hostile-room: cannot listen: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (address, listener) = listener;
    println!("hostile-room: {participants} participants, {records} records ({bytes} bytes) at http://{address}/");
    let page = Page {
        room: "bench".into(),
        topics: "NS-krb-room-bench".into(),
        bootstrap: "none".into(),
        lang: Lang::En,
    };
    match krb_room::server::serve(listener, page, Arc::new(Mutex::new(room))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hostile-room: {e:#}");
            ExitCode::FAILURE
        }
    }
}
