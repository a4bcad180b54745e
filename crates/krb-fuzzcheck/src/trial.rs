//! Lab 7's files, read as the trial's readers read them from disk: the producer's
//! acknowledgements (`GROUP.acks`), the sampler's committed offsets (`GROUP.committed`) and the
//! faults file. The bytes are written to a file of this process, so that the readers' own
//! opening and line rules run too. None may panic; an acks file read is read whole, a line an acknowledgement.

use krb_log::logline::Offset;
use krb_log::trial_log::{read_acks, read_samples, FaultLog, NO_OFFSET};

pub fn check(data: &[u8]) {
    let path = crate::scratch("trial");
    std::fs::write(&path, data).expect("cannot write the fuzz input's file");
    if let Ok(acks) = read_acks(&path) {
        assert_eq!(acks.len(), data.split(|&b| b == b'\n').count() - 1);
        for (p, o) in acks {
            assert!(p >= 0 && (o >= 0 || o == NO_OFFSET) && o < Offset::MAX);
        }
    }
    if let Ok(samples) = read_samples(&path) {
        assert_eq!(samples.samples.len(), samples.times.len());
    }
    // The faults file's rules are its reader's errors: here only that it reads without a panic.
    let _ = FaultLog::read(&path);
}
