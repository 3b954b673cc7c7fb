//! Cross-site request protection: which browser requests may act with the seat cookie.
//!
//! A browser attaches the seat cookie (`jiang_seat_<id>`) to every request it sends to this
//! server, whichever page makes the request. `SameSite=Lax` keeps it off requests from other
//! *sites* in current browsers, but not off requests from the same site on another origin
//! (another port of `localhost`, a sibling subdomain) nor in older browsers. So the cookie alone
//! must not authorize an action: an action that takes its token from the cookie must come from
//! one of this server's own pages, and must be JSON (`Content-Type: application/json`, which a
//! page of another origin cannot send without a CORS preflight this server never grants).
//! A bearer token (or a WebSocket's `?token=`) is never attached by a browser on its own, so
//! requests that carry one are not checked here.
//!
//! # What "this server's own pages" means
//!
//! A request comes from this server's pages when its `Origin` header names either
//! - the origin of the public URL (`--public-url`, default `http://<listen address>`), or
//! - the origin the browser itself was talking to: the public URL's scheme with the request's
//!   `Host` header, so that a server reached as `localhost:8080` as well as `127.0.0.1:8080`
//!   works under both names. This is safe because the browser writes `Host`, and because the
//!   browser keeps the seat cookie per host: a page whose origin is that host is the page the
//!   cookie was set for.
//!
//! Origins compare as RFC 6454 tuples (scheme, host, port): case-insensitive host, default port
//! made explicit (`http://x` = `http://x:80`). Only `http` and `https` origins can match; the
//! opaque origin `null` (sandboxed frames, `file:`, some redirects) and any value with a path,
//! query or user never do. When there is no `Origin` header, `Sec-Fetch-Site: same-origin`
//! counts as coming from the server's pages; any other `Sec-Fetch-Site` value
//! (`same-site`, `cross-site`, `none`) does not. When both headers are there, both must agree.
//!
//! A request with neither header does not come from a current browser (browsers send `Origin`
//! with every POST and every WebSocket handshake). Such a client must send its token as a bearer
//! header: the seat cookie is refused from it, while requests that need no token (create, join,
//! watching) are served as before.

use axum::http::{HeaderMap, HeaderValue, header};
use url::Url;

use crate::error::{ApiError, ErrorCode};

/// The longest header value quoted back in an error message (bytes).
const QUOTE_LIMIT: usize = 100;

/// Why a public URL cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OriginError {
    /// Not an absolute `http://` or `https://` URL with a host.
    #[error("the public URL `{url}` is not an http:// or https:// URL with a host")]
    BadPublicUrl {
        /// What was given.
        url: String,
    },
}

/// Where a request comes from, as far as the browser says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Provenance {
    /// From one of this server's own pages.
    SameOrigin,
    /// From a page of another origin (or an opaque one); the sentence says how we know.
    CrossOrigin(String),
    /// No `Origin` and no `Sec-Fetch-Site`: not a browser (or a very old one).
    Unknown,
}

/// The cross-origin policy of one server: its public origin and whether its cookies are
/// `Secure`.
#[derive(Clone, Debug)]
pub struct OriginPolicy {
    /// The public URL's origin.
    public: url::Origin,
    /// The public URL's scheme (`http` or `https`), used with the `Host` header.
    scheme: String,
}

