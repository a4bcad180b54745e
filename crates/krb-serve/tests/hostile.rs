//! The server against clients and pages that would hold it: a client that sends half a request,
//! or nothing, is cut off within the header timeout, and a page that panics or takes too long
//! is an error page while the server goes on answering. Over real TCP, as a browser or an
//! attacker talks to it.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use axum::routing::get;
use axum::Router;
use krb_cli::lang::Lang;
use krb_serve::{Pages, HEADER_TIMEOUT};

/// Serves `app` on a free port, on a thread of its own for the rest of the test's process.
fn serving(app: Router) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || krb_serve::serve(listener, app));
    address
}

/// Sends `request` and reads until the server closes the connection or `wait` passes; returns
/// what came back and whether the connection was closed.
fn exchange(address: SocketAddr, request: &str, wait: Duration) -> (String, bool) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let start = Instant::now();
    let mut answer = Vec::new();
    let mut buffer = [0; 4096];
    loop {
        let left = wait.saturating_sub(start.elapsed());
        if left.is_zero() {
            return (String::from_utf8_lossy(&answer).into_owned(), false);
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buffer) {
            Ok(0) => return (String::from_utf8_lossy(&answer).into_owned(), true),
            Ok(n) => answer.extend_from_slice(&buffer[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return (String::from_utf8_lossy(&answer).into_owned(), false)
            }
            // Reset by the server: closed as well.
            Err(_) => return (String::from_utf8_lossy(&answer).into_owned(), true),
        }
    }
}

const GET: &str = "GET / HTTP/1.1\r\nHost: here\r\nConnection: close\r\n\r\n";

#[test]
fn a_client_that_does_not_send_its_headers_is_cut_off() {
    let address = serving(Router::new().route("/", get(|| async { "here" })));
    let wait = HEADER_TIMEOUT + Duration::from_secs(3);
    // Many at once, as an attacker holds them: each is closed, none answered.
    let held: Vec<_> = (0..50)
        .map(|i| {
            let half = if i % 2 == 0 {
                "GET / HTTP/1.1\r\nHost: he"
            } else {
                ""
            };
            std::thread::spawn(move || {
                let start = Instant::now();
                let (answer, closed) = exchange(address, half, wait);
                (answer, closed, start.elapsed())
            })
        })
        .collect();
    for h in held {
        let (answer, closed, took) = h.join().unwrap();
        assert!(closed, "a half-sent request held open {took:?}");
        assert!(
            took >= HEADER_TIMEOUT - Duration::from_millis(500),
            "{took:?}"
        );
        assert!(!answer.contains("here"), "{answer}");
    }
    // A whole request is answered as before.
    let (answer, closed) = exchange(address, GET, wait);
    assert!(
        answer.starts_with("HTTP/1.1 200") && answer.ends_with("here"),
        "{answer}"
    );
    assert!(closed);
}

/// Three pages made by `pages`: `/panics`, `/slow` (made in `slow`) and `/`, made at once.
fn trying(pages: Pages, slow: Duration) -> Router {
    let page = move |make: fn(Duration) -> String| {
        let pages = pages.clone();
        get(move || {
            let pages = pages.clone();
            async move { pages.make(move || make(slow)).await }
        })
    };
    Router::new()
        .route("/panics", page(|_| panic!("a page that cannot be made")))
        .route(
            "/slow",
            page(|slow| {
                std::thread::sleep(slow);
                "late".to_string()
            }),
        )
        .route("/", page(|_| "<p>made</p>".to_string()))
}

#[test]
fn a_page_that_panics_or_is_slow_is_an_error_page_and_the_server_goes_on() {
    let request = |address: SocketAddr, path: &str| {
        let get = format!("GET {path} HTTP/1.1\r\nHost: here\r\nConnection: close\r\n\r\n");
        exchange(address, &get, Duration::from_secs(10)).0
    };
    // A panic's unwinding (and its backtrace, under RUST_BACKTRACE) may outlast a short budget
    // on a loaded machine: the panicking page gets a budget it cannot reach.
    let address = serving(trying(
        Pages::new(Duration::from_secs(10), Lang::En),
        Duration::ZERO,
    ));
    let answer = request(address, "/panics");
    assert!(answer.starts_with("HTTP/1.1 500"), "{answer}");
    assert!(answer.contains("the page could not be made"), "{answer}");
    let page = request(address, "/");
    assert!(
        page.starts_with("HTTP/1.1 200") && page.ends_with("<p>made</p>"),
        "{page}"
    );
    let app = trying(
        Pages::new(Duration::from_millis(500), Lang::En),
        Duration::from_secs(2),
    )
    .route("/plain", get(|| async { "plain" }));
    let address = serving(app);
    let request = move |path: &str| request(address, path);
    // The slow page: an error page at the end of its budget, not after the page's 2 s; while it
    // is made, the server answers what needs no page at once, and a page that waits for its
    // turn gives up at its own budget's end.
    let start = Instant::now();
    let slow = std::thread::spawn(move || request("/slow"));
    std::thread::sleep(Duration::from_millis(100));
    let plain = request("/plain");
    assert!(plain.ends_with("plain"), "{plain}");
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    let answer = slow.join().unwrap();
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("not made within 0.5 s"), "{answer}");
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
    let waiting = request("/");
    assert!(waiting.starts_with("HTTP/1.1 503"), "{waiting}");
    // Once the slow page is done, pages are made again.
    std::thread::sleep(Duration::from_secs(2));
    let page = request("/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
}

#[test]
fn the_error_page_is_in_the_pages_language() {
    let app = trying(
        Pages::new(Duration::from_millis(300), Lang::Ko),
        Duration::from_secs(1),
    );
    let address = serving(app);
    let request = |path: &str| {
        let get = format!("GET {path} HTTP/1.1\r\nHost: here\r\nConnection: close\r\n\r\n");
        exchange(address, &get, Duration::from_secs(10)).0
    };
    let answer = request("/panics");
    assert!(answer.starts_with("HTTP/1.1 500"), "{answer}");
    assert!(answer.contains("<html lang=\"ko\">"), "{answer}");
    assert!(answer.contains("페이지를 만들지 못했어요"), "{answer}");
    let answer = request("/slow");
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(
        answer.contains("0.3초 안에 페이지를 만들지 못했어요"),
        "{answer}"
    );
    assert!(!answer.contains("the page"), "{answer}");
}
