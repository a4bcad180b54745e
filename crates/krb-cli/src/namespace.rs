//! Many people on one broker: a namespace (`--ns NS`, or `KRB_NS`) puts `NS-` before every
//! topic and group name a tool sends to Kafka, so twenty people running the same lab in one
//! room neither erase each other's topics nor join each other's groups. The names a person
//! types, and the log files named after them, stay the article's: `krb-produce pay 1000 2`
//! writes to `alice-pay`, and `krb-dups nocommit` reads the logs of group `alice-nocommit`.

use crate::lang::Lang;

/// The namespace option every tool that names topics or groups takes.
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct Namespace {
    /// Put NS- before every topic and group name sent to Kafka, so that many people can share
    /// one broker (KRB_NS sets it when this option is absent).
    #[arg(long = "ns", value_name = "NS", env = "KRB_NS", hide_env = true, value_parser = parse)]
    pub ns: Option<String>,
}

impl Namespace {
    /// A namespace from its name (`None`: the article's names, unchanged).
    pub fn new(ns: Option<&str>) -> Namespace {
        Namespace {
            ns: ns.map(str::to_string),
        }
    }

    /// The name Kafka knows the topic or group `name` by.
    pub fn name(&self, name: &str) -> String {
        match &self.ns {
            Some(ns) => format!("{ns}-{name}"),
            None => name.to_string(),
        }
    }
}

crate::msgs! { ;
    /// A namespace that is none (`value`: the one given, quoted).
    BAD = "a namespace is 1 to 100 letters, digits, '.', '_' or '-' (it starts every topic and \
         group name), got {value}: e.g. KRB_NS=alice",
        "namespace는 글자, 숫자, '.', '_', '-'로 된 1~100자입니다(모든 토픽과 그룹 이름 앞에 \
         붙어요). 받은 값: {value}. 예: KRB_NS=alice";
}

/// Checks a namespace: it becomes part of topic names, so it takes only what a topic name may
/// hold (letters, digits, `.`, `_`, `-`), and it names a folder of logs, so not `.` or `..`.
pub fn parse(s: &str) -> Result<String, String> {
    parse_in(Lang::of_process(), s)
}

/// [`parse`], its refusal in `lang`.
pub fn parse_in(lang: Lang, s: &str) -> Result<String, String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if s.is_empty() || s.len() > 100 || s == "." || s == ".." || !s.chars().all(allowed) {
        return Err(BAD.fill(lang, &[("value", &format!("{s:?}"))]));
    }
    Ok(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_namespace_prefixes_names_and_none_keeps_them() {
        assert_eq!(Namespace::new(Some("alice")).name("pay"), "alice-pay");
        assert_eq!(Namespace::new(None).name("pay"), "pay");
    }

    #[test]
    fn a_namespace_holds_only_what_a_topic_name_may() {
        assert_eq!(parse("alice_2.b-c"), Ok("alice_2.b-c".into()));
        for bad in ["", ".", "..", "al ice", "a/b", "émile", &"x".repeat(101)] {
            let err = parse(bad).unwrap_err();
            assert!(err.contains("KRB_NS=alice"), "{bad:?}: {err}");
        }
        assert_eq!(
            parse_in(Lang::En, "al ice").unwrap_err(),
            "a namespace is 1 to 100 letters, digits, '.', '_' or '-' (it starts every topic \
             and group name), got \"al ice\": e.g. KRB_NS=alice"
        );
        assert_eq!(
            parse_in(Lang::Ko, "al ice").unwrap_err(),
            "namespace는 글자, 숫자, '.', '_', '-'로 된 1~100자입니다(모든 토픽과 그룹 이름 \
             앞에 붙어요). 받은 값: \"al ice\". 예: KRB_NS=alice"
        );
        assert!(crate::lang::table_problems(&[BAD]).is_empty());
    }
}
