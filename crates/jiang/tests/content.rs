//! The rules pages (`web/content/rules/<variant>.<lang>.html`) and `web/content/home.json`,
//! checked with the rules crate: the pages are content, but their diagrams make claims about
//! the rules, and a wrong diagram teaches a wrong rule.
//!
//! What is checked (every problem is collected, then all are reported at once):
//! - every page exists and is a well-formed fragment: balanced tags, no `<html>`/`<head>`/
//!   `<body>`, one `<article>` carrying the page's `lang`, one `<h1>`, a link to `/`;
//! - every `<figure class="diagram">` has a `<figcaption>`, a `data-variant` that belongs on the
//!   page, and a `data-fen` that the rules crate accepts for that variant (which rejects
//!   impossible positions: general/king counts, palaces and piece points, piece totals, Jieqi
//!   covered pieces off their starting points, nifu, dead pieces, the side not to move in check
//!   or facing generals);
//! - its `data-highlight` squares are squares of that board, and every `data-arrows` pair is a
//!   legal move of the side to move;
//! - the claims of [`CLAIMS`] hold: a highlight that shows where pieces can go equals their
//!   legal destinations, a diagram captioned checkmate or stalemate is one, a drop shown as
//!   illegal is illegal, …;
//! - every language of a variant carries the same diagrams in the same order and the same
//!   structure (headings, lists, tables, rows), so a language can fall back to English;
//! - `home.json` has a name and a description for every variant in every language.
//!
//! A new diagram whose caption makes a claim about the rules gets an entry in [`CLAIMS`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use jiang_rules::Variant::{Jieqi, Minishogi, Shogi, Xiangqi};
use jiang_rules::{Family, Position, Variant};

/// Every UI language: the server's list (`web/js/i18n.js` lists the same; `locales.rs` checks).
const LANGS: [&str; 15] = jiang_server::http::pages::LANGUAGES;
const VOID: [&str; 11] = [
    "br", "hr", "img", "input", "meta", "link", "wbr", "col", "source", "area", "base",
];
/// Tags whose sequence must be the same in every language of a page.
const STRUCTURE: [&str; 11] = [
    "h1", "h2", "h3", "table", "tr", "figure", "ul", "ol", "li", "th", "td",
];

/// Which pieces' destinations a [`Claim::Destinations`] highlight shows.
#[derive(Clone, Copy, Debug)]
enum Only {
    /// Every legal destination.
    All,
    /// Only captures.
    Captures,
    /// Only destinations on these ranks (a promotion zone).
    Ranks(&'static str),
}

/// What a diagram's caption says about the rules, checked with the rules crate.
#[derive(Clone, Copy, Debug)]
enum Claim {
    /// The highlight is exactly the legal destinations of the pieces on `from` (filtered by
    /// `only`), plus the squares of `also` (a screen, a blocker the caption points at).
    Destinations {
        from: &'static [&'static str],
        only: Only,
        also: &'static [&'static str],
    },
    /// The side to move is checkmated: in check, no legal move.
    Checkmated,
    /// The side to move is not in check and has no legal move; the highlight is where the piece
    /// on `piece` would step, and none of those steps is legal.
    Stalemated { piece: &'static str },
    /// These moves (machine notation) are legal.
    Legal(&'static [&'static str]),
    /// These moves are not legal.
    Illegal(&'static [&'static str]),
    /// No legal move's text starts with this (`P*7`: no pawn drop on file 7).
    NoMoveStartingWith(&'static str),
    /// Playing this legal move checkmates.
    Mates(&'static str),
}

/// A diagram, found by its variant, position and highlight, and what its caption claims.
struct ClaimedDiagram {
    variant: Variant,
    fen: &'static str,
    highlight: &'static str,
    claims: &'static [Claim],
}

const fn diagram(
    variant: Variant,
    fen: &'static str,
    highlight: &'static str,
    claims: &'static [Claim],
) -> ClaimedDiagram {
    ClaimedDiagram {
        variant,
        fen,
        highlight,
        claims,
    }
}

const fn moves_of(from: &'static [&'static str]) -> Claim {
    Claim::Destinations {
        from,
        only: Only::All,
        also: &[],
    }
}

