//! How many times each (partition, offset) was processed, in memory that follows the distinct
//! pairs whatever the offsets are: blocks of 256 offsets, and 16-byte pairs for offsets far apart
//! or blocks thinly used (docs/en/internals/fast-path.md, "The count blocks").

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use krb_log::logline::{Offset, Partition};

const BLOCK_BITS: u32 = 8;
const BLOCK: usize = 1 << BLOCK_BITS;
/// A block costs as much as this many pairs (1 KiB / 16 bytes): blocks with fewer offsets are
/// kept as pairs.
const KEEP: usize = 64;
/// Blocks made before the first check (4 MiB).
const FIRST_CHECK: usize = 4096;

type Block = Box<[u32; BLOCK]>;

/// Partitions below this are found in a table, not by a search.
const DIRECT: usize = 4096;

fn block_of(offset: Offset) -> i64 {
    offset >> BLOCK_BITS
}

fn index_in_block(offset: Offset) -> usize {
    (offset & (BLOCK as i64 - 1)) as usize
}

/// Block numbers come in runs: multiplying by an odd constant spreads them well enough, for a
/// fraction of SipHash's cost.
#[derive(Default)]
struct BlockHasher(u64);

impl Hasher for BlockHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_i64(&mut self, n: i64) {
        self.0 = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Where [`Part::add`] counted an offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Added {
    InBlock,
    NewBlock,
    /// Nowhere: the offset is far from the one before and has no block; keep it as a pair.
    Pair,
}

struct Part {
    partition: Partition,
    index: HashMap<i64, usize, BuildHasherDefault<BlockHasher>>,
    blocks: Vec<(i64, Block)>,
    /// How many of the first `blocks` a check found full enough: they only fill further, so
    /// the next check looks at the blocks after them.
    checked: usize,
    /// The block number of the offset counted before, in a block or as a pair.
    previous: i64,
    /// The block counted last (number, place), looked up first: lines of a partition come in
    /// runs. `NO_BLOCK` before the first, which no offset's block number equals.
    last: (i64, usize),
}

const NO_BLOCK: (i64, usize) = (i64::MIN, 0);

impl Part {
    fn new(partition: Partition) -> Part {
        Part {
            partition,
            index: HashMap::default(),
            blocks: Vec::new(),
            checked: 0,
            previous: i64::MIN,
            last: NO_BLOCK,
        }
    }

    /// Adds `n` to `offset`'s count in its block. A block is made only for a partition's first
    /// offset and for a partition read in order (the offset before was in this block or the one
    /// before it); any other offset without a block is left to the caller to keep as a pair.
    #[inline]
    fn add(&mut self, offset: Offset, n: u32, free: &mut Vec<Block>) -> Added {
        let number = block_of(offset);
        let mut added = Added::InBlock;
        if self.last.0 != number {
            let place = match self.index.get(&number) {
                Some(&place) => place,
                None if self.previous == i64::MIN
                    || self.previous == number
                    || self.previous.wrapping_add(1) == number =>
                {
                    self.blocks
                        .push((number, free.pop().unwrap_or_else(|| Box::new([0; BLOCK]))));
                    self.index.insert(number, self.blocks.len() - 1);
                    added = Added::NewBlock;
                    self.blocks.len() - 1
                }
                None => {
                    self.previous = number;
                    return Added::Pair;
                }
            };
            self.last = (number, place);
            self.previous = number;
        }
        self.blocks[self.last.1].1[index_in_block(offset)] += n;
        added
    }

    fn get(&self, offset: Offset) -> u32 {
        self.index
            .get(&block_of(offset))
            .map_or(0, |&i| self.blocks[i].1[index_in_block(offset)])
    }

