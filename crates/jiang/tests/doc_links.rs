//! Every relative link in the project's Markdown documents leads somewhere: the file (or
//! folder) exists, and a `#fragment` names a heading of the target document, spelled as
//! GitHub makes heading anchors. README.md points to docs/ for almost everything, so a link
//! that rots there hides a whole document.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// The repository's root (this crate is `crates/jiang`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Markdown documents checked: the README, everything in docs/, and the READMEs of the
/// folders beside the code.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut docs = vec![
        root.join("README.md"),
        root.join("e2e/README.md"),
        root.join("web/content/README.md"),
    ];
    for folder in ["docs", "tools/oracle"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
            .unwrap_or_else(|e| panic!("{folder}: {e}"))
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        found.sort();
        docs.extend(found);
    }
    docs
}

/// A document's links (destinations as written) and its headings' anchors.
struct Parsed {
    links: Vec<String>,
    anchors: BTreeSet<String>,
}

fn parse(text: &str) -> Parsed {
    let mut links = Vec::new();
    let mut anchors = BTreeSet::new();
    let mut heading: Option<String> = None;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => links.push(dest_url.to_string()),
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let text = heading.take().unwrap_or_default();
                let slug = slug(&text);
                // GitHub numbers repeated headings: `x`, `x-1`, `x-2`, …
                let mut anchor = slug.clone();
                let mut n = 0;
                while !anchors.insert(anchor.clone()) {
                    n += 1;
                    anchor = format!("{slug}-{n}");
                }
            }
            _ => {}
        }
    }
    Parsed { links, anchors }
}

/// GitHub's heading anchor: lower case, letters, digits, `-` and `_` kept, spaces turned into
/// `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(
        slug("The engine: `jiang engine`"),
        "the-engine-jiang-engine"
    );
    assert_eq!(
        slug("`jiang match`: engine against engine, refereed by Jiang's rules"),
        "jiang-match-engine-against-engine-refereed-by-jiangs-rules"
    );
    assert_eq!(
        slug("Durability, restarts and timers"),
        "durability-restarts-and-timers"
    );
    assert_eq!(slug("Against Fairy-Stockfish"), "against-fairy-stockfish");
}

#[test]
fn every_relative_link_in_the_documents_leads_somewhere() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap_or_else(|e| panic!("{doc:?}: {e}"));
        let parsed = parse(&text);
        let name = doc
            .strip_prefix(root())
            .unwrap_or(&doc)
            .display()
            .to_string();
        for link in &parsed.links {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = match link.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (link.as_str(), None),
            };
            let target = if path.is_empty() {
                doc.clone()
            } else if path.starts_with('/') {
                // A path of the running site (e.g. `/analysis/xiangqi`), not of the repository.
                continue;
            } else {
                doc.parent().expect("a document's folder").join(path)
            };
            if !target.exists() {
                broken.push(format!(
                    "{name}: `{link}`: no such file {}",
                    target.display()
                ));
                continue;
            }
            let Some(fragment) = fragment else { continue };
            if target.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let anchors = if target == doc {
                parsed.anchors.clone()
            } else {
                parse(&std::fs::read_to_string(&target).expect("a readable document")).anchors
            };
            if !anchors.contains(fragment) {
                broken.push(format!(
                    "{name}: `{link}`: no heading with the anchor #{fragment}"
                ));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links were found: is the parser reading the documents?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The README stays a front page: the rest lives in docs/.
#[test]
fn the_readme_stays_short() {
    let lines = std::fs::read_to_string(root().join("README.md"))
        .expect("README.md")
        .lines()
        .count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines: move details into docs/"
    );
}
