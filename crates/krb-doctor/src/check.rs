//! One line per check: `ok`, `warn` or `FAILED`, what was found, and for a failure what to do.
//! scripts/doctor.sh prints its own checks in the same form.

use std::fmt;

/// How a check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// As the labs need it.
    Ok,
    /// Lab 1 runs, but a later lab or the room may not work as written.
    Warn,
    /// Lab 1 cannot run, or would disturb the others on the broker.
    Failed,
}

/// One check's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub status: Status,
    pub name: &'static str,
    pub detail: String,
    /// What to do; only for a warning or a failure.
    pub fix: Option<String>,
}

impl Check {
    pub fn ok(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            status: Status::Ok,
            name,
            detail: detail.into(),
            fix: None,
        }
    }

    pub fn warn(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            status: Status::Warn,
            name,
            detail: detail.into(),
            fix: Some(fix.into()),
        }
    }

    pub fn failed(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            status: Status::Failed,
            name,
            detail: detail.into(),
            fix: Some(fix.into()),
        }
    }
}

/// `ok     broker: ...`, `FAILED broker: ...; fix: ...`: the status in a column of six.
impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = match self.status {
            Status::Ok => "ok",
            Status::Warn => "warn",
            Status::Failed => "FAILED",
        };
        write!(f, "{status:<6} {}: {}", self.name, self.detail)?;
        match &self.fix {
            Some(fix) => write!(f, "; fix: {fix}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_status_name_detail_and_the_fix_of_a_failure() {
        assert_eq!(
            Check::ok("clock", "0.002 s behind").to_string(),
            "ok     clock: 0.002 s behind"
        );
        assert_eq!(
            Check::failed("broker", "nothing answers", "start one").to_string(),
            "FAILED broker: nothing answers; fix: start one"
        );
        assert_eq!(
            Check::warn("Kafka", "older than 4.0", "use 4.3.1").to_string(),
            "warn   Kafka: older than 4.0; fix: use 4.3.1"
        );
    }
}
