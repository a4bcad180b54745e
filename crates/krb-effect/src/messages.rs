//! What krb-effect says when a store is wrong, in English and Korean. An error is a [`Said`]:
//! its `Display` is the English text, since a worker writes its errors to its log, which is
//! data; [`explain`] gives a whole error chain in a person's language.

use std::fmt::{self, Display};

use krb_cli::lang::{Lang, Msg};

krb_cli::msgs! { ALL;
    /// What `init` says when the store is ready.
    MADE = "made {url}", "빈 저장소를 만듦: {url}";
    URL_NO_TOPIC = "the URL {url} names no topic: use kafka:TOPIC",
        "URL {url}에 토픽 이름이 없습니다: kafka:TOPIC을 쓰세요";
    EOS_NOT_TOPIC = "--effect kafka-eos writes to a Kafka topic, not to {url}: use kafka:TOPIC",
        "--effect kafka-eos는 Kafka 토픽에 씁니다. {url}에는 쓰지 않아요: kafka:TOPIC을 쓰세요";
    DB_NOT_TOPIC =
        "--effect {kind} writes to a database, not to {url}: use sqlite:PATH or \
        postgres://USER@HOST:PORT/DB",
        "--effect {kind}의 반영은 데이터베이스에 씁니다. {url}에는 쓰지 않아요: sqlite:PATH나 \
        postgres://USER@HOST:PORT/DB를 쓰세요";
    /// A PostgreSQL URL the client cannot read (its reason after it).
    URL_UNPARSED =
        "the database URL {url} does not parse: use sqlite:PATH (e.g. sqlite:logs/effects.db) \
        or postgres://USER@HOST:PORT/DB",
        "데이터베이스 URL {url}의 형식이 잘못됐습니다: sqlite:PATH(예: sqlite:logs/effects.db)나 \
        postgres://USER@HOST:PORT/DB를 쓰세요";
    URL_UNKNOWN =
        "the database URL {url} is not one krb reads: use sqlite:PATH (e.g. \
        sqlite:logs/effects.db) or postgres://USER@HOST:PORT/DB",
        "krb가 읽는 데이터베이스 URL이 아닙니다: {url}. sqlite:PATH(예: \
        sqlite:logs/effects.db)나 postgres://USER@HOST:PORT/DB를 쓰세요";
    URL_NO_FILE =
        "the database URL {url} names no file: use sqlite:PATH (e.g. sqlite:logs/effects.db) or \
        postgres://USER@HOST:PORT/DB",
        "데이터베이스 URL {url}에 파일 이름이 없습니다: sqlite:PATH(예: sqlite:logs/effects.db)나 \
        postgres://USER@HOST:PORT/DB를 쓰세요";
    NO_DATABASE = "no database {path}: create it first with krb-effects init {url}",
        "데이터베이스가 없습니다: {path}. 먼저 만드세요: krb-effects init {url}";
    NO_FOLDER = "cannot make the folder {path}", "폴더를 만들 수 없습니다: {path}";
    NOT_OPENED = "cannot open the database {path}", "데이터베이스를 열 수 없습니다: {path}";
    NO_BUSY_TIMEOUT = "cannot set the database's busy timeout", "데이터베이스의 busy timeout을 설정할 수 없습니다";
    /// SQLite refuses write-ahead logging (a file that is no database).
    NOT_SET_UP = "cannot set up the database {path}", "데이터베이스를 준비할 수 없습니다: {path}";
    /// PostgreSQL does not answer, or refuses the login.
    NOT_CONNECTED = "cannot connect to the database {url}: is PostgreSQL running there?",
        "데이터베이스 {url}에 연결할 수 없습니다(PostgreSQL이 거기서 돌고 있나요?)";
    /// PostgreSQL answered and refused: no such database, no such user.
    REFUSED = "cannot connect to the database {url}", "데이터베이스 {url}에 연결할 수 없습니다";
    NOT_A_NUMBER = "expected a number in the database, found {value}",
        "데이터베이스에서 숫자가 있어야 할 자리에 다른 값이 있습니다: {value}";
    TABLES_NOT_MADE = "cannot make the tables in {url}", "{url}에 테이블을 만들 수 없습니다";
    /// A table of an effect cannot be read (not made, most often).
    TABLE_NOT_READ = "cannot read {table} in {url}", "{url}의 {table} 테이블을 읽을 수 없습니다";
    NO_ROWS = "the effect kind {kind} writes no rows to a database",
        "{kind} 반영은 데이터베이스에 행을 쓰지 않습니다";
    END_NOT_READ = "cannot read the end of {topic} p{partition}",
        "{topic} 토픽 p{partition}의 끝을 읽을 수 없습니다";
    /// A transaction of the output topic still open: the count would stop before it.
    OPEN_TRANSACTION =
        "a transaction open for {seconds} s holds back {held} of {topic}: a read_committed count \
        would stop before it; count again once it is committed or aborted (the broker aborts it \
        when its producer's transaction.timeout.ms has passed)",
        "{seconds}초째 열려 있는 트랜잭션이 {topic} 토픽의 {held}에서 읽기를 막고 있습니다: \
        read_committed로 세면 그 앞에서 멈춰요. 트랜잭션이 commit되거나 abort된 뒤 다시 세세요\
        (프로듀서의 transaction.timeout.ms가 지나면 브로커가 abort합니다)";
    /// The offsets an open transaction holds back in one partition.
    HELD = "offsets {from}..{to} of p{p}", "p{p}의 offset {from}..{to}";
    NO_CONSUMER = "cannot create the consumer", "컨슈머를 만들 수 없습니다";
    NO_BEGINNING = "cannot read from the beginning", "처음부터 읽을 수 없습니다";
    TOPIC_NOT_READ = "cannot read {topic}", "{topic} 토픽을 읽을 수 없습니다";
    NOT_TO_THE_END = "{topic} was not read to its end within {seconds} s",
        "{seconds}초 안에 {topic} 토픽을 끝까지 읽지 못했습니다";
    NOT_AN_EFFECT = "{topic} p{partition} offset {offset} is not a processing's effect: {value}",
        "{topic} p{partition} offset {offset}의 메시지는 처리의 반영이 아닙니다: {value}";
}

