//! The language of what the tools print for a person: English by default, Korean with
//! `KRB_LANG=ko` or a Korean locale (`LANG=ko_KR.UTF-8`). Log lines are data: they stay
//! English, in one grammar.
//!
//! A tool's direct message is a [`Msg`]: a pair of templates, English and Korean, with the same
//! `{name}` placeholders, filled where it is printed. Nothing translates text already made:
//! krb-verify's verdicts are values that say themselves in either language (its `messages`).

use std::fmt::Display;

use anyhow::{bail, Result};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    #[default]
    En,
    /// Korean, the article's language.
    Ko,
}

impl Lang {
    /// `en` or `ko` (also `ko_KR.UTF-8` and the like); empty means English.
    pub fn parse(text: &str) -> Result<Lang> {
        let code = text.split(['_', '.', '-']).next().unwrap_or("");
        match code.to_ascii_lowercase().as_str() {
            "" | "en" => Ok(Lang::En),
            "ko" => Ok(Lang::Ko),
            _ => bail!("KRB_LANG={text}: unknown language; use en (the default) or ko"),
        }
    }

    pub fn from_env() -> Result<Lang> {
        Lang::from_vars(|name| std::env::var(name).ok())
    }

    /// `KRB_LANG` (`en` or `ko`, anything else refused) when it is set and not empty; else the
    /// locale a Korean machine sets, the first of LC_ALL, LC_MESSAGES and LANG that is not
    /// empty (POSIX's order): Korean when it starts with `ko`, English for any other (`C`,
    /// `en_US.UTF-8`, `fr_FR`), since a locale is no request to the tools.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Lang> {
        let set = |name: &str| var(name).filter(|v| !v.is_empty());
        if let Some(chosen) = set("KRB_LANG") {
            return Lang::parse(&chosen);
        }
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].into_iter().find_map(set);
        Ok(match locale {
            Some(l) if l.to_ascii_lowercase().starts_with("ko") => Lang::Ko,
            _ => Lang::En,
        })
    }

    /// The language of this process for a message made deep in a tool: [`Lang::from_env`],
    /// English when `KRB_LANG` is one the tool's main already refused with its usage error.
    pub fn of_process() -> Lang {
        Lang::from_env().unwrap_or_default()
    }

    /// As HTML's `lang` attribute writes it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
        }
    }
}

/// Whether `c` is a Hangul syllable (가..힣).
pub fn is_hangul(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

/// Whether `text` holds a Hangul syllable: Korean text.
pub fn has_hangul(text: &str) -> bool {
    text.chars().any(is_hangul)
}

/// One message in both languages, the two templates with the same placeholders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Msg {
    pub en: &'static str,
    pub ko: &'static str,
}

impl Msg {
    pub fn text(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Ko => self.ko,
        }
    }

    /// The template with each `{name}` replaced by its value.
    pub fn fill(&self, lang: Lang, values: &[(&str, &dyn Display)]) -> String {
        let text = self.text(lang).to_string();
        values.iter().fold(text, |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), &value.to_string())
        })
    }
}