/// The claims the captions make (English wording in the comments).
const CLAIMS: &[ClaimedDiagram] = &[
    // "The general on e1 can go to d1, f1, e0 or e2: it stays inside the palace."
    diagram(
        Xiangqi,
        "3k5/9/9/9/9/9/9/3A5/4K4/9 w",
        "d1 f1 e0 e2",
        &[moves_of(&["e1"])],
    ),
    // "From the centre of the palace the advisor can reach all four corners."
    diagram(
        Xiangqi,
        "3k5/9/9/9/9/9/9/9/4A4/4K4 w",
        "d0 f0 d2 f2",
        &[moves_of(&["e1"])],
    ),
    // "The elephant on e2 can go to c0, g0 or c4. The move to g4 is blocked (elephant's eye)."
    diagram(
        Xiangqi,
        "3k5/9/9/9/9/9/5p3/4B4/9/4K4 w",
        "c0 g0 c4",
        &[moves_of(&["e2"])],
    ),
    // "The black soldier on e5 blocks the horse's leg …; its six other moves are open."
    diagram(
        Xiangqi,
        "5k3/9/9/9/4p4/4N4/9/9/9/3K5 w",
        "c5 g5 c3 g3 d2 f2",
        &[moves_of(&["e4"])],
    ),
    // "The chariot on e4 sweeps its rank and file; upwards it stops on e7 (capture)."
    diagram(
        Xiangqi,
        "5k3/9/4n4/9/9/4R4/9/9/9/3K5 w",
        "a4 b4 c4 d4 f4 g4 h4 i4 e5 e6 e7 e3 e2 e1 e0",
        &[moves_of(&["e4"])],
    ),
    // "The red cannon on b2 uses the black cannon on b7 as its screen and captures b9."
    diagram(
        Xiangqi,
        "1n2k4/9/1c7/9/9/9/9/1C7/9/3K5 w",
        "b9",
        &[Claim::Destinations {
            from: &["b2"],
            only: Only::Captures,
            also: &[],
        }],
    ),
    // "The soldier on c3 … only c4. The soldier on g6 has crossed: g7, f6 or h6."
    diagram(
        Xiangqi,
        "3k5/9/9/6P2/9/9/2P6/9/9/4K4 w",
        "c4 g7 f6 h6",
        &[moves_of(&["c3", "g6"])],
    ),
    // "Checkmate. The chariot checks the black general on d9 … cannot go to e9 (facing)."
    diagram(
        Xiangqi,
        "3k5/9/9/9/9/3R5/9/9/9/4K4 b",
        "d9 e9",
        &[Claim::Checkmated, Claim::Illegal(&["d9e9", "d9d8"])],
    ),
    // "Stalemate: Black is not in check, but every move of the general (to d9, f9 or e8)
    // runs into a soldier's attack."
    diagram(
        Xiangqi,
        "4k4/3P1P3/9/9/9/9/9/9/9/3K5 b",
        "d9 f9 e8",
        &[Claim::Stalemated { piece: "e9" }],
    ),
    // "The covered piece on h2 stands on a cannon's point, so it moves as a cannon, to e2."
    diagram(
        Jieqi,
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w",
        "e2",
        &[Claim::Legal(&["h2e2"])],
    ),
    // "A covered piece on d0 moves as an advisor: its only move is to e1."
    diagram(
        Jieqi,
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w",
        "e1",
        &[moves_of(&["d0"])],
    ),
    // "Revealed pieces are free: the advisor on c5 … b6, d6, b4 or d4; the elephant on g4 …
    // e6 or i6, or back to e2 or i2."
    diagram(
        Jieqi,
        "3k5/9/9/9/2A6/6B2/9/9/9/4K4 w",
        "b6 d6 b4 d4 e6 i6 e2 i2",
        &[moves_of(&["c5", "g4"])],
    ),
    // "The covered piece on b2 captures as a cannon, using the covered piece on b7 as its
    // screen."
    diagram(
        Jieqi,
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w",
        "b7 b9",
        &[Claim::Destinations {
            from: &["b2"],
            only: Only::Captures,
            also: &["b7"],
        }],
    ),
    // "The gold on 7e reaches six squares … The silver on 3e reaches five."
    diagram(
        Shogi,
        "4k4/9/9/9/2G3S2/9/9/9/4K4 b - 1",
        "7d 8d 6d 8e 6e 7f 3d 4d 2d 4f 2f",
        &[moves_of(&["7e", "3e"])],
    ),
    // "The knight on 7e jumps to 8c or 6c. The lance on 1i runs up its file as far as 1c."
    diagram(
        Shogi,
        "4k4/9/8p/9/2N6/9/9/9/4K3L b - 1",
        "8c 6c 1h 1g 1f 1e 1d 1c",
        &[moves_of(&["7e", "1i"])],
    ),
    // "The silver on 4d enters the promotion zone on 4c: sente may promote it or not."
    diagram(
        Shogi,
        "4k4/9/9/5S3/9/9/9/9/4K4 b - 1",
        "4c",
        &[Claim::Legal(&["4d4c+", "4d4c"])],
    ),
    // "A drop: sente puts the gold from hand on 5b (G*5b) … checkmate."
    diagram(
        Shogi,
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        "5b",
        &[Claim::Mates("G*5b")],
    ),
    // "Nifu: sente may not drop the pawn in hand anywhere on file 7 … On file 3 a drop is
    // allowed: the tokin on 3c does not count as a pawn."
    diagram(
        Shogi,
        "4k4/9/6+P2/9/9/9/2P6/9/4K4 b P 1",
        "7g 3c",
        &[
            Claim::NoMoveStartingWith("P*7"),
            Claim::Legal(&["P*3d", "P*3e", "P*3f", "P*3g", "P*3h", "P*3i"]),
        ],
    ),
    // "Uchifuzume: dropping the pawn on 1b would checkmate …, so that drop is illegal."
    diagram(
        Shogi,
        "7nk/7s1/8G/9/9/9/9/9/4K4 b P 1",
        "1b",
        &[Claim::Illegal(&["P*1b"]), Claim::Legal(&["P*1d"])],
    ),
    // "The silver on 2b may promote if it moves to 3a, 2a or 1a, the only squares of sente's
    // zone it can reach."
    diagram(
        Minishogi,
        "k4/3S1/5/5/4K b - 1",
        "3a 2a 1a",
        &[Claim::Destinations {
            from: &["2b"],
            only: Only::Ranks("a"),
            also: &[],
        }],
    ),
    // "Uchifuzume: a pawn dropped on 1b would be protected by the gold … so it is illegal."
    diagram(
        Minishogi,
        "3rk/3s1/4G/5/K4 b P 1",
        "1b",
        &[Claim::Illegal(&["P*1b"]), Claim::Legal(&["P*2c"])],
    ),
];

