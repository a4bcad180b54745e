//! The string literals of the Rust sources, for the checks that read what the tools say and read
//! (the glossary's words, the KRB_* variables).

/// The string literals of a Rust source, unescaped, with comments (doc comments too) left out,
/// and nothing from the first `#[cfg(test)]` line on: tests print nothing a learner sees.
pub fn rust_strings(src: &str) -> Vec<(usize, String)> {
    let end = src
        .lines()
        .scan(0, |at, line| {
            let start = *at;
            *at += line.len() + 1;
            Some((start, line))
        })
        .find(|(_, line)| line.trim() == "#[cfg(test)]")
        .map_or(src.len(), |(start, _)| start);
    let chars: Vec<char> = src[..end].chars().collect();
    let mut found = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if at(i + 1) == '/' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                let mut depth = 0;
                while i < chars.len() {
                    if chars[i] == '/' && at(i + 1) == '*' {
                        depth += 1;
                        i += 2;
                    } else if chars[i] == '*' && at(i + 1) == '/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if chars[i] == '\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                }
            }
            '"' => {
                let start = line;
                let (text, next, lines) = cooked(&chars, i + 1);
                found.push((start, text));
                line += lines;
                i = next;
            }
            '\'' => {
                // A char literal ('a', '\n', '"') or a lifetime ('a, 'static).
                if at(i + 1) == '\\' {
                    i += 3;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if at(i + 2) == '\'' {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            c if c.is_alphanumeric() || c == '_' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                match (word.as_str(), at(i)) {
                    ("r" | "br" | "cr", '"' | '#') => {
                        let mut hashes = 0;
                        while at(i + hashes) == '#' {
                            hashes += 1;
                        }
                        if at(i + hashes) != '"' {
                            continue;
                        }
                        let begin = i + hashes + 1;
                        let mut j = begin;
                        while j < chars.len()
                            && !(chars[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#'))
                        {
                            j += 1;
                        }
                        let text: String = chars[begin..j.min(chars.len())].iter().collect();
                        found.push((line, text.clone()));
                        line += text.matches('\n').count();
                        i = j + 1 + hashes;
                    }
                    ("b" | "c", '"') => {
                        let start = line;
                        let (text, next, lines) = cooked(&chars, i + 1);
                        found.push((start, text));
                        line += lines;
                        i = next;
                    }
                    ("b", '\'') => {
                        i += if at(i + 1) == '\\' { 4 } else { 3 };
                        while i < chars.len() && chars[i - 1] != '\'' {
                            i += 1;
                        }
                    }
                    _ => {}
                }
            }
            _ => i += 1,
        }
    }
    found
}

/// A `"..."` literal's text from just after its opening quote: (text, index after the closing
/// quote, newlines crossed).
fn cooked(chars: &[char], mut i: usize) -> (String, usize, usize) {
    let mut text = String::new();
    let mut lines = 0;
    while i < chars.len() && chars[i] != '"' {
        let c = chars[i];
        i += 1;
        if c == '\n' {
            lines += 1;
        }
        if c != '\\' {
            text.push(c);
            continue;
        }
        let e = chars.get(i).copied().unwrap_or('\\');
        i += 1;
        match e {
            'n' => text.push('\n'),
            't' => text.push('\t'),
            'r' => text.push('\r'),
            '0' => text.push('\0'),
            'x' => {
                let hex: String = chars[i..(i + 2).min(chars.len())].iter().collect();
                i += 2;
                if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    text.push(c);
                }
            }
            'u' => {
                let close = (i..chars.len()).find(|&j| chars[j] == '}').unwrap_or(i);
                let hex: String = chars[(i + 1).min(close)..close].iter().collect();
                i = close + 1;
                if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    text.push(c);
                }
            }
            // A line continuation: the newline and the next line's leading white space vanish.
            '\n' => {
                lines += 1;
                while i < chars.len() && chars[i].is_whitespace() {
                    if chars[i] == '\n' {
                        lines += 1;
                    }
                    i += 1;
                }
            }
            other => text.push(other),
        }
    }
    (text, i + 1, lines)
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
}
