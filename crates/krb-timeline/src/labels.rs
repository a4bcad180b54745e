//! Event labels placed in rows so that none overprints another: each label takes the first row
//! where its box is clear, and a label with no clear row keeps only its mark, its text in the
//! mark's tooltip.

use krb_common::lang::columns;

/// How wide a character of the labels' sans-serif font is, at most, in ems. Generous (most
/// glyphs are about 0.5 em), so a box measured with it holds the drawn text.
pub const CHAR_EM: f64 = 0.6;
/// How wide a wide character is (Hangul, and the other letters a terminal gives two columns):
/// a full em, as Korean fonts draw them.
pub const WIDE_EM: f64 = 1.0;
/// Space kept between two labels in a row.
const GAP: f64 = 4.0;

/// The width of `text` at `size` pixels: [`CHAR_EM`] a character, [`WIDE_EM`] a wide one.
pub fn width(text: &str, size: f64) -> f64 {
    let mut buf = [0u8; 4];
    let ems: f64 = text
        .chars()
        .map(|c| {
            if columns(c.encode_utf8(&mut buf)) == 2 {
                WIDE_EM
            } else {
                CHAR_EM
            }
        })
        .sum();
    ems * size
}

/// A label to place: where its mark is, how wide its text is, and whether the text ends at the
/// mark (near the right edge) rather than starting there.
#[derive(Clone, Copy, Debug)]
pub struct Label {
    /// The mark's x.
    pub x: f64,
    /// The text's width.
    pub width: f64,
    /// The text ends at the mark.
    pub ends_at_mark: bool,
}

impl Label {
    /// The text's left and right edges.
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
        assert!((width("commit p0=4", 14.0) - 11.0 * 0.6 * 14.0).abs() < 1e-9);
    }

    #[test]
    fn hangul_is_a_full_em_wide() {
        // `커밋 실패: X`: four Hangul, two spaces, a colon and an X.
        let w = width("커밋 실패: X", 14.0);
        assert!((w - (4.0 * 1.0 + 4.0 * 0.6) * 14.0).abs() < 1e-9, "{w}");
        assert_eq!(width("시작", 14.0), 28.0);
    }
}
