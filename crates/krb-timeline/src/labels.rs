//! Event labels placed in rows so that none overprints another: each label takes the first row
//! where its box is clear, and a label with no clear row keeps only its mark, its text in the
//! mark's tooltip.

/// How wide each printable ASCII character (space to `~`) is, in ems: the widest of the
/// sans-serif fonts a browser is likely to draw it in (Liberation Sans, which has Arial's
/// metrics and is Chromium's sans-serif on Debian; DejaVu Sans, a Linux desktop's; NanumGothic,
/// which Korean text falls back to), measured in Chromium and rounded up to 0.05 em. So a box
/// measured with them holds the drawn text whatever the font: `commit failed:
/// UNKNOWN_MEMBER_ID` is 18.2 em in Liberation Sans, 19.4 in DejaVu Sans, 20.6 by this table.
const ASCII_EM: [f64; 95] = [
    0.35, 0.45, 0.50, 0.85, 0.65, 1.10, 0.80, 0.30, 0.40, 0.40, // ` !"#$%&'()`
    0.65, 0.85, 0.35, 0.40, 0.35, 0.40, 0.65, 0.65, 0.65, 0.65, // `*+,-./0123`
    0.65, 0.65, 0.65, 0.65, 0.65, 0.65, 0.35, 0.35, 0.85, 0.85, // `456789:;<=`
    0.85, 0.60, 1.05, 0.75, 0.70, 0.75, 0.80, 0.70, 0.65, 0.80, // `>?@ABCDEFG`
    0.75, 0.30, 0.50, 0.70, 0.60, 1.00, 0.75, 0.80, 0.70, 0.80, // `HIJKLMNOPQ`
    0.75, 0.70, 0.65, 0.75, 0.70, 1.05, 0.70, 0.70, 0.70, 0.40, // `RSTUVWXYZ[`
    1.00, 0.40, 0.85, 0.60, 0.50, 0.65, 0.65, 0.55, 0.65, 0.65, // `\]^_` and `abcde`
    0.40, 0.65, 0.65, 0.30, 0.30, 0.60, 0.30, 1.00, 0.65, 0.65, // `fghijklmno`
    0.65, 0.65, 0.45, 0.55, 0.40, 0.65, 0.60, 0.85, 0.60, 0.60, // `pqrstuvwxy`
    0.55, 0.65, 0.35, 0.65, 0.85, // `z{|}~`
];
/// How wide any other character is: a full em. Hangul is about that (0.94 em in NanumGothic),
/// as are the other East Asian letters; a Latin letter with an accent is less.
pub const WIDE_EM: f64 = 1.0;
/// Space kept between two labels in a row.
const GAP: f64 = 4.0;

/// How wide `c` is, in ems, at most: by [`ASCII_EM`], else [`WIDE_EM`].
pub fn em(c: char) -> f64 {
    match c {
        ' '..='~' => ASCII_EM[c as usize - ' ' as usize],
        _ => WIDE_EM,
    }
}

/// The width of `text` at `size` pixels, at most, by [`em`].
pub fn width(text: &str, size: f64) -> f64 {
    text.chars().map(em).sum::<f64>() * size
}

/// A label to place: where its mark is, how wide its text is, and whether the text ends at the
/// mark (near the right edge) rather than starting there.
#[derive(Clone, Copy, Debug)]
pub struct Label {
    pub x: f64,
    pub width: f64,
    pub ends_at_mark: bool,
}

impl Label {
    /// The label of `text` at `size` px whose mark is at `x`: one that would run off the picture
    /// ends at its mark instead.
    pub fn at(x: f64, text: &str, size: f64) -> Label {
        let width = width(text, size);
        let ends_at_mark = x + 2.0 + width > crate::WIDTH - 4.0;
        Label {
            x,
            width,
            ends_at_mark,
        }
    }

    pub fn span(&self) -> (f64, f64) {
        if self.ends_at_mark {
            (self.x - 2.0 - self.width, self.x - 2.0)
        } else {
            (self.x + 2.0, self.x + 2.0 + self.width)
        }
    }
}

/// The row of each label (`None`: no row was clear), in `rows` rows, labels taken in order.
pub fn place(labels: &[Label], rows: usize) -> Vec<Option<usize>> {
    let mut taken: Vec<Vec<(f64, f64)>> = vec![Vec::new(); rows];
    labels
        .iter()
        .map(|label| {
            let (left, right) = label.span();
            let row = taken.iter().position(|spans| {
                spans
                    .iter()
                    .all(|&(l, r)| right + GAP <= l || r + GAP <= left)
            })?;
            taken[row].push((left, right));
            Some(row)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64, width: f64) -> Label {
        Label {
            x,
            width,
            ends_at_mark: false,
        }
    }

    #[test]
    fn close_labels_take_the_next_row_and_a_clear_row_is_reused() {
        let rows = place(
            &[
                at(0.0, 50.0),
                at(10.0, 50.0),
                at(20.0, 50.0),
                at(100.0, 20.0),
            ],
            4,
        );
        assert_eq!(rows, vec![Some(0), Some(1), Some(2), Some(0)]);
    }

    #[test]
    fn a_label_with_no_clear_row_is_left_to_its_tooltip() {
        let rows = place(&[at(0.0, 50.0), at(1.0, 50.0), at(2.0, 50.0)], 2);
        assert_eq!(rows, vec![Some(0), Some(1), None]);
    }

    #[test]
    fn a_label_ending_at_its_mark_spans_to_its_left() {
        let end = Label {
            x: 100.0,
            width: 40.0,
            ends_at_mark: true,
        };
        assert_eq!(end.span(), (58.0, 98.0));
        assert_eq!(place(&[at(0.0, 50.0), end], 1), vec![Some(0), Some(0)]);
    }

    #[test]
    fn hangul_is_a_full_em_wide_and_capitals_wider_than_small_letters() {
        assert_eq!(width("시작", 14.0), 28.0);
        // `시작 실패: X`: four Hangul, two spaces and a colon, an X.
        let w = width("시작 실패: X", 10.0);
        assert!((w - (4.0 + 3.0 * 0.35 + 0.7) * 10.0).abs() < 1e-9, "{w}");
        assert!(width("MEMBER", 10.0) > width("member", 10.0));
        assert_eq!((em(' '), em('~'), em('é')), (0.35, 0.85, WIDE_EM));
        let w = width("commit failed: UNKNOWN_MEMBER_ID", 1.0);
        assert!((20.0..21.0).contains(&w), "{w}");
    }
}
