//! rust-rdkafka's low level bindings to [librdkafka](https://github.com/confluentinc/librdkafka),
//! rdkafka-sys 4.10.0, built on the librdkafka release vendored in `vendor/librdkafka` (2.15.0)
//! rather than the 2.12.1 that rdkafka-sys 4.10.0 bundles. The bindings are generated from the
//! vendored headers by `update-bindings.sh`; README.md says what else differs from upstream.
//!
//! For a safe wrapper, see the [rdkafka] crate.
//!
//! [rdkafka]: https://docs.rs/rdkafka

#[cfg(feature = "libz-sys")]
extern crate libz_sys;

#[allow(
    non_camel_case_types,
    non_upper_case_globals,
    non_snake_case,
    clippy::all
)]
pub mod bindings;
pub mod helpers;
pub mod types;

pub use bindings::*;
pub use helpers::*;
pub use types::*;
