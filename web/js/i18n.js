// A tiny i18n module: one JSON catalogue per language, `{name}` interpolation, English fallback.

export const LANGS = [
  ['en', 'English'],
  ['zh-Hans', '简体中文'],
  ['zh-Hant', '繁體中文'],
  ['ja', '日本語'],
  ['vi', 'Tiếng Việt'],
  ['es', 'Español'],
  ['hu', 'Magyar'],
];
const CODES = LANGS.map(([c]) => c);

let lang = 'en';
let table = {};
let fallback = {};
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
  document.documentElement.lang = code;
}

/** Remember a choice: the cookie the server reads, and local storage. */
export function rememberLang(code) {
  document.cookie = `lang=${code}; path=/; max-age=31536000; samesite=lax`;
  localStorage.setItem('jiang.lang', code);
}

export const currentLang = () => lang;

/** Translate `key`, replacing `{name}` with params.name. Falls back to English, then the key. */
export function t(key, params = {}) {
  const s = table[key] ?? fallback[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

/** Whether a key exists (for optional, variant-specific texts). */
export const has = (key) => key in table || key in fallback;
