//! A length of time as a person reads it, in English and Korean: `9.5 s`, `6 min 31 s`
//! (`9.5초`, `6분 31초`). The timeline's axis and the report's times say it in the same words.

use crate::event_words::SECONDS;
use krb_cli::lang::Lang;

krb_cli::msgs! { ALL;
    MINUTES = "{minutes} min", "{minutes}분";
    MINUTES_SECONDS = "{minutes} min {seconds} s", "{minutes}분 {seconds}초";
}

/// How long something took: to a tenth of a second under a minute, else in whole minutes and
/// seconds.
pub fn length(seconds: f64, lang: Lang) -> String {
    if seconds < 60.0 {
        SECONDS.fill(lang, &[("seconds", &format!("{seconds:.1}"))])
    } else {
        let whole = seconds.round() as u64;
        MINUTES_SECONDS.fill(
            lang,
            &[("minutes", &(whole / 60)), ("seconds", &(whole % 60))],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_length_reads_in_either_language() {
        assert_eq!(length(9.54, Lang::En), "9.5 s");
        assert_eq!(length(391.0, Lang::En), "6 min 31 s");
        assert_eq!(length(9.54, Lang::Ko), "9.5초");
        assert_eq!(length(391.0, Lang::Ko), "6분 31초");
        let problems = krb_cli::lang::table_problems(ALL);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
