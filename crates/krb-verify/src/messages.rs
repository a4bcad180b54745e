//! What krb-verify prints for a person, in English and Korean (`KRB_LANG=ko`): [`Message`]s,
//! values made into text only where they are shown, so a record is read in the viewer's language
//! (docs/en/internals/messages.md). The frame around them is the pairs below.

use std::fmt::{self, Display};

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

/// Declares a lab's messages, each once with its fields and both languages side by side:
/// `Name { field: Type } => "english {field}", "korean {field}";` or `=> |lang| expr` (see
/// docs/en/internals/messages.md).
macro_rules! said {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $({ $($field:ident : $ty:ty),* $(,)? })?
                    => $text:tt $($l:ident | $body:expr)? $(, $ko:literal)?
            );* $(;)?
        }
    ) => {
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        $(#[$meta])*
        pub enum $name {
            $($(#[$vmeta])* $variant $({ $($field: $ty),* })?),*
        }

        impl $name {
            /// The names of the variants, as the records write them.
            pub const VARIANTS: &'static [&'static str] = &[$(stringify!($variant)),*];

            pub fn text(&self, lang: krb_cli::lang::Lang) -> String {
                match self {
                    $($name::$variant $({ $($field),* })? => $crate::messages::said!(
                        @text lang [$($($field)*)?] $text $($l | $body)? $(, $ko)?
                    ),)*
                }
            }
        }
    };
    (@text $lang:ident [$($field:ident)*] $en:literal, $ko:literal) => {{
        $(#[allow(unused_variables)] let $field = $crate::messages::Shown($lang, $field);)*
        $crate::messages::both!($lang, $en, $ko)
    }};
    (@text $lang:ident [$($field:ident)*] | $l:ident | $body:expr) => {{
        let $l = $lang;
        $body
    }};
}
pub(crate) use said;

/// Writes [`Message`]: one variant per enum of words (made from it by `From`), then the parts
/// and a record's English text.
macro_rules! message {
    ($($(#[$meta:meta])* $variant:ident($said:ty)),* $(,)?) => {
        /// A message of a verdict: which one, with its values, in no language yet.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub enum Message {
            $($(#[$meta])* $variant($said),)*
            /// Several messages, `; ` between them.
            Parts(Vec<Message>),
            /// The English text of a record whose message this krb cannot read (an older krb
            /// wrote none, a newer one a message this one does not know): shown as it is,
            /// marked under another language. Never written as a message.
            #[serde(skip)]
            English(String),
        }

        impl Message {
            pub fn text(&self, lang: Lang) -> String {
                match self {
                    $(Message::$variant(m) => m.text(lang),)*
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
        }

        $(impl From<$said> for Message {
            fn from(m: $said) -> Message {
                Message::$variant(m)
            }
        })*
    };
}
message! {
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
}

impl Message {
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

impl From<Vec<Message>> for Message {
    fn from(parts: Vec<Message>) -> Message {
        Message::Parts(parts)
    }
}

/// `parts![a, b]`: the messages `a` and `b` (anything `Into<Message>`), `; ` between them.
macro_rules! parts {
    ($($m:expr),* $(,)?) => {
        $crate::messages::Message::Parts(vec![$($m.into()),*])
    };
}
pub(crate) use parts;

/// A value as a message says it in a language: as it is, `none`/`없음` when missing, a message
/// in that language.
pub trait Words {
    fn say(&self, lang: Lang, f: &mut fmt::Formatter) -> fmt::Result;
}

/// A value said in a language, as a message's text shows it (with format!'s precision).
pub struct Shown<'a, T: ?Sized>(pub Lang, pub &'a T);

impl<T: Words + ?Sized> Display for Shown<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.1.say(self.0, f)
    }
}

macro_rules! as_it_is {
    ($($t:ty),*) => {$(
        impl Words for $t {
            fn say(&self, _: Lang, f: &mut fmt::Formatter) -> fmt::Result {
                Display::fmt(self, f)
            }
        }
    )*};
}
as_it_is!(u8, u16, u32, u64, usize, i32, i64, f64, bool, String);

impl<T: Words> Words for Option<T> {
    fn say(&self, lang: Lang, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Some(v) => v.say(lang, f),
            None => f.write_str(&Shared::Nothing.text(lang)),
        }
    }
}

impl Words for Box<Message> {
    fn say(&self, lang: Lang, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.text(lang))
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
        AllProcessed { count: u64 } => "all {count} messages processed", "메시지 {count}개 모두 처리됨";
        NoDuplicates => "no duplicates", "중복 없음";
        Unique { count: u64 } => "unique {count}", "고유 {count}";
        Duplicates { count: u64 } => "{count} duplicates", "중복 {count}건";
        Summary { count: u64, partitions: Vec<Partition>, range: Option<(Offset, Offset)> } =>
            |lang| {
                let on = crate::messages::partitions(partitions);
                let s = if *count == 1 { "" } else { "s" };
                let range = range
                    .map_or(String::new(), |(first, last)| format!(" ({first}..{last})"));
                match (lang, partitions.is_empty()) {
                    (Lang::En, true) => format!("{count} duplicate{s}{range}"),
                    (Lang::En, false) => format!("{count} duplicate{s} on {on}{range}"),
                    (Lang::Ko, true) => format!("중복 {count}건{range}"),
                    (Lang::Ko, false) => format!("{on}에서 중복 {count}건{range}"),
                }
            };
        Seconds { seconds: f64 } => "{seconds:.2} s", "{seconds:.2}초";
        Nothing => "none", "없음";
        Data { text: String } => "{text}", "{text}";
        Revoked { list: String } => "revoked {list}", "반납 {list}";
        Committed { offsets: Vec<(Partition, Option<Offset>)> } => |lang| match offsets[..] {
            [] => Shared::Nothing.text(lang),
            _ => offsets
                .iter()
                .map(|(p, o)| match (lang, o) {
                    (Lang::Ko, None) => format!("p{p}: commit 없음"),
                    (_, o) => format!("p{p}={}", crate::shown::opt(*o)),
                })
                .collect::<Vec<_>>()
                .join(", "),
        };
    }
}

krb_cli::msgs! { FRAME;
    /// `lab 1 revoke nocommit (group nocommit)`: a verdict's first line.
    TITLE = "lab {lab} {name} {variant} (group {group})", "실습 {lab} {name} {variant} (그룹 {group})";
    ARTICLE_LINE = "  article: {text}", "  글:      {text}";
    OURS_LINE = "  ours:    {text}", "  실측:    {text}";
    HELD_LINE = "  held   {statement} ({detail})", "  성립   {statement} ({detail})";
    FAILED_LINE = "  FAILED {statement} ({detail})", "  실패   {statement} ({detail})";
    LAB = "lab", "실습";
    VARIANT = "variant", "변형";
    ARTICLE = "article", "글";
    OURS = "ours", "실측";
    /// Below a row whose statements did not all hold.
    NOT_HELD = "not held: {failures}", "성립하지 않음: {failures}";
    HELD = "held", "성립";
    FAILED = "FAILED", "실패";
    /// A variant's end in the lab command: how long it took and what came of it.
    SECONDS = "{seconds} s, {what}", "{seconds}초, {what}";
    ERROR = "error", "오류";
}

/// The table's and the page's column heads.
pub const HEADS: [Msg; 5] = [LAB, VARIANT, ARTICLE, OURS, HELD];

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
