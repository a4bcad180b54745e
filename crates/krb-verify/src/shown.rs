//! How a detail shows a value: as the logs write it, never as a Rust debug value (`Some(277)`,
//! `{0, 3}`), since details are read on a projector and by people grepping the logs.

use std::fmt::Display;

/// The value, or `none`.
pub fn opt<T: Display>(value: Option<T>) -> String {
    value.map_or_else(|| "none".into(), |v| v.to_string())
}

/// `[0, 1]`, as the log writes a list of partitions.
pub fn list<T: Display>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_shown_as_the_logs_write_them() {
        assert_eq!(opt(Some(277)), "277");
        assert_eq!(opt(None::<i64>), "none");
        assert_eq!(list(std::collections::BTreeSet::from([3, 0])), "[0, 3]");
        assert_eq!(list(Vec::<i32>::new()), "[]");
    }
}