impl OriginPolicy {
    /// The policy for a server whose pages are served at `public_url` (any path is ignored).
    pub fn new(public_url: &str) -> Result<Self, OriginError> {
        let bad = || OriginError::BadPublicUrl {
            url: public_url.to_owned(),
        };
        let url = Url::parse(public_url).map_err(|_| bad())?;
        if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
            return Err(bad());
        }
        Ok(OriginPolicy {
            public: url.origin(),
            scheme: url.scheme().to_owned(),
        })
    }

    /// Whether the seat cookie gets `Secure`: when the public URL is `https`, so that the
    /// browser never sends it over plain HTTP.
    pub fn secure_cookies(&self) -> bool {
        self.scheme == "https"
    }

    /// The public origin, as written in messages.
    fn public_text(&self) -> String {
        self.public.ascii_serialization()
    }

    /// Whether the `Origin` header value `origin` names this server: the public URL's origin,
    /// or the public scheme with the request's `host` header.
    pub fn is_same_origin(&self, origin: &str, host: Option<&str>) -> bool {
        let Some(origin) = parse_origin(origin) else {
            return false;
        };
        if origin == self.public {
            return true;
        }
        host.and_then(|host| host_origin(&self.scheme, host))
            .is_some_and(|own| own == origin)
    }

    /// Where `headers`' request comes from (see the module documentation).
    pub fn provenance(&self, headers: &HeaderMap) -> Provenance {
        let fetch_site = headers.get("sec-fetch-site");
        if let Some(site) =
            fetch_site.filter(|s| !s.as_bytes().eq_ignore_ascii_case(b"same-origin"))
        {
            return Provenance::CrossOrigin(format!(
                "the browser says it comes from another origin (Sec-Fetch-Site: {})",
                quote(site)
            ));
        }
        match headers.get(header::ORIGIN) {
            Some(origin) => {
                let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
                let same = origin
                    .to_str()
                    .is_ok_and(|text| self.is_same_origin(text, host));
                if same {
                    Provenance::SameOrigin
                } else {
                    Provenance::CrossOrigin(format!(
                        "it comes from the page origin {}, not from this server's pages ({})",
                        quote(origin),
                        self.public_text()
                    ))
                }
            }
            None if fetch_site.is_some() => Provenance::SameOrigin,
            None => Provenance::Unknown,
        }
    }

    /// Checks an API `POST` that carries no bearer token and does not use the seat cookie
    /// (create, join, or an action that will be refused for want of a token): refused when a
    /// browser says it comes from another origin, so that no other site can make a visitor's
    /// browser take a seat; a browser request from the server's own pages must be JSON.
    /// Non-browser requests pass.
    pub fn check_post(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        match self.provenance(headers) {
            Provenance::CrossOrigin(why) => Err(cross_origin(&why)),
            Provenance::SameOrigin => require_json(headers),
            Provenance::Unknown => Ok(()),
        }
    }

    /// Checks an API `POST` whose seat token comes from the cookie: it must come from the
    /// server's own pages (a browser says so) and be JSON.
    pub fn check_cookie_post(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        match self.provenance(headers) {
            Provenance::SameOrigin => require_json(headers),
            Provenance::CrossOrigin(why) => Err(cross_origin(&why)),
            Provenance::Unknown => Err(cookie_without_origin()),
        }
    }

    /// Checks a WebSocket upgrade that gives no explicit token (`?token=` or bearer header):
    /// refused when it comes from another origin (even without a cookie: a page of another
    /// origin has no business on these sockets, and a socket is not protected by the browser's
    /// same-origin rule for reading), and refused when it would use the seat cookie without
    /// saying where it comes from.
    pub fn check_upgrade(&self, headers: &HeaderMap, with_cookie: bool) -> Result<(), ApiError> {
        match self.provenance(headers) {
            Provenance::SameOrigin => Ok(()),
            Provenance::CrossOrigin(why) => Err(cross_origin(&why)),
            Provenance::Unknown if with_cookie => Err(cookie_without_origin()),
            Provenance::Unknown => Ok(()),
        }
    }
}

/// An `Origin` header value as an origin, or `None` when it is not exactly
/// `http(s)://host[:port]` (the opaque `null`, other schemes, paths, users all give `None`).
fn parse_origin(text: &str) -> Option<url::Origin> {
    if text.ends_with('/') {
        return None;
    }
    let url = Url::parse(text).ok()?;
    let bare = matches!(url.scheme(), "http" | "https")
        && url.host().is_some()
        && url.username().is_empty()
        && url.password().is_none()
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none();
    bare.then(|| url.origin())
}

