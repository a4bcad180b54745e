//! Check b: every flag a command of the docs shows exists in that tool's `--help` (its
//! subcommand's, a script's usage, a common.sh function's comment). Which pieces are commands and
//! whose flags each is held to: docs/en/internals/docs-checks.md, "Check b".

use std::collections::{BTreeMap, BTreeSet};

use crate::markdown::{commands, inline_code};
use crate::{Docs, Problem};

/// What a command's first word names, and the flags it takes; `source` names where they are
/// (`krb-dups --help`, `common.sh's stop`).
struct Tool {
    source: String,
    flags: BTreeSet<String>,
}

/// A flag: `--name` or `-X` (one letter).
const FLAG: &str = "(--[A-Za-z0-9][A-Za-z0-9-]*|-[A-Za-z])";

pub fn flags_in(help: &str) -> BTreeSet<String> {
    let re = regex!(&format!(r#"(?:^|[\s\[(|,'"`]){FLAG}\b"#));
    re.captures_iter(help).map(|c| c[1].to_string()).collect()
}

/// The subcommands a clap help lists under `Commands:`.
fn subcommands(help: &str) -> BTreeSet<&str> {
    let after = help.lines().skip_while(|l| l.trim_end() != "Commands:");
    let listed = after.skip(1).take_while(|l| !l.trim().is_empty());
    listed.flat_map(|l| l.split_whitespace().next()).collect()
}

/// The arguments of a script that are its own: up to a subcommand its usage shows passing
/// the rest on (`java CLASS [ARGS...]`: the ARGS are the class's).
fn passed_on<'w>(usage: &str, args: &'w [String]) -> &'w [String] {
    let re = regex!(r"\b([a-z][a-z-]*) [A-Z][A-Z_]* \[ARGS\.\.\.\]");
    let passes_on = |a: &String| re.captures_iter(usage).any(|c| &c[1] == a);
    let last = args.iter().position(passes_on);
    last.map_or(args, |i| &args[..=i])
}

/// A function of scripts/common.sh: its comment and the tool it passes its arguments to.
struct Function {
    usage: String,
    passes_to: Option<String>,
}

fn functions(common_sh: &str) -> BTreeMap<String, Function> {
    let def = regex!(r"^([a-z_][a-z0-9_]*)\(\)\s*\{(.*)$");
    let pass = regex!(r#"\b(krb-[a-z]+) "\$@""#);
    let lines: Vec<&str> = common_sh.lines().collect();
    let mut found = BTreeMap::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(caps) = def.captures(line) else {
            continue;
        };
        let start = lines[..i].iter().rposition(|l| !l.starts_with('#'));
        let comment = lines[start.map_or(0, |j| j + 1)..i].iter();
        let comment: Vec<&str> = comment.map(|l| l.trim_start_matches('#').trim()).collect();
        let body_end = if caps[2].trim_end().ends_with('}') {
            i + 1
        } else {
            (i..lines.len())
                .find(|&j| lines[j].starts_with('}'))
                .unwrap_or(lines.len())
        };
        let body = lines[i..body_end].join("\n");
        found.insert(
            caps[1].to_string(),
            Function {
                usage: comment.join("\n"),
                passes_to: pass.captures(&body).map(|c| c[1].to_string()),
            },
        );
    }
    found
}

/// A command line's pieces, each a list of words (quotes removed).
fn pieces(command: &str) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() || "|;&()`".contains(c) => {
                if let Some(w) = word.take() {
                    out.last_mut().expect("a piece").push(w);
                }
                if !c.is_whitespace() {
                    out.push(Vec::new());
                }
            }
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(w) = word {
        out.last_mut().expect("a piece").push(w);
    }
    out.retain(|p| !p.is_empty());
    out
}

fn flag_of(word: &str) -> Option<String> {
    let word = word.trim_start_matches(['[', '(']);
    Some(regex!(&format!("^{FLAG}")).captures(word)?[1].to_string())
}