    /// Moves the blocks with fewer than [`KEEP`] offsets to `pairs`, their memory to `free`;
    /// not the block counted last, which a partition read in order is still filling.
    fn thin(&mut self, pairs: &mut Pairs, free: &mut Vec<Block>) {
        let mut kept = Vec::with_capacity(self.blocks.len());
        let filling = self.last.0;
        kept.extend(self.blocks.drain(..self.checked));
        for (number, mut block) in self.blocks.drain(..) {
            if number == filling || block.iter().filter(|&&c| c > 0).take(KEEP).count() == KEEP {
                kept.push((number, block));
                continue;
            }
            for (i, c) in block.iter_mut().enumerate() {
                if *c > 0 {
                    pairs.push(self.partition, (number << BLOCK_BITS) + i as i64, *c);
                    *c = 0;
                }
            }
            free.push(block);
        }
        self.blocks = kept;
        self.reindex();
        // The block still filling may yet be thinned out.
        self.checked = self.blocks.len() - usize::from(self.index.contains_key(&filling));
        if let Some(place) = self.index.get(&filling).copied() {
            let end = self.blocks.len() - 1;
            self.blocks.swap(place, end);
            self.reindex();
        }
    }

    /// Sorts the blocks by number, so they can be walked in order.
    fn sort(&mut self) {
        self.blocks.sort_unstable_by_key(|(number, _)| *number);
        self.reindex();
        self.checked = 0;
    }

    fn reindex(&mut self) {
        self.index = self
            .blocks
            .iter()
            .enumerate()
            .map(|(i, (number, _))| (*number, i))
            .collect();
        self.last = NO_BLOCK;
    }
}

/// A (partition, offset) pair and its count: 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pair {
    offset: Offset,
    partition: Partition,
    count: u32,
}

/// Pairs kept one by one: sorted by (partition, offset), each once, after [`Pairs::compact`];
/// in between, pairs are appended and sorted in when they are as many as the sorted ones, so
/// sorting costs O(n log n) in all.
#[derive(Default)]
struct Pairs {
    items: Vec<Pair>,
    /// How many of the first `items` are sorted, each pair once.
    sorted: usize,
}

impl Pairs {
    fn push(&mut self, partition: Partition, offset: Offset, count: u32) {
        if self.items.len() == self.items.capacity() {
            // A quarter more at a time, not twice as much: the pairs are what memory is spent on.
            self.items.reserve_exact((self.items.len() / 4).max(1024));
        }
        self.items.push(Pair {
            offset,
            partition,
            count,
        });
    }

    fn tidy(&mut self) {
        if self.items.len() - self.sorted >= self.sorted.max(1 << 16) {
            self.compact();
        }
    }

    fn compact(&mut self) {
        if self.sorted == self.items.len() {
            return;
        }
        self.items.sort_unstable_by_key(|p| (p.partition, p.offset));
        // `b` is the pair kept, `a` a later one with the same key.
        self.items.dedup_by(|a, b| {
            let same = (a.partition, a.offset) == (b.partition, b.offset);
            b.count += if same { a.count } else { 0 };
            same
        });
        let kept = self.items.len();
        if self.items.capacity() > kept + kept / 4 {
            self.items.shrink_to_fit();
        }
        self.sorted = kept;
    }

    /// The sorted pairs of one partition (after [`Pairs::compact`]).
    fn of(&self, partition: Partition) -> &[Pair] {
        let from = self.items.partition_point(|p| p.partition < partition);
        let to = self.items.partition_point(|p| p.partition <= partition);
        &self.items[from..to]
    }
}

/// How many times each (partition, offset) was processed, and by how many lines each worker.
#[derive(Default)]
pub struct Counts {
    parts: Vec<Part>,
    /// The place in `parts` of partitions below [`DIRECT`], `usize::MAX` for none yet.
    by_partition: Vec<usize>,
    other_partitions: HashMap<Partition, usize>,
    /// The part counted last, looked up first.
    last_part: usize,
    pairs: Pairs,
    /// Emptied blocks, for reuse.
    free: Vec<Block>,
    blocks: usize,
    next_check: usize,
    /// The fewest new blocks between two checks.
    check_floor: usize,
    /// Completion lines per worker, the last one used looked up first.
    consumers: Vec<(Vec<u8>, u64)>,
    consumer_index: HashMap<Vec<u8>, usize>,
    last_consumer: usize,
}

