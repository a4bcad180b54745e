//! krb-produce on the real broker: idempotent by default, which -X can turn off.

use anyhow::{ensure, Result};
use krb_e2e::bash;

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn the_producer_is_idempotent_unless_told_otherwise() -> Result<()> {
    let out = bash(
        "krb-produce's idempotence",
        "topic produce-idem 2 >/dev/null
         krb-produce produce-idem 100 2 --acks logs/produce-idem.acks >/dev/null
         echo \"acks: $(sort -u logs/produce-idem.acks | wc -l) $(sort -t' ' -k3n logs/produce-idem.acks | tail -n 1)\"
         code=0; krb-produce produce-idem 10 2 -X acks=1 2>logs/produce-idem.err || code=$?
         echo \"acks=1: $code $(wc -l <logs/produce-idem.err)\"
         krb-produce produce-idem 10 2 -X acks=1 -X enable.idempotence=false",
    )?;
    // Each of the 100 acknowledged once, offsets 0..49 in each partition.
    ensure!(
        out.contains("acks: 100 p") && out.contains(" offset 49\n"),
        "{out}"
    );
    // librdkafka refuses acks=1 for an idempotent producer: so it is one, by default.
    ensure!(out.contains("acks=1: 1 1\n"), "{out}");
    ensure!(
        out.contains("sent 10 messages to produce-idem\n"),
        "-X enable.idempotence=false did not allow acks=1: {out}"
    );
    Ok(())
}
