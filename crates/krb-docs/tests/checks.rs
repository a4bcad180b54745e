//! Checks a to h on a small checkout (tests/fixtures/repo: a README pair, setup and lab 1 in
//! English and Korean, a sample, a script, a crate's strings): clean as it is, and each check
//! alone reporting an input that breaks it.

use std::collections::HashMap;
use std::path::Path;

mod tools;

use krb_docs::help::Runner;
use krb_docs::{check, write, Docs, Helps};
use krb_testutil::{scratch_dir, Scratch};

/// The help of the binaries the fixture's commands use; scripts and krb-docs itself run.
const FAKE: &[(&str, &str)] = &[
    (
        "krb-dups",
        "Usage: krb-dups [OPTIONS] <GROUP>\n\nOptions:\n  -v, --verbose  Name who processed each \
         duplicate\n      --json     Print the analysis as JSON\n",
    ),
    (
        "krb-topic",
        "Usage: krb-topic [OPTIONS] <TOPIC> <PARTITIONS>\n\nOptions:\n      --replication <N>\n",
    ),
    (
        "krb-produce",
        "Usage: krb-produce <TOPIC> <COUNT> <PARTITIONS> [INTERVAL]\n",
    ),
    (
        "krb-worker",
        "Usage: krb-worker [OPTIONS] <NAME> <GROUP> <TOPIC>\n      --delay <S>\n",
    ),
];

struct TestHelps {
    fake: HashMap<&'static str, &'static str>,
    runner: Runner,
}

impl Helps for TestHelps {
    fn help(&self, tool: &str) -> Result<String, String> {
        match self.fake.get(tool) {
            Some(help) => Ok(help.to_string()),
            None => self.runner.help(tool),
        }
    }
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// A fresh copy of the fixture.
fn fixture() -> Scratch {
    let dir = scratch_dir::<&str>("docs", &[]);
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/repo"),
        &dir,
    );
    dir
}

fn docs(root: &Path) -> Docs {
    let bin = Path::new(env!("CARGO_BIN_EXE_krb-docs")).parent().unwrap();
    let helps = TestHelps {
        fake: FAKE.iter().copied().collect(),
        runner: Runner::new(root, bin),
    };
    Docs::read(root, Box::new(helps), &tools::built()).unwrap()
}

fn problems(root: &Path) -> Vec<String> {
    check(&docs(root))
        .unwrap()
        .iter()
        .map(|p| p.to_string())
        .collect()
}

/// Replaces the first `from` in `file` with `to`.
fn edit(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// Exactly one problem, and it starts with `at` and says `says`.
fn one(problems: &[String], at: &str, says: &str) {
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].starts_with(at), "{problems:#?}");
    assert!(problems[0].contains(says), "{problems:#?}");
}

#[test]
fn the_fixture_is_clean_and_written_already() {
    let root = fixture();
    assert_eq!(problems(&root), Vec::<String>::new());
    let (changed, wrong) = write(&docs(&root)).unwrap();
    assert!(
        changed.is_empty() && wrong.is_empty(),
        "{changed:?} {wrong:?}"
    );
}

#[test]
fn a_a_generated_block_that_differs() {
    let root = fixture();
    edit(
        &root,
        "docs/en/lab1-revoke.md",
        "Name who processed each duplicate",
        "Name who processed a duplicate",
    );
    one(
        &problems(&root),
        "docs/en/lab1-revoke.md:64:",
        "the krb:help krb-dups block is not what it generates (this line differs); run scripts/docs.sh (krb-docs write)",
    );
    let (changed, _) = write(&docs(&root)).unwrap();
    assert_eq!(changed, ["docs/en/lab1-revoke.md"]);
    assert_eq!(problems(&root), Vec::<String>::new());

    std::fs::remove_file(root.join("docs/samples/ko/lab1.txt")).unwrap();
    one(
        &problems(&root),
        "docs/ko/lab1-revoke.md:29:",
        "no docs/samples/ko/lab1.txt; run scripts/samples.sh 1",
    );
}

