//! The page: one file of HTML, CSS and script (`page.html`) that fetches nothing but its own
//! state, so it works with no internet and stays readable when the server stops. The server
//! fills in the language, the page's words and the state at the time it is asked for.

use krb_cli::lang::Lang;

use crate::messages;

const TEMPLATE: &str = include_str!("page.html");

pub struct Page {
    lang: Lang,
    words: String,
}

/// JSON made safe inside `<script>`, in every state of the HTML tokenizer: no `<` at all (a
/// `</script>` would end the element early, and `<!--` then `<script` would make the tokenizer
/// take the page's own `</script>` for the state's and swallow the page's script), nor `>` or
/// `&`. Each only ever appears inside a JSON string, where its `\u` escape reads the same.
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

impl Page {
    pub fn new(lang: Lang) -> Page {
        let words = serde_json::Value::Object(messages::words(lang)).to_string();
        Page {
            lang,
            words: script_safe(&words),
        }
    }

    /// The page, showing `state` (the JSON of a [`crate::view::View`]) until its script
    /// fetches a newer one.
    pub fn render(&self, state: &str) -> String {
        TEMPLATE
            .replace("{{lang}}", self.lang.code())
            .replace("{{words}}", &self.words)
            .replace("{{committed}}", krb_timeline::COMMITTED)
            .replace("{{state}}", &script_safe(state))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_cannot_end_its_script_and_the_words_are_the_languages() {
        let page = Page::new(Lang::Ko).render(r#"{"group":"</script><b>x"}"#);
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("<html lang=\"ko\">"));
        assert!(
            page.contains(r#"{"group":"\u003c/script\u003e\u003cb\u003ex"}"#),
            "{page}"
        );
        assert_eq!(
            page.matches("</script>").count(),
            page.matches("<script").count()
        );
        assert!(page.contains("\"duplicates\":\"중복\""));
        assert!(!page.contains("{{"), "a placeholder left in the page");
        // Nothing fetched from elsewhere: no address in the page but SVG's namespace.
        let outside = page.replace("http://www.w3.org/2000/svg", "");
        assert!(!outside.contains("http:") && !outside.contains("https:"));
        assert!(!outside.contains("src=") && !outside.contains("@import"));
    }

    #[test]
    fn no_log_text_puts_the_tokenizer_out_of_the_states_script() {
        let state = serde_json::json!({
            "feed": ["commit failed: <!--<script>", "a & b > c", "</script >", "<\u{0}"],
        })
        .to_string();
        let page = Page::new(Lang::En).render(&state);
        let inline = page
            .split("<script id=\"state\" type=\"application/json\">")
            .nth(1)
            .and_then(|rest| rest.split("</script>").next())
            .unwrap();
        assert!(!inline.contains(['<', '>', '&']), "{inline}");
        // And it reads back as the same state.
        let back: serde_json::Value = serde_json::from_str(inline).unwrap();
        assert_eq!(back.to_string(), state);
    }
}