/// Declares messages, each once with its English and Korean templates side by side, and the
/// table of them all (with any `+ [OTHERS]` declared elsewhere) that the tests hold to
/// [`table_problems`]: `msgs! { ALL; NAME = "english {x}", "korean {x}"; }`.
#[macro_export]
macro_rules! msgs {
    (
        $table:ident $(+ [$($other:path),* $(,)?])?;
        $($(#[$meta:meta])* $name:ident = $en:expr, $ko:expr;)*
    ) => {
        $crate::msgs!(; $($(#[$meta])* $name = $en, $ko;)*);
        /// Every message above, for the tests.
        pub const $table: &[$crate::lang::Msg] = &[$($name,)* $($($other),*)?];
    };
    (; $($(#[$meta:meta])* $name:ident = $en:expr, $ko:expr;)*) => {
        $($(#[$meta])* pub const $name: $crate::lang::Msg = $crate::lang::Msg { en: $en, ko: $ko };
        )*
    };
}

/// The `{name}` placeholders of a template, in order.
pub fn placeholders(mut template: &str) -> Vec<&str> {
    std::iter::from_fn(|| {
        let (name, rest) = template.split_once('{')?.1.split_once('}')?;
        template = rest;
        Some(name)
    })
    .collect()
}

/// How many terminal columns `text` takes: Hangul and the other East Asian wide letters take
/// two, so a table of Korean text lines up.
pub fn columns(text: &str) -> usize {
    text.chars()
        .map(|c| match c as u32 {
            0x1100..=0x115F
            | 0x2E80..=0x303E
            | 0x3041..=0x33FF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xA960..=0xA97F
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFF60
            | 0xFFE0..=0xFFE6 => 2,
            _ => 1,
        })
        .sum()
}

/// Checks a message table: every Korean template is Korean, differs from the English one and
/// has the same placeholders. One line per message that does not.
pub fn table_problems(table: &[Msg]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for msg in table {
        let [mut en, mut ko] = [msg.en, msg.ko].map(placeholders);
        en.sort_unstable();
        ko.sort_unstable();
        if en != ko {
            problems.push(format!(
                "{:?}: placeholders {en:?} in English, {ko:?} in Korean",
                msg.en
            ));
        }
        if !has_hangul(msg.ko) {
            problems.push(format!(
                "{:?}: its Korean text {:?} holds no Hangul",
                msg.en, msg.ko
            ));
        }
        if !seen.insert(msg.en) {
            problems.push(format!("{:?}: in the table twice", msg.en));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &[Msg] = &[
        Msg {
            en: "{count} duplicates on {partitions}",
            ko: "{partitions}에서 중복 {count}건",
        },
        Msg {
            en: "{count} duplicate processings",
            ko: "중복 처리 {count}번",
        },
        Msg {
            en: "lab {lab}: {text}",
            ko: "실습 {lab}: {text}",
        },
        Msg {
            en: "no duplicates",
            ko: "중복 없음",
        },
        Msg {
            en: "b revoked {n} time(s)",
            ko: "b가 {n}번 반납",
        },
    ];

    #[test]
    fn the_language_comes_from_krb_lang_and_a_bad_one_is_refused() {
        assert_eq!(Lang::parse("").unwrap(), Lang::En);
        assert_eq!(Lang::parse("en").unwrap(), Lang::En);
        assert_eq!(Lang::parse("ko").unwrap(), Lang::Ko);
        assert_eq!(Lang::parse("ko_KR.UTF-8").unwrap(), Lang::Ko);
        let err = Lang::parse("fr").unwrap_err().to_string();
        assert!(
            err.contains("KRB_LANG=fr") && err.contains("en") && err.contains("ko"),
            "{err}"
        );
    }

    #[test]
    fn a_korean_locale_selects_korean_and_krb_lang_overrides_it() {
        let with = |pairs: &'static [(&'static str, &'static str)]| {
            Lang::from_vars(move |name| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            })
        };
        assert_eq!(with(&[]).unwrap(), Lang::En);
        assert_eq!(with(&[("LANG", "ko_KR.UTF-8")]).unwrap(), Lang::Ko);
        assert_eq!(
            with(&[("LC_MESSAGES", "ko_KR.UTF-8"), ("LANG", "C")]).unwrap(),
            Lang::Ko
        );
        // LC_ALL comes first, an empty one counts as unset.
        assert_eq!(
            with(&[("LC_ALL", "C.UTF-8"), ("LANG", "ko_KR")]).unwrap(),
            Lang::En
        );
        assert_eq!(
            with(&[("LC_ALL", ""), ("LANG", "ko_KR")]).unwrap(),
            Lang::Ko
        );
        // Any other locale is English, never an error.
        assert_eq!(with(&[("LANG", "fr_FR.UTF-8")]).unwrap(), Lang::En);
        // KRB_LANG wins both ways; an empty one is unset; a bad one is refused.
        assert_eq!(
            with(&[("KRB_LANG", "en"), ("LANG", "ko_KR.UTF-8")]).unwrap(),
            Lang::En
        );
        assert_eq!(
            with(&[("KRB_LANG", "ko"), ("LANG", "C")]).unwrap(),
            Lang::Ko
        );
        assert_eq!(
            with(&[("KRB_LANG", ""), ("LANG", "ko_KR")]).unwrap(),
            Lang::Ko
        );
        assert!(with(&[("KRB_LANG", "fr"), ("LANG", "ko_KR")]).is_err());
    }

    #[test]
    fn hangul_takes_two_columns() {
        assert_eq!(columns("held"), 4);
        assert_eq!(columns("성립"), 4);
        assert_eq!(
            columns("p1에서 중복 78건"),
            2 + 2 * 2 + 1 + 2 * 2 + 1 + 2 + 2
        );
    }

    #[test]
    fn a_table_with_a_missing_placeholder_or_untranslated_text_is_reported() {
        assert!(table_problems(TABLE).is_empty());
        let bad = [
            Msg {
                en: "{n} rows",
                ko: "행 몇 개",
            },
            Msg {
                en: "held",
                ko: "held",
            },
            Msg {
                en: "held",
                ko: "성립",
            },
        ];
        let problems = table_problems(&bad);
        assert_eq!(problems.len(), 3, "{problems:?}");
    }
}
