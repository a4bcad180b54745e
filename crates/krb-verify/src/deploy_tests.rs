//! Lab 9's statements, each held on a crafted rolling deploy that keeps them all and reported
//! FAILED on one that breaks exactly it; the matrix, the messages and the decision table.

use std::collections::BTreeMap;

use krb_cli::lang::{has_hangul, Lang};
use krb_log::logline::{Offset, Partition};

use super::*;
use crate::tests::{effects, Logs};

/// When the restarts begin (between two commits), and how far apart they are: far enough that a
/// static member's late return (10.5 s) still falls before the next stop.
const FIRST_STOP: i64 = 2_470;
const APART: i64 = 12_000;
const END: i64 = FIRST_STOP + 3 * APART;
/// One message of each owned partition every STEP ms; a commit every COMMIT ms.
const STEP: i64 = 50;
const COMMIT: i64 = 1_000;

fn name(w: &str) -> String {
    format!("g-{w}")
}

fn own(w: &str) -> Vec<Partition> {
    match w {
        "a" => vec![0, 1],
        "b" => vec![2, 3],
        _ => vec![4, 5],
    }
}

fn list(ps: &[Partition]) -> String {
    crate::shown::list(ps)
}

/// A good run of `row`: a owns [0, 1], b [2, 3], c [4, 5]; a, b, c restarted in turn at
/// FIRST_STOP + i * APART; each partition processed every STEP ms by its owner, except while it
/// waits for one; a partition handed over goes on from its last commit (with the revoke commit:
/// from where it was). Returns the logs and how many distinct messages they hold.
fn deploy_run(row: Row) -> (Logs, u64) {
    let mut l = Logs::default();
    for w in WORKERS {
        l.mark(0, "start", &name(w))
            .at(1, &name(w), "consumes g in group g")
            .at(100, &name(w), &format!("assigned {}", list(&own(w))));
    }
    // Each partition's stops: (from, to) in ms, and the workers that revoke (without handing
    // over a commit unless the row commits in on_revoke) at each.
    let mut paused: BTreeMap<Partition, Vec<(i64, i64)>> = BTreeMap::new();
    let mut handovers: Vec<(i64, String, Vec<Partition>)> = Vec::new();
    for (i, w) in WORKERS.iter().enumerate() {
        let t = FIRST_STOP + i as i64 * APART;
        let x = name(w);
        let stayers: Vec<&str> = WORKERS.iter().copied().filter(|s| s != w).collect();
        l.mark(t, "stop", &x);
        if row.signal == Signal::Term {
            l.at(t + 5, &x, &format!("revoked {}", list(&own(w))));
        }
        handovers.push((t + 5, x.clone(), own(w)));
        l.mark(t + 200, "start", &x)
            .at(t + 201, &x, "consumes g in group g");
        let back = if row.static_membership { 250 } else { 400 };
        l.at(t + back, &x, &format!("assigned {}", list(&own(w))));
        for p in own(w) {
            paused.entry(p).or_default().push((t, t + back));
        }
        if row.static_membership {
            continue;
        }
        for (k, s) in stayers.iter().enumerate() {
            let moved = [own(w)[k]];
            match row.assignment {
                Assignment::Range => {
                    l.at(t + 300, &name(s), &format!("revoked {}", list(&own(s))))
                        .at(t + 400, &name(s), &format!("assigned {}", list(&own(s))));
                    handovers.push((t + 300, name(s), own(s)));
                    for p in own(s) {
                        paused.entry(p).or_default().push((t + 300, t + 400));
                    }
                }
                Assignment::Coop | Assignment::Consumer => {
                    l.at(t + 100, &name(s), &format!("assigned {}", list(&moved)))
                        .at(t + 300, &name(s), &format!("revoked {}", list(&moved)));
                    if row.assignment == Assignment::Coop {
                        l.at(t + 380, &name(s), "assigned []");
                    }
                }
            }
        }
    }
    // The processing: every STEP ms each owned partition's next offset; a commit every COMMIT
    // ms; a hand-over rewinds to the last commit, or commits first.
    let mut next: BTreeMap<Partition, Offset> = (0..6).map(|p| (p, 0)).collect();
    let mut committed = next.clone();
    let owner = |p: Partition| name(WORKERS[p as usize / 2]);
    let mut t = 200;
    let mut handed = 0;
    while t < END {
        while handed < handovers.len() && handovers[handed].0 <= t {
            let (at, who, ps) = &handovers[handed];
            if row.revoke_commit && row.signal == Signal::Term {
                let text: Vec<String> = ps.iter().map(|p| format!("p{p}={}", next[p])).collect();
                l.at(*at + 1, who, &format!("commit {}", text.join(" ")));
                for p in ps {
                    committed.insert(*p, next[p]);
                }
            }
            for p in ps {
                next.insert(*p, committed[p]);
            }
            handed += 1;
        }
        for p in 0..6 {
            let stopped = paused[&p].iter().any(|(from, to)| t >= *from && t < *to);
            if !stopped {
                let o = next[&p];
                l.at(t, &owner(p), &format!("p{p} offset {o}"));
                next.insert(p, o + 1);
            }
        }
        if t % COMMIT == 0 {
            for w in WORKERS {
                let text: Vec<String> =
                    own(w).iter().map(|p| format!("p{p}={}", next[p])).collect();
                l.at(t + 1, &name(w), &format!("commit {}", text.join(" ")));
                for p in own(w) {
                    committed.insert(p, next[&p]);
                }
            }
        }
        t += STEP;
    }
    for w in WORKERS {
        l.mark(END, "stop", &name(w))
            .at(END + 5, &name(w), &format!("revoked {}", list(&own(w))));
    }
    let unique = next.values().sum::<Offset>() as u64;
    (l, unique)
}

