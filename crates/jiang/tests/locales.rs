//! The UI catalogues (`web/locales/<lang>.json`) checked against English, for every language
//! the server offers: what CI guarantees a reader of any of them.
//!
//! - the browser's language list (`web/js/i18n.js`) and the server's are the same;
//! - every English key is in every catalogue, non-empty, and no other key is;
//! - a value is a string or a plural value (`{"one": …, "other": …}`: keys among the CLDR
//!   plural categories that `Intl.PluralRules` returns, `other` always present), and every form
//!   has exactly the English placeholders;
//! - no value is left in English unless it is only names and symbols ([`NAMES`]) or listed in
//!   [`SAME_WORD`] (a word that is the same in that language);
//! - every reason the server gives for refusing a move or an action (`ErrorReason`) and every
//!   error code has its sentence in every language.
//!
//! The rules articles and `home.json` are checked in every language by `content.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use jiang_protocol::{ErrorCode, ErrorReason};
use jiang_server::http::pages::LANGUAGES;
use serde_json::Value;

/// Words that are names or symbols in every language (variants, notations, formats, shogi's
/// Japanese terms as the UI writes them, units).
const NAMES: &[&str] = &[
    "Jiang",
    "Beta",
    "Xiangqi",
    "Jieqi",
    "Shogi",
    "Minishogi",
    "WXF",
    "ICCS",
    "USI",
    "KIF",
    "KI2",
    "CSA",
    "PGN",
    "FEN",
    "SFEN",
    "Sente",
    "Gote",
    "Uwate",
    "Shitate",
    "Byo",
    "byo",
    "yomi",
    "min",
    "s",
    "vs",
    // Tournaments: the Buchholz tie-break (a name), Sonneborn–Berger's abbreviation, and
    // lichess's "Berserk", which its translations keep in most languages.
    "Buchholz",
    "SB",
    "Berserk",
];

/// (language, key) whose value is the same word as in English in that language.
const SAME_WORD: &[(&str, &str)] = &[
    // Spanish calls the xiangqi king "general", as English does.
    ("es", "piece.xiangqi.K"),
    ("es", "chat.title"),
    // German loanwords, as lishogi's German uses them.
    ("de", "chat.title"),
    ("de", "engine.title"),
    ("de", "lobby.title"),
    ("de", "editor.handOf"),
    ("de", "player.name"),
    ("de", "player.nameOptional"),
    // French: "handicap" and "lance" are French words (lishogi's French uses both).
    ("fr", "handicap.lance"),
    ("fr", "home.handicap"),
    ("fr", "lobby.col.handicap"),
    ("fr", "piece.shogi.L"),
    // French puzzle themes: "promotion" and "sacrifice" are the French chess and shogi words
    // (lichess's French themes use both).
    ("fr", "theme.promotion"),
    ("fr", "theme.sacrifice"),
    // Portuguese and Italian use "handicap" as a loanword (lishogi's pt-BR does); "general" is
    // Portuguese too.
    ("pt-BR", "home.handicap"),
    ("pt-BR", "lobby.col.handicap"),
    ("pt-BR", "piece.xiangqi.K"),
    // Brazilian and Indonesian chess players say "rating"; "casual" is Portuguese too.
    ("pt-BR", "player.rating"),
    ("pt-BR", "player.casual"),
    ("id", "player.rating"),
    ("it", "home.handicap"),
    ("it", "lobby.col.handicap"),
    // Tournaments: "Arena" is the word in these languages (lichess's translations use it), as
    // "Format" is in Polish and Indonesian; "Minutes" and "Points" are French words.
    ("de", "tournament.kind.arena"),
    ("es", "tournament.kind.arena"),
    ("it", "tournament.kind.arena"),
    ("pt-BR", "tournament.kind.arena"),
    ("pl", "tournament.kind.arena"),
    ("id", "tournament.kind.arena"),
    ("pl", "tournaments.kind"),
    ("id", "tournaments.kind"),
    ("fr", "tournaments.minutes"),
    ("fr", "tournament.col.score"),
];

const CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

