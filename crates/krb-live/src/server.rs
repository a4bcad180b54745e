//! The server: the page at `/`, its state inlined so that it is right before its script runs,
//! and the state alone at `/state`, which the page fetches a few times a second. axum on tokio,
//! the workspace's only async code; on one thread, since it serves one room's screens.

use std::net::TcpListener;
use std::sync::Arc;

use anyhow::{Context, Result};
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use crate::live::Published;
use crate::page::Page;

/// What the server hands out.
struct Site {
    page: Page,
    published: Published,
}

/// Serves the page and its state on `listener` until Ctrl-C.
pub fn serve(listener: TcpListener, page: Page, published: Published) -> Result<()> {
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
        let site = Arc::new(Site { page, published });
        let app = Router::new()
            .route("/", get(page_now))
            .route("/state", get(state_now))
            .with_state(site);
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

async fn page_now(State(site): State<Arc<Site>>) -> impl IntoResponse {
    let html = site.page.render(&site.published.get());
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        html,
    )
}

async fn state_now(State(site): State<Arc<Site>>) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        site.published.get().to_string(),
    )
}