#[test]
fn b_a_flag_no_help_names() {
    let root = fixture();
    let page = "docs/en/lab1-revoke.md";
    // Not commands: an error line, a file to source, a path, a crate, Kafka's script, a word.
    edit(
        &root,
        page,
        "## Exercises",
        "`krb-dups: no logs --x`, `scripts/common.sh --x`, `/tmp/krb-postgres-5481 --x`, \
         `krb-demo --x`, `kafka-topics.sh --create`, `start --fresh`\n\n## Exercises",
    );
    assert_eq!(problems(&root), Vec::<String>::new());
    edit(
        &root,
        page,
        "## Exercises",
        "Or `krb-dups nocommit --verboze`.\n\n## Exercises",
    );
    one(
        &problems(&root),
        "docs/en/lab1-revoke.md:71:",
        "`--verboze` in `krb-dups nocommit --verboze` is not in krb-dups --help",
    );

    // A script's usage, its worker options, and common.sh's functions, in both pages.
    let root = fixture();
    let block = "```sh\n./scripts/01-revoke.sh g --delay 0.02\nstop --wait 5 g-a\n\
                 topic pay 2 --replication 3\ntopic pay 2 --replicas 3\n\
                 scripts/01-revoke.sh g --nope\n```\n\n";
    edit(&root, page, "## Exercises", &format!("{block}## Exercises"));
    edit(
        &root,
        "docs/ko/lab1-revoke.md",
        "## 연습 문제",
        &format!("{block}## 연습 문제"),
    );
    let found = problems(&root);
    assert_eq!(found.len(), 4, "{found:#?}");
    for (i, page) in ["docs/en", "docs/ko"].iter().enumerate() {
        assert!(
            found[2 * i].starts_with(page)
                && found[2 * i].contains(
                    "`--replicas` in `topic pay 2 --replicas 3` is not in the comment of \
                     common.sh's topic or krb-topic --help"
                ),
            "{found:#?}"
        );
        assert!(
            found[2 * i + 1].contains(
                "`--nope` in `scripts/01-revoke.sh g --nope` is not in scripts/01-revoke.sh --help"
            ),
            "{found:#?}"
        );
    }
}

#[test]
fn c_a_variable_read_nowhere_or_not_documented() {
    let root = fixture();
    edit(
        &root,
        "docs/en/lab1-revoke.md",
        "## Exercises",
        "KRB_NOPE=1\n\n## Exercises",
    );
    one(
        &problems(&root),
        "docs/en/lab1-revoke.md:69:",
        "KRB_NOPE is read nowhere in scripts/ or crates/*/src",
    );

    // The table is reference.md's: a row in setup.md does not stand for it.
    let root = fixture();
    edit(
        &root,
        "docs/ko/reference.md",
        "| `KRB_LOGS` | `logs` | 로그 폴더 |\n",
        "",
    );
    edit(
        &root,
        "docs/ko/setup.md",
        "Linux와 bash.",
        "Linux와 bash.\n\n| `KRB_LOGS` | `logs` | 로그 폴더 |",
    );
    one(
        &problems(&root),
        "docs/ko/reference.md:1:",
        "KRB_LOGS (read at scripts/common.sh:3) has no row in the table of variables",
    );

    let root = fixture();
    edit(
        &root,
        "docs/en/setup.md",
        "Linux and bash.",
        "Linux and bash, without KRB_WATCHDOG_CHILD.",
    );
    one(
        &problems(&root),
        "docs/en/setup.md:7:",
        "KRB_WATCHDOG_CHILD is internal",
    );
}

#[test]
fn d_twins_that_differ() {
    let root = fixture();
    edit(
        &root,
        "docs/ko/lab1-revoke.md",
        "## 타임라인 읽기",
        "### 타임라인 읽기",
    );
    one(
        &problems(&root),
        "docs/ko/lab1-revoke.md:51:",
        "heading 5 `타임라인 읽기` is level 3 where docs/en/lab1-revoke.md:51 `Reading the timeline` is level 2",
    );

    let root = fixture();
    edit(
        &root,
        "docs/en/lab1-revoke.md",
        "krb-produce pay 1000 2\n",
        "krb-produce pay 1000 2\nkrb-dups nocommit --json\n",
    );
    // The sample never ran it either: check h says so beside the twins' problem.
    let found = problems(&root);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].starts_with("docs/en/lab1-revoke.md:14:")
            && found[0].contains("`krb-dups nocommit --json` is a command of this page that"),
        "{found:#?}"
    );
    assert!(
        found[1].starts_with("docs/en/lab1-revoke.md:14:")
            && found[1]
                .contains("command `krb-dups nocommit --json` is not in docs/ko/lab1-revoke.md"),
        "{found:#?}"
    );

    let root = fixture();
    let ko = std::fs::read_to_string(root.join("docs/ko/lab1-revoke.md")).unwrap();
    let start = ko.find("<!-- krb:help krb-dups -->").unwrap();
    let end = ko.find("## 연습 문제").unwrap();
    std::fs::write(
        root.join("docs/ko/lab1-revoke.md"),
        format!("{}{}", &ko[..start], &ko[end..]),
    )
    .unwrap();
    one(
        &problems(&root),
        "docs/ko/lab1-revoke.md:1:",
        "generated block 3 is nothing where docs/en/lab1-revoke.md has `krb:help krb-dups`",
    );

    let root = fixture();
    edit(&root, "README.ko.md", "[English](README.md) · ", "");
    one(
        &problems(&root),
        "README.ko.md:1:",
        "no link to its twin README.md",
    );
}

