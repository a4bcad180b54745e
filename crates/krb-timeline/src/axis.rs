//! The time axis: a tick every round number of seconds, about ten across the picture.

use krb_cli::lang::Lang;

use crate::messages::{MINUTES, MINUTES_SECONDS, SECONDS};

/// The steps a tick may take, in milliseconds.
const STEPS: [i64; 14] = [
    100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
    1_800_000,
];

/// The step between ticks and the ticks' times, in milliseconds from the first line, for a run
/// of `span` milliseconds: the smallest step that makes at most `most` steps (at least one).
pub fn ticks(span: i64, most: i64) -> (i64, Vec<i64>) {
    let span = span.max(1);
    let most = most.max(1);
    let step = STEPS
        .iter()
        .copied()
        .find(|s| span / s <= most)
        .unwrap_or_else(|| (span / most / 3_600_000 + 1) * 3_600_000);
    (step, (0..=span / step).map(|i| i * step).collect())
}

/// A tick's label: `0 s`, `2 s`, `0.5 s`, `1 min 30 s` (Korean `0초`, `1분 30초`).
pub fn label(ms: i64, lang: Lang) -> String {
    if ms % 1000 != 0 {
        return seconds(ms as f64 / 1000.0, lang);
    }
    let s = ms / 1000;
    match (s / 60, s % 60) {
        (0, s) => SECONDS.fill(lang, &[("seconds", &s)]),
        (m, 0) => MINUTES.fill(lang, &[("minutes", &m)]),
        (m, s) => MINUTES_SECONDS.fill(lang, &[("minutes", &m), ("seconds", &s)]),
    }
}

/// A length in seconds, to a tenth: `1.6 s` (Korean `1.6초`).
pub fn seconds(s: f64, lang: Lang) -> String {
    SECONDS.fill(lang, &[("seconds", &format!("{s:.1}"))])
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOST: i64 = 12;

    #[test]
    fn about_ten_round_ticks_whatever_the_span() {
        assert_eq!(
            ticks(20_000, MOST),
            (2_000, (0..=10).map(|i| i * 2_000).collect())
        );
        assert_eq!(ticks(900, MOST).0, 100);
        assert_eq!(ticks(95_000, MOST).0, 10_000);
        assert_eq!(ticks(95_000, 5).0, 30_000, "fewer steps, each longer");
        for most in [1, 5, 10, 12] {
            for span in [1, 999, 12_345, 600_000, 86_400_000] {
                let (step, ticks) = ticks(span, most);
                assert!(ticks.len() as i64 <= most + 1, "{span}: {step}");
                assert!(ticks.last().copied().unwrap() <= span.max(1), "{span}");
            }
        }
    }

    #[test]
    fn labels_say_seconds_and_minutes() {
        assert_eq!(label(0, Lang::En), "0 s");
        assert_eq!(label(1_500, Lang::En), "1.5 s");
        assert_eq!(label(12_000, Lang::En), "12 s");
        assert_eq!(label(120_000, Lang::En), "2 min");
        assert_eq!(label(90_000, Lang::En), "1 min 30 s");
    }

    #[test]
    fn in_korean_too() {
        assert_eq!(label(0, Lang::Ko), "0초");
        assert_eq!(label(1_500, Lang::Ko), "1.5초");
        assert_eq!(label(120_000, Lang::Ko), "2분");
        assert_eq!(label(90_000, Lang::Ko), "1분 30초");
        assert_eq!(seconds(21.66, Lang::Ko), "21.7초");
        assert_eq!(seconds(1.6, Lang::En), "1.6 s");
    }
}
