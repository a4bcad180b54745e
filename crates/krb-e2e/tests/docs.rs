//! README.md and README.ko.md show the same commands, and link to each other: a command added
//! to one and not the other fails here. Needs no broker.

use std::collections::BTreeSet;

use krb_e2e::root;

/// The commands a Markdown text shows: every line of a ```sh block (its comment cut off), and
/// in other blocks every `$ ` line, also in a block printed as two columns side by side.
fn commands(markdown: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut block: Option<String> = None;
    for line in markdown.lines() {
        if let Some(fence) = line.strip_prefix("```") {
            block = match block {
                None => Some(fence.trim().to_string()),
                Some(_) => None,
            };
            continue;
        }
        let Some(lang) = &block else { continue };
        if lang == "sh" || lang == "bash" {
            let command = match line.find(" #") {
                Some(i) => &line[..i],
                None if line.trim_start().starts_with('#') => "",
                None => line,
            };
            if !command.trim().is_empty() {
                found.insert(command.trim().to_string());
            }
            continue;
        }
        // Columns are at least three spaces apart; a command is a column that starts with `$ `.
        for column in line.split("   ") {
            if let Some(command) = column.trim_start().strip_prefix("$ ") {
                found.insert(command.trim().to_string());
            }
        }
    }
    found
}

#[test]
fn both_readmes_show_the_same_commands_and_link_to_each_other() {
    let read = |name: &str| std::fs::read_to_string(root().join(name)).unwrap();
    let (en, ko) = (read("README.md"), read("README.ko.md"));
    let (en_commands, ko_commands) = (commands(&en), commands(&ko));
    // The front door shows the two commands and the article's steps in one go: 11 commands.
    assert!(en_commands.len() >= 11, "{en_commands:?}");
    let only_en: Vec<_> = en_commands.difference(&ko_commands).collect();
    let only_ko: Vec<_> = ko_commands.difference(&en_commands).collect();
    assert!(only_en.is_empty(), "README.ko.md lacks {only_en:?}");
    assert!(only_ko.is_empty(), "README.md lacks {only_ko:?}");
    assert!(
        en.contains("](README.ko.md)"),
        "README.md does not link to README.ko.md"
    );
    assert!(
        ko.contains("](README.md)"),
        "README.ko.md does not link to README.md"
    );
}

#[test]
fn commands_are_read_from_sh_blocks_and_dollar_lines() {
    let text = "```sh\nscripts/lab.sh     # the lab\n# a comment\n```\n\
                ```\n$ topic pay 2\nCreated topic pay.\n\
                $ krb-dups a          $ krb-dups b\n```\n$ not in a block\n";
    let found: Vec<_> = commands(text).into_iter().collect();
    assert_eq!(
        found,
        ["krb-dups a", "krb-dups b", "scripts/lab.sh", "topic pay 2"]
    );
}
