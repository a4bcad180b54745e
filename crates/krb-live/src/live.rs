//! The follower: every [`TICK`], reads what the group's logs gained into the [`State`] and, when
//! anything changed, publishes the page's state as JSON for the server to hand out.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Result;
use krb_cli::namespace::Namespace;
use krb_cli::out::shown;

use crate::follow::{GroupLogs, Poll};
use crate::state::State;
use crate::view::View;

/// How often the logs are read: a line is on the page within this and the page's own poll.
pub const TICK: Duration = Duration::from_millis(200);

/// The latest state as JSON, shared by the follower (which writes it) and the server.
#[derive(Clone, Default)]
pub struct Published(Arc<Mutex<Arc<String>>>);

impl Published {
    pub fn get(&self) -> Arc<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn set(&self, json: String) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(json);
    }
}

/// How long a tick reads before the page shows what was read.
const READ_BUDGET: Duration = Duration::from_secs(1);

pub struct Live {
    logs: GroupLogs,
    state: State,
    error: Option<String>,
}

impl Live {
    pub fn new(dir: &Path, group: &str, ns: &Namespace) -> Live {
        Live {
            logs: GroupLogs::new(dir, group, ns),
            state: State::new(),
            error: None,
        }
    }

    /// Reads what the logs gained; true when the state changed.
    pub fn tick(&mut self) -> bool {
        let read = self.read();
        let error = read.as_ref().err().map(|e| format!("{e:#}"));
        let changed = read.unwrap_or(false) || error != self.error;
        if let Some(e) = error.as_ref().filter(|_| error != self.error) {
            krb_cli::out::stderr_line(&format!("krb-live: {e}"));
        }
        self.error = error;
        changed
    }

    fn read(&mut self) -> Result<bool> {
        let mut changed = false;
        // Logs far ahead of what was read are read a chunk at a time (see Follow::read), for
        // up to a second: then the page shows what was read, and the next tick reads on.
        let began = std::time::Instant::now();
        loop {
            match self.logs.poll()? {
                Poll::Restart => {
                    // A new run: what was read is the old run's. Read the new one from its start.
                    self.logs = GroupLogs::new(&self.logs.dir, &self.logs.group, &self.logs.ns);
                    self.state = State::new();
                    changed = true;
                }
                Poll::Lines(lines, skipped) => {
                    let more = !lines.is_empty();
                    changed |= more || !skipped.is_empty();
                    self.state.skip(skipped);
                    for line in lines {
                        self.state.add(line);
                    }
                    if !more || began.elapsed() >= READ_BUDGET {
                        return Ok(changed);
                    }
                }
            }
        }
    }

    /// The logs followed, as the page and the start line name them: `DIR/GROUP-*.log`.
    pub fn files(&self) -> String {
        format!("{}/{}-*.log", shown(&self.logs.dir), self.logs.group)
    }

    pub fn view(&mut self) -> View {
        let files = self.files();
        let mut view = View::of(&mut self.state, &self.logs.group, &files);
        view.error = self.error.clone();
        view
    }

    pub fn json(&mut self) -> String {
        serde_json::to_string(&self.view()).unwrap_or_else(|e| {
            // Only a bug can make the view unserialisable: say so on the page.
            serde_json::json!({ "error": e.to_string() }).to_string()
        })
    }

    /// Reads the logs and publishes their state now, then, on a thread of its own, every
    /// [`TICK`] for as long as the process runs, each change.
    pub fn start(mut self) -> Published {
        let published = Published::default();
        self.tick();
        published.set(self.json());
        let shared = published.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(TICK);
            if self.tick() {
                shared.set(self.json());
            }
        });
        published
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rerun_that_writes_the_logs_anew_starts_the_view_afresh() {
        let dir = krb_testutil::scratch_dir(
            "live-rerun",
            &[(
                "g-a.log",
                "09:00:00.000 start g-a\n09:00:00.100 g-a p0 offset 0\n09:00:00.200 g-a p0 offset 0\n",
            )],
        );
        let mut live = Live::new(&dir, "g", &Namespace::default());
        assert!(live.tick());
        assert_eq!(live.view().duplicates, 1);
        assert!(!live.tick(), "nothing new, nothing changed");
        // The lab run again: its old logs deleted, then a new one begun.
        std::fs::remove_file(dir.join("g-a.log")).unwrap();
        assert!(live.tick());
        assert!(live.view().workers.is_empty());
        std::fs::write(
            dir.join("g-a.log"),
            "09:10:00.000 start g-a\n09:10:00.100 g-a p0 offset 0\n",
        )
        .unwrap();
        assert!(live.tick());
        let view = live.view();
        assert_eq!((view.processed, view.duplicates), (1, 0));
        assert_eq!(view.origin.as_deref(), Some("09:10:00.000"));
        // A log that cannot be read is said on the page, and the view goes on.
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(live.tick());
        assert!(live
            .view()
            .error
            .unwrap()
            .contains("cannot read the log folder"));
    }
}