fn row(name: &str) -> Row {
    Row::parse(name).unwrap()
}

/// The verdict of `row` on `logs`, the idempotent rows' effects taken from the logs (one row a
/// message).
fn verdict_of(row: Row, logs: &Logs, produced: u64) -> Verdict {
    let run = logs.each_line("g");
    let effects = row.idempotent.then(|| effects(&processings(&run), true));
    verdict(&run, row, produced, effects.as_ref()).unwrap()
}

fn processings(run: &Run) -> Vec<(Partition, Offset)> {
    run.logs.iter().flat_map(|l| l.processed()).collect()
}

fn statement(m: Message) -> String {
    m.text(Lang::En)
}

fn assert_held(v: &Verdict) {
    assert!(v.held(), "{}", v.render());
    assert!(v.checks.len() >= 2, "{}", v.render());
}

/// Asserts that `broken` FAILED and every other statement held.
fn assert_only(v: &Verdict, broken: &str, how: &str) {
    let check = v
        .checks
        .iter()
        .find(|c| c.statement.text(Lang::En) == broken)
        .unwrap_or_else(|| panic!("{broken:?} was not checked ({how}):\n{}", v.render()));
    assert!(!check.held, "{broken:?} held where {how}:\n{}", v.render());
    let others: Vec<String> = v
        .checks
        .iter()
        .map(|c| (c.held, c.statement.text(Lang::En)))
        .filter(|(held, s)| !held && s != broken)
        .map(|(_, s)| s)
        .collect();
    assert!(others.is_empty(), "{how} broke more: {others:?}");
}

#[test]
fn every_row_holds_on_a_good_deploy() {
    for r in Row::all() {
        let (logs, produced) = deploy_run(r);
        let v = verdict_of(r, &logs, produced);
        assert_held(&v);
        assert_eq!(v.variant, r.name());
        assert_eq!(v.lab, LAB);
        let dups = v.numbers[DUPLICATES];
        if r.revoke_commit && r.signal == Signal::Term {
            assert_eq!(dups, 0.0, "{}", r.name());
        } else {
            assert!(dups > 0.0, "{}: no duplicates in the crafted run", r.name());
        }
    }
}

