//! The payloads of a run of messages, written one after another into one buffer, for
//! [`krb_kafka::produce_batch::Batches::send`] to hand to librdkafka in one call.

#[derive(Default)]
pub struct Payloads {
    text: Vec<u8>,
    ends: Vec<usize>,
}

impl Payloads {
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Adds the article's payload of message `i`: its number in decimal.
    pub fn push(&mut self, i: u64) {
        krb_log::decimal::push(&mut self.text, i);
        self.ends.push(self.text.len());
    }

    /// Drops the first `n` payloads (taken by librdkafka), keeping the rest in order.
    pub fn consume(&mut self, n: usize) {
        let Some(&cut) = n.checked_sub(1).and_then(|last| self.ends.get(last)) else {
            return;
        };
        self.text.drain(..cut);
        self.ends.drain(..n);
        self.ends.iter_mut().for_each(|end| *end -= cut);
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn payloads(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.text[start..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_holds_each_payload_in_decimal_and_drops_what_was_taken() {
        let mut run = Payloads::default();
        for i in [0, 7, 10, 123, u64::MAX] {
            run.push(i);
        }
        let text = |run: &Payloads| -> Vec<String> {
            run.payloads()
                .map(|p| String::from_utf8(p.to_vec()).unwrap())
                .collect()
        };
        assert_eq!(text(&run), ["0", "7", "10", "123", &u64::MAX.to_string()]);
        run.consume(0);
        assert_eq!(run.payloads().count(), 5);
        run.consume(2);
        assert_eq!(text(&run), ["10", "123", &u64::MAX.to_string()]);
        run.consume(3);
        assert!(run.is_empty());
        run.push(42);
        assert_eq!(text(&run), ["42"]);
    }
}
