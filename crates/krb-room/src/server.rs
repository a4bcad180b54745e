//! The server: the room's page at `/`, made from the room as read at the time it is asked for.
//! axum on tokio, on one thread: it serves one room's screens.

use std::net::TcpListener;
use std::sync::Arc;

use anyhow::{Context, Result};
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use crate::follow::Shared;
use crate::page::Page;

/// What the server hands out.
struct Site {
    page: Page,
    room: Shared,
}

/// Serves the page on `listener` until Ctrl-C.
pub fn serve(listener: TcpListener, page: Page, room: Shared) -> Result<()> {
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
        let app = Router::new()
            .route("/", get(page_now))
            .with_state(Arc::new(Site { page, room }));
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
    let now = chrono::Local::now().format("%H:%M:%S").to_string();
    let html = {
        let room = site.room.lock().unwrap_or_else(|e| e.into_inner());
        site.page.render(&room, &now)
    };
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        html,
    )
}
