//! krb-trial: lab 7's fault trials, beside 07-faults.sh, which runs them.

pub mod cluster;
pub mod plan;
pub mod report;
pub mod rng;
pub mod watch;
