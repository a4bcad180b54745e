//! `krb-verify table FILE`: a file of lab records (JSON lines) read by [`record::read`] from
//! disk, with its opening rules, and tabulated in both languages. None may panic; a line that is
//! not a record is named by its file and number; the table grows with the file.

use krb_cli::lang::Lang;
use krb_verify::record::{self, table_in};

pub fn check(data: &[u8]) {
    let path = crate::scratch("table");
    std::fs::write(&path, data).expect("cannot write the fuzz input's file");
    match record::read(&path) {
        Ok(records) => {
            for lang in [Lang::En, Lang::Ko] {
                let table = table_in(&records, lang);
                // Wrapped cells and one header: linear in the records, never a square of them.
                assert!(
                    table.len() <= 64 * data.len() + 4096,
                    "{} bytes",
                    table.len()
                );
            }
        }
        Err(e) => {
            let e = format!("{e:#}");
            assert!(e.contains(&path.display().to_string()), "{e}");
            assert!(!e.contains('\n'), "{e:?}");
        }
    }
}
