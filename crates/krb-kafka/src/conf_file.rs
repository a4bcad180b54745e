//! The librdkafka properties file that KRB_CONFIG or `--config` names, read by the rules of
//! [`krb_log::properties`] and accepted property by property by librdkafka.

use std::path::{Path, PathBuf};

use rdkafka::error::KafkaError;
use rdkafka::ClientConfig;

pub use krb_log::properties::{parse, Property};

/// A properties file read, parsed and accepted property by property by librdkafka.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfFile {
    pub path: PathBuf,
    pub properties: Vec<Property>,
}

impl ConfFile {
    /// The broker address the file sets (librdkafka's alias counts: the last line wins, as
    /// librdkafka keeps the last value it was given).
    pub fn bootstrap(&self) -> Option<&str> {
        self.properties
            .iter()
            .rev()
            .find(|p| is_bootstrap(&p.key))
            .map(|p| p.value.as_str())
    }
}

/// Whether `key` is librdkafka's broker list (under either of its names).
pub fn is_bootstrap(key: &str) -> bool {
    key == "bootstrap.servers" || key == "metadata.broker.list"
}

/// The largest properties file read: a handout is a few lines.
const CONF_FILE_LIMIT: u64 = 1 << 20;

/// Properties that make librdkafka load a file when they are set: left to the client a tool
/// makes when it connects, never loaded by a tool that only reads the file.
const LOADS_A_FILE: [&str; 1] = ["plugin.library.paths"];

/// Reads `path` as clap's value parser: every error is one line naming the file (and the line).
pub fn read(path: &str) -> Result<ConfFile, String> {
    // An empty KRB_CONFIG is no file, as kcat takes an empty KCAT_CONFIG: a script may export
    // the variable empty where nothing set it.
    if path.is_empty() {
        return Ok(ConfFile::default());
    }
    let file = Path::new(path);
    let text = krb_log::reader::read_text(file, "the librdkafka properties file", CONF_FILE_LIMIT)
        .map_err(|e| format!("{e:#}"))?;
    let properties = parse(file, &text)?;
    check(file, &properties)?;
    Ok(ConfFile {
        path: path.into(),
        properties,
    })
}

/// Asks librdkafka whether it takes each property, so that a refused one is named with its
/// file and line when the tool starts, not later by a client that does not say where it came
/// from. A combination it refuses only when a client is made is refused then, as usual.
fn check(path: &Path, properties: &[Property]) -> Result<(), String> {
    for p in properties
        .iter()
        .filter(|p| !LOADS_A_FILE.contains(&p.key.as_str()))
    {
        let mut config = ClientConfig::new();
        config.set(&p.key, &p.value);
        if let Err(e) = config.create_native_config() {
            let why = match &e {
                KafkaError::ClientConfig(_, why, _, _) => why.clone(),
                other => other.to_string(),
            };
            return Err(format!(
                "{}:{}: librdkafka refuses {}: {why}",
                path.display(),
                p.line,
                p.key
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn a_file_that_cannot_be_read_is_named() {
        assert_eq!(read("").unwrap().properties, []);
        let e = read("/nonexistent/alice.conf").unwrap_err();
        assert!(
            e.starts_with("cannot read the librdkafka properties file /nonexistent/alice.conf: "),
            "{e}"
        );
    }

    /// Writes a properties file for a test (broker.rs's too); each test names its own.
    pub(crate) fn file(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("krb-conf-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    }

    #[test]
    fn a_property_librdkafka_refuses_is_its_error_with_the_file() {
        let path = file("refused.conf", "client.id=a\nno.such.property=1\n");
        let e = read(&path).unwrap_err();
        assert!(
            e.starts_with(&format!("{path}:2: librdkafka refuses no.such.property: ")),
            "{e}"
        );
        assert!(e.contains("No such configuration property"), "{e}");
        let path = file("value.conf", "session.timeout.ms=soon\n");
        let e = read(&path).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "{path}:1: librdkafka refuses session.timeout.ms: "
            )),
            "{e}"
        );
    }

    #[test]
    fn a_file_is_checked_without_loading_what_it_names() {
        // A plugin that would fail to load: the file is read all the same.
        let path = file(
            "plugin.conf",
            "plugin.library.paths=/nonexistent/libkrb-plugin\nclient.id=a\n",
        );
        let conf = read(&path).unwrap();
        assert_eq!(conf.properties[0].key, "plugin.library.paths");
    }

    #[test]
    fn a_fifo_or_a_device_is_refused_not_waited_on() {
        let e = read("/dev/zero").unwrap_err();
        assert_eq!(
            e,
            "cannot read the librdkafka properties file /dev/zero: it is a device, not a regular file"
        );
        let path = file("fifo-parent.conf", "");
        let fifo = format!("{path}.fifo");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let e = read(&fifo).unwrap_err();
        assert!(e.ends_with("it is a FIFO, not a regular file"), "{e}");
    }

    #[test]
    fn the_last_broker_list_of_the_file_is_its_bootstrap() {
        let path = file(
            "ok.conf",
            "bootstrap.servers=a:1\nmetadata.broker.list=b:2\n",
        );
        let conf = read(&path).unwrap();
        assert_eq!(conf.bootstrap(), Some("b:2"));
        assert_eq!(conf.properties.len(), 2);
        let path = file("none.conf", "client.id=x\n");
        assert_eq!(read(&path).unwrap().bootstrap(), None);
    }
}
