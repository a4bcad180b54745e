//! The bindings against the vendored librdkafka: the version it reports, and every error code
//! its header defines, which Rust must know (an unknown value in a Rust enum is undefined
//! behaviour, and 2.12.1's bindings lacked 18 of 2.15.0's codes).

use rdkafka_sys::{RDKafkaErrorCode, RDKafkaRespErr};
use std::ffi::CStr;

const HEADER: &str = include_str!("../../../vendor/librdkafka/src/rdkafka.h");

#[test]
fn the_library_is_the_vendored_release() {
    let hex = HEADER
        .lines()
        .find_map(|l| l.strip_prefix("#define RD_KAFKA_VERSION "))
        .and_then(|v| v.trim().strip_prefix("0x"))
        .expect("rdkafka.h defines RD_KAFKA_VERSION");
    let n = u32::from_str_radix(hex, 16).unwrap();
    let vendored = format!("{}.{}.{}", n >> 24, (n >> 16) & 0xff, (n >> 8) & 0xff);
    let linked = unsafe { CStr::from_ptr(rdkafka_sys::rd_kafka_version_str()) }
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(linked, vendored);
    assert_eq!(unsafe { rdkafka_sys::rd_kafka_version() } as u32, n);
    let (_, metadata) = env!("CARGO_PKG_VERSION").split_once('+').unwrap();
    assert_eq!(
        metadata, vendored,
        "the crate's version names the librdkafka it builds"
    );
}

#[test]
fn every_error_code_of_the_header_is_known() {
    let codes: Vec<(String, i32)> = HEADER
        .lines()
        .filter_map(|l| {
            let l = l.trim().strip_prefix("RD_KAFKA_RESP_ERR_")?;
            let (name, value) = l.split_once('=')?;
            let value = value
                .trim()
                .trim_end_matches(',')
                .split_whitespace()
                .next()?;
            Some((name.trim().to_string(), value.parse().ok()?))
        })
        .collect();
    assert!(codes.len() > 150, "parsed {} codes", codes.len());
    assert!(codes.contains(&("SHARE_SESSION_LIMIT_REACHED".to_string(), 133)));
    for (name, value) in codes {
        let err = RDKafkaRespErr::try_from(value)
            .unwrap_or_else(|_| panic!("RD_KAFKA_RESP_ERR_{name} = {value} has no binding"));
        assert_eq!(format!("{err:?}"), format!("RD_KAFKA_RESP_ERR_{name}"));
        let code = RDKafkaErrorCode::from(err);
        assert_eq!(code as i32, value, "RDKafkaErrorCode of {name}");
    }
}

/// With the `ssl` feature (krb's build, for a room's SASL/SCRAM), librdkafka is built on
/// OpenSSL and offers SCRAM: a build that quietly dropped it would fail the room's login only.
#[cfg(feature = "ssl")]
#[test]
fn the_ssl_build_offers_scram() {
    let features = unsafe {
        let conf = rdkafka_sys::rd_kafka_conf_new();
        let mut buf = [0 as std::ffi::c_char; 512];
        let mut size = buf.len();
        let got = rdkafka_sys::rd_kafka_conf_get(
            conf,
            b"builtin.features\0".as_ptr().cast(),
            buf.as_mut_ptr(),
            &mut size,
        );
        rdkafka_sys::rd_kafka_conf_destroy(conf);
        assert_eq!(got, rdkafka_sys::rd_kafka_conf_res_t::RD_KAFKA_CONF_OK);
        CStr::from_ptr(buf.as_ptr()).to_str().unwrap().to_string()
    };
    for feature in ["ssl", "sasl_scram"] {
        assert!(
            features.split(',').any(|f| f == feature),
            "builtin.features lacks {feature}: {features}"
        );
    }
}