/// What the checks know of the tools: their help, asked once each.
struct Tools<'d> {
    docs: &'d Docs,
    functions: BTreeMap<String, Function>,
}

impl Tools<'_> {
    /// The tool a piece runs and the words after its name, or why it cannot be checked.
    /// `None` for a piece that runs none of ours (`cat`, `cargo`, `sort`).
    fn resolve<'w>(
        &self,
        words: &'w [String],
        functions: bool,
    ) -> Option<Result<(Tool, &'w [String]), String>> {
        let assignment = regex!(r"^[A-Za-z_][A-Za-z0-9_]*=");
        let skip = words.iter().position(|w| {
            !assignment.is_match(w)
                && !matches!(w.as_str(), "time" | "env" | "sudo" | "nohup" | "exec")
        })?;
        let (name, args) = (words[skip].as_str(), &words[skip + 1..]);
        let base = name.rsplit('/').next().unwrap_or(name);
        // A krb binary's name: `krb-dups`, not `krb-dups:` or `krb-postgres-5481`.
        if regex!(r"^krb-[a-z]+$").is_match(base) {
            let answer = self.binary(base, args);
            // A crate without a binary of its name (krb-log) is no command.
            if answer.is_err() && self.docs.root.join("crates").join(base).is_dir() {
                return None;
            }
            return Some(answer);
        }
        if base.ends_with(".sh") && !base.contains(['*', '$']) {
            let key = format!("scripts/{base}");
            let Ok(text) = std::fs::read_to_string(self.docs.root.join(&key)) else {
                // Another program's script (Kafka's kafka-topics.sh) is none of ours.
                return name
                    .contains("scripts/")
                    .then(|| Err(format!("no script {key}; name one of scripts/*.sh")));
            };
            // A file to source (common.sh, env.sh) takes no flags.
            if !text.contains("usage.sh") && !text.contains("--help)") {
                return None;
            }
            return Some(self.docs.helps.help(&key).map(|help| {
                let (source, flags) = (format!("{key} --help"), self.usage_flags(&help));
                (Tool { source, flags }, passed_on(&help, args))
            }));
        }
        if !functions {
            return None;
        }
        let function = self.functions.get(base)?;
        let mut flags = self.usage_flags(&function.usage);
        let mut source = format!("the comment of common.sh's {base}");
        if let Some(tool) = &function.passes_to {
            let (passed, _) = match self.binary(tool, args) {
                Ok(found) => found,
                Err(why) => return Some(Err(why)),
            };
            flags.extend(passed.flags);
            source = format!("{source} or {}", passed.source);
        }
        Some(Ok((Tool { source, flags }, args)))
    }

    /// A krb binary, or its subcommand when the first word after it names one.
    fn binary<'w>(&self, name: &str, args: &'w [String]) -> Result<(Tool, &'w [String]), String> {
        let help = self.docs.helps.help(name)?;
        let mut flags = flags_in(&help);
        let sub = args
            .iter()
            .position(|a| !a.starts_with('-'))
            .filter(|&i| subcommands(&help).contains(args[i].as_str()));
        let (key, rest) = match sub {
            None => (name.to_string(), args),
            Some(i) => (format!("{name} {}", args[i]), &args[i + 1..]),
        };
        if sub.is_some() {
            flags.extend(flags_in(&self.docs.helps.help(&key)?));
        }
        let source = format!("{key} --help");
        Ok((Tool { source, flags }, rest))
    }

    /// The flags a usage names, and krb-worker's when it takes `[worker options]`.
    fn usage_flags(&self, usage: &str) -> BTreeSet<String> {
        let mut flags = flags_in(usage);
        if usage.contains("worker options") {
            flags.extend(
                self.docs
                    .helps
                    .help("krb-worker")
                    .iter()
                    .flat_map(|h| flags_in(h)),
            );
        }
        flags
    }
}

