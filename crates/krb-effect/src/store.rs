//! One connection to SQLite or PostgreSQL and the few calls krb-effect makes on it. The SQL text
//! is the same for both (`$1`, `$2`, ... placeholders, in order, which SQLite reads as well);
//! only a table's key column, how a write transaction begins and PostgreSQL's arrays (a batch
//! of rows in one statement) differ.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use postgres::types::Type;

use crate::messages::{self as m, Said};

/// A value bound to a placeholder: text, a partition (32 bits) or an offset (64 bits).
pub(crate) trait Value {
    fn sqlite(&self) -> &dyn rusqlite::ToSql;
    fn postgres(&self) -> &(dyn postgres::types::ToSql + Sync);
}

impl<T: rusqlite::ToSql + postgres::types::ToSql + Sync> Value for T {
    fn sqlite(&self) -> &dyn rusqlite::ToSql {
        self
    }
    fn postgres(&self) -> &(dyn postgres::types::ToSql + Sync) {
        self
    }
}

/// A value bound to a PostgreSQL placeholder, arrays among them (SQLite has no array type).
pub(crate) type PgValue<'a> = &'a (dyn postgres::types::ToSql + Sync);

/// A value read back: every column krb-effect reads is an integer or text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    Int(i64),
    Text(String),
}

impl Cell {
    pub(crate) fn int(&self) -> Result<i64> {
        match self {
            Cell::Int(i) => Ok(*i),
            Cell::Text(t) => bail!(Said::new(m::NOT_A_NUMBER, &[("value", &format!("{t:?}"))])),
        }
    }
    pub(crate) fn text(self) -> String {
        match self {
            Cell::Text(t) => t,
            Cell::Int(i) => i.to_string(),
        }
    }
}

pub(crate) enum Conn {
    Sqlite(rusqlite::Connection),
    /// A PostgreSQL client and the statements it prepared (once each: a statement is one round
    /// trip instead of two).
    Postgres(Box<postgres::Client>, HashMap<String, postgres::Statement>),
}

/// The statement `sql` prepared on `client`, prepared once.
fn prepared(
    client: &mut postgres::Client,
    cache: &mut HashMap<String, postgres::Statement>,
    sql: &str,
) -> Result<postgres::Statement> {
    if let Some(statement) = cache.get(sql) {
        return Ok(statement.clone());
    }
    let statement = client.prepare(sql)?;
    Ok(cache.entry(sql.to_string()).or_insert(statement).clone())
}

pub(crate) enum Target {
    Sqlite(PathBuf),
    Postgres(Box<postgres::Config>),
}

/// Reads a database URL: `sqlite:PATH`, a bare path ending in `.db`, or a PostgreSQL URL.
pub(crate) fn target(url: &str) -> Result<Target> {
    let quoted = format!("{url:?}");
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let mut config: postgres::Config = url
            .parse()
            .map_err(|e| Said::new(m::URL_UNPARSED, &[("url", &quoted)]).because(e))?;
        // A database that does not answer is an error within seconds, never a hang.
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        return Ok(Target::Postgres(Box::new(config)));
    }
    let path = match url.strip_prefix("sqlite:") {
        Some(path) => path,
        None if url.ends_with(".db") && !url.contains("://") => url,
        None => bail!(Said::new(m::URL_UNKNOWN, &[("url", &quoted)])),
    };
    if path.is_empty() {
        bail!(Said::new(m::URL_NO_FILE, &[("url", &quoted)]));
    }
    Ok(Target::Sqlite(PathBuf::from(path)))
}