/// The diagram variants allowed on each page (a Jieqi page may show a plain xiangqi position,
/// a Minishogi page a shogi one).
fn allowed_on(page: Variant) -> &'static [Variant] {
    match page {
        Xiangqi => &[Xiangqi],
        Jieqi => &[Jieqi, Xiangqi],
        Shogi => &[Shogi],
        Minishogi => &[Minishogi, Shogi],
    }
}

fn content_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/content")
}

/// One tag of a fragment, as the scanner saw it.
#[derive(Debug)]
struct Tag {
    name: String,
    closing: bool,
    self_closing: bool,
    attrs: BTreeMap<String, String>,
    line: usize,
}

/// The tags of an HTML fragment (comments skipped), or why it cannot be read.
fn scan_tags(text: &str) -> Result<Vec<Tag>, String> {
    let mut tags = Vec::new();
    let mut rest = text;
    let line_at = |rest: &str| text[..text.len() - rest.len()].matches('\n').count() + 1;
    while let Some(open) = rest.find('<') {
        rest = &rest[open..];
        let line = line_at(rest);
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after
                .find("-->")
                .ok_or(format!("line {line}: comment never closed"))?;
            rest = &after[end + 3..];
            continue;
        }
        let mut chars = rest[1..].char_indices().peekable();
        let closing = matches!(chars.peek(), Some((_, '/')));
        if closing {
            chars.next();
        }
        let mut name = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if c.is_ascii_alphanumeric() {
                name.push(c.to_ascii_lowercase());
                chars.next();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(format!(
                "line {line}: `<` that starts no tag (write `&lt;`)"
            ));
        }
        let mut attrs = BTreeMap::new();
        let mut self_closing = false;
        let end = loop {
            let Some((i, c)) = chars.next() else {
                return Err(format!("line {line}: <{name}> never ends"));
            };
            match c {
                '>' => break i,
                '/' => self_closing = true,
                c if c.is_whitespace() => {}
                _ => {
                    let mut key = String::from(c);
                    while let Some(&(_, c)) = chars.peek() {
                        if c == '=' || c == '>' || c == '/' || c.is_whitespace() {
                            break;
                        }
                        key.push(c);
                        chars.next();
                    }
                    let mut value = String::new();
                    if matches!(chars.peek(), Some((_, '='))) {
                        chars.next();
                        let quote = match chars.next() {
                            Some((_, q @ ('"' | '\''))) => q,
                            _ => return Err(format!("line {line}: unquoted value of `{key}`")),
                        };
                        loop {
                            match chars.next() {
                                Some((_, c)) if c == quote => break,
                                Some((_, c)) => value.push(c),
                                None => return Err(format!("line {line}: `{key}` never ends")),
                            }
                        }
                    }
                    attrs.insert(key.to_ascii_lowercase(), value);
                }
            }
        };
        tags.push(Tag {
            name,
            closing,
            self_closing,
            attrs,
            line,
        });
        rest = &rest[1 + end + 1..];
    }
    Ok(tags)
}