#[test]
fn e_a_link_or_an_anchor_to_nowhere() {
    let root = fixture();
    edit(
        &root,
        "docs/en/lab1-revoke.md",
        "../img/lab1.svg",
        "../img/lab2.svg",
    );
    one(
        &problems(&root),
        "docs/en/lab1-revoke.md:53:",
        "link ../img/lab2.svg: no file docs/img/lab2.svg; fix the link",
    );

    let root = fixture();
    edit(
        &root,
        "README.md",
        "setup.md#prerequisites",
        "setup.md#prerequisite",
    );
    one(
        &problems(&root),
        "README.md:5:",
        "link docs/en/setup.md#prerequisite: docs/en/setup.md has no heading whose anchor is #prerequisite",
    );
}

#[test]
fn e_a_merges_conflict_markers_left_in_a_page() {
    let root = fixture();
    edit(
        &root,
        "docs/en/setup.md",
        "\n",
        "\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> main\n",
    );
    let found = problems(&root);
    assert_eq!(found.len(), 2, "{found:#?}");
    for (problem, at) in found
        .iter()
        .zip(["docs/en/setup.md:2:", "docs/en/setup.md:6:"])
    {
        assert!(problem.starts_with(at), "{found:#?}");
        assert!(problem.contains("a merge's conflict marker"), "{found:#?}");
    }
}

/// Seals `docs/samples/LANG/lab1.txt` and its logs again, as scripts/samples.sh does.
fn seal(root: &Path, lang: &str) {
    let dir = root.join("docs/samples").join(lang);
    let mut names = vec!["lab1.txt".to_string()];
    let mut logs: Vec<String> = std::fs::read_dir(dir.join("lab1"))
        .unwrap()
        .map(|e| format!("lab1/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    logs.sort();
    names.extend(logs);
    let out = std::process::Command::new("sha256sum")
        .args(&names)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    std::fs::write(dir.join("lab1.sha256"), out.stdout).unwrap();
}

#[test]
fn f_a_tool_that_prints_nothing_on_a_samples_logs_is_an_error_not_an_empty_output() {
    let root = fixture();
    let logs = root.join("docs/samples/en/lab1");
    for entry in std::fs::read_dir(&logs).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    seal(&root, "en");
    let sample = std::fs::read_to_string(root.join("docs/samples/en/lab1.txt")).unwrap();
    let error = check(&docs(&root)).unwrap_err().to_string();
    assert!(error.contains("printed nothing"), "{error}");
    // Nothing printed is nothing written: the sample keeps its verdict.
    assert!(write(&docs(&root)).is_err());
    let kept = std::fs::read_to_string(root.join("docs/samples/en/lab1.txt")).unwrap();
    assert_eq!(kept, sample);
}

#[test]
fn f_a_line_no_tool_printed_in_a_sample() {
    for lang in ["en", "ko"] {
        let root = fixture();
        let sample = format!("docs/samples/{lang}/lab1.txt");
        let path = root.join(&sample);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text + "this line no tool prints at all\n").unwrap();
        // The page shows the sample as it is now: only the sample itself is wrong.
        write(&docs(&root)).unwrap();
        one(
            &problems(&root),
            &format!("{sample}:1: lab1.txt differs from its seal"),
            "made by scripts/samples.sh; run it again (scripts/samples.sh 1)",
        );
    }
}

#[test]
fn f_a_changed_word_in_a_verdict_line() {
    for (lang, from, to) in [
        (
            "en",
            "all 1000 messages processed",
            "all 1000 messages handled",
        ),
        ("ko", "1000개", "1001개"),
    ] {
        let root = fixture();
        let sample = format!("docs/samples/{lang}/lab1.txt");
        edit(&root, &sample, from, to);
        write(&docs(&root)).unwrap();
        one(
            &problems(&root),
            &format!("{sample}:1: lab1.txt differs from its seal"),
            "run it again",
        );
        // Sealed again by hand, or a tool that now says otherwise: krb-verify, run again on
        // the sample's logs, prints the line as it is.
        seal(&root, lang);
        one(
            &problems(&root),
            &format!("{sample}:"),
            "krb-verify revoke nocommit prints `",
        );
        // A reword: scripts/docs.sh writes the tool's words into the sample, seals it again,
        // and the page's copy follows.
        let (changed, _) = write(&docs(&root)).unwrap();
        assert!(changed.contains(&sample), "{changed:?}");
        assert_eq!(problems(&root), Vec::<String>::new());
    }
}

#[test]
fn f_a_pages_output_line_quoting_no_run() {
    // The same output block in both twins, before their exercises.
    let with_block = |line: &str| {
        let root = fixture();
        for (page, heading) in [
            ("docs/en/lab1-revoke.md", "## Exercises"),
            ("docs/ko/lab1-revoke.md", "## 연습 문제"),
        ] {
            edit(
                &root,
                page,
                heading,
                &format!("```text\n{line}\n```\n\n{heading}"),
            );
        }
        root
    };
    let root = with_block("this line no tool prints at all");
    let found = problems(&root);
    assert_eq!(found.len(), 2, "{found:#?}");
    for (problem, lang) in found.iter().zip(["en", "ko"]) {
        assert!(
            problem.starts_with(&format!(
                "docs/{lang}/lab1-revoke.md:70: `this line no tool prints at all` is in no sample of docs/samples/{lang}"
            )),
            "{found:#?}"
        );
    }
    // A line of the samples passes.
    let root = with_block("sent 1000 messages to pay");
    assert_eq!(problems(&root), Vec::<String>::new());
    // A block marked as a run no check can make is left unheld, and only that block.
    let root = with_block(
        "this line no tool prints at all\n```\n\n<!-- unrun: a broker -->\n```text\nnor this one",
    );
    let found = problems(&root);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found
            .iter()
            .all(|p| p.contains("`this line no tool prints at all`")),
        "{found:#?}"
    );
}