/// The origin a browser talks to when it sends `Host: host` over `scheme`, or `None` when
/// `host` is not a plain `host[:port]`.
fn host_origin(scheme: &str, host: &str) -> Option<url::Origin> {
    let plain = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._:[]".contains(&b));
    if !plain {
        return None;
    }
    parse_origin(&format!("{scheme}://{host}"))
}

/// Whether the request's body is declared JSON: `application/json`, parameters allowed.
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or("").trim())
        .is_some_and(|media| media.eq_ignore_ascii_case("application/json"))
}

/// 415 unless the request's body is declared JSON.
fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    if is_json(headers) {
        return Ok(());
    }
    let got = match headers.get(header::CONTENT_TYPE) {
        Some(value) => format!("this request has Content-Type {}", quote(value)),
        None => "this request has no Content-Type".to_owned(),
    };
    Err(ApiError::new(
        ErrorCode::UnsupportedMediaType,
        format!("Send the request body as JSON with Content-Type: application/json ({got})."),
    ))
}

/// 403 `cross_origin` for a request from another origin; `why` says how we know.
fn cross_origin(why: &str) -> ApiError {
    ApiError::new(
        ErrorCode::CrossOrigin,
        format!(
            "This request was refused because {why}: a browser may act on this server only \
             from its own pages. Other clients: send the seat token as Authorization: Bearer \
             <token>."
        ),
    )
}

/// 403 `cross_origin` for a request that would use the seat cookie without saying where it
/// comes from.
fn cookie_without_origin() -> ApiError {
    ApiError::new(
        ErrorCode::CrossOrigin,
        "The seat cookie is accepted only from this server's own pages, and this request has \
         neither an Origin nor a Sec-Fetch-Site header: send the seat token as \
         Authorization: Bearer <token> instead.",
    )
}

