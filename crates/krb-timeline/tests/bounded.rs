//! What krb-timeline keeps is what it draws (issue 42): a picture of four times the lines takes
//! no more memory. Its own test binary, for the allocator that measures it is the process's.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use krb_cli::lang::Lang;
use krb_log::reader::Logs;
use krb_timeline::{run, Args};

/// The system's allocator, counting the bytes held now and the most held since [`peak_of`]
/// last began.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let held = HELD.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(held, Relaxed);
        // SAFETY: the caller's layout, handed on as it came.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Relaxed);
        // SAFETY: a block this allocator gave, with its layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes held while krb-timeline draws a log of `lines` completions (offsets one
/// after another, a millisecond apart) and a second worker's one line.
fn peak_of(lines: usize) -> usize {
    let mut a = String::with_capacity(lines * 40);
    for i in 0..lines {
        let ms = i % 3_600_000;
        a += &format!(
            "{:02}:{:02}:{:02}.{:03} big-a p0 offset {i}\n",
            9 + ms / 3_600_000,
            ms / 60_000 % 60,
            ms / 1000 % 60,
            ms % 1000
        );
    }
    let dir = krb_testutil::scratch_dir(
        "timeline-bounded",
        &[
            ("big-a.log", a),
            ("big-b.log", "09:00:00.000 big-b p0 offset 0\n".into()),
        ],
    );
    let args = Args {
        group: "big".into(),
        logs: Logs::at(&dir),
        output: None,
        namespace: Default::default(),
    };
    PEAK.store(HELD.load(Relaxed), Relaxed);
    let before = HELD.load(Relaxed);
    run(&args, Lang::En).unwrap();
    PEAK.load(Relaxed) - before
}

#[test]
fn a_picture_of_four_times_the_lines_keeps_no_more() {
    // Each log larger than the reader's chunk (4 MB, about 100k such lines), so that what is
    // kept a chunk at a time is the same in both.
    let (small, large) = (peak_of(150_000), peak_of(600_000));
    // Kept a line each, 600k lines would hold 40 MB more than 150k.
    assert!(
        large < small + small / 2,
        "{large} bytes at most for 600k lines, {small} for 150k"
    );
}