fn catalogue(lang: &str) -> BTreeMap<String, Value> {
    let path = web().join(format!("locales/{lang}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `{placeholders}` of a text, sorted.
fn placeholders(text: &str) -> BTreeSet<&str> {
    text.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .filter(|name| name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .collect()
}

/// The forms of a value: one for a string, one per category for a plural value.
fn forms<'a>(lang: &str, key: &str, value: &'a Value, problems: &mut Vec<String>) -> Vec<&'a str> {
    match value {
        Value::String(text) => vec![text.as_str()],
        Value::Object(plural) => {
            if !plural.contains_key("other") {
                problems.push(format!("{lang} {key}: a plural value needs `other`"));
            }
            let mut out = Vec::new();
            for (category, form) in plural {
                if !CATEGORIES.contains(&category.as_str()) {
                    problems.push(format!("{lang} {key}: `{category}` is no plural category"));
                }
                match form.as_str() {
                    Some(text) => out.push(text),
                    None => problems.push(format!("{lang} {key}.{category}: not a string")),
                }
            }
            out
        }
        _ => {
            problems.push(format!("{lang} {key}: neither a string nor a plural value"));
            Vec::new()
        }
    }
}

/// Whether `text` holds nothing but placeholders, [`NAMES`], numbers and punctuation: the same
/// in every language.
fn only_names(text: &str) -> bool {
    let mut rest = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => rest.push(c),
            _ => {}
        }
    }
    rest.split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.chars().any(char::is_alphabetic))
        .all(|word| NAMES.contains(&word) || !word.is_ascii())
}

#[test]
fn the_browser_offers_the_languages_the_server_negotiates() {
    let i18n = std::fs::read_to_string(web().join("js/i18n.js")).expect("web/js/i18n.js");
    let list = i18n
        .split("export const LANGS = [")
        .nth(1)
        .and_then(|rest| rest.split("];").next())
        .expect("LANGS in i18n.js");
    let codes: Vec<&str> = list
        .lines()
        .filter_map(|line| line.trim().strip_prefix("['"))
        .filter_map(|line| line.split('\'').next())
        .collect();
    assert_eq!(
        codes, LANGUAGES,
        "web/js/i18n.js LANGS and the server's LANGUAGES"
    );
}

#[test]
fn every_catalogue_translates_every_english_key_with_its_placeholders() {
    let english = catalogue("en");
    let mut problems = Vec::new();
    for lang in LANGUAGES {
        let table = catalogue(lang);
        for key in table.keys().filter(|k| !english.contains_key(*k)) {
            problems.push(format!("{lang}: `{key}` is not an English key"));
        }
        for (key, english_value) in &english {
            let Some(value) = table.get(key) else {
                problems.push(format!("{lang}: `{key}` missing"));
                continue;
            };
            let wanted = match english_value.as_str() {
                Some(text) => placeholders(text),
                None => placeholders(english_value["other"].as_str().unwrap_or_default()),
            };
            for form in forms(lang, key, value, &mut problems) {
                if form.trim().is_empty() {
                    problems.push(format!("{lang} {key}: empty"));
                }
                if placeholders(form) != wanted {
                    problems.push(format!(
                        "{lang} {key}: placeholders {:?}, English has {wanted:?}",
                        placeholders(form)
                    ));
                }
            }
            let untranslated = lang != "en"
                && value == english_value
                && !value.as_str().is_some_and(only_names)
                && !SAME_WORD.contains(&(lang, key.as_str()));
            if untranslated {
                problems.push(format!("{lang} {key}: left in English: {value}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_refusal_of_the_server_reads_in_every_language() {
    let mut problems = Vec::new();
    for lang in LANGUAGES {
        let table = catalogue(lang);
        let reasons = ErrorReason::ALL
            .iter()
            .map(|r| format!("error.reason.{}", r.as_str()));
        for key in reasons {
            if !table.contains_key(&key) {
                problems.push(format!("{lang}: `{key}` missing"));
            }
        }
        let codes = ErrorCode::ALL
            .iter()
            .map(|c| format!("error.code.{}", c.as_str()));
        let english = catalogue("en");
        // Codes the UI words itself (others show the server's sentence): English decides which.
        for key in codes.filter(|k| english.contains_key(k)) {
            if !table.contains_key(&key) {
                problems.push(format!("{lang}: `{key}` missing"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checks_catch_what_they_should() {
    assert_eq!(
        placeholders("{side} mates in {n} {n}"),
        BTreeSet::from(["n", "side"])
    );
    assert!(only_names("{main} + {increment}"));
    assert!(only_names("Uwate (上手)"));
    assert!(only_names("{n} min"));
    assert!(!only_names("Watching: {n}"));
    let mut problems = Vec::new();
    let plural = serde_json::json!({"one": "{n} ход", "few": "{n} хода"});
    assert_eq!(forms("ru", "k", &plural, &mut problems).len(), 2);
    assert_eq!(problems.len(), 1, "no `other`: {problems:?}");
    let mut problems = Vec::new();
    forms(
        "ru",
        "k",
        &serde_json::json!({"other": "x", "plenty": "y"}),
        &mut problems,
    );
    assert_eq!(problems.len(), 1, "not a category: {problems:?}");
}