#[test]
fn the_measures_of_each_protocol() {
    let measures = |n: &str| {
        let (logs, _) = deploy_run(row(n));
        measure(&logs.each_line("g")).unwrap()
    };
    let range = measures("range");
    // One rebalance a restart, each stayer revoking its two partitions.
    assert_eq!((range.rebalances, range.revoked), (3, 12));
    // Eager: each stayer revokes what it keeps and gets it back.
    assert_eq!(range.given_back.len(), 6, "{:?}", range.given_back);
    // Cooperative: the leave and the join are two rebalances, one partition each.
    let coop = measures("coop");
    assert_eq!((coop.rebalances, coop.revoked), (6, 6));
    assert!(coop.given_back.is_empty());
    // librdkafka's empty incremental assignment in the same instant as a revoke: one call.
    let (mut logs, _) = deploy_run(row("coop"));
    logs.at(FIRST_STOP + 301, "g-b", "assigned []");
    assert_eq!(measure(&logs.each_line("g")).unwrap().rebalances, 6);
    // A call after the rebalance's assignment: another rebalance.
    logs.at(FIRST_STOP + 1_000, "g-b", "assigned []");
    assert_eq!(measure(&logs.each_line("g")).unwrap().rebalances, 7);
    let consumer = measures("consumer");
    assert_eq!((consumer.rebalances, consumer.revoked), (6, 6));
    let fixed = measures("coop-revoke-static");
    assert_eq!(
        (fixed.rebalances, fixed.revoked, fixed.stayer_lines),
        (0, 0, 0)
    );
    // A partition waits 0.45 s for its restarted owner (0.4 s, and the step), 0.3 s for a static
    // one; the deploy
    // runs from the first stop to the last assignment.
    assert!(
        (range.longest_stop - 0.45).abs() < 0.01,
        "{}",
        range.longest_stop
    );
    assert!(fixed.longest_stop < range.longest_stop);
    let deploy = (2 * APART + 400) as f64 / 1000.0;
    assert!((range.seconds - deploy).abs() < 0.01, "{}", range.seconds);
    assert_eq!(
        range
            .restarts
            .iter()
            .map(|r| r.worker.as_str())
            .collect::<Vec<_>>(),
        ["g-a", "g-b", "g-c"]
    );
    assert_eq!(range.restarts[1].held, [2, 3].into());
}

#[test]
fn each_statement_fails_alone_where_its_run_breaks_it() {
    // (row, statement, how, the break)
    type Break = Box<dyn Fn(&mut Logs, &mut u64)>;
    let late = FIRST_STOP + APART;
    let cases: Vec<(&str, Message, &str, Break)> = vec![
        (
            "range",
            Message::AllProcessed,
            "a message was never processed",
            Box::new(|_, produced| *produced += 1),
        ),
        (
            "consumer",
            Message::CameBack,
            "b was not assigned anything after its restart",
            Box::new(move |l, _| {
                l.without("g-b", &format!("{} g-b assigned [2, 3]", at(late + 400)));
            }),
        ),
        (
            "range-revoke",
            Message::NoDuplicates,
            "b processed p2 offset 5 again",
            Box::new(|l, _| {
                l.at(END - 10, "g-b", "p2 offset 5");
            }),
        ),
        (
            "consumer-revoke",
            Message::NoDuplicates,
            "c processed p4 offset 9 again",
            Box::new(|l, _| {
                l.at(END - 10, "g-c", "p4 offset 9");
            }),
        ),
        (
            "coop",
            Message::KeepsItsPartitions,
            "b revoked p2, which it kept, and got it back",
            Box::new(move |l, _| {
                l.at(FIRST_STOP + 320, "g-b", "revoked [2]").at(
                    FIRST_STOP + 330,
                    "g-b",
                    "assigned [2]",
                );
            }),
        ),
        (
            "consumer-revoke",
            Message::KeepsItsPartitions,
            "c revoked p5, which it kept, and got it back",
            Box::new(move |l, _| {
                l.at(late + 320, "g-c", "revoked [5]")
                    .at(late + 330, "g-c", "assigned [5]");
            }),
        ),
        (
            "range-static",
            Message::BackInSession {
                limit: CLASSIC_SESSION,
            },
            "b came back 10.5 s after its stop",
            Box::new(move |l, _| {
                l.without("g-b", &format!("{} g-b assigned", at(late + 250)))
                    .at(late + 10_500, "g-b", "assigned [2, 3]");
            }),
        ),
        (
            "coop-revoke-static",
            Message::NoRebalance,
            "a was called with an empty assignment while b restarted",
            Box::new(move |l, _| {
                l.at(late + 300, "g-a", "assigned []");
            }),
        ),
        (
            "consumer-static",
            Message::NoRebalance,
            "c revoked p4 while a restarted",
            Box::new(|l, _| {
                l.at(FIRST_STOP + 300, "g-c", "revoked [4]");
            }),
        ),
        (
            "kill",
            Message::KillBound {
                every: COMMIT_EVERY,
            },
            "p0 was processed 150 times more",
            Box::new(|l, _| {
                l.offsets(END + 100, "g-a", 0, 0, 150);
            }),
        ),
    ];
    for (name, broken, how, breaks) in cases {
        let r = row(name);
        let (mut logs, mut produced) = deploy_run(r);
        breaks(&mut logs, &mut produced);
        let v = verdict_of(r, &logs, produced);
        assert_only(&v, &statement(broken), &format!("{name}: {how}"));
    }
}