/// What one page contributes to the cross-language comparison.
struct Page {
    /// (data-fen, data-highlight, data-arrows) of each diagram, in order.
    diagrams: Vec<(String, String, String)>,
    /// The [`STRUCTURE`] tags, in order.
    structure: Vec<String>,
}

/// Checks one page; adds its problems to `problems`.
fn check_page(
    page_variant: Variant,
    lang: &str,
    problems: &mut Vec<String>,
    seen: &mut BTreeSet<(Variant, String, String)>,
) -> Option<Page> {
    let name = format!("web/content/rules/{page_variant}.{lang}.html");
    let text = match std::fs::read_to_string(
        content_dir().join(format!("rules/{page_variant}.{lang}.html")),
    ) {
        Ok(text) => text,
        Err(e) => {
            problems.push(format!("{name}: cannot read it: {e}"));
            return None;
        }
    };
    let tags = match scan_tags(&text) {
        Ok(tags) => tags,
        Err(e) => {
            problems.push(format!("{name}: {e}"));
            return None;
        }
    };
    let mut problem = |line: usize, what: String| problems.push(format!("{name}:{line}: {what}"));
    let mut stack: Vec<(&str, usize)> = Vec::new();
    let mut structure = Vec::new();
    let mut figures: Vec<(&Tag, bool)> = Vec::new();
    let (mut articles, mut h1s, mut home_link) = (0, 0, false);
    for tag in &tags {
        let void = VOID.contains(&tag.name.as_str());
        if tag.closing {
            if void {
                continue;
            }
            match stack.pop() {
                Some((open, _)) if open == tag.name => {}
                Some((open, open_line)) => problem(
                    tag.line,
                    format!("</{}> closes <{open}> of line {open_line}", tag.name),
                ),
                None => problem(tag.line, format!("</{}> closes nothing", tag.name)),
            }
            continue;
        }
        match tag.name.as_str() {
            "html" | "head" | "body" => problem(
                tag.line,
                format!("a fragment must not contain <{}>", tag.name),
            ),
            "article" => {
                articles += 1;
                if tag.attrs.get("lang").map(String::as_str) != Some(lang) {
                    problem(
                        tag.line,
                        format!("the <article> should carry lang=\"{lang}\""),
                    );
                }
            }
            "h1" => h1s += 1,
            "a" if tag.attrs.get("href").map(String::as_str) == Some("/") => home_link = true,
            "figure"
                if tag
                    .attrs
                    .get("class")
                    .is_some_and(|c| c.split_whitespace().any(|c| c == "diagram")) =>
            {
                figures.push((tag, false))
            }
            "figcaption" => {
                if let Some(last) = figures.last_mut() {
                    last.1 = true;
                }
            }
            _ => {}
        }
        if STRUCTURE.contains(&tag.name.as_str()) {
            structure.push(tag.name.clone());
        }
        if tag.self_closing && !void {
            problem(tag.line, format!("self-closing <{}/>", tag.name));
        } else if !void {
            stack.push((&tag.name, tag.line));
        }
    }
    for (open, line) in stack {
        problem(line, format!("<{open}> is never closed"));
    }
    if articles != 1 {
        problem(
            1,
            format!("expected exactly one <article>, found {articles}"),
        );
    }
    if h1s != 1 {
        problem(1, format!("expected exactly one <h1>, found {h1s}"));
    }
    if !home_link {
        problem(1, "no link to \"/\" (the closing line)".into());
    }
    let mut diagrams = Vec::new();
    for (figure, has_caption) in figures {
        let attr = |key: &str| figure.attrs.get(key).cloned().unwrap_or_default();
        let (fen, highlight, arrows) = (
            attr("data-fen"),
            attr("data-highlight"),
            attr("data-arrows"),
        );
        if !has_caption {
            problem(figure.line, "diagram without <figcaption>".into());
        }
        match attr("data-variant").parse::<Variant>() {
            Ok(v) if allowed_on(page_variant).contains(&v) => {
                if let Err(e) = check_diagram(v, &fen, &highlight, &arrows) {
                    problem(figure.line, e);
                }
                seen.insert((v, fen.clone(), highlight.clone()));
            }
            Ok(v) => problem(
                figure.line,
                format!("data-variant {v} does not belong on a {page_variant} page"),
            ),
            Err(e) => problem(figure.line, format!("data-variant: {e}")),
        }
        diagrams.push((fen, highlight, arrows));
    }
    Some(Page {
        diagrams,
        structure,
    })
}

