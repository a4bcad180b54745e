//! The text the tools say, read from their sources (for the glossary's words and the KRB_*
//! variables): the string literals of Rust files and
//! the echo/printf strings of bash scripts, each as a [`Piece`] list where `{...}`, `$x`, `%s`
//! and the like are holes.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::Lit;

/// A piece of a printed text: literal text, or a hole the program fills when it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text printed as written.
    Text(String),
    /// A value (`{}`, `{name}`, `$x`, `$(cmd)`, `%s`): any text.
    Hole,
}

/// A text found in a source file, at a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The line (1-based) where it starts.
    pub line: usize,
    /// Its pieces; `\n` in a text piece starts a new printed line.
    pub pieces: Vec<Piece>,
}

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

/// The texts a bash script prints: the arguments of each `echo` and `printf` (its format, `%s`
/// and the like as holes, then each further argument), and of each call to a function of the
/// script that prints its arguments (`step() { printf '%s test: %s\n' "$(date)" "$*"; }`).
/// Each argument of a call to env.sh's `krb_say` or `krb_line` (`krb_line EN KO`: a text in
/// English and in Korean), or to a function of the script that hands them its arguments
/// (`line() { krb_line "$@"; }`), is a text of its own.
/// `$x`, `${x}`, `$(...)` and backquotes are holes. Comments and here-documents are left out.
pub fn shell_texts(src: &str) -> Vec<Found> {
    let lines = logical_lines(src);
    let printers: Vec<String> = lines
        .iter()
        .filter_map(|(_, line)| {
            let (name, body) = line.trim().split_once("() {")?;
            let prints = body.contains("echo") || body.contains("printf");
            let own = body.contains("$*") || body.contains("$@");
            (prints && own && is_name(name)).then(|| name.to_string())
        })
        .collect();
    let mut bilingual: Vec<String> = vec!["krb_say".into(), "krb_line".into()];
    bilingual.extend(lines.iter().filter_map(|(_, line)| {
        let (name, body) = line.trim().split_once("() {")?;
        let hands = body.contains("krb_say \"$@\"") || body.contains("krb_line \"$@\"");
        (hands && is_name(name)).then(|| name.to_string())
    }));
    let mut found = Vec::new();
    for (number, line) in &lines {
        // A command substitution's commands print too: `line ok "$(krb_say "a b" "가 나")"`.
        let mut commands = vec![line.clone()];
        let mut k = 0;
        while k < commands.len() {
            let inner = substitutions(&commands[k]);
            commands.extend(inner);
            k += 1;
        }
        for line in &commands {
            line_texts(line, *number, &printers, &bilingual, &mut found);
        }
    }
    found
}

