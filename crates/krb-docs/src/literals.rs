//! The text the tools say, read from their sources (for the glossary's words and the KRB_*
//! variables): the string literals of Rust files and the Korean words of bash scripts.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::Lit;

/// The string literals of a Rust source, unescaped, with comments (doc comments too) left out,
/// and nothing from the first `#[cfg(test)]` on: tests print nothing a learner sees.
pub fn rust_strings(src: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    // Every source read here compiles, so it lexes.
    if let Ok(tokens) = src.parse() {
        literals(tokens, &mut found);
    }
    found
}

/// Adds the string literals of `tokens` to `found`; false once it met `#[cfg(test)]`.
fn literals(tokens: TokenStream, found: &mut Vec<(usize, String)>) -> bool {
    for tree in tokens {
        match tree {
            TokenTree::Group(group) => {
                if group.delimiter() == Delimiter::Bracket {
                    let attribute = group.stream().to_string().replace(' ', "");
                    if attribute == "cfg(test)" {
                        return false;
                    }
                    // A doc comment is a `doc = "..."` attribute to the lexer.
                    if attribute.starts_with("doc=") {
                        continue;
                    }
                }
                if !literals(group.stream(), found) {
                    return false;
                }
            }
            TokenTree::Literal(literal) => {
                let line = literal.span().start().line;
                match Lit::new(literal) {
                    Lit::Str(s) => found.push((line, s.value())),
                    Lit::ByteStr(s) => {
                        found.push((line, String::from_utf8_lossy(&s.value()).into()))
                    }
                    Lit::CStr(s) => found.push((line, s.value().to_string_lossy().into())),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    true
}

/// The words of a bash script that hold Hangul, each with its line: what it prints for a Korean
/// reader (`krb_say EN KO`, echo, printf, a usage text kept in a variable). A quoted word is read
/// without its quotes; `$x`, `${x}`, `$(...)` and backquotes in it read as `{}`. Comments and
/// here-documents are left out.
pub fn shell_texts(src: &str) -> Vec<(usize, String)> {
    let word = regex!(r#"'[^']*'|"(?:\\.|[^"\\])*"|[^\s;|&()<>'"]+"#);
    let expansion = regex!(r"\$\{[^}]*\}|\$\([^)]*\)|`[^`]*`|\$[A-Za-z_0-9@*#?$!-]+");
    let heredoc = regex!(r#"<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?"#);
    let mut found = Vec::new();
    let mut until: Option<String> = None;
    for (i, line) in src.lines().enumerate() {
        if let Some(end) = &until {
            if line.trim() == end {
                until = None;
            }
            continue;
        }
        until = heredoc.captures(line).map(|caps| caps[1].to_string());
        for w in word.find_iter(line).map(|m| m.as_str()) {
            if w.starts_with('#') {
                break;
            }
            if !krb_cli::lang::has_hangul(w) {
                continue;
            }
            let text = match w.strip_prefix('\'') {
                Some(quoted) => quoted.trim_end_matches('\'').to_string(),
                None => expansion
                    .replace_all(w.trim_matches('"'), "{}")
                    .replace("\\\"", "\""),
            };
            found.push((i + 1, text));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_literals_without_comments_chars_or_tests() {
        let src = r###"
/// Prints `Created topic TOPIC.` (a doc comment, not a literal)
fn f<'a>(x: &'a str) {
    let q = '"'; let e = '\''; // "in a comment"
    println!("Created topic {name}.");
    let raw = r#"a "raw" one"#;
    let joined = "one \
                  line\n";
    let b = b" p";
    /* "block" */
}
#[cfg(test)]
mod tests { const T: &str = "test only"; }
"###;
        let found = rust_strings(src);
        let texts: Vec<&str> = found.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            texts,
            ["Created topic {name}.", "a \"raw\" one", "one line\n", " p"]
        );
        assert_eq!(found[0].0, 5);
        assert_eq!(found[2].0, 7);
        assert_eq!(found[3].0, 9);
    }

    #[test]
    fn a_scripts_korean_words_holes_as_braces() {
        let src = r#"
# echo "주석"
echo "== english only $x"
usage_ko="01-revoke.sh GROUP [워커 옵션]"
krb_line "waiting $n s ..." \
  "${n}초 기다리는 중 ($(date +%s)) ..." >&2
cat <<EOF
echo "안의 글"
EOF
line failed 실패; printf '%s초\n' "$x" # "뒤의 주석"
echo "\"따옴표\" $HOME"
"#;
        assert_eq!(
            shell_texts(src),
            [
                (4, "01-revoke.sh GROUP [워커 옵션]".to_string()),
                (6, "{}초 기다리는 중 ({}) ...".to_string()),
                (10, "실패".to_string()),
                (10, "%s초\\n".to_string()),
                (11, "\"따옴표\" {}".to_string()),
            ]
        );
    }
}
