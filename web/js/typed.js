// Typed move input: the text a person typed is looked up among the names the server gave
// for the legal moves (the view's `legal_moves` and `hints.legal_names`). Nothing here knows
// a notation: it only forgives spacing, side marks, brackets, full-width digits and Chinese or
// Japanese numerals, and letter case.

const FULL = '０１２３４５６７８９';
const KANJI = '一二三四五六七八九';

/** The text with what people type differently taken out. */
const normalize = (s) =>
  String(s)
    .replace(/[☗☖▲△\s　()（）]/g, '')
    .replace(/[０-９]/g, (c) => String(FULL.indexOf(c)))
    .replace(/[一二三四五六七八九]/g, (c) => String(KANJI.indexOf(c) + 1))
    .toLowerCase();
/** Also without separators (`h2-e2`, `P76` for `P-76`), tried when nothing matches exactly. */
const loose = (s) => normalize(s).replace(/[-x=]/g, '');

/**
 * The machine move (one of `legal`) whose text or one of whose names (`names[i]` for
 * `legal[i]`) is what was typed, or null when none is, or when a loose reading is ambiguous.
 */
export function findTyped(input, legal, names) {
  const want = normalize(input);
  if (!want) return null;
  const forms = (i) => [legal[i], ...(names?.[i] || [])];
  for (let i = 0; i < legal.length; i++) if (forms(i).some((f) => normalize(f) === want)) return legal[i];
  const wantLoose = loose(input);
  const hits = legal.filter((_, i) => forms(i).some((f) => loose(f) === wantLoose));
  return hits.length === 1 ? hits[0] : null;
}