impl Conn {
    /// Connects to what `target` names; an SQLite file must exist unless `create`.
    pub(crate) fn connect(url: &str, target: Target, create: bool) -> Result<Conn> {
        match target {
            Target::Sqlite(path) => {
                let shown = path.display();
                if !create && !path.exists() {
                    bail!(Said::new(
                        m::NO_DATABASE,
                        &[("path", &shown), ("url", &url)]
                    ));
                }
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        Said::new(m::NO_FOLDER, &[("path", &dir.display())]).because(e)
                    })?;
                }
                let conn = rusqlite::Connection::open(&path)
                    .map_err(|e| Said::new(m::NOT_OPENED, &[("path", &shown)]).because(e))?;
                // Two workers write one file: wait for the other's write instead of failing.
                conn.busy_timeout(Duration::from_secs(10))
                    .map_err(|e| Said::new(m::NO_BUSY_TIMEOUT, &[]).because(e))?;
                // Write-ahead logging: a commit appends to the log instead of syncing the file
                // twice, and readers do not block the writer. With synchronous = NORMAL a commit
                // survives the worker's crash, not the machine's: what that loses per effect
                // is in docs/en/internals/worker-failures.md (Durability).
                conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))
                    .and_then(|_| conn.pragma_update(None, "synchronous", "NORMAL"))
                    .map_err(|e| Said::new(m::NOT_SET_UP, &[("path", &shown)]).because(e))?;
                Ok(Conn::Sqlite(conn))
            }
            Target::Postgres(config) => {
                // A server that answered says why it refused (no such database, no such
                // user): asking whether it runs would mislead.
                let client = config.connect(postgres::NoTls).map_err(|e| {
                    let said = match e.as_db_error() {
                        Some(_) => m::REFUSED,
                        None => m::NOT_CONNECTED,
                    };
                    Said::new(said, &[("url", &url)]).because(e)
                })?;
                Ok(Conn::Postgres(Box::new(client), HashMap::new()))
            }
        }
    }

    /// The key column of a table with rows in the order they were written.
    pub(crate) fn serial_key(&self) -> &'static str {
        match self {
            Conn::Sqlite(_) => "id INTEGER PRIMARY KEY AUTOINCREMENT",
            Conn::Postgres(..) => "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        }
    }

    /// Runs statements without parameters.
    pub(crate) fn batch(&mut self, sql: &str) -> Result<()> {
        match self {
            Conn::Sqlite(c) => c.execute_batch(sql)?,
            Conn::Postgres(c, _) => c.batch_execute(sql)?,
        }
        Ok(())
    }

    /// Runs statements that make or drop tables. A table made again is a new table: the
    /// statements prepared on the old one are forgotten.
    pub(crate) fn ddl(&mut self, sql: &str) -> Result<()> {
        if let Conn::Postgres(_, cache) = self {
            cache.clear();
        }
        self.batch(sql)
    }

    /// Begins a write transaction. SQLite takes its write lock at once, so that two workers'
    /// transactions wait for each other instead of failing when both try to write.
    pub(crate) fn begin(&mut self) -> Result<()> {
        match self {
            Conn::Sqlite(c) => c.execute_batch("BEGIN IMMEDIATE")?,
            Conn::Postgres(c, _) => c.batch_execute("BEGIN")?,
        }
        Ok(())
    }

    /// Runs one statement; returns how many rows it changed.
    pub(crate) fn execute(&mut self, sql: &str, params: &[&dyn Value]) -> Result<u64> {
        Ok(match self {
            Conn::Sqlite(c) => {
                let params: Vec<_> = params.iter().map(|p| p.sqlite()).collect();
                c.prepare_cached(sql)?.execute(params.as_slice())? as u64
            }
            Conn::Postgres(c, cache) => {
                let params: Vec<_> = params.iter().map(|p| p.postgres()).collect();
                let statement = prepared(c, cache, sql)?;
                c.execute(&statement, &params)?
            }
        })
    }

    /// Runs one query; returns its rows.
    pub(crate) fn query(&mut self, sql: &str, params: &[&dyn Value]) -> Result<Vec<Vec<Cell>>> {
        match self {
            Conn::Sqlite(c) => {
                let params: Vec<_> = params.iter().map(|p| p.sqlite()).collect();
                let mut statement = c.prepare_cached(sql)?;
                let width = statement.column_count();
                let rows = statement.query_map(params.as_slice(), |r| {
                    (0..width)
                        .map(|i| {
                            Ok(match r.get::<_, rusqlite::types::Value>(i)? {
                                rusqlite::types::Value::Integer(n) => Cell::Int(n),
                                rusqlite::types::Value::Text(t) => Cell::Text(t),
                                other => Cell::Text(format!("{other:?}")),
                            })
                        })
                        .collect::<rusqlite::Result<Vec<Cell>>>()
                })?;
                Ok(rows.collect::<rusqlite::Result<_>>()?)
            }
            Conn::Postgres(..) => {
                let params: Vec<_> = params.iter().map(|p| p.postgres()).collect();
                self.query_arrays(sql, &params)
            }
        }
    }

    /// Whether a statement takes many rows at once as arrays (PostgreSQL), or they go in one
    /// by one (SQLite).
    pub(crate) fn takes_arrays(&self) -> bool {
        matches!(self, Conn::Postgres(..))
    }

    /// Runs one PostgreSQL query, its parameters arrays or not; returns its rows.
    pub(crate) fn query_arrays(&mut self, sql: &str, params: &[PgValue]) -> Result<Vec<Vec<Cell>>> {
        let Conn::Postgres(c, cache) = self else {
            bail!("only PostgreSQL takes arrays: SQLite's effects go in one by one");
        };
        let statement = prepared(c, cache, sql)?;
        let rows = c.query(&statement, params)?;
        rows.iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| {
                        Ok(match *r.columns()[i].type_() {
                            Type::INT4 => Cell::Int(r.try_get::<_, i32>(i)?.into()),
                            Type::INT8 => Cell::Int(r.try_get(i)?),
                            _ => Cell::Text(r.try_get(i)?),
                        })
                    })
                    .collect()
            })
            .collect()
    }
}
