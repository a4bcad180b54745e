//! The rebalance callbacks: where an assigned partition starts (db-offsets, kafka-eos), and what
//! a revoked or lost one leaves behind (its effects stored, its positions committed or its
//! transaction aborted).

use krb_cli::out::stderr_line;
use krb_log::logline::{Event, Partition};
use rdkafka::consumer::{BaseConsumer, Consumer, ConsumerContext, Rebalance};
use rdkafka::{Offset as KafkaOffset, TopicPartitionList};

use crate::commit::committed_starts;
use crate::{emit, lock, Worker};

pub(crate) fn partitions(tpl: &TopicPartitionList) -> Vec<Partition> {
    let mut ps: Vec<Partition> = tpl.elements().iter().map(|e| e.partition()).collect();
    ps.sort_unstable();
    ps
}

impl ConsumerContext for Worker {
    fn pre_rebalance(&self, consumer: &BaseConsumer<Self>, rebalance: &Rebalance<'_>) {
        match rebalance {
            Rebalance::Assign(tpl) => {
                let ps = partitions(tpl);
                // An incremental assignment comes while messages are staged: their lines first.
                if let Err(e) = self.flush_effects(consumer, &[]) {
                    self.fail(e);
                }
                emit(&self.name, Event::Assigned(ps.clone()));
                // db-offsets starts where its store says, kafka-eos at the committed offsets.
                let starts = if self.eos.is_some() {
                    committed_starts(consumer, tpl)
                } else {
                    self.effects().starts(&self.topic, &ps)
                };
                let starts = starts.unwrap_or_else(|e| {
                    self.fail(e);
                    Vec::new()
                });
                // Set in the list that is assigned next, so fetching starts there.
                for mut e in tpl.elements() {
                    if let Some((_, o)) = starts.iter().find(|(p, _)| *p == e.partition()) {
                        let _ = e.set_offset(KafkaOffset::Offset(*o));
                    }
                }
            }
            Rebalance::Revoke(tpl) => {
                let ps = partitions(tpl);
                // The next owner reads what this worker applied: the effects go in first.
                if let Err(e) = self.flush_effects(consumer, &ps) {
                    self.fail(e);
                }
                // librdkafka reports a lost assignment through the same revoke event.
                if consumer.assignment_lost() {
                    emit(&self.name, Event::Lost(ps.clone()));
                    self.abort_lost();
                } else {
                    emit(&self.name, Event::Revoked(ps.clone()));
                    lock(&self.revoked).extend(&ps);
                    if self.revoke_commit || self.eos.is_some() {
                        self.commit(consumer, Some(&ps));
                    }
                }
                lock(&self.positions).forget(&ps);
                self.effects().forget(&ps);
            }
            Rebalance::Error(e) => stderr_line(&format!("{}: rebalance error: {e}", self.name)),
        }
    }
}