impl std::fmt::Debug for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Counts {{ {} blocks, {} pairs }}",
            self.blocks,
            self.pairs.items.len()
        )
    }
}

impl Counts {
    pub fn new() -> Counts {
        Counts {
            next_check: FIRST_CHECK,
            check_floor: FIRST_CHECK,
            ..Counts::default()
        }
    }

    /// An empty count that thins its blocks out every `blocks` new blocks, for tests.
    #[cfg(test)]
    pub(crate) fn checking_every(blocks: usize) -> Counts {
        Counts {
            next_check: blocks,
            check_floor: blocks,
            ..Counts::default()
        }
    }

    pub fn add(&mut self, name: &[u8], partition: Partition, offset: Offset) {
        if name != self.last_name() {
            self.last_consumer = self.consumer_slot(name);
        }
        self.add_by_last(partition, offset);
    }

    /// The place of worker `name` in `consumers`, found in a map: a log may name many.
    fn consumer_slot(&mut self, name: &[u8]) -> usize {
        match self.consumer_index.get(name) {
            Some(&i) => i,
            None => {
                self.consumers.push((name.to_vec(), 0));
                let i = self.consumers.len() - 1;
                self.consumer_index.insert(name.to_vec(), i);
                i
            }
        }
    }

    /// The worker whose completion was counted last; empty before the first.
    pub(crate) fn last_name(&self) -> &[u8] {
        self.consumers
            .get(self.last_consumer)
            .map_or(&[], |(n, _)| n.as_slice())
    }

    /// Counts one completion of (partition, offset) by the worker counted last, the one
    /// [`Counts::last_name`] names: a log's lines come in long runs of one worker.
    #[inline]
    pub(crate) fn add_by_last(&mut self, partition: Partition, offset: Offset) {
        if let Some((_, count)) = self.consumers.get_mut(self.last_consumer) {
            *count += 1;
        }
        self.add_pair(partition, offset, 1);
    }

    #[inline]
    fn add_pair(&mut self, partition: Partition, offset: Offset, n: u32) {
        let slot = match self.parts.get(self.last_part) {
            Some(p) if p.partition == partition => self.last_part,
            _ => self.part_slot(partition),
        };
        self.last_part = slot;
        match self.parts[slot].add(offset, n, &mut self.free) {
            Added::InBlock => {}
            Added::NewBlock => {
                self.blocks += 1;
                if self.blocks >= self.next_check {
                    self.thin();
                }
            }
            Added::Pair => {
                self.pairs.push(partition, offset, n);
                self.pairs.tidy();
            }
        }
    }

    /// The place of `partition`'s part: looked up in a table for the partition numbers Kafka
    /// uses (the lines of several partitions alternate), in a map for any other.
    #[inline]
    fn part_slot(&mut self, partition: Partition) -> usize {
        if let Some(slot) = self.slot_of(partition) {
            return slot;
        }
        self.parts.push(Part::new(partition));
        let slot = self.parts.len() - 1;
        match usize::try_from(partition).ok().filter(|&p| p < DIRECT) {
            Some(p) => {
                if self.by_partition.len() <= p {
                    self.by_partition.resize(p + 1, usize::MAX);
                }
                self.by_partition[p] = slot;
            }
            None => {
                self.other_partitions.insert(partition, slot);
            }
        }
        slot
    }

    fn slot_of(&self, partition: Partition) -> Option<usize> {
        match usize::try_from(partition).ok().filter(|&p| p < DIRECT) {
            Some(p) => self
                .by_partition
                .get(p)
                .copied()
                .filter(|&s| s != usize::MAX),
            None => self.other_partitions.get(&partition).copied(),
        }
    }

