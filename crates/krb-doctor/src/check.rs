//! One line per check: `ok`, `warn` or `FAILED`, what was found, and for a failure what to do.
//! scripts/doctor.sh prints its own checks in the same form.

use krb_cli::lang::{columns, Lang, Msg};

use crate::messages as m;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// As the labs need it.
    Ok,
    /// Lab 1 runs, but a later lab or the room may not work as written.
    Warn,
    /// Lab 1 cannot run, or would disturb the others on the broker.
    Failed,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub status: Status,
    pub name: Msg,
    pub detail: String,
    /// What to do; only for a warning or a failure.
    pub fix: Option<String>,
}

impl Check {
    pub fn ok(name: Msg, detail: impl Into<String>) -> Check {
        Check {
            status: Status::Ok,
            name,
            detail: detail.into(),
            fix: None,
        }
    }

    pub fn warn(name: Msg, detail: impl Into<String>, fix: impl Into<String>) -> Check {
        Check::ok(name, detail).with(Status::Warn, fix)
    }

    pub fn failed(name: Msg, detail: impl Into<String>, fix: impl Into<String>) -> Check {
        Check::ok(name, detail).with(Status::Failed, fix)
    }

    fn with(mut self, status: Status, fix: impl Into<String>) -> Check {
        (self.status, self.fix) = (status, Some(fix.into()));
        self
    }

    /// `ok     broker: ...`, `FAILED broker: ...; fix: ...` in `lang`: the status in a column
    /// six wide (a Hangul syllable two), as scripts/doctor.sh prints its own.
    pub fn line(&self, lang: Lang) -> String {
        let status = match self.status {
            Status::Ok => m::OK,
            Status::Warn => m::WARN,
            Status::Failed => m::FAILED,
        }
        .text(lang);
        let status = format!(
            "{status}{}",
            " ".repeat(6usize.saturating_sub(columns(status)))
        );
        let mut line = m::LINE.fill(
            lang,
            &[
                ("status", &status),
                ("name", &self.name.text(lang)),
                ("detail", &self.detail),
            ],
        );
        if let Some(fix) = &self.fix {
            line += &m::FIX.fill(lang, &[("fix", fix)]);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_status_name_detail_and_the_fix_of_a_failure() {
        assert_eq!(
            Check::ok(m::CLOCK, "0.002 s behind").line(Lang::En),
            "ok     clock: 0.002 s behind"
        );
        assert_eq!(
            Check::failed(m::BROKER, "nothing answers", "start one").line(Lang::En),
            "FAILED broker: nothing answers; fix: start one"
        );
        assert_eq!(
            Check::warn(m::KAFKA, "older than 4.0", "use 4.3.1").line(Lang::En),
            "warn   Kafka: older than 4.0; fix: use 4.3.1"
        );
    }

    #[test]
    fn a_korean_line_keeps_the_status_column_six_wide() {
        assert_eq!(
            Check::ok(m::CLOCK, "같아요").line(Lang::Ko),
            "정상   시계: 같아요"
        );
        assert_eq!(
            Check::failed(m::BROKER, "없어요", "띄우세요").line(Lang::Ko),
            "실패   브로커: 없어요; 고칠 방법: 띄우세요"
        );
    }
}
