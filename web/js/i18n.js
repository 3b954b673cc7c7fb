// A tiny i18n module: one JSON catalogue per language, `{name}` interpolation, plural forms
// chosen by the browser's CLDR rules (`Intl.PluralRules`), numbers written the language's way
// (`Intl.NumberFormat`), English fallback.

/** The UI languages, [code, name in that language], in the picker's order. The server's
 * `LANGUAGES` lists the same codes (a test checks it). */
export const LANGS = [
  ['en', 'English'],
  ['zh-Hans', '简体中文'],
  ['zh-Hant', '繁體中文'],
  ['ja', '日本語'],
  ['ko', '한국어'],
  ['vi', 'Tiếng Việt'],
  ['id', 'Bahasa Indonesia'],
  ['es', 'Español'],
  ['pt-BR', 'Português (Brasil)'],
  ['fr', 'Français'],
  ['it', 'Italiano'],
  ['de', 'Deutsch'],
  ['pl', 'Polski'],
  ['ru', 'Русский'],
  ['hu', 'Magyar'],
];
const CODES = LANGS.map(([c]) => c);

let lang = 'en';
let table = {};
let fallback = {};
let plurals = new Intl.PluralRules('en');
let numbers = new Intl.NumberFormat('en');
const cache = new Map();

async function fetchCatalogue(code) {
  if (!cache.has(code))
    cache.set(
      code,
      fetch(`/static/locales/${code}.json`).then((r) => (r.ok ? r.json() : {})).catch(() => ({})),
    );
  return cache.get(code);
}

/** The language the page starts in: the server's `<html lang>`, then local storage, then en. */
export function initialLang() {
  const fromPage = document.documentElement.lang;
  if (CODES.includes(fromPage)) return fromPage;
  const stored = localStorage.getItem('jiang.lang');
  return CODES.includes(stored) ? stored : 'en';
}

/** Load a language (and English for missing keys) and make it current. */
export async function setLang(code) {
  if (!CODES.includes(code)) code = 'en';
  const [t, en] = await Promise.all([fetchCatalogue(code), code === 'en' ? null : fetchCatalogue('en')]);
  lang = code;
  table = t;
  fallback = en || t;
  plurals = new Intl.PluralRules(code);
  numbers = new Intl.NumberFormat(code);
  document.documentElement.lang = code;
}

/** Remember a choice: the cookie the server reads, and local storage. */
export function rememberLang(code) {
  document.cookie = `lang=${code}; path=/; max-age=31536000; samesite=lax`;
  localStorage.setItem('jiang.lang', code);
}

export const currentLang = () => lang;

/** A catalogue value as text: a plural value (`{"one": …, "few": …, "other": …}`, keyed by
 * `Intl.PluralRules` categories) picks the form for `n`. */
const formOf = (value, n) => (typeof value === 'string' ? value : value[plurals.select(Number(n))] ?? value.other);

/** A parameter as written in a sentence: numbers in the language's digits and separators. */
const written = (v) => (typeof v === 'number' && Number.isFinite(v) ? numbers.format(v) : String(v));

/** Translate `key`, replacing `{name}` with params.name (a plural value's form chosen by
 * params.n). Falls back to English, then the key. */
export function t(key, params = {}) {
  const s = formOf(table[key] ?? fallback[key] ?? key, params.n);
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? written(params[k]) : m));
}

/** Whether a key exists (for optional, variant-specific texts). */
export const has = (key) => key in table || key in fallback;