/// The commands of each `$(...)` in `line` (not `$((...))`, arithmetic), outermost first.
fn substitutions(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < chars.len() {
        if chars[i] == '$' && chars[i + 1] == '(' && chars.get(i + 2) != Some(&'(') {
            let end = expansion(&chars, i);
            out.push(
                chars[i + 2..end.saturating_sub(1).max(i + 2)]
                    .iter()
                    .collect(),
            );
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The texts one command line prints (see [`shell_texts`]).
fn line_texts(
    line: &str,
    number: usize,
    printers: &[String],
    bilingual: &[String],
    found: &mut Vec<Found>,
) {
    {
        let tokens = tokenize(line);
        let mut command_position = true;
        let mut i = 0;
        while i < tokens.len() {
            let token = &tokens[i];
            i += 1;
            let Token::Word(word) = token else {
                command_position = true;
                continue;
            };
            let raw = word.raw.as_str();
            if !command_position {
                continue;
            }
            if is_assignment(raw) {
                continue;
            }
            if matches!(
                raw,
                "then"
                    | "do"
                    | "else"
                    | "elif"
                    | "if"
                    | "while"
                    | "until"
                    | "!"
                    | "{"
                    | "}"
                    | "time"
            ) {
                continue;
            }
            command_position = false;
            let args: Vec<&Word> = tokens[i..]
                .iter()
                .map_while(|t| match t {
                    Token::Word(w) => Some(w),
                    Token::Op => None,
                })
                .collect();
            i += args.len();
            match raw {
                "echo" => {
                    let mut args = args.as_slice();
                    let mut escapes = false;
                    while let Some(first) = args.first() {
                        match first.raw.as_str() {
                            "-n" => {}
                            "-e" | "-ne" | "-en" => escapes = true,
                            _ => break,
                        }
                        args = &args[1..];
                    }
                    let mut pieces = joined(args);
                    if escapes {
                        pieces = backslash_escapes(pieces);
                    }
                    push(found, number, pieces);
                }
                "printf" => {
                    let mut args = args.as_slice();
                    if args.first().is_some_and(|w| w.raw == "-v") {
                        args = args.get(2..).unwrap_or_default();
                    }
                    if let Some((format, rest)) = args.split_first() {
                        push(found, number, printf_pieces(&format.pieces));
                        for arg in rest {
                            push(found, number, arg.pieces.clone());
                        }
                    }
                }
                name if bilingual.iter().any(|p| p == name) => {
                    for arg in &args {
                        push(found, number, arg.pieces.clone());
                    }
                }
                name if printers.iter().any(|p| p == name) => {
                    push(found, number, joined(&args));
                }
                _ => {}
            }
        }
    }
}

fn push(found: &mut Vec<Found>, line: usize, pieces: Vec<Piece>) {
    if pieces
        .iter()
        .any(|p| matches!(p, Piece::Text(t) if !t.trim().is_empty()))
    {
        found.push(Found { line, pieces });
    }
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_assignment(raw: &str) -> bool {
    raw.split_once('=')
        .is_some_and(|(name, _)| is_name(name) && !name.starts_with(|c: char| c.is_ascii_digit()))
}

/// The script's lines with continuations (`\` at the end) joined and here-documents left out,
/// each with its first line's number.
fn logical_lines(src: &str) -> Vec<(usize, String)> {
    let heredoc = regex::Regex::new(r#"<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?"#)
        .expect("the here-document pattern is valid");
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    let mut until: Option<String> = None;
    for (i, line) in src.lines().enumerate() {
        if let Some(end) = &until {
            if line.trim() == end {
                until = None;
            }
            continue;
        }
        let (number, mut text) = pending.take().unwrap_or((i + 1, String::new()));
        text.push_str(line);
        if text.ends_with('\\') && !text.trim_start().starts_with('#') {
            text.pop();
            pending = Some((number, text));
            continue;
        }
        if let Some(caps) = heredoc.captures(&text) {
            until = Some(caps[1].to_string());
        }
        out.push((number, text));
    }
    out.extend(pending);
    out
}

/// A shell word: its raw text and what it prints.
#[derive(Clone, Debug)]
struct Word {
    raw: String,
    pieces: Vec<Piece>,
}

#[derive(Clone, Debug)]
enum Token {
    Word(Word),
    /// `;`, `|`, `&`, `(`, `)`, `<`, `>` and the like.
    Op,
}

/// A line as words and operators, quotes and expansions resolved; a comment ends it.
fn tokenize(line: &str) -> Vec<Token> {
    let chars: Vec<char> = line.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut word: Option<Word> = None;
    let mut lit = String::new();
    fn flush(tokens: &mut Vec<Token>, word: &mut Option<Word>, lit: &mut String) {
        if let Some(mut w) = word.take() {
            if !lit.is_empty() {
                w.pieces.push(Piece::Text(std::mem::take(lit)));
            }
            tokens.push(Token::Word(w));
        }
        lit.clear();
    }
    let start = |word: &mut Option<Word>| {
        word.get_or_insert_with(|| Word {
            raw: String::new(),
            pieces: Vec::new(),
        });
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' => {
                flush(&mut tokens, &mut word, &mut lit);
                i += 1;
            }
            '#' if word.is_none() => break,
            ';' | '|' | '&' | '(' | ')' | '<' | '>' => {
                flush(&mut tokens, &mut word, &mut lit);
                tokens.push(Token::Op);
                i += 1;
            }
            '\'' => {
                start(&mut word);
                let close = (i + 1..chars.len())
                    .find(|&j| chars[j] == '\'')
                    .unwrap_or(chars.len());
                let text: String = chars[i + 1..close].iter().collect();
                lit.push_str(&text);
                if let Some(w) = word.as_mut() {
                    w.raw.push_str(&text);
                }
                i = close + 1;
            }
            '"' => {
                start(&mut word);
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    match chars[i] {
                        '\\' if matches!(chars.get(i + 1), Some('"' | '\\' | '$' | '`')) => {
                            lit.push(chars[i + 1]);
                            i += 2;
                        }
                        '$' | '`' => {
                            let next = expansion(&chars, i);
                            if next == i + 1 && chars[i] == '$' {
                                lit.push('$');
                            } else if let Some(w) = word.as_mut() {
                                if !lit.is_empty() {
                                    w.pieces.push(Piece::Text(std::mem::take(&mut lit)));
                                }
                                w.pieces.push(Piece::Hole);
                            }
                            i = next;
                        }
                        other => {
                            lit.push(other);
                            i += 1;
                        }
                    }
                }
                if let Some(w) = word.as_mut() {
                    w.raw.push('"');
                }
                i += 1;
            }
            '$' | '`' => {
                start(&mut word);
                let next = expansion(&chars, i);
                let w = word.as_mut().expect("a word was started");
                if next == i + 1 && c == '$' {
                    lit.push('$');
                    w.raw.push('$');
                } else {
                    if !lit.is_empty() {
                        w.pieces.push(Piece::Text(std::mem::take(&mut lit)));
                    }
                    w.pieces.push(Piece::Hole);
                    w.raw.extend(&chars[i..next.min(chars.len())]);
                }
                i = next;
            }
            '\\' => {
                start(&mut word);
                if let Some(&next) = chars.get(i + 1) {
                    lit.push(next);
                    if let Some(w) = word.as_mut() {
                        w.raw.push(next);
                    }
                }
                i += 2;
            }
            other => {
                start(&mut word);
                lit.push(other);
                if let Some(w) = word.as_mut() {
                    w.raw.push(other);
                }
                i += 1;
            }
        }
    }
    flush(&mut tokens, &mut word, &mut lit);
    tokens
}

/// The index just after the expansion at `i` (`$x`, `${...}`, `$(...)`, `$((...))`, `` `...` ``);
/// `i + 1` for a `$` that starts none.
fn expansion(chars: &[char], i: usize) -> usize {
    let closing = |open: char, close: char, from: usize| {
        let mut depth = 0;
        for (j, &c) in chars.iter().enumerate().skip(from) {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
        }
        chars.len()
    };
    if chars[i] == '`' {
        return (i + 1..chars.len())
            .find(|&j| chars[j] == '`')
            .map_or(chars.len(), |j| j + 1);
    }
    match chars.get(i + 1) {
        Some('{') => closing('{', '}', i + 1),
        Some('(') => closing('(', ')', i + 1),
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
            let mut j = i + 1;
            while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            j
        }
        Some(c) if c.is_ascii_digit() || matches!(c, '*' | '@' | '#' | '?' | '$' | '!' | '-') => {
            i + 2
        }
        _ => i + 1,
    }
}

/// echo's arguments as it prints them: joined by one space.
fn joined(args: &[&Word]) -> Vec<Piece> {
    let mut pieces = Vec::new();
    for (n, arg) in args.iter().enumerate() {
        if n > 0 {
            pieces.push(Piece::Text(" ".into()));
        }
        pieces.extend(arg.pieces.iter().cloned());
    }
    merge(pieces)
}

fn merge(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    for piece in pieces {
        match (out.last_mut(), piece) {
            (Some(Piece::Text(last)), Piece::Text(t)) => last.push_str(&t),
            (Some(Piece::Hole), Piece::Hole) => {}
            (_, piece) => out.push(piece),
        }
    }
    out
}

/// `\n` and `\t` in text pieces as the characters they stand for.
fn backslash_escapes(pieces: Vec<Piece>) -> Vec<Piece> {
    pieces
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => Piece::Text(
                t.replace("\\n", "\n")
                    .replace("\\t", "\t")
                    .replace("\\\\", "\\"),
            ),
            hole => hole,
        })
        .collect()
}