/// Checks a diagram's position, highlight and arrows, and the claims made about it.
fn check_diagram(variant: Variant, fen: &str, highlight: &str, arrows: &str) -> Result<(), String> {
    match variant.family() {
        Family::Xiangqi => {
            check_diagram_in::<jiang_rules::xiangqi::Position>(variant, fen, highlight, arrows)
        }
        Family::Shogi => {
            check_diagram_in::<jiang_rules::shogi::Position>(variant, fen, highlight, arrows)
        }
    }
}

/// Whether `square` names a square of `variant`'s board (ICCS `e0` or USI `7g`).
fn is_square(variant: Variant, square: &str) -> bool {
    match variant {
        Xiangqi | Jieqi => square.parse::<jiang_rules::xiangqi::Square>().is_ok(),
        Shogi => square.parse::<jiang_rules::shogi::Square>().is_ok(),
        Minishogi => {
            let b = square.as_bytes();
            b.len() == 2 && (b'1'..=b'5').contains(&b[0]) && (b'a'..=b'e').contains(&b[1])
        }
    }
}

fn check_diagram_in<P: Position>(
    variant: Variant,
    fen: &str,
    highlight: &str,
    arrows: &str,
) -> Result<(), String> {
    let position =
        P::from_fen(variant, fen).map_err(|e| format!("{variant} position `{fen}`: {e}"))?;
    for square in highlight.split_whitespace() {
        if !is_square(variant, square) {
            return Err(format!("highlight `{square}` is not a {variant} square"));
        }
    }
    let legal = position.legal_move_texts();
    for arrow in arrows.split_whitespace() {
        let is_pair = arrow.len() == 4
            && arrow.is_char_boundary(2)
            && is_square(variant, &arrow[..2])
            && is_square(variant, &arrow[2..]);
        if !is_pair {
            return Err(format!("arrow `{arrow}` is not a from-to pair of squares"));
        }
        if !legal.iter().any(|mv| mv.starts_with(arrow)) {
            return Err(format!("arrow `{arrow}` is not a legal move in `{fen}`"));
        }
    }
    let Some(claimed) = CLAIMS
        .iter()
        .find(|c| c.variant == variant && c.fen == fen && c.highlight == highlight)
    else {
        return Ok(());
    };
    for claim in claimed.claims {
        check_claim(&position, &legal, highlight, claim)
            .map_err(|e| format!("`{fen}` (highlight `{highlight}`), {claim:?}: {e}"))?;
    }
    Ok(())
}

/// The squares of a highlight, sorted.
fn squares(text: &str) -> BTreeSet<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