/// A header value for a message: in backquotes, cut to [`QUOTE_LIMIT`] bytes.
fn quote(value: &HeaderValue) -> String {
    match value.to_str() {
        Ok(text) if text.len() <= QUOTE_LIMIT => format!("`{text}`"),
        Ok(text) => {
            let mut end = QUOTE_LIMIT;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            format!("`{}…`", &text[..end])
        }
        Err(_) => "(not readable text)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    fn policy(url: &str) -> OriginPolicy {
        OriginPolicy::new(url).expect("a valid public URL")
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn public_urls_must_be_http_or_https_with_a_host() {
        for bad in [
            "",
            "localhost:8080",
            "ftp://example.com",
            "file:///tmp/x",
            "http://",
        ] {
            assert!(OriginPolicy::new(bad).is_err(), "{bad:?} accepted");
        }
        assert!(!policy("http://127.0.0.1:8080").secure_cookies());
        assert!(policy("https://jiang.example/").secure_cookies());
        assert!(policy("HTTPS://jiang.example/base/path").secure_cookies());
    }

    #[test]
    fn the_public_origin_matches_whatever_the_path_slash_or_case_of_the_public_url() {
        for url in [
            "https://jiang.example",
            "https://jiang.example/",
            "https://JIANG.example/jiang/",
            "https://jiang.example:443",
        ] {
            let p = policy(url);
            assert!(p.is_same_origin("https://jiang.example", None), "{url}");
            assert!(p.is_same_origin("https://jiang.example:443", None), "{url}");
            assert!(p.is_same_origin("HTTPS://Jiang.Example", None), "{url}");
        }
    }

    #[test]
    fn scheme_host_and_port_must_all_match() {
        let p = policy("http://127.0.0.1:8080");
        assert!(p.is_same_origin("http://127.0.0.1:8080", None));
        assert!(!p.is_same_origin("http://127.0.0.1:8081", None), "port");
        assert!(!p.is_same_origin("http://127.0.0.1", None), "default port");
        assert!(!p.is_same_origin("https://127.0.0.1:8080", None), "scheme");
        assert!(!p.is_same_origin("http://127.0.0.2:8080", None), "host");
        assert!(!p.is_same_origin("http://evil.example", None));
        let p = policy("http://jiang.example");
        assert!(
            p.is_same_origin("http://jiang.example:80", None),
            "80 = default"
        );
        assert!(!p.is_same_origin("http://jiang.example.evil.example", None));
        assert!(!p.is_same_origin("http://evil-jiang.example", None));
    }

    #[test]
    fn null_and_malformed_origins_never_match() {
        let p = policy("http://127.0.0.1:8080");
        for origin in [
            "null",
            "",
            "http://127.0.0.1:8080/",
            "http://127.0.0.1:8080/g/x",
            "http://127.0.0.1:8080?x",
            "http://user@127.0.0.1:8080",
            "ws://127.0.0.1:8080",
            "file://",
            "127.0.0.1:8080",
        ] {
            assert!(
                !p.is_same_origin(origin, Some("127.0.0.1:8080")),
                "{origin:?} matched"
            );
        }
    }

    #[test]
    fn the_host_header_names_the_origin_under_the_public_scheme() {
        let p = policy("http://127.0.0.1:8080");
        assert!(p.is_same_origin("http://localhost:8080", Some("localhost:8080")));
        assert!(p.is_same_origin("http://localhost:8080", Some("LOCALHOST:8080")));
        assert!(p.is_same_origin("http://[::1]:8080", Some("[::1]:8080")));
        assert!(!p.is_same_origin("http://localhost:8080", Some("localhost:8081")));
        assert!(!p.is_same_origin("http://localhost:8080", None));
        assert!(
            !p.is_same_origin("https://localhost:8080", Some("localhost:8080")),
            "the scheme is the public URL's"
        );
        assert!(
            !p.is_same_origin("http://evil.example", Some("127.0.0.1:8080")),
            "the Host is this server, the page is not"
        );
        // Junk in Host never names an origin.
        assert!(!p.is_same_origin("http://a", Some("a/b")));
        assert!(!p.is_same_origin("http://a", Some("x@a")));
        assert!(!p.is_same_origin("http://a", Some("")));
        let p = policy("https://jiang.example");
        assert!(p.is_same_origin("https://other.example", Some("other.example:443")));
        assert!(p.is_same_origin("https://other.example", Some("other.example")));
    }

    #[test]
    fn provenance_reads_origin_and_sec_fetch_site() {
        let p = policy("http://127.0.0.1:8080");
        let host = ("host", "127.0.0.1:8080");
        assert_eq!(p.provenance(&headers(&[host])), Provenance::Unknown);
        assert_eq!(
            p.provenance(&headers(&[host, ("origin", "http://127.0.0.1:8080")])),
            Provenance::SameOrigin
        );
        assert_eq!(
            p.provenance(&headers(&[host, ("sec-fetch-site", "same-origin")])),
            Provenance::SameOrigin
        );
        assert_eq!(
            p.provenance(&headers(&[host, ("sec-fetch-site", "Same-Origin")])),
            Provenance::SameOrigin
        );
        for site in ["cross-site", "same-site", "none"] {
            let got = p.provenance(&headers(&[host, ("sec-fetch-site", site)]));
            assert!(matches!(got, Provenance::CrossOrigin(_)), "{site}: {got:?}");
        }
        // Both must agree.
        let got = p.provenance(&headers(&[
            host,
            ("origin", "http://127.0.0.1:8080"),
            ("sec-fetch-site", "cross-site"),
        ]));
        assert!(matches!(got, Provenance::CrossOrigin(_)), "{got:?}");
        let got = p.provenance(&headers(&[
            host,
            ("origin", "http://evil.example"),
            ("sec-fetch-site", "same-origin"),
        ]));
        assert!(matches!(got, Provenance::CrossOrigin(_)), "{got:?}");
        let Provenance::CrossOrigin(why) = p.provenance(&headers(&[host, ("origin", "null")]))
        else {
            panic!("null is cross-origin");
        };
        assert!(why.contains("`null`"), "{why}");
    }

    #[test]
    fn cookie_posts_need_a_same_origin_json_request() {
        let p = policy("http://127.0.0.1:8080");
        let host = ("host", "127.0.0.1:8080");
        let origin = ("origin", "http://127.0.0.1:8080");
        assert_eq!(
            p.check_cookie_post(&headers(&[
                host,
                origin,
                ("content-type", "application/json")
            ])),
            Ok(())
        );
        assert_eq!(
            p.check_cookie_post(&headers(&[
                host,
                origin,
                ("content-type", "Application/JSON; charset=utf-8")
            ])),
            Ok(())
        );
        for content_type in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonx",
            "application/json-patch+json",
        ] {
            let e = p
                .check_cookie_post(&headers(&[host, origin, ("content-type", content_type)]))
                .unwrap_err();
            assert_eq!(
                (e.status(), e.code),
                (
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    ErrorCode::UnsupportedMediaType
                ),
                "{content_type}"
            );
            assert!(e.message.contains(content_type), "{}", e.message);
        }
        let e = p.check_cookie_post(&headers(&[host, origin])).unwrap_err();
        assert_eq!(e.code, ErrorCode::UnsupportedMediaType);
        assert!(e.message.contains("no Content-Type"), "{}", e.message);
        let json = ("content-type", "application/json");
        let e = p
            .check_cookie_post(&headers(&[host, json, ("origin", "http://evil.example")]))
            .unwrap_err();
        assert_eq!(
            (e.status(), e.code),
            (StatusCode::FORBIDDEN, ErrorCode::CrossOrigin)
        );
        assert!(e.message.contains("`http://evil.example`"), "{}", e.message);
        let e = p.check_cookie_post(&headers(&[host, json])).unwrap_err();
        assert_eq!(
            (e.status(), e.code),
            (StatusCode::FORBIDDEN, ErrorCode::CrossOrigin)
        );
        assert!(e.message.contains("Bearer"), "{}", e.message);
    }

    #[test]
    fn other_posts_are_refused_only_when_a_browser_says_cross_origin() {
        let p = policy("http://127.0.0.1:8080");
        let host = ("host", "127.0.0.1:8080");
        assert_eq!(p.check_post(&headers(&[host])), Ok(()), "no browser");
        assert_eq!(
            p.check_post(&headers(&[host, ("content-type", "text/plain")])),
            Ok(()),
            "non-browser clients keep their content types"
        );
        let e = p
            .check_post(&headers(&[host, ("origin", "http://evil.example")]))
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::CrossOrigin);
        let e = p
            .check_post(&headers(&[
                host,
                ("origin", "http://127.0.0.1:8080"),
                ("content-type", "application/x-www-form-urlencoded"),
            ]))
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::UnsupportedMediaType);
    }

    #[test]
    fn upgrades_from_other_origins_are_refused_and_cookies_need_an_origin() {
        let p = policy("http://127.0.0.1:8080");
        let host = ("host", "127.0.0.1:8080");
        let evil = ("origin", "http://evil.example");
        let own = ("origin", "http://127.0.0.1:8080");
        assert_eq!(p.check_upgrade(&headers(&[host, own]), true), Ok(()));
        assert_eq!(p.check_upgrade(&headers(&[host]), false), Ok(()));
        for with_cookie in [false, true] {
            let e = p
                .check_upgrade(&headers(&[host, evil]), with_cookie)
                .unwrap_err();
            assert_eq!(e.code, ErrorCode::CrossOrigin);
        }
        let e = p.check_upgrade(&headers(&[host]), true).unwrap_err();
        assert_eq!(e.code, ErrorCode::CrossOrigin);
    }

    #[test]
    fn long_header_values_are_cut_in_messages() {
        let long = format!("http://{}.example", "a".repeat(300));
        let quoted = quote(&HeaderValue::from_str(&long).unwrap());
        assert!(quoted.len() < 110, "{quoted}");
        assert!(quoted.ends_with("…`"), "{quoted}");
        assert_eq!(
            quote(&HeaderValue::from_bytes(b"\xff").unwrap()),
            "(not readable text)"
        );
    }
}
