//! A worker's log lines on stdout (krb-worker's and krb-share's), whole lines in every write so
//! that librdkafka's, which another thread writes to the same file, never land inside one. A
//! worker that waits between messages (`--delay`, as every lab does) writes each line as it
//! happens; one that does not (`--delay 0`) gathers them and writes blocks, as kcat does: before
//! every commit, when no message is waiting, when a block is full and at its end (SIGKILL loses
//! the lines since the last commit, whose work the next owner does again).

use std::io::Write;
use std::sync::Mutex;

use crate::logline::{Event, Line};

/// How many bytes of lines a block holds before it is written.
const BLOCK: usize = 64 << 10;

/// The lines gathered but not yet written, when the worker gathers them.
static GATHERED: Mutex<Option<Vec<u8>>> = Mutex::new(None);

fn gathered() -> std::sync::MutexGuard<'static, Option<Vec<u8>>> {
    GATHERED.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn gather() {
    gathered().get_or_insert_with(|| Vec::with_capacity(BLOCK));
}

/// Writes one line of worker `name`'s `event`, stamped now.
pub fn emit(name: &str, event: Event) {
    emit_at(crate::logline::now(), name, event);
}

/// Writes one line of an event that happened at `time` (a message processed before the flush
/// that decided its effect), now or with its block.
pub fn emit_at(time: chrono::NaiveTime, name: &str, event: Event) {
    let event = &event;
    let line = Line { time, name, event };
    let mut gathered = gathered();
    match gathered.as_mut() {
        Some(block) => {
            line.write_to(block);
            if block.len() >= BLOCK {
                write_block(block);
            }
        }
        None => krb_cli::out::stdout_line(&line.to_string()),
    }
}

pub fn flush() {
    if let Some(block) = gathered().as_mut() {
        write_block(block);
    }
}

fn write_block(block: &mut Vec<u8>) {
    if !block.is_empty() {
        // A closed pipe is not an error, as for every line the tools write.
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(block).and_then(|()| out.flush());
        block.clear();
    }
}

/// Writes what was gathered when it goes out of scope, however the worker ends.
pub struct FlushOnDrop;

impl Drop for FlushOnDrop {
    fn drop(&mut self) {
        flush();
    }
}
