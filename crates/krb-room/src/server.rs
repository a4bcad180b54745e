//! The server: the room's page at `/`, made from the room as read at the time it is asked for.
//! Served by krb-serve, which makes it off the server's thread within [`BUDGET`]: the page is
//! made of what participants published, and the server must answer whatever they did.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use krb_serve::Pages;

use crate::follow::Shared;
use crate::page::Page;

/// How long a request may wait for its page: the page reloads every 2 s, and a page of
/// hundreds of participants is made in a small part of it.
pub const BUDGET: Duration = Duration::from_secs(2);

struct Site {
    page: Page,
    room: Shared,
    pages: Pages,
}

pub fn serve(listener: TcpListener, page: Page, room: Shared) -> Result<()> {
    let site = Site {
        pages: Pages::new(BUDGET, page.lang),
        page,
        room,
    };
    let app = Router::new()
        .route("/", get(page_now))
        .with_state(Arc::new(site));
    krb_serve::serve(listener, app)
}

async fn page_now(State(site): State<Arc<Site>>) -> Response {
    let now = chrono::Local::now().format("%H:%M:%S").to_string();
    let made = Arc::clone(&site);
    site.pages
        .make(move || {
            // The room as it is now, copied under the lock and made into a page without it:
            // the reader goes on adding records while the page is made.
            let room = made.room.lock().unwrap_or_else(|e| e.into_inner()).clone();
            made.page.render(&room, &now)
        })
        .await
}
