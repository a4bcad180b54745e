//! Serving a page to a browser: axum on tokio, on one thread, until Ctrl-C. The workspace's only
//! async code, shared by krb-live's and krb-room's servers, which each say what their routes
//! hand out.
//!
//! Both serve pages made of what others wrote (logs, a room's records) to anyone who can reach
//! them, so neither a client nor a page can hold the server: a connection that has not sent its
//! request's headers within [`HEADER_TIMEOUT`] is closed, and a page is made off the server's
//! thread within a time budget ([`Pages::make`]), a page that fails or is too slow answered by
//! an error page.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use krb_cli::lang::Lang;
use tokio::sync::Semaphore;

/// How long a connection may take to send its request's headers, the first request's or the
/// next one's on a connection kept open: a browser sends them at once, and a client that
/// trickles them (or sends nothing) would otherwise hold a connection, and its memory, forever.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// How long to wait before accepting again after the listener failed (out of file descriptors:
/// the connections open now must close first).
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// Serves `app` on `listener` (bound by the caller, so that it can say where) until Ctrl-C.
pub fn serve(listener: TcpListener, app: Router) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        listener
            .set_nonblocking(true)
            .context("cannot set up the listening socket")?;
        let listener = tokio::net::TcpListener::from_std(listener)
            .context("cannot set up the listening socket")?;
        let stop = async {
            // An error here means no Ctrl-C can come: serve until the process is killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        tokio::select! {
            () = accept(&listener, app) => {}
            () = stop => {}
        }
        Ok(())
    })
}

/// Accepts connections and serves each on a task of its own, forever. axum::serve's own loop
/// cannot set hyper's header timeout (it needs a timer axum does not give), hence this one.
async fn accept(listener: &tokio::net::TcpListener, app: Router) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(ACCEPT_PAUSE).await;
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            // A client that went away or timed out is no error of the server's.
            drop(served);
        });
    }
}

/// A response of `content_type` that a browser asks for again each time: the pages show what
/// is happening now.
pub fn fresh(content_type: &'static str, body: String) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
}

pub fn html(body: String) -> impl IntoResponse {
    fresh("text/html; charset=utf-8", body)
}

/// Makes pages off the server's thread, one at a time, each within a budget: a page made from
/// what others wrote may be slow or may panic, and the server must go on answering.
#[derive(Clone)]
pub struct Pages {
    /// One page made at a time: a request that waits for its turn waits without a thread, and
    /// gives up at the end of its budget without making anything.
    turn: Arc<Semaphore>,
    /// How long a request may wait for its page, its turn included.
    budget: Duration,
    /// The language of the error pages: the pages'.
    lang: Lang,
}

impl Pages {
    pub fn new(budget: Duration, lang: Lang) -> Pages {
        Pages {
            turn: Arc::new(Semaphore::new(1)),
            budget,
            lang,
        }
    }

    /// The page `make` makes, as HTML; a page that panics is a 500 page, and one not made
    /// within the budget a 503 page (it is still made, its turn held until it ends, and then
    /// thrown away: a thread cannot be stopped from outside).
    pub async fn make(&self, make: impl FnOnce() -> String + Send + 'static) -> Response {
        let turn = Arc::clone(&self.turn);
        let made = tokio::time::timeout(self.budget, async move {
            let Ok(permit) = turn.acquire_owned().await else {
                return Err(StatusCode::INTERNAL_SERVER_ERROR);
            };
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                make()
            })
            .await
            .map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)
        })
        .await
        .unwrap_or(Err(StatusCode::SERVICE_UNAVAILABLE));
        match made {
            Ok(page) => html(page).into_response(),
            Err(status) => self.failed(status),
        }
    }

    /// The error page of a page that panicked (500) or was not made in time (503): what went
    /// wrong in a line in the pages' language, and that the page will come back. The pages
    /// reload themselves; this one does too.
    fn failed(&self, status: StatusCode) -> Response {
        let text = if status == StatusCode::SERVICE_UNAVAILABLE {
            TOO_SLOW.fill(self.lang, &[("seconds", &self.budget.as_secs_f64())])
        } else {
            PANICKED.text(self.lang).into()
        };
        let body = format!(
            "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\">\
             <meta http-equiv=\"refresh\" content=\"2\"><title>{status}</title></head>\
             <body><p id=\"error\">{text}</p></body></html>\n",
            self.lang.code(),
        );
        (status, html(body)).into_response()
    }
}

krb_cli::msgs! { ;
    PANICKED =
        "the page could not be made: the server's error output says why (trying again every 2 s)",
        "페이지를 만들지 못했어요. 이유는 서버의 오류 출력에 있어요 (2초마다 다시 시도해요)";
    TOO_SLOW =
        "the page was not made within {seconds} s: the server is busy (trying again every 2 s)",
        "{seconds}초 안에 페이지를 만들지 못했어요. 서버가 바빠요 (2초마다 다시 시도해요)";
}
