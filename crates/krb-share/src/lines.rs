//! The worker's log lines on stdout, whole lines per write (librdkafka writes its own to
//! stderr, which the labs send to the same file). A worker that takes time over each record
//! writes each line as it happens; one that does not (`--delay 0`, a benchmark) gathers them
//! and writes them at each commit of acknowledgements, as krb-worker does at each commit.

use std::io::Write;

use krb_log::logline::{Event, Line};

pub struct Lines {
    name: String,
    /// Lines gathered but not yet written; `None`: each line is written at once.
    gathered: Option<Vec<u8>>,
}

impl Lines {
    /// Lines of worker `name`, written at once when `live`.
    pub fn new(name: &str, live: bool) -> Lines {
        Lines {
            name: name.to_string(),
            gathered: (!live).then(Vec::new),
        }
    }

    /// Writes (or gathers) one line of `event`, stamped now.
    pub fn emit(&mut self, event: Event) {
        let line = Line {
            time: krb_log::logline::now(),
            name: &self.name,
            event: &event,
        };
        match self.gathered.as_mut() {
            Some(block) => line.write_to(block),
            None => krb_cli::out::stdout_line(&line.to_string()),
        }
    }

    pub fn flush(&mut self) {
        if let Some(block) = self.gathered.as_mut().filter(|b| !b.is_empty()) {
            // A closed pipe is not an error, as for every line the tools write.
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(block).and_then(|()| out.flush());
            block.clear();
        }
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        self.flush();
    }
}