pub fn check(docs: &Docs) -> Vec<Problem> {
    let common = std::fs::read_to_string(docs.root.join("scripts/common.sh")).unwrap_or_default();
    let tools = Tools {
        docs,
        functions: functions(&common),
    };
    let mut problems = Vec::new();
    for page in &docs.pages {
        // Inline code is a command when it starts with a binary's or a script's name: `start`
        // or `stop` in prose is a word, not common.sh's function.
        let blocks = commands(&page.text).into_iter().map(|(l, c)| (l, c, true));
        let inline = inline_code(&page.text).into_iter().filter(|(_, code)| {
            let first = pieces(code).into_iter().next();
            first.is_some_and(|words| tools.resolve(&words, false).is_some())
        });
        let mut said = BTreeSet::new();
        for (line, command, functions) in blocks.chain(inline.map(|(l, c)| (l, c, false))) {
            for words in pieces(&command) {
                let (tool, args) = match tools.resolve(&words, functions) {
                    None => continue,
                    Some(Err(why)) => {
                        if said.insert(why.clone()) {
                            problems.push(Problem::new(&page.path, line, why));
                        }
                        continue;
                    }
                    Some(Ok(found)) => found,
                };
                let flags = args
                    .iter()
                    .take_while(|a| *a != "--")
                    .filter_map(|a| flag_of(a));
                for flag in flags.filter(|f| f != "-h" && f != "--help" && !tool.flags.contains(f))
                {
                    let source = &tool.source;
                    let what = format!(
                        "`{flag}` in `{command}` is not in {source}; fix the command (or the tool)"
                    );
                    problems.push(Problem::new(&page.path, line, what));
                }
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_read_from_help_and_commands() {
        let help = "Usage: krb-dups [OPTIONS] <GROUP>\n      --logs <DIR>\n  -v, --verbose\n\
                    \x20 01-revoke.sh GROUP [--revoke-commit] [worker options]\n e.g. GROUP-a\n";
        let found: Vec<String> = flags_in(help).into_iter().collect();
        assert_eq!(found, ["--logs", "--revoke-commit", "--verbose", "-v"]);
        assert_eq!(flag_of("--db=sqlite:x"), Some("--db".into()));
        assert_eq!(flag_of("-Xfetch.wait.max.ms=10"), Some("-X".into()));
        assert_eq!(flag_of("[--static]"), Some("--static".into()));
        assert_eq!(flag_of("-1"), None);
        assert_eq!(flag_of("--"), None);
    }

    #[test]
    fn what_a_script_passes_on_is_not_its_own() {
        let usage = "kafka-local.sh start [--nodes 1|3]|stop|jars|java CLASS [ARGS...]\n";
        let words: Vec<String> = ["java", "org.Tool", "--describe"]
            .map(String::from)
            .to_vec();
        assert_eq!(passed_on(usage, &words), &words[..1]);
        let words: Vec<String> = ["start", "--nodes", "3"].map(String::from).to_vec();
        assert_eq!(passed_on(usage, &words), &words[..]);
    }

    #[test]
    fn commands_are_cut_into_pieces() {
        let found = pieces("KRB_NS=a scripts/lab.sh --only '1,2' | tee x; krb-dups g 2>&1");
        assert_eq!(
            found,
            [
                vec!["KRB_NS=a", "scripts/lab.sh", "--only", "1,2"],
                vec!["tee", "x"],
                vec!["krb-dups", "g", "2>"],
                vec!["1"],
            ]
        );
    }

    #[test]
    fn common_sh_functions_and_what_they_pass_on() {
        let common = "# topic NAME PARTITIONS: (re)create an empty topic.\n\
                      topic() { krb-topic \"$@\"; }\n\n\
                      # stop [--wait SECONDS] NAME...: stop workers.\nstop() {\n  local wait=60\n}\n";
        let found = functions(common);
        assert_eq!(found["topic"].passes_to.as_deref(), Some("krb-topic"));
        assert_eq!(found["stop"].passes_to, None);
        assert!(flags_in(&found["stop"].usage).contains("--wait"));
    }
}
