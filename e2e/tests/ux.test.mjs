// Small things seen in the UI (issue 14): the side dots in both colour schemes, Hungarian
// article agreement and no composed grammar in the locales, the meta description, and Jieqi
// pieces turned over only because the game ended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repo } from '../lib/server.mjs';
import { createGame as createGameFrom, newContext, people, leave, artifacts } from '../lib/browser.mjs';
import { serverAndBrowser } from '../lib/fixture.mjs';
import { LANGS as LANG_LIST } from '../../web/js/i18n.js';

const LANGS = LANG_LIST.map(([code]) => code);
const VARIANTS = ['xiangqi', 'jieqi', 'shogi', 'minishogi'];
const locale = (lang) => JSON.parse(fs.readFileSync(path.join(repo, `web/locales/${lang}.json`), 'utf8'));

const env = serverAndBrowser();

/** Creates a game through the API from `page` (which then holds the creator's seat cookie). */
const createGame = (page, body) => createGameFrom(page, env.server.url, body);

// --- Locales (no browser) ---

test('no locale composes a variant name into a sentence; per-variant strings exist everywhere', () => {
  for (const lang of LANGS) {
    const t = locale(lang);
    for (const [key, value] of Object.entries(t))
      for (const form of typeof value === 'string' ? [value] : Object.values(value)) assert.ok(!form.includes('{game}'), `${lang} ${key}: ${form}`);
    for (const v of VARIANTS)
      for (const key of [`rules.title.${v}`, `rules.play.${v}`, `aria.board.${v}`]) assert.ok(t[key], `${lang} lacks ${key}`);
    assert.ok(t['meta.description'], `${lang} lacks meta.description`);
  }
});

test('Hungarian: the article agrees with the word after it (a before a consonant, az before a vowel)', () => {
  const vowels = 'aáeéiíoóöőuúüű';
  const bad = [];
  // A plural value is checked form by form.
  const texts = Object.entries(locale('hu')).flatMap(([key, value]) => (typeof value === 'string' ? [[key, value]] : Object.values(value).map((form) => [key, form])));
  for (const [key, value] of texts) {
    // `A(z)` hedges, and an article before a placeholder, cannot agree with what follows.
    for (const m of value.matchAll(/(?<![\p{L}\d])([Aa]z?|[Aa]\(z\))\s+(\S+)/gu)) {
      const [, article, word] = m;
      const first = word[0].toLowerCase();
      const art = article.toLowerCase();
      if (art.includes('(') || word.startsWith('{')) bad.push(`${key}: ${m[0]}`);
      else if (vowels.includes(first) && art !== 'az') bad.push(`${key}: ${m[0]}`);
      else if (/\p{L}/u.test(first) && !vowels.includes(first) && art !== 'a') bad.push(`${key}: ${m[0]}`);
    }
  }
  assert.deepEqual(bad, []);
});

// --- In the browser ---

/** WCAG relative luminance contrast of two `rgb(…)`/`rgba(…)` colours (alpha ignored). */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test('the side dots in the player bar stand out from it in light and dark mode', async () => {
  const ctx = await newContext(env.browser);
  const page = await ctx.newPage();
  const games = [await createGame(page, { variant: 'xiangqi', side: 'red' }), await createGame(page, { variant: 'shogi', side: 'sente' })];
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const game of games) {
      await page.goto(`${env.server.url}/g/${game.id}`);
      await page.locator('.player .dot').nth(1).waitFor();
      const dots = await page.evaluate(() =>
        [...document.querySelectorAll('.player')].map((bar) => {
          const dot = bar.querySelector('.dot');
          const s = getComputedStyle(dot);
          return { side: bar.dataset.side, bar: getComputedStyle(bar).backgroundColor, fill: s.backgroundColor, ring: s.borderTopColor, ringWidth: parseFloat(s.borderTopWidth) };
        }),
      );
      assert.equal(dots.length, 2);
      for (const d of dots) {
        // WCAG 1.4.11 (non-text contrast): the disc or its ring at least 3:1 against the bar.
        const best = Math.max(contrast(d.fill, d.bar), d.ringWidth > 0 ? contrast(d.ring, d.bar) : 0);
        assert.ok(best >= 3, `${scheme} ${d.side}: fill ${d.fill}, ring ${d.ring} on ${d.bar} (${best.toFixed(2)}:1)`);
      }
      if (scheme === 'dark') await page.locator('.board-col').screenshot({ path: path.join(artifacts, `dots-dark-${game.id}.png`) });
    }
  }
  await ctx.close();
});