/// A printf format as pieces: each conversion (`%s`, `%-12s`, `%.1f`) a hole, `%%` a percent.
fn printf_pieces(format: &[Piece]) -> Vec<Piece> {
    let conversion = regex::Regex::new(r"%%|%[-+ #0]*[0-9*]*(\.[0-9*]+)?[a-zA-Z]")
        .expect("the conversion pattern is valid");
    let mut out = Vec::new();
    for piece in backslash_escapes(format.to_vec()) {
        let Piece::Text(text) = piece else {
            out.push(Piece::Hole);
            continue;
        };
        let mut at = 0;
        for m in conversion.find_iter(&text) {
            out.push(Piece::Text(text[at..m.start()].to_string()));
            out.push(if m.as_str() == "%%" {
                Piece::Text("%".into())
            } else {
                Piece::Hole
            });
            at = m.end();
        }
        out.push(Piece::Text(text[at..].to_string()));
    }
    merge(
        out.into_iter()
            .filter(|p| !matches!(p, Piece::Text(t) if t.is_empty()))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(found: &[Found]) -> Vec<String> {
        found
            .iter()
            .map(|f| {
                f.pieces
                    .iter()
                    .map(|p| match p {
                        Piece::Text(t) => t.as_str(),
                        Piece::Hole => "*",
                    })
                    .collect()
            })
            .collect()
    }

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
    fn shell_echo_printf_and_printer_functions() {
        let src = r#"
step() { printf '%s test: %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { echo "pg-local: $*" >&2; exit 1; }
# echo "a comment"
echo "== lab 1's scenario, group.protocol=$protocol"; x=1
[ -n "$x" ] || echo 'what ${x} logged:' >&2
step "build (release)"
cat <<EOF
echo "in a here-document"
EOF
printf '%-10s %5.1f%%\n' "$name" "$x"
echo -n "rebalance after $group-c joined ($assignor):" \
  more
line() { krb_line "$@"; }
krb_line "waiting $n s ..." \
  "${n}초 기다리는 중 ..." >&2
line failed 실패
"#;
        assert_eq!(
            texts(&shell_texts(src)),
            [
                "* test: *\n",
                "pg-local: *",
                "== lab 1's scenario, group.protocol=*",
                "what ${x} logged:",
                "build (release)",
                "* *%\n",
                "rebalance after *-c joined (*): more",
                "waiting * s ...",
                "*초 기다리는 중 ...",
                "failed",
                "실패",
            ]
        );
    }

    #[test]
    fn a_command_substitutions_texts_are_read_too() {
        let src = r#"
line ok "$(krb_say "linux tools" "Linux 도구")" "$(krb_say "all $n here" "$n개 모두")"
n=$(( 1 + 2 )); x=$(date +%s)
"#;
        assert_eq!(
            texts(&shell_texts(src)),
            ["linux tools", "Linux 도구", "all * here", "*개 모두"]
        );
    }
}