    fn part(&self, partition: Partition) -> Option<&Part> {
        self.slot_of(partition).map(|s| &self.parts[s])
    }

    /// Moves sparse blocks to pairs, and sets when to look again: when the blocks have doubled.
    fn thin(&mut self) {
        for part in &mut self.parts {
            part.thin(&mut self.pairs, &mut self.free);
        }
        self.pairs.tidy();
        self.blocks = self.parts.iter().map(|p| p.blocks.len()).sum();
        // Emptied blocks are reused up to the next check; more than that would only hold memory.
        self.free.truncate(self.blocks.max(self.check_floor));
        self.next_check = (2 * self.blocks).max(self.blocks + self.check_floor);
    }

    pub fn merge(&mut self, other: Counts) {
        for (name, n) in other.consumers {
            let slot = self.consumer_slot(&name);
            self.consumers[slot].1 += n;
        }
        for mut part in other.parts {
            if self.slot_of(part.partition).is_none() {
                self.blocks += part.blocks.len();
                part.last = NO_BLOCK;
                let slot = self.part_slot(part.partition);
                self.parts[slot] = part;
                continue;
            }
            let slot = self.part_slot(part.partition);
            let ours = &mut self.parts[slot];
            for (number, block) in part.blocks {
                match ours.index.get(&number) {
                    // Whole blocks added, in a form the compiler turns into vector adds.
                    Some(&place) => {
                        for (a, b) in ours.blocks[place].1.iter_mut().zip(block.iter()) {
                            *a += b;
                        }
                        self.free.push(block);
                    }
                    None => {
                        ours.blocks.push((number, block));
                        ours.index.insert(number, ours.blocks.len() - 1);
                        self.blocks += 1;
                    }
                }
            }
            ours.last = NO_BLOCK;
        }
        self.free.truncate(self.check_floor);
        if self.blocks >= self.next_check {
            self.thin();
        }
        self.pairs.items.reserve_exact(other.pairs.items.len());
        self.pairs.items.extend_from_slice(&other.pairs.items);
        self.pairs.tidy();
    }

    pub fn consumers(&self) -> BTreeMap<String, u64> {
        self.consumers
            .iter()
            .map(|(n, c)| (String::from_utf8_lossy(n).into_owned(), *c))
            .collect()
    }

    /// Calls `f(partition, first, last, count)` for runs of consecutive offsets processed the
    /// same number of times, at least once, ascending; a block at a time, so this costs little
    /// even for millions of distinct pairs.
    pub fn for_each_run(&mut self, f: impl FnMut(Partition, Offset, Offset, u32)) {
        let mut joined = Joined { f, pending: None };
        self.for_each_piece(|p, first, last, n| joined.add(p, first, last, n));
        joined.flush();
    }

    /// [`Counts::for_each_run`] without joining runs that continue across blocks.
    fn for_each_piece(&mut self, mut f: impl FnMut(Partition, Offset, Offset, u32)) {
        self.pairs.compact();
        for part in &mut self.parts {
            part.sort();
        }
        let partitions: BTreeSet<Partition> = self
            .parts
            .iter()
            .map(|p| p.partition)
            .chain(self.pairs.items.iter().map(|p| p.partition))
            .collect();
        for partition in partitions {
            let mut pairs = self.pairs.of(partition);
            let blocks = self
                .part(partition)
                .map_or(&[][..], |p| p.blocks.as_slice());
            for (number, block) in blocks {
                let start = number << BLOCK_BITS;
                // Pairs below this block come first, one by one.
                let below = pairs.partition_point(|p| p.offset < start);
                for p in &pairs[..below] {
                    f(partition, p.offset, p.offset, p.count);
                }
                pairs = &pairs[below..];
                let inside = pairs.partition_point(|p| p.offset < start + BLOCK as i64);
                let mut merged;
                let counts: &[u32; BLOCK] = if inside == 0 {
                    block
                } else {
                    // A block made again after its pairs were moved out: add them back in.
                    merged = **block;
                    for p in &pairs[..inside] {
                        merged[index_in_block(p.offset)] += p.count;
                    }
                    &merged
                };
                pairs = &pairs[inside..];
                for_each_run_in(counts, |i, j, n| {
                    f(partition, start + i as i64, start + j as i64, n)
                });
            }
            for p in pairs {
                f(partition, p.offset, p.offset, p.count);
            }
        }
    }

