//! The server: the page at `/`, its state inlined so that it is right before its script runs,
//! and the state alone at `/state`, which the page fetches a few times a second; served by krb-serve.

use std::net::TcpListener;
use std::sync::Arc;

use anyhow::Result;
use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use crate::live::Published;
use crate::page::Page;

struct Site {
    page: Page,
    published: Published,
}

pub fn serve(listener: TcpListener, page: Page, published: Published) -> Result<()> {
    let site = Arc::new(Site { page, published });
    let app = Router::new()
        .route("/", get(page_now))
        .route("/state", get(state_now))
        .with_state(site);
    krb_serve::serve(listener, app)
}

async fn page_now(State(site): State<Arc<Site>>) -> impl IntoResponse {
    krb_serve::html(site.page.render(&site.published.get()))
}

async fn state_now(State(site): State<Arc<Site>>) -> impl IntoResponse {
    krb_serve::fresh("application/json", site.published.get().to_string())
}
