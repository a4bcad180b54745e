//! krb-trial: lab 7's fault trials, beside 07-faults.sh, which runs them.
//!
//! - [`cluster`]: a partition's leader, and every replica back in sync, from the metadata.
//! - [`plan`]: a trial's fault schedule, drawn from the run's seed ([`rng`]).
//! - [`watch`]: the committed-offsets sampler that runs beside a trial.
//! - [`report`]: the run's verdicts (krb-verify's, one per trial) summed into one table.

pub mod cluster;
pub mod plan;
pub mod report;
pub mod rng;
pub mod watch;