    pub fn get(&mut self, partition: Partition, offset: Offset) -> u32 {
        self.pairs.compact();
        let in_blocks = self.part(partition).map_or(0, |p| p.get(offset));
        let pairs = self.pairs.of(partition);
        let in_pairs = pairs
            .binary_search_by_key(&offset, |p| p.offset)
            .map_or(0, |i| pairs[i].count);
        in_blocks + in_pairs
    }
}

/// Joins runs that continue one another (same partition, next offset, same count).
struct Joined<F: FnMut(Partition, Offset, Offset, u32)> {
    f: F,
    pending: Option<(Partition, Offset, Offset, u32)>,
}

impl<F: FnMut(Partition, Offset, Offset, u32)> Joined<F> {
    fn add(&mut self, partition: Partition, first: Offset, last: Offset, n: u32) {
        match &mut self.pending {
            Some((p, _, l, c)) if *p == partition && *l + 1 == first && *c == n => *l = last,
            _ => {
                self.flush();
                self.pending = Some((partition, first, last, n));
            }
        }
    }

    fn flush(&mut self) {
        if let Some((p, first, last, n)) = self.pending.take() {
            (self.f)(p, first, last, n);
        }
    }
}

/// Calls `f(first, last, n)` for each longest run of equal counts `n` above zero in a block.
fn for_each_run_in(counts: &[u32; BLOCK], mut f: impl FnMut(usize, usize, u32)) {
    let mut i = 0;
    while i < BLOCK {
        let n = counts[i];
        let end = i + 1 + same_prefix(&counts[i + 1..], n);
        if n > 0 {
            f(i, end - 1, n);
        }
        i = end;
    }
}