fn at(ms: i64) -> String {
    crate::tests::clock(ms).format("%H:%M:%S%.3f").to_string()
}

#[test]
fn the_idempotent_effect_statements_fail_alone() {
    let r = row("kill-idempotent");
    let (logs, produced) = deploy_run(r);
    let run = logs.each_line("g");
    let pairs = processings(&run);
    // A plain effect: a row per processing, the duplicates' rows too.
    let twice = effects(&pairs, false);
    assert!(twice.duplicates() > 0);
    let v = verdict(&run, r, produced, Some(&twice)).unwrap();
    assert_only(&v, &statement(Message::NoEffectTwice), "effects repeat");
    // One message's effect missing.
    let last = pairs.iter().copied().max().unwrap();
    let missing: Vec<_> = pairs.iter().copied().filter(|p| *p != last).collect();
    let v = verdict(&run, r, produced, Some(&effects(&missing, true))).unwrap();
    assert_only(&v, &statement(Message::EveryEffect), "an effect is missing");
}

#[test]
fn a_row_without_its_restart_is_said() {
    let (mut logs, _) = deploy_run(row("range"));
    logs.without(
        "g-b",
        &format!("{} start g-b", at(FIRST_STOP + APART + 200)),
    );
    let err = measure(&logs.each_line("g")).unwrap_err().to_string();
    assert_eq!(err, "b's log has no second start line");
}

#[test]
fn the_matrix_has_fourteen_rows_named_as_typed() {
    let names: Vec<String> = Row::all().iter().map(Row::name).collect();
    assert_eq!(
        names,
        [
            "range",
            "range-revoke",
            "range-static",
            "range-revoke-static",
            "coop",
            "coop-revoke",
            "coop-static",
            "coop-revoke-static",
            "consumer",
            "consumer-revoke",
            "consumer-static",
            "consumer-revoke-static",
            "kill",
            "kill-idempotent"
        ]
    );
    for r in Row::all() {
        assert_eq!(Row::parse(&r.name()), Ok(r));
    }
    let kill = row("kill");
    assert_eq!(
        (kill.signal, kill.static_membership, kill.assignment),
        (Signal::Kill, true, Assignment::Coop)
    );
    assert_eq!(
        Row::select(Some("range, consumer-revoke")).unwrap(),
        vec![row("range"), row("consumer-revoke")]
    );
    assert_eq!(Row::select(None).unwrap().len(), 14);
    assert_eq!(Row::select(Some(" , ")), Err(Message::NoRow));
    let unknown = Row::select(Some("range,eager")).unwrap_err();
    assert!(
        unknown
            .text(Lang::En)
            .starts_with("unknown row 'eager': the rows are range, range-revoke, "),
        "{unknown:?}"
    );
}

/// Whether 09-deploy.sh's own check (bash's `=~` on its `row_name` pattern) takes `name`.
fn script_takes(name: &str) -> bool {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/09-deploy.sh");
    let text = std::fs::read_to_string(script).unwrap();
    let pattern = text
        .lines()
        .find_map(|l| l.strip_prefix("row_name='")?.strip_suffix('\''))
        .expect("09-deploy.sh sets row_name='...'");
    std::process::Command::new("bash")
        .args(["-c", "[[ $1 =~ $2 ]]", "-", name, pattern])
        .status()
        .unwrap()
        .success()
}

#[test]
fn the_script_refuses_before_the_build_exactly_the_names_that_are_no_row() {
    // Its pattern's language is 3 * 2 * 2 + 2 = 14 names: taking all 14 rows' is taking only them.
    for r in Row::all() {
        assert!(script_takes(&r.name()), "09-deploy.sh refuses {}", r.name());
    }
    for name in [
        "eager",
        "range-static-revoke",
        "kill-static",
        "coop-",
        "",
        "range,coop",
    ] {
        assert!(!script_takes(name), "09-deploy.sh takes {name:?}");
    }
}