/// An error of krb-effect: a message with its values, and the error that caused it, if any
/// (a library's, or another [`Said`]).
#[derive(Debug)]
pub struct Said {
    msg: Msg,
    values: Vec<(&'static str, String)>,
    /// Values that Korean writes otherwise (a list of offsets), in place of the English ones.
    values_ko: Vec<(&'static str, String)>,
    cause: Option<anyhow::Error>,
}

impl Said {
    pub fn new(msg: Msg, values: &[(&'static str, &dyn Display)]) -> Said {
        Said {
            msg,
            values: values.iter().map(|(n, v)| (*n, v.to_string())).collect(),
            values_ko: Vec::new(),
            cause: None,
        }
    }

    /// The same, with placeholder `name` filled with `value` in Korean.
    pub fn ko(mut self, name: &'static str, value: impl Display) -> Said {
        self.values_ko.push((name, value.to_string()));
        self
    }

    /// The same, caused by `cause`, which an error chain shows after it.
    pub fn because(mut self, cause: impl Into<anyhow::Error>) -> Said {
        self.cause = Some(cause.into());
        self
    }

    /// The message in `lang`, without its cause.
    pub fn text(&self, lang: Lang) -> String {
        let ko = self.values_ko.iter().filter(|_| lang == Lang::Ko);
        // Korean's own values come first: `fill` replaces a placeholder with its first value.
        let values: Vec<(&str, &dyn Display)> = ko
            .chain(&self.values)
            .map(|(n, v)| (*n, v as &dyn Display))
            .collect();
        self.msg.fill(lang, &values)
    }
}

impl Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for Said {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause
            .as_ref()
            .map(|e| e.as_ref() as &(dyn std::error::Error + 'static))
    }
}

/// `err` on one line in `lang`, as `{:#}` writes it in English: each cause after the one it
/// caused, after `: `; each [`Said`] in `lang`, any other cause as its library wrote it.
pub fn explain(lang: Lang, err: &anyhow::Error) -> String {
    err.chain()
        .map(|cause| match cause.downcast_ref::<Said>() {
            Some(said) => said.text(lang),
            None => cause.to_string(),
        })
        .collect::<Vec<_>>()
        .join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn every_message_has_its_korean_text() {
        let problems = krb_cli::lang::table_problems(ALL);
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn an_error_is_english_as_before_and_korean_where_a_person_reads_it() {
        let refused =
            std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "Connection refused");
        let url = "postgres://postgres@localhost:1/x";
        let err: anyhow::Error = Said::new(NOT_CONNECTED, &[("url", &url)])
            .because(refused)
            .into();
        let english = "cannot connect to the database postgres://postgres@localhost:1/x: is \
                       PostgreSQL running there?: Connection refused";
        assert_eq!(format!("{err:#}"), english);
        assert_eq!(explain(Lang::En, &err), english);
        // PostgreSQL's own text stays as it came, after the Korean frame.
        assert_eq!(
            explain(Lang::Ko, &err),
            "데이터베이스 postgres://postgres@localhost:1/x에 연결할 수 없습니다(PostgreSQL이 \
             거기서 돌고 있나요?): Connection refused"
        );
        // Under a context of another's, and over another Said.
        let inner: anyhow::Error = Said::new(NO_ROWS, &[("kind", &"none")]).into();
        let outer = Err::<(), _>(inner).context("while counting").unwrap_err();
        assert_eq!(
            explain(Lang::Ko, &outer),
            "while counting: none 반영은 데이터베이스에 행을 쓰지 않습니다"
        );
    }
}
