//! What krb-verify prints for a person, in English and Korean (`KRB_LANG=ko`).
//!
//! A verdict's statements, details, the article's numbers and ours are [`Message`]s: values
//! (which message, and its arguments) that each lab's module declares in its own enum, with
//! both languages side by side in one `text(lang)` (see docs/en/internals/messages.md). They
//! are made into text only where they are shown, so a record published in one language is
//! shown in the viewer's. The frame around them (a verdict's labels, the table's heads) is the
//! pairs below.

use std::fmt::Display;

use krb_cli::lang::{Lang, Msg};
use krb_log::logline::{Offset, Partition};
use serde::{Deserialize, Serialize};

use crate::{assignor, faults, idempotent, maxpoll, protocol, revoke, share, static_lab};

/// `both!(lang, "english {x}", "korean {x}")`: the text in `lang`, each `{name}` the variable of
/// that name (format!'s inline arguments, checked by the compiler in both languages).
macro_rules! both {
    ($lang:expr, $en:literal, $ko:literal) => {
        match $lang {
            krb_cli::lang::Lang::En => format!($en),
            krb_cli::lang::Lang::Ko => format!($ko),
        }
    };
}
pub(crate) use both;

/// Declares a lab's message enum and the names of its variants ([`Said::VARIANTS`]-style), so
/// that the tests can hold a lab's examples to every variant it declares.
macro_rules! said {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $({ $($(#[$fmeta:meta])* $field:ident : $ty:ty),* $(,)? })?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            $(
                $(#[$vmeta])*
                $variant $({ $($(#[$fmeta])* $field: $ty),* })?
            ),*
        }

        impl $name {
            /// The names of the variants, as the records write them.
            pub const VARIANTS: &'static [&'static str] = &[$(stringify!($variant)),*];
        }
    };
}
pub(crate) use said;

/// A message of a verdict: which one, with its values, in no language yet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Message {
    /// Words more than one lab says.
    Shared(Shared),
    Lab1(revoke::Said),
    Lab2(maxpoll::Said),
    Lab3(assignor::Said),
    Lab4(static_lab::Said),
    Lab5(protocol::Said),
    Lab6(idempotent::Said),
    Lab7(faults::Said),
    Lab8(share::Said),
    Lab9(crate::deploy::Message),
    /// Several messages, `; ` between them.
    Parts(Vec<Message>),
    /// The English text of a record whose message this krb cannot read (an older krb wrote
    /// none, a newer one a message this one does not know): shown as it is, marked under
    /// another language. Never written as a message.
    #[serde(skip)]
    English(String),
}

impl Message {
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Message::Shared(m) => m.text(lang),
            Message::Lab1(m) => m.text(lang),
            Message::Lab2(m) => m.text(lang),
            Message::Lab3(m) => m.text(lang),
            Message::Lab4(m) => m.text(lang),
            Message::Lab5(m) => m.text(lang),
            Message::Lab6(m) => m.text(lang),
            Message::Lab7(m) => m.text(lang),
            Message::Lab8(m) => m.text(lang),
            Message::Lab9(m) => m.text(lang),
            Message::Parts(parts) => parts
                .iter()
                .map(|p| p.text(lang))
                .collect::<Vec<_>>()
                .join("; "),
            Message::English(text) => match lang {
                Lang::En => text.clone(),
                _ => format!("{text} {UNTRANSLATED}"),
            },
        }
    }

    /// The message's parts: its own when it is [`Message::Parts`], else itself.
    pub fn parts(self) -> Vec<Message> {
        match self {
            Message::Parts(parts) => parts,
            other => vec![other],
        }
    }

    /// The message as a record keeps it: its English text, and the message itself unless it
    /// is only English text.
    pub fn to_record(&self) -> (String, Option<serde_json::Value>) {
        let said = match self {
            Message::English(_) => None,
            m => serde_json::to_value(m).ok(),
        };
        (self.text(Lang::En), said)
    }

    /// A message read back from a record: `said` when this krb knows it, else the English
    /// text (a record of an older or a newer krb).
    pub fn from_record(english: String, said: Option<serde_json::Value>) -> Message {
        said.and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or(Message::English(english))
    }
}

/// The mark after a record's English text shown under another language: it was not said in
/// that language.
pub const UNTRANSLATED: &str = "(en)";

/// Makes each lab's enum a [`Message`].
macro_rules! into_message {
    ($($said:ty => $variant:ident),* $(,)?) => {
        $(impl From<$said> for Message {
            fn from(m: $said) -> Message {
                Message::$variant(m)
            }
        })*
    };
}
into_message! {
    Shared => Shared,
    revoke::Said => Lab1,
    maxpoll::Said => Lab2,
    assignor::Said => Lab3,
    static_lab::Said => Lab4,
    protocol::Said => Lab5,
    idempotent::Said => Lab6,
    faults::Said => Lab7,
    share::Said => Lab8,
    crate::deploy::Message => Lab9,
}

impl From<Vec<Message>> for Message {
    fn from(parts: Vec<Message>) -> Message {
        Message::Parts(parts)
    }
}

/// A value that may be missing, as a detail shows it: the value, or `none`.
pub fn opt<T: Display>(lang: Lang, value: Option<T>) -> String {
    match value {
        Some(v) => v.to_string(),
        None => both!(lang, "none", "없음"),
    }
}

/// `p0, p3`: partitions as a summary names them; empty for none.
pub fn partitions<'a>(ps: impl IntoIterator<Item = &'a Partition>) -> String {
    ps.into_iter()
        .map(|p| format!("p{p}"))
        .collect::<Vec<_>>()
        .join(", ")
}

said! {
    /// Words more than one lab says.
    pub enum Shared {
        AllProcessed { count: u64 },
        NoDuplicates,
        Unique { count: u64 },
        Duplicates { count: u64 },
        Summary {
            count: u64,
            partitions: Vec<Partition>,
            range: Option<(Offset, Offset)>,
        },
        Seconds { seconds: f64 },
        Nothing,
        Data { text: String },
        Revoked { list: String },
        Committed {
            offsets: Vec<(Partition, Option<Offset>)>,
        },
    }
}

impl Shared {
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Shared::AllProcessed { count } => both!(
                lang,
                "all {count} messages processed",
                "메시지 {count}개 모두 처리됨"
            ),
            Shared::NoDuplicates => both!(lang, "no duplicates", "중복 없음"),
            Shared::Unique { count } => both!(lang, "unique {count}", "고유 {count}"),
            Shared::Duplicates { count } => {
                both!(lang, "{count} duplicates", "중복 {count}건")
            }
            Shared::Summary {
                count,
                partitions: ps,
                range,
            } => {
                let on = partitions(ps);
                let mut text = match (lang, ps.is_empty(), count) {
                    (Lang::En, true, 1) => "1 duplicate".to_string(),
                    (Lang::En, true, _) => format!("{count} duplicates"),
                    (Lang::En, false, 1) => format!("1 duplicate on {on}"),
                    (Lang::En, false, _) => format!("{count} duplicates on {on}"),
                    (Lang::Ko, true, _) => format!("중복 {count}건"),
                    (Lang::Ko, false, _) => format!("{on}에서 중복 {count}건"),
                };
                if let Some((first, last)) = range {
                    text += &format!(" ({first}..{last})");
                }
                text
            }
            Shared::Seconds { seconds } => both!(lang, "{seconds:.2} s", "{seconds:.2}초"),
            Shared::Nothing => opt(lang, None::<u8>),
            Shared::Data { text } => text.clone(),
            Shared::Revoked { list } => both!(lang, "revoked {list}", "반납 {list}"),
            Shared::Committed { offsets } => {
                if offsets.is_empty() {
                    return opt(lang, None::<u8>);
                }
                offsets
                    .iter()
                    .map(|(p, o)| match (lang, o) {
                        (Lang::Ko, None) => format!("p{p}: commit 없음"),
                        (_, o) => format!("p{p}={}", crate::shown::opt(*o)),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        }
    }
}

/// `lab 1 revoke nocommit (group nocommit)`: a verdict's first line.
pub const TITLE: Msg = Msg {
    en: "lab {lab} {name} {variant} (group {group})",
    ko: "실습 {lab} {name} {variant} (그룹 {group})",
};
pub const ARTICLE_LINE: Msg = Msg {
    en: "  article: {text}",
    ko: "  글:      {text}",
};
pub const OURS_LINE: Msg = Msg {
    en: "  ours:    {text}",
    ko: "  실측:    {text}",
};
pub const HELD_LINE: Msg = Msg {
    en: "  held   {statement} ({detail})",
    ko: "  성립   {statement} ({detail})",
};
pub const FAILED_LINE: Msg = Msg {
    en: "  FAILED {statement} ({detail})",
    ko: "  실패   {statement} ({detail})",
};
/// The table's and the page's column heads: lab, variant, article, ours, held.
pub const HEADS: [Msg; 5] = [
    Msg {
        en: "lab",
        ko: "실습",
    },
    Msg {
        en: "variant",
        ko: "변형",
    },
    Msg {
        en: "article",
        ko: "글",
    },
    Msg {
        en: "ours",
        ko: "실측",
    },
    HELD,
];
/// Below a row whose statements did not all hold.
pub const NOT_HELD: Msg = Msg {
    en: "not held: {failures}",
    ko: "성립하지 않음: {failures}",
};
pub const HELD: Msg = Msg {
    en: "held",
    ko: "성립",
};
pub const FAILED: Msg = Msg {
    en: "FAILED",
    ko: "실패",
};
/// A variant's end in the lab command: how long it took and what came of it.
pub const SECONDS: Msg = Msg {
    en: "{seconds} s, {what}",
    ko: "{seconds}초, {what}",
};
pub const ERROR: Msg = Msg {
    en: "error",
    ko: "오류",
};

/// Every frame message above, for the tests.
pub const FRAME: &[Msg] = &[
    TITLE,
    ARTICLE_LINE,
    OURS_LINE,
    HELD_LINE,
    FAILED_LINE,
    HEADS[0],
    HEADS[1],
    HEADS[2],
    HEADS[3],
    NOT_HELD,
    HELD,
    FAILED,
    SECONDS,
    ERROR,
];

/// A test's own words, shown as they are in every language.
#[cfg(test)]
impl From<&str> for Message {
    fn from(text: &str) -> Message {
        Shared::Data { text: text.into() }.into()
    }
}

/// A test's message, given again.
#[cfg(test)]
impl From<&Message> for Message {
    fn from(m: &Message) -> Message {
        m.clone()
    }
}

#[cfg(test)]
mod tests;