#[test]
fn each_row_gives_the_worker_what_it_names() {
    let dir = std::path::Path::new("/l");
    assert_eq!(
        row("range").script_line("d-range", dir),
        "range\tTERM\tdynamic\t-\t--group-protocol classic --assignor range --delay 0.01 --commit-every 100"
    );
    assert_eq!(
        row("coop-revoke-static").script_line("d", dir),
        "coop-revoke-static\tTERM\tstatic\t-\t--group-protocol classic --assignor cooperative-sticky \
         --delay 0.01 --commit-every 100 --revoke-commit --session-timeout-ms 10000"
    );
    // The consumer protocol's session timeout is the broker's: the worker refuses one.
    assert_eq!(
        row("consumer-static").script_line("d", dir),
        "consumer-static\tTERM\tstatic\t-\t--group-protocol consumer --delay 0.01 --commit-every 100"
    );
    assert_eq!(
        row("kill-idempotent").script_line("d-kill-idempotent", dir),
        "kill-idempotent\tKILL\tstatic\tsqlite:/l/d-kill-idempotent.db\t--group-protocol classic \
         --assignor cooperative-sticky --delay 0.01 --commit-every 100 --revoke-commit \
         --session-timeout-ms 10000 --effect idempotent"
    );
}

/// One of each message, every field filled.
fn every_message() -> Vec<Message> {
    use Message::*;
    let all = vec![
        Article,
        AllProcessed,
        Processed {
            unique: 9,
            produced: 10,
        },
        CameBack,
        Back {
            back: 3,
            of: 3,
            missing: String::new(),
        },
        Back {
            back: 2,
            of: 3,
            missing: "g-b".into(),
        },
        NoDuplicates,
        Duplicates {
            count: 0,
            partitions: String::new(),
        },
        Duplicates {
            count: 12,
            partitions: "p0, p3".into(),
        },
        KeepsItsPartitions,
        GivenBack {
            revoked: 2,
            back: String::new(),
        },
        GivenBack {
            revoked: 2,
            back: "g-b p2".into(),
        },
        BackInSession { limit: 10.0 },
        Slowest {
            worker: "g-a".into(),
            seconds: "0.25".into(),
        },
        NoRebalance,
        StayerLines { count: 1 },
        KillBound { every: 100 },
        KillDetail {
            counts: "p0=3".into(),
            held: "p0, p1".into(),
        },
        NoEffectTwice,
        Rows { duplicates: 0 },
        EveryEffect,
        Effects {
            unique: 9,
            produced: 10,
        },
        Ours {
            duplicates: 12,
            partitions: 2,
            rebalances: 3,
            revoked: 12,
            stop: "0.40".into(),
            deploy: "24.4".into(),
        },
        UnknownRow {
            row: "x".into(),
            rows: "range".into(),
        },
        NoRow,
        Heading,
        Intro,
        Heads,
        DuplicatesCell {
            count: 1,
            partitions: 1,
        },
        SecondsCell {
            seconds: "1.0".into(),
        },
        NotHeld { what: "x".into() },
    ];
    // A message added to the enum and not here fails to compile.
    for m in &all {
        match m {
            Article
            | AllProcessed
            | Processed { .. }
            | CameBack
            | Back { .. }
            | NoDuplicates
            | Duplicates { .. }
            | KeepsItsPartitions
            | GivenBack { .. }
            | BackInSession { .. }
            | Slowest { .. }
            | NoRebalance
            | StayerLines { .. }
            | KillBound { .. }
            | KillDetail { .. }
            | NoEffectTwice
            | Rows { .. }
            | EveryEffect
            | Effects { .. }
            | Ours { .. }
            | UnknownRow { .. }
            | NoRow
            | Heading
            | Intro
            | Heads
            | DuplicatesCell { .. }
            | SecondsCell { .. }
            | NotHeld { .. } => {}
        }
    }
    all
}

#[test]
fn every_message_is_english_and_korean() {
    for m in every_message() {
        let (en, ko) = (m.text(Lang::En), m.text(Lang::Ko));
        assert!(!has_hangul(&en), "{en}");
        assert!(has_hangul(&ko), "not Korean: {ko}");
        assert!(!en.contains('{') && !ko.contains('{'), "{en} / {ko}");
        // A value, as the message mechanism will carry it.
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(serde_json::from_str::<Message>(&json).unwrap(), m, "{json}");
    }
    assert_eq!(
        Message::Heads.text(Lang::Ko).split('\t').count(),
        Message::Heads.text(Lang::En).split('\t').count()
    );
}

