//! Numbers written in decimal straight into a byte buffer, for what is written once a message
//! (a worker's line, a producer's payload), where Rust's formatting machinery cost a tenth of
//! the time.

pub fn push(out: &mut Vec<u8>, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

pub fn push_signed(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    push(out, n.unsigned_abs());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_display_writes() {
        for n in [0, 1, 9, 10, 99, 100, 12345, u64::MAX] {
            let mut out = b"x".to_vec();
            push(&mut out, n);
            assert_eq!(out, format!("x{n}").into_bytes());
        }
        for n in [0, -1, 7, -10, i64::MAX, i64::MIN] {
            let mut out = Vec::new();
            push_signed(&mut out, n);
            assert_eq!(out, n.to_string().into_bytes());
        }
    }
}
