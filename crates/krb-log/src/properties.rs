//! The librdkafka properties file that KRB_CONFIG or `--config` names, parsed: the format
//! `kcat -F` reads, so that one file (a room's handout) serves kcat and every krb tool alike.
//! Here, without librdkafka, so that its fuzz target links none; krb-kafka's `conf_file` reads
//! the file and asks librdkafka about each property.
//!
//! kcat's rules: lines trimmed at both ends; empty and `#` lines skipped; `\:` and `\=` become
//! `:` and `=`; the property is all before the first `=`, its value all after, neither trimmed
//! (kcat passes `a = b` as the property `a `, which librdkafka refuses: a file one accepts, the
//! other does too); a line without `=`, or starting with it, is an error. kcat's conversions of a
//! Java sasl.jaas.config are not made: the room's handout gives librdkafka's own properties.

use std::path::Path;

use crate::reader::shown;

/// One `key=value` of the file, with its line number for the errors that name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub line: usize,
    pub key: String,
    pub value: String,
}

/// The file's properties, by kcat's rules (see the module's comment).
pub fn parse(path: &Path, text: &str) -> Result<Vec<Property>, String> {
    let mut properties = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let unescaped = line.replace("\\:", ":").replace("\\=", "=");
        // The line is not echoed: it may be a password on a line of its own.
        let Some((key, value)) = unescaped.split_once('=').filter(|(k, _)| !k.is_empty()) else {
            return Err(format!(
                "{}:{}: expected property=value (a librdkafka property such as \
                 security.protocol=SASL_PLAINTEXT), got a line without a property before =",
                shown(path),
                i + 1
            ));
        };
        let (line, key, value) = (i + 1, key.to_string(), value.to_string());
        properties.push(Property { line, key, value });
    }
    Ok(properties)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<(String, String)> {
        parse(Path::new("f.conf"), text)
            .unwrap()
            .into_iter()
            .map(|p| (p.key, p.value))
            .collect()
    }

    #[test]
    fn reads_kcats_format() {
        let text = "# the room\n\n  security.protocol=SASL_PLAINTEXT  \n\t# indented comment\n\
                    sasl.password=a=b\nbootstrap.servers=host\\:9092\nsasl.username=x\\=y\n";
        assert_eq!(
            keys(text),
            [
                ("security.protocol", "SASL_PLAINTEXT"),
                ("sasl.password", "a=b"),
                ("bootstrap.servers", "host:9092"),
                ("sasl.username", "x=y"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
        );
        // kcat trims only the line's ends: the space before `=` stays in the property.
        assert_eq!(keys("a = b"), [("a ".to_string(), " b".to_string())]);
    }

    #[test]
    fn a_line_that_is_not_key_value_is_named_with_its_line() {
        let e = parse(Path::new("alice.conf"), "# c\na=b\nsasl.password\n").unwrap_err();
        assert!(
            e.starts_with("alice.conf:3: expected property=value"),
            "{e}"
        );
        // Not the line itself: it may be a secret.
        assert!(!e.contains("sasl.password"), "{e}");
        let e = parse(Path::new("alice.conf"), "hunter2\n").unwrap_err();
        assert!(!e.contains("hunter2"), "{e}");
        let e = parse(Path::new("alice.conf"), "=b\n").unwrap_err();
        assert!(e.starts_with("alice.conf:1: "), "{e}");
    }
}
