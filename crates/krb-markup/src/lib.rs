//! What the tools write into a page: text made safe in HTML and SVG ([`escape_html`]), and SVG
//! pictures built element by element ([`El`]): krb-timeline's timeline, krb-room's spreads,
//! lab 9's decision picture. Every page shows what others wrote (a participant's name, a log's
//! consumer), so every text and attribute value goes through one escape; attributes come out in
//! the order they were set, as the pages' tests read them.

use std::fmt::{self, Display};

/// Text made safe in an HTML or SVG page, inside an element or a quoted attribute.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An SVG element, written as it is built: its attributes, then its text and children.
#[derive(Clone, Debug)]
pub struct El {
    name: &'static str,
    attributes: String,
    body: String,
}

impl El {
    /// The element `tag` names first, then any attributes of the code's own, written as they
    /// are (`r#"text class="label""#`): a `&'static str` holds nothing a run or a person wrote.
    pub fn new(tag: &'static str) -> El {
        let name = tag.split(' ').next().unwrap_or(tag);
        let attributes = tag[name.len()..].into();
        El {
            name,
            attributes,
            body: String::new(),
        }
    }

    /// A picture's root element.
    pub fn svg() -> El {
        El::new(r#"svg xmlns="http://www.w3.org/2000/svg""#)
    }

    /// The attribute `name` (each set once), its value escaped.
    pub fn set(mut self, name: &str, value: impl Display) -> El {
        self.attributes += &format!(r#" {name}="{}""#, escape_html(&value.to_string()));
        self
    }

    /// Text inside the element, escaped.
    pub fn text(mut self, text: &str) -> El {
        self.body += &escape_html(text);
        self
    }

    /// A child element, on a line of its own.
    pub fn child(mut self, child: El) -> El {
        self.body += &format!("{child}\n");
        self
    }
}

impl Display for El {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, attributes, body) = (self.name, &self.attributes, &self.body);
        match body.is_empty() {
            true => write!(f, "<{name}{attributes}/>"),
            false => write!(f, "<{name}{attributes}>{body}</{name}>"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_markup_and_quotes_are_escaped_and_nothing_else() {
        assert_eq!(
            escape_html(r#"<b a="1">&amp; 반납's</b>"#),
            "&lt;b a=&quot;1&quot;&gt;&amp;amp; 반납's&lt;/b&gt;"
        );
    }

    #[test]
    fn quotes_markup_and_ampersands_in_attributes_and_text_read_back_as_written() {
        let hostile = r#"a" onload="x" <b>&amp;"#;
        let svg = El::svg()
            .set("data-name", hostile)
            .child(El::new("text").set("x", 1.5).text(hostile))
            .child(El::new(r#"circle r="2""#).set("cx", 0))
            .to_string();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert_eq!(root.attribute("data-name"), Some(hostile), "{svg}");
        assert_eq!(root.attribute("onload"), None, "{svg}");
        let text = root.first_element_child().unwrap();
        assert_eq!(
            (text.attribute("x"), text.text()),
            (Some("1.5"), Some(hostile))
        );
        // Attributes in the order set, an empty element closed in itself.
        assert!(
            svg.contains("\n<circle r=\"2\" cx=\"0\"/>\n</svg>"),
            "{svg}"
        );
    }
}
