// Server refusals in the reader's language: every locale has a string for every error code the
// UI translates and for every rules `reason` of docs/api.md, and a typed move that the rules
// refuse shows the reason's string (not the server's English sentence) in Japanese and English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repo } from '../lib/server.mjs';
import { createGame, newContext } from '../lib/browser.mjs';
import { serverAndBrowser } from '../lib/fixture.mjs';
import { TRANSLATED_CODES, TRANSLATED_REASONS } from '../../web/js/errors.js';
import { LANGS as LANG_LIST } from '../../web/js/i18n.js';

const LANGS = LANG_LIST.map(([code]) => code);
const locale = (lang) => JSON.parse(fs.readFileSync(path.join(repo, `web/locales/${lang}.json`), 'utf8'));
const apiMd = () => fs.readFileSync(path.join(repo, 'docs/api.md'), 'utf8');

/** The first column of the markdown table whose header row starts with `| <first> | <second> |`. */
function firstColumn(doc, header) {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => l.startsWith(header));
  assert.ok(start >= 0, `no table ${header}`);
  const rows = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').map((c) => c.trim()));
  }
  return rows;
}

// --- Locales (no browser) ---

test('the UI translates every rules reason of docs/api.md and only documented codes', () => {
  const reasons = firstColumn(apiMd(), '| reason | code |').map((r) => r[1].replace(/`/g, ''));
  assert.deepEqual([...TRANSLATED_REASONS], reasons, 'the reasons of docs/api.md, in order');
  const codes = new Set(firstColumn(apiMd(), '| status | code |').map((r) => r[2].replace(/`/g, '')));
  for (const code of TRANSLATED_CODES) assert.ok(codes.has(code), `${code} is no documented code`);
});

test('every locale has a string for every error code and reason the UI translates', () => {
  for (const lang of LANGS) {
    const t = locale(lang);
    for (const code of TRANSLATED_CODES) assert.ok(t[`error.code.${code}`]?.trim(), `${lang} lacks error.code.${code}`);
    for (const reason of TRANSLATED_REASONS) assert.ok(t[`error.reason.${reason}`]?.trim(), `${lang} lacks error.reason.${reason}`);
    if (lang !== 'en') {
      // Translated, not copied: a locale's sentence differs from the English one.
      const en = locale('en');
      for (const reason of TRANSLATED_REASONS)
        assert.notEqual(t[`error.reason.${reason}`], en[`error.reason.${reason}`], `${lang} error.reason.${reason}`);
    }
  }
});

// --- In the browser ---

const env = serverAndBrowser();

/** A started xiangqi game from `fen` with red on `a` (in `lang`) and black on `b`. */
async function startGame(lang, fen) {
  const ctx = await newContext(env.browser);
  await ctx.addCookies([{ name: 'lang', value: lang, url: env.server.url }]);
  const a = await ctx.newPage();
  const b = await (await newContext(env.browser)).newPage();
  const g = await createGame(a, env.server.url, { variant: 'xiangqi', side: 'red', fen });
  await b.goto(`${env.server.url}/g/${g.id}`);
  await b.locator('button.take-seat').click();
  await b.locator('.join').waitFor({ state: 'hidden' });
  await a.goto(`${env.server.url}/g/${g.id}`);
  await a.locator('.player.bottom.to-move').waitFor();
  return { a, b, close: () => Promise.all([a.context().close(), b.context().close()]) };
}

for (const lang of ['ja', 'en']) {
  test(`${lang}: a typed move the rules refuse says why, in the reader's language`, async () => {
    // The red chariot on e1 shields its general (e0) from the black chariot on e8.
    const { a, close } = await startGame(lang, '4k4/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1');
    const strings = locale(lang);
    const error = a.locator('.type-move .error');
    const says = async (typed, key) => {
      await a.fill('#type-move-input', typed);
      await a.press('#type-move-input', 'Enter');
      await a.waitForFunction(
        (want) => document.querySelector('.type-move .error')?.textContent === want,
        strings[key],
        { timeout: 10_000 },
      ).catch(async () => assert.fail(`${typed}: showed ${JSON.stringify(await error.textContent())}, want ${key}`));
      assert.equal(await error.isVisible(), true);
    };
    await says('e1d1', 'error.reason.leaves_general_in_check');
    await says('e1f2', 'error.reason.unreachable');
    await says('e8e7', 'error.reason.not_your_piece');
    // Nothing changed: the chariot is still on e1 and red is still to move.
    assert.equal(await a.locator('svg.board [data-at="e1"]').getAttribute('data-piece'), 'R');
    await a.locator('.player.bottom.to-move').waitFor();
    await close();
  });
}
