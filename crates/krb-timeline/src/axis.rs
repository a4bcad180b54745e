//! The time axis: a tick every round number of seconds, about ten across the picture.

/// The steps a tick may take, in milliseconds.
const STEPS: [i64; 14] = [
    100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
    1_800_000,
];
/// At most this many steps across the picture.
const MOST: i64 = 12;

/// The step between ticks and the ticks' times, in milliseconds from the first line, for a run
/// of `span` milliseconds: the smallest step that makes at most twelve steps.
pub fn ticks(span: i64) -> (i64, Vec<i64>) {
    let span = span.max(1);
    let step = STEPS
        .iter()
        .copied()
        .find(|s| span / s <= MOST)
        .unwrap_or_else(|| (span / MOST / 3_600_000 + 1) * 3_600_000);
    (step, (0..=span / step).map(|i| i * step).collect())
}

/// A tick's label: `0 s`, `2 s`, `0.5 s`, `1 min 30 s`.
pub fn label(ms: i64) -> String {
    if ms % 1000 != 0 {
        return format!("{:.1} s", ms as f64 / 1000.0);
    }
    let s = ms / 1000;
    match (s / 60, s % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) => format!("{m} min"),
        (m, s) => format!("{m} min {s} s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_ten_round_ticks_whatever_the_span() {
        assert_eq!(
            ticks(20_000),
            (2_000, (0..=10).map(|i| i * 2_000).collect())
        );
        assert_eq!(ticks(900).0, 100);
        assert_eq!(ticks(95_000).0, 10_000);
        for span in [1, 999, 12_345, 600_000, 86_400_000] {
            let (step, ticks) = ticks(span);
            assert!(ticks.len() as i64 <= MOST + 1, "{span}: {step}");
            assert!(ticks.last().copied().unwrap() <= span.max(1), "{span}");
        }
    }

    #[test]
    fn labels_say_seconds_and_minutes() {
        assert_eq!(label(0), "0 s");
        assert_eq!(label(1_500), "1.5 s");
        assert_eq!(label(12_000), "12 s");
        assert_eq!(label(120_000), "2 min");
        assert_eq!(label(90_000), "1 min 30 s");
    }
}