/// Whether a piece stands on `square` (ICCS or USI), read from the board field of the
/// position's canonical FEN/SFEN.
fn occupied<P: Position>(position: &P, square: &str) -> bool {
    let fen = position.fen();
    let board = fen.split_whitespace().next().unwrap_or_default();
    let rows: Vec<&str> = board.split('/').collect();
    let bytes = square.as_bytes();
    let (row, col) = match position.variant().family() {
        // ICCS: file a-i left to right, rank 0 at the bottom (the FEN lists rank 9 first).
        Family::Xiangqi => (9 - (bytes[1] - b'0') as usize, (bytes[0] - b'a') as usize),
        // USI: file 9 (or 5) on the left, rank a at the top.
        Family::Shogi => {
            let size = rows.len();
            (
                (bytes[1] - b'a') as usize,
                size - (bytes[0] - b'0') as usize,
            )
        }
    };
    let mut at = 0;
    for c in rows[row].chars() {
        if let Some(n) = c.to_digit(10) {
            at += n as usize;
        } else if c != '+' {
            if at == col {
                return true;
            }
            at += 1;
        }
        if at > col {
            return false;
        }
    }
    false
}

fn check_claim<P: Position>(
    position: &P,
    legal: &[String],
    highlight: &str,
    claim: &Claim,
) -> Result<(), String> {
    match *claim {
        Claim::Destinations { from, only, also } => {
            let mut want: BTreeSet<String> = legal
                .iter()
                .filter(|mv| from.iter().any(|f| mv.starts_with(f)))
                .map(|mv| mv[2..4].to_owned())
                .filter(|to| match only {
                    Only::All => true,
                    Only::Captures => occupied(position, to),
                    Only::Ranks(ranks) => ranks.contains(&to[1..2]),
                })
                .collect();
            want.extend(also.iter().map(|s| (*s).to_owned()));
            let got = squares(highlight);
            if got != want {
                return Err(format!("highlight {got:?} but the rules give {want:?}"));
            }
        }
        Claim::Checkmated => {
            if !position.is_check() || !legal.is_empty() {
                return Err(format!(
                    "not checkmate: in check {}, {} legal moves",
                    position.is_check(),
                    legal.len()
                ));
            }
        }
        Claim::Stalemated { piece } => {
            if position.is_check() || !legal.is_empty() {
                return Err(format!(
                    "not stalemate: in check {}, {} legal moves",
                    position.is_check(),
                    legal.len()
                ));
            }
            for to in squares(highlight) {
                let step = format!("{piece}{to}");
                if position.parse_move(&step).is_ok() {
                    return Err(format!("{step} is legal"));
                }
            }
        }
        Claim::Legal(moves) => {
            if let Some(mv) = moves.iter().find(|mv| !legal.iter().any(|l| l == *mv)) {
                return Err(format!("{mv} is not legal"));
            }
        }
        Claim::Illegal(moves) => {
            if let Some(mv) = moves.iter().find(|mv| legal.iter().any(|l| l == *mv)) {
                return Err(format!("{mv} is legal"));
            }
        }
        Claim::NoMoveStartingWith(prefix) => {
            if let Some(mv) = legal.iter().find(|l| l.starts_with(prefix)) {
                return Err(format!("{mv} is legal"));
            }
        }
        Claim::Mates(mv) => {
            let parsed = position
                .parse_move(mv)
                .map_err(|e| format!("{mv} is not legal: {e}"))?;
            let mut after = position.clone();
            after.play(parsed);
            if !after.is_check() || !after.legal_moves().is_empty() {
                return Err(format!("{mv} does not checkmate"));
            }
        }
    }
    Ok(())
}