/// How many of the first `counts` equal `n`. Runs of ones are most of a log, so whole blocks
/// are compared first, in a form the compiler turns into vector compares.
fn same_prefix(counts: &[u32], n: u32) -> usize {
    const LANES: usize = 16;
    let len = counts
        .chunks_exact(LANES)
        .take_while(|lanes| lanes.iter().fold(true, |all, &c| all & (c == n)))
        .count()
        * LANES;
    len + counts[len..].iter().take_while(|&&c| c == n).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(c: &mut Counts) -> Vec<(Partition, Offset, Offset, u32)> {
        let mut seen = Vec::new();
        c.for_each_run(|p, a, b, n| seen.push((p, a, b, n)));
        seen
    }

    #[test]
    fn many_names_and_partitions_are_found_not_searched_for() {
        // 100,000 of each: with a search per line this took minutes (5 * 10^9 comparisons);
        // with maps, a second or two. The bound is far from both.
        let n = 100_000i32;
        let started = std::time::Instant::now();
        let mut c = Counts::new();
        for i in 0..n {
            let partition = if i % 2 == 0 { 4096 + i } else { -1 - i };
            c.add(format!("w-{i}").as_bytes(), partition, 1);
        }
        c.add(b"w-7", -8, 1);
        assert_eq!(c.consumers().len(), n as usize);
        assert_eq!(c.consumers()["w-7"], 2);
        assert_eq!(c.get(-8, 1), 2);
        assert_eq!(c.get(4096, 1), 1);
        let report = crate::analyse(&mut c, None);
        assert_eq!((report.processed, report.unique), (n as u64 + 1, n as u64));
        let took = started.elapsed();
        assert!(took < std::time::Duration::from_secs(60), "{took:?}");
    }

    #[test]
    fn runs_cross_blocks_and_pairs_join_blocks() {
        let mut c = Counts::new();
        for o in 250..260 {
            c.add(b"w", 0, o);
        }
        c.add(b"w", 0, 255);
        c.add(b"w", 1, -3);
        c.add(b"w", 1, 10_000_000_000);
        assert_eq!(
            runs(&mut c),
            vec![
                (0, 250, 254, 1),
                (0, 255, 255, 2),
                (0, 256, 259, 1),
                (1, -3, -3, 1),
                (1, 10_000_000_000, 10_000_000_000, 1)
            ]
        );
        assert_eq!((c.get(0, 255), c.get(0, 256), c.get(1, 0)), (2, 1, 0));
    }

    #[test]
    fn sparse_blocks_become_pairs_and_counts_survive() {
        let mut c = Counts::new();
        // Far apart offsets, each in a block of its own, many times the first check.
        let n = 3 * FIRST_CHECK as i64;
        for i in 0..n {
            c.add(b"w", 7, 1_234_567_890 + i * 1000);
        }
        // Counted again after its block was thinned out: a block and a pair for one offset.
        c.add(b"w", 7, 1_234_567_890);
        assert!(c.blocks <= 2 * FIRST_CHECK, "{c:?}");
        assert!(
            c.pairs.items.len() as i64 >= n - FIRST_CHECK as i64,
            "{c:?}"
        );
        assert_eq!(c.get(7, 1_234_567_890), 2);
        assert_eq!(c.get(7, 1_234_567_890 + 1000), 1);
        let all = runs(&mut c);
        assert_eq!(all.len() as i64, n);
        assert_eq!(all[0], (7, 1_234_567_890, 1_234_567_890, 2));
        assert!(all.windows(2).all(|w| w[0].1 < w[1].1));
    }

    #[test]
    fn far_offsets_cost_what_they_are_not_the_span() {
        // Offsets 0 and 2^26 - 1 once took a 260 MB array; 20 partitions of such pairs, 5 GB.
        let mut c = Counts::new();
        for p in 0..20 {
            c.add(b"w", p, 0);
            c.add(b"w", p, (1 << 26) - 1);
            c.add(b"w", p, 1_234_567_890);
        }
        assert!(c.blocks <= 20, "{c:?}");
        assert_eq!(c.pairs.items.len(), 40, "{c:?}");
        assert_eq!(runs(&mut c).len(), 60);
    }

    #[test]
    fn dense_blocks_stay_blocks() {
        let mut c = Counts::new();
        for o in 0..(3 * FIRST_CHECK * BLOCK) as i64 {
            c.add(b"w", 0, o);
        }
        assert!(c.pairs.items.is_empty());
        assert_eq!(c.blocks, 3 * FIRST_CHECK);
        let all = runs(&mut c);
        assert!(
            all == [(0, 0, (3 * FIRST_CHECK * BLOCK) as i64 - 1, 1)],
            "{} runs, first {:?}",
            all.len(),
            all.first()
        );
    }

    #[test]
    fn merge_adds_blocks_and_pairs() {
        let mut a = Counts::new();
        let mut b = Counts::new();
        for o in [100, 105, 90, 3, 104] {
            a.add(b"a", 0, o);
        }
        for o in [200, 2, 105, 1 << 40] {
            b.add(b"b", 0, o);
        }
        b.pairs.push(0, 3, 1);
        a.merge(b);
        assert_eq!(
            runs(&mut a),
            vec![
                (0, 2, 2, 1),
                (0, 3, 3, 2),
                (0, 90, 90, 1),
                (0, 100, 100, 1),
                (0, 104, 104, 1),
                (0, 105, 105, 2),
                (0, 200, 200, 1),
                (0, 1 << 40, 1 << 40, 1)
            ]
        );
        assert_eq!(a.consumers().get("b"), Some(&4));
    }
}
