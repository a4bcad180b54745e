//! The server: the room's page at `/`, made from the room as read at the time it is asked for.
//! Served by krb-serve.

use std::net::TcpListener;
use std::sync::Arc;

use anyhow::Result;
use axum::extract::State;
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
    let app = Router::new()
        .route("/", get(page_now))
        .with_state(Arc::new(Site { page, room }));
    krb_serve::serve(listener, app)
}

async fn page_now(State(site): State<Arc<Site>>) -> impl IntoResponse {
    let now = chrono::Local::now().format("%H:%M:%S").to_string();
    let html = {
        let room = site.room.lock().unwrap_or_else(|e| e.into_inner());
        site.page.render(&room, &now)
    };
    krb_serve::html(html)
}