#[test]
fn rules_pages_and_their_diagrams_agree_with_the_rules() {
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    let mut diagrams = 0;
    for variant in Variant::ALL {
        let mut reference: Option<(&str, Page)> = None;
        for lang in LANGS {
            let Some(page) = check_page(variant, lang, &mut problems, &mut seen) else {
                continue;
            };
            diagrams += page.diagrams.len();
            match &reference {
                None => reference = Some((lang, page)),
                Some((ref_lang, reference)) => {
                    if page.diagrams != reference.diagrams {
                        problems.push(format!(
                            "{variant}.{lang}: diagrams differ from {variant}.{ref_lang}"
                        ));
                    }
                    if page.structure != reference.structure {
                        problems.push(format!(
                            "{variant}.{lang}: structure differs from {variant}.{ref_lang}: {} vs {}",
                            page.structure.join(" "),
                            reference.structure.join(" ")
                        ));
                    }
                }
            }
        }
    }
    for claimed in CLAIMS {
        let key = (
            claimed.variant,
            claimed.fen.to_owned(),
            claimed.highlight.to_owned(),
        );
        if !seen.contains(&key) {
            problems.push(format!(
                "CLAIMS names a {} diagram `{}` with highlight `{}` that no page shows: \
                 update the table with the page",
                claimed.variant, claimed.fen, claimed.highlight
            ));
        }
    }
    assert!(diagrams >= 28 * 5, "only {diagrams} diagrams found");
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn home_json_names_and_describes_every_variant_in_every_language() {
    let path = content_dir().join("home.json");
    let text = std::fs::read_to_string(&path).expect("web/content/home.json is readable");
    let home: serde_json::Value = serde_json::from_str(&text).expect("home.json is JSON");
    let mut missing = Vec::new();
    for lang in LANGS {
        for variant in Variant::ALL {
            let entry = &home[lang][variant.name()];
            for field in ["name", "description"] {
                if entry[field].as_str().is_none_or(|s| s.trim().is_empty()) {
                    missing.push(format!("{lang}.{variant}.{field}"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "home.json lacks: {}",
        missing.join(", ")
    );
}

/// The checks catch what they claim to: a wrong highlight, an impossible position, an
/// illegal arrow, a false checkmate.
#[test]
fn the_diagram_checks_reject_wrong_diagrams() {
    // A well-formed diagram passes.
    check_diagram(Xiangqi, "3k5/9/9/9/9/9/9/3A5/4K4/9 w", "d1 f1 e0 e2", "").unwrap();
    // The highlight of a claimed diagram must be the legal destinations: e1 cannot reach e0
    // in this position (it is claimed as `d1 f1 e0 e2`).
    let claimed = CLAIMS
        .iter()
        .find(|c| c.highlight == "d1 f1 e0 e2")
        .unwrap();
    let position =
        <jiang_rules::xiangqi::Position as Position>::from_fen(Xiangqi, claimed.fen).unwrap();
    let legal = position.legal_move_texts();
    let err = check_claim(&position, &legal, "d1 f1 e2", &claimed.claims[0]).unwrap_err();
    assert!(err.contains("the rules give"), "{err}");
    // Facing generals, Black not to move: refused by the rules crate.
    let err = check_diagram(Xiangqi, "4k4/9/9/9/9/9/9/9/9/4K4 w", "", "").unwrap_err();
    assert!(err.contains("xiangqi position"), "{err}");
    // A shogi position with two pawns of a side on one file.
    assert!(check_diagram(Shogi, "4k4/9/9/9/9/2P6/2P6/9/4K4 b - 1", "", "").is_err());
    // A highlight off the board, an arrow that is not a legal move.
    assert!(check_diagram(Minishogi, "k4/3S1/5/5/4K b - 1", "6a", "").is_err());
    let err = check_diagram(Xiangqi, "3k5/9/9/9/9/9/9/3A5/4K4/9 w", "", "e1e3").unwrap_err();
    assert!(err.contains("not a legal move"), "{err}");
    // Not checkmate: the start position.
    let start = jiang_rules::xiangqi::Position::start(Xiangqi);
    let legal = start.legal_move_texts();
    assert!(check_claim(&start, &legal, "", &Claim::Checkmated).is_err());
    // The tag scanner reads names, closings, attributes and lines, and refuses broken tags.
    let tags =
        scan_tags("<p>\n<!-- <b> -->\n<figure class=\"diagram\" data-fen='1 w'></p>").unwrap();
    let names: Vec<_> = tags
        .iter()
        .map(|t| (t.name.as_str(), t.closing, t.line))
        .collect();
    assert_eq!(
        names,
        [("p", false, 1), ("figure", false, 3), ("p", true, 3)]
    );
    assert_eq!(tags[1].attrs["data-fen"], "1 w");
    assert!(scan_tags("<p class=\"x").is_err());
    assert!(scan_tags("a < b").is_err());
}
