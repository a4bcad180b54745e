#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| krb_fuzzcheck::record::check(data));