fn record(r: Row, v: Option<Verdict>, reason: Option<&str>) -> Record {
    Record {
        seconds: 20.0,
        status: if v.is_some() { "checked" } else { "error" }.into(),
        lab: LAB,
        name: "deploy".into(),
        variant: r.name(),
        reason: reason.map(String::from),
        verdict: v,
        ended: None,
        namespace: None,
    }
}

#[test]
fn the_decision_table_reads_the_records() {
    let (logs, produced) = deploy_run(row("range"));
    let range = verdict_of(row("range"), &logs, produced);
    let (logs, produced) = deploy_run(row("consumer-revoke"));
    let mut consumer = verdict_of(row("consumer-revoke"), &logs, produced);
    consumer.checks[0].held = false;
    let records = vec![
        record(row("range"), Some(range.clone()), None),
        record(row("consumer-revoke"), Some(consumer), None),
        record(
            row("consumer-static"),
            None,
            Some("the row could not run: no consumer protocol"),
        ),
    ];
    let text = table(&records, Lang::En);
    let cells: Vec<Vec<&str>> = text
        .lines()
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    assert_eq!(
        cells[0],
        [
            "row",
            "duplicates",
            "rebalances",
            "revoked",
            "longest stop",
            "deploy",
            "held"
        ]
    );
    let dups = format!("{} (6 partitions)", range.numbers[DUPLICATES]);
    assert_eq!(
        cells[1],
        ["range", &dups, "3", "12", "0.45 s", "24.4 s", "2/2"],
        "{text}"
    );
    assert_eq!(
        cells[2],
        [
            "consumer-revoke",
            "0 (0 partitions)",
            "6",
            "6",
            "0.45 s",
            "24.4 s",
            "3/4"
        ],
        "{text}"
    );
    assert!(cells[3][0].starts_with("not held: every message"), "{text}");
    assert_eq!(
        cells[4],
        ["consumer-static", "-", "-", "-", "-", "-", "error"]
    );
    assert_eq!(
        text.lines().nth(5),
        Some("    not held: the row could not run: no consumer protocol")
    );
    let ko = table(&records, Lang::Ko);
    assert!(
        ko.starts_with("행  ") && ko.contains("성립하지 않음"),
        "{ko}"
    );
    let page = html(&records, Lang::En);
    assert_eq!(page.matches("<tr>").count(), 1 + 3 + 2, "{page}");
    assert!(page.contains("<td class=\"failed\">error</td>"), "{page}");
    // In the lab command's page, under lab 9's own heading.
    let report = crate::html::page(&records, std::path::Path::new("/nonexistent"), Lang::Ko);
    assert!(report.contains("<table id=\"deploy\">"), "{report}");
    assert!(
        report.contains(&Message::Heading.text(Lang::Ko)),
        "{report}"
    );
    // Only lab 9's records.
    let mut other = records[0].clone();
    other.lab = 1;
    assert_eq!(table(&[other], Lang::En).lines().count(), 1);
}

#[test]
fn the_picture_draws_each_rows_duplicates_and_longest_stop_to_scale() {
    let (logs, produced) = deploy_run(row("range"));
    let range = verdict_of(row("range"), &logs, produced);
    let mut quiet = range.clone();
    quiet.numbers.insert(DUPLICATES.into(), 0.0);
    quiet
        .numbers
        .insert(LONGEST_STOP.into(), range.numbers[LONGEST_STOP] / 2.0);
    let mut records = vec![
        record(row("range"), Some(range.clone()), None),
        record(row("consumer-revoke"), Some(quiet), None),
        record(row("kill"), None, Some("could not run")),
    ];
    records[1].variant = "<b>".into();
    let svg = svg(&records, Lang::Ko);
    let widths: Vec<&str> = svg
        .split("width=\"")
        .skip(2)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    // Duplicates: range's is the longest bar, the other none; stops: the other half as long.
    assert_eq!(widths, ["260.0", "0.0", "260.0", "130.0"], "{svg}");
    assert!(
        svg.contains(">&lt;b&gt;</text>") && !svg.contains(">kill<"),
        "{svg}"
    );
    assert!(
        svg.contains("가장 긴 멈춤") && svg.contains("초</text>"),
        "{svg}"
    );
    assert!(html(&records, Lang::En).contains("<figure><svg"));
}
