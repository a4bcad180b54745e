//! How a worker stops: the first SIGTERM or SIGINT asks for a clean stop, a second one, while
//! the worker still waits (for a slow message, a commit, a broker that does not answer), ends
//! it at once with [`FORCED_EXIT`]. krb-worker and krb-share stop the same way.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::{Context, Result};

/// The exit status when a second SIGTERM or SIGINT ends a worker before its clean stop.
pub const FORCED_EXIT: i32 = 130;

/// Installs the handlers; the flag is set by the first signal.
pub fn stop_flag() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        // Registered before the flag's own handler: it exits only once the flag is set.
        signal_hook::flag::register_conditional_shutdown(signal, FORCED_EXIT, stop.clone())
            .context("cannot install signal handler")?;
        signal_hook::flag::register(signal, stop.clone())
            .context("cannot install signal handler")?;
    }
    Ok(stop)
}