test('Hungarian home cards and rules page: "A xiangqi szabályai", no A(z)', async () => {
  const ctx = await newContext(env.browser);
  await ctx.addCookies([{ name: 'lang', value: 'hu', url: env.server.url }]);
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/`);
  await page.locator('.rules-link').first().waitFor();
  assert.deepEqual(await page.locator('.rules-link').allTextContents(), ['A xiangqi szabályai', 'A jieqi szabályai', 'A shogi szabályai', 'A minishogi szabályai']);
  // The server sent the Hungarian meta description, and the page keeps it.
  assert.equal(await page.getAttribute('meta[name=description]', 'content'), locale('hu')['meta.description']);
  await page.locator('.rules-link').nth(2).click();
  await page.waitForURL(/\/rules\/shogi$/);
  await page.waitForFunction(() => document.title.includes('A shogi szabályai'));
  assert.equal((await page.locator('.play-cta a').textContent()).trim(), 'Játssz shogit');
  // Switching language updates the meta description in place too.
  await page.selectOption('#lang-select', 'es');
  await page.waitForFunction(() => document.documentElement.lang === 'es');
  assert.equal(await page.getAttribute('meta[name=description]', 'content'), locale('es')['meta.description']);
  assert.equal((await page.locator('.play-cta a').textContent()).trim(), 'Jugar al shogi');
  await ctx.close();
});

test('jieqi: pieces turned over only because the game ended look apart, explained by a legend', async () => {
  const [a, b] = await people(env.browser, 2);
  const game = await createGame(a, { variant: 'jieqi', side: 'red' });
  await a.goto(`${env.server.url}/g/${game.id}`);
  await b.goto(`${env.server.url}/g/${game.id}`);
  await b.locator('button.take-seat').click();
  await b.locator('.join').waitFor({ state: 'hidden' });
  // Red reveals one piece in play (the covered piece on h2 goes to e2).
  await a.locator('.player.bottom.to-move').waitFor();
  await a.locator('svg.board [data-square="h2"]').click();
  await a.locator('svg.board [data-square="e2"]').click();
  await b.waitForFunction(() => /^[KABNRCP]$/.test(document.querySelector('svg.board [data-at="e2"]')?.dataset.piece || ''));
  assert.equal(await a.locator('svg.board [data-end-revealed]').count(), 0, 'nothing marked during play');
  await b.locator('.player.bottom.to-move').waitFor();
  // Black resigns before its first move (the page offers Abort alone then: through the API).
  await b.evaluate(async (gid) => {
    const token = localStorage.getItem(`jiang.token.${gid}`);
    const r = await fetch(`/api/games/${gid}/resign`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
    if (!r.ok) throw new Error(`resign: ${r.status}`);
  }, game.id);
  const view = await (await fetch(`${env.server.url}/api/games/${game.id}`)).json();
  const ended = Object.keys(view.covered_pieces || {}).sort();
  assert.equal(ended.length, 29, 'the server names the 29 pieces still face down');
  for (const p of [a, b]) {
    await p.locator('.banner').waitFor();
    await p.locator('.end-reveal-legend').waitFor();
    await p.waitForFunction((n) => document.querySelectorAll('svg.board [data-end-revealed]').length === n, ended.length);
    const marked = await p.evaluate(() => [...document.querySelectorAll('svg.board [data-end-revealed]')].map((g) => g.dataset.at).sort());
    assert.deepEqual(marked, ended, 'exactly the squares of the final view');
    assert.equal(await p.locator('svg.board [data-piece="X"], svg.board [data-piece="x"]').count(), 0, 'every piece face up');
    // The piece revealed in play keeps the ordinary look; the others are dashed.
    const dash = (sq) => p.evaluate((s) => getComputedStyle(document.querySelector(`svg.board [data-at="${s}"] .face`)).strokeDasharray, sq);
    assert.equal(await dash('e2'), 'none');
    assert.notEqual(await dash(ended[0]), 'none');
    // Said in words: the square's title (hover) and its accessible name.
    const square = p.locator(`svg.board [data-square="${ended[0]}"]`);
    assert.match(await square.locator('title').textContent(), /still face down when the game ended/);
    assert.match(await square.getAttribute('aria-label'), /still face down when the game ended/);
    assert.equal(await p.locator('svg.board [data-square="e2"] title').count(), 0);
    // Stepping back into the game shows no such marks (the pieces were covered then).
    await p.locator('[data-step="home"]').click();
    await p.waitForFunction(() => document.querySelectorAll('svg.board [data-end-revealed]').length === 0);
    await p.waitForFunction(() => document.querySelectorAll('svg.board [data-piece="X"]').length === 15);
    await p.locator('[data-step="end"]').click();
    await p.waitForFunction((n) => document.querySelectorAll('svg.board [data-end-revealed]').length === n, ended.length);
  }
  await a.screenshot({ path: path.join(artifacts, 'jieqi-end.png') });
  await leave(a, b);
});

test('turn alerts: the title, a chime (on by default, off in settings) and a notification while hidden', async () => {
  const a = await (await newContext(env.browser)).newPage();
  const ctx = await newContext(env.browser);
  await ctx.grantPermissions(['notifications'], { origin: env.server.url });
  // Record what the page asks of WebAudio and of the Notification API (both still run), and let
  // the test say when the tab counts as hidden (a headless tab is always visible).
  await ctx.addInitScript(() => {
    window.__tones = [];
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () {
      const o = create.call(this);
      const start = o.start.bind(o);
      o.start = (...args) => {
        window.__tones.push(o.frequency.value);
        return start(...args);
      };
      return o;
    };
    window.__notes = [];
    const Real = window.Notification;
    window.Notification = class extends Real {
      constructor(title, options) {
        super(title, options);
        window.__notes.push({ title, body: options?.body, tag: options?.tag });
      }
      static get permission() {
        return Real.permission;
      }
      static requestPermission() {
        return Real.requestPermission();
      }
    };
    window.__hidden = false;
    Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (window.__hidden ? 'hidden' : 'visible') });
  });
  const b = await ctx.newPage();
  const game = await createGame(a, { variant: 'xiangqi', side: 'red' });
  await a.goto(`${env.server.url}/g/${game.id}`);
  await b.goto(`${env.server.url}/g/${game.id}`);
  await b.locator('button.take-seat').click();
  await b.locator('.join').waitFor({ state: 'hidden' });
  await a.waitForFunction(() => document.title.startsWith('Your move — Jiang'));
  // The chime is on by default; notifications are turned on in the settings.
  await b.locator('.settings summary').click();
  assert.equal(await b.locator('[name=turnSound]').isChecked(), true);
  await b.locator('[name=turnNotify]').check();
  await b.waitForFunction(() => localStorage.getItem('jiang.turnNotify') === '1');
  await b.evaluate(() => (window.__hidden = true));
  const tonesBefore = await b.evaluate(() => window.__tones.length);

  await a.locator('svg.board [data-square="h2"]').click();
  await a.locator('svg.board [data-square="e2"]').click();
  await b.waitForFunction(() => document.title === 'Your move · C2.5 — Jiang — Xiangqi');
  await a.waitForFunction(() => document.title === 'C2.5 — Jiang — Xiangqi');
  await b.waitForFunction((n) => window.__tones.length >= n + 2, tonesBefore);
  assert.deepEqual(await b.evaluate((n) => window.__tones.slice(n), tonesBefore), [660, 990]);
  assert.deepEqual(await b.evaluate(() => window.__notes), [{ title: 'Your move', body: 'Xiangqi: C2.5', tag: `jiang-${game.id}` }]);

  // Visible again, chime off: the title still says it, nothing else happens.
  await b.evaluate(() => (window.__hidden = false));
  await b.locator('[name=turnSound]').uncheck();
  assert.equal(await b.evaluate(() => localStorage.getItem('jiang.turnSound')), '0');
  const tones = await b.evaluate(() => window.__tones.length);
  await b.locator('svg.board [data-square="h9"]').click();
  await b.locator('svg.board [data-square="g7"]').click();
  await a.waitForFunction(() => document.title === 'Your move · H8+7 — Jiang — Xiangqi');
  await a.locator('svg.board [data-square="h0"]').click();
  await a.locator('svg.board [data-square="g2"]').click();
  await b.waitForFunction(() => document.title === 'Your move · H2+3 — Jiang — Xiangqi');
  await b.waitForTimeout(300);
  assert.equal(await b.evaluate(() => window.__tones.length), tones, 'no chime when turned off');
  assert.equal(await b.evaluate(() => window.__notes.length), 1, 'no notification while visible');
  await a.context().close();
  await ctx.close();
});