#[test]
fn g_a_word_the_glossary_rules_out() {
    let root = fixture();
    edit(
        &root,
        "docs/ko/lab1-revoke.md",
        "다음 담당자가",
        "다음 주인이",
    );
    one(
        &problems(&root),
        "docs/ko/lab1-revoke.md:7:",
        "`주인` is a variant docs/ko/glossary.md rules out; write `담당자`",
    );

    // An expression the glossary rules out, in a page and in a script's Korean text.
    let root = fixture();
    edit(
        &root,
        "docs/ko/lab1-revoke.md",
        "다음 담당자가",
        "파티션을 넘겨준 뒤 다음 담당자가",
    );
    one(
        &problems(&root),
        "docs/ko/lab1-revoke.md:7:",
        "`넘겨준` (`넘겨주다`) is an expression docs/ko/glossary.md rules out; write `반납`",
    );
    let root = fixture();
    edit(
        &root,
        "scripts/01-revoke.sh",
        "krb_line \"== verdict\"",
        "krb_line \"every statement held\" \"모든 문장 성립\"\nkrb_line \"== verdict\"",
    );
    one(
        &problems(&root),
        "scripts/01-revoke.sh:10:",
        "`문장` (`문장`) is an expression docs/ko/glossary.md rules out; write `판정 항목`",
    );

    // The same word in an English page is no Korean variant.
    let root = fixture();
    edit(&root, "docs/en/lab1-revoke.md", "Lab 1", "Lab 1 커밋");
    assert!(
        !problems(&root).iter().any(|p| p.contains("glossary")),
        "{:#?}",
        problems(&root)
    );
}

#[test]
fn h_a_sample_not_made_from_its_page_commands() {
    // Lab 2's old sample: made from a command its page does not show.
    let root = fixture();
    for lang in ["en", "ko"] {
        edit(
            &root,
            &format!("docs/samples/{lang}/lab1.txt"),
            "$ topic pay 2\n",
            "$ topic slow 1\nCreated topic slow.\n$ topic pay 2\n",
        );
        // As samples.sh would have sealed it: only its commands are wrong.
        seal(&root, lang);
    }
    write(&docs(&root)).unwrap();
    let found = problems(&root);
    assert_eq!(found.len(), 2, "{found:#?}");
    for (problem, lang) in found.iter().zip(["en", "ko"]) {
        assert!(
            problem.starts_with(&format!("docs/samples/{lang}/lab1.txt:2: the sample ran `topic slow 1`, which docs/{lang}/lab1-revoke.md's commands do not show")),
            "{found:#?}"
        );
    }
    // Lab 1's old sample: the page shows a command its run never made.
    let root = fixture();
    edit(
        &root,
        "docs/samples/en/lab1.txt",
        "$ krb-produce pay 1000 2\nsent 1000 messages to pay\n",
        "",
    );
    seal(&root, "en");
    write(&docs(&root)).unwrap();
    one(
        &problems(&root),
        "docs/en/lab1-revoke.md:13:",
        "`krb-produce pay 1000 2` is a command of this page that docs/samples/en/lab1.txt never ran",
    );
}
