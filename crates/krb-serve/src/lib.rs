//! Serving a page to a browser: axum on tokio, on one thread, until Ctrl-C. The workspace's only
//! async code, shared by krb-live's and krb-room's servers, which each say what their routes
//! hand out.

use std::net::TcpListener;

use anyhow::{Context, Result};
use axum::http::header;
use axum::response::IntoResponse;
use axum::Router;

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
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                // An error here means no Ctrl-C can come: serve until the process is killed.
                if tokio::signal::ctrl_c().await.is_err() {
                    std::future::pending::<()>().await;
                }
            })
            .await
            .context("the server failed")
    })
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

/// An HTML page, fresh.
pub fn html(body: String) -> impl IntoResponse {
    fresh("text/html; charset=utf-8", body)
}
