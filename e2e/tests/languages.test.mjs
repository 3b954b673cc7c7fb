// Every UI language on a phone (390×844): the home, game, analysis, puzzle, player, tournament and rules pages render in
// it with no string of the English catalogue left (a sentence the language translates but the
// page still shows in English), no catalogue key shown raw, no text overflowing its button or
// link-button, and no sideways scroll. Plural forms follow the language's CLDR rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repo } from '../lib/server.mjs';
import { newContext, createGame } from '../lib/browser.mjs';
import { serverAndBrowser } from '../lib/fixture.mjs';
import { LANGS } from '../../web/js/i18n.js';

const env = serverAndBrowser();
const PHONE = { width: 390, height: 844 };
const locale = (lang) => JSON.parse(fs.readFileSync(path.join(repo, `web/locales/${lang}.json`), 'utf8'));
const english = locale('en');

/** English sentences a page in `lang` must not show: the catalogue's texts of two words or
 * more (without placeholders) that `lang` translates differently. */
function englishLeft(lang) {
  if (lang === 'en') return [];
  const t = locale(lang);
  return Object.entries(english)
    .filter(([k, v]) => typeof v === 'string' && !v.includes('{') && /\p{L}+\s+\p{L}+/u.test(v) && t[k] !== v)
    .map(([, v]) => v);
}

/** What a reader sees wrong on the page: English left, raw keys, overflowing controls. */
async function problems(page, lang) {
  const text = await page.evaluate(() => document.body.innerText);
  const found = [];
  for (const sentence of englishLeft(lang)) if (text.includes(sentence)) found.push(`English: "${sentence}"`);
  for (const key of Object.keys(english)) if (/^[a-z]+\.[a-zA-Z.]+$/.test(key) && text.includes(key)) found.push(`raw key: ${key}`);
  const overflow = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('button, a.button, select, label, .tabs a')) {
      if (!el.offsetParent) continue; // hidden
      const box = el.getBoundingClientRect();
      if (box.width <= 1) continue; // visually hidden (for screen readers)
      const range = document.createRange();
      range.selectNodeContents(el);
      const text = range.getBoundingClientRect();
      const outside = text.width > 0 && (text.left < box.left - 1 || text.right > box.right + 1);
      if (outside || el.scrollWidth > el.clientWidth + 1)
        out.push(`${el.tagName.toLowerCase()} "${el.innerText.trim().slice(0, 40)}": text ${Math.round(text.width)} px in ${Math.round(box.width)} px`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push(`page ${document.documentElement.scrollWidth} px wide`);
    return out;
  });
  return found.concat(overflow.map((o) => `overflow: ${o}`));
}

/** One player for every language's look at a player page (created once: creation is rate
 * limited per address). */
let player = null;
async function aPlayer() {
  player ??= fetch(`${env.server.url}/api/players`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'polyglot' }) }).then((r) => r.json());
  return player;
}

/** One upcoming Swiss for every language's look at a tournament page (its creator: `aPlayer`). */
let tournament = null;
async function aTournament() {
  const { key } = await aPlayer();
  const body = { kind: 'swiss', variant: 'jieqi', clock: { main: 300, increment: 3 }, rounds: 5, starts_at: new Date(Date.now() + 3600e3).toISOString() };
  tournament ??= fetch(`${env.server.url}/api/tournaments`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Player ${key}` }, body: JSON.stringify(body) }).then((r) => r.json());
  return tournament;
}

for (const [lang, name] of LANGS) {
  test(`${lang} (${name}): home, game, analysis, puzzle, player, tournament and rules pages on a phone, all in ${lang}`, async () => {
    const ctx = await newContext(env.browser, { viewport: PHONE });
    await ctx.addCookies([{ name: 'lang', value: lang, url: env.server.url }]);
    const page = await ctx.newPage();
    const bad = [];

    await page.goto(`${env.server.url}/`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    await page.locator('button.play-computer').waitFor();
    bad.push(...(await problems(page, lang)).map((p) => `home: ${p}`));

    const game = await createGame(page, env.server.url, { variant: 'shogi', side: 'sente' });
    await page.goto(`${env.server.url}/g/${game.id}`);
    await page.locator('.invite').waitFor();
    bad.push(...(await problems(page, lang)).map((p) => `game: ${p}`));

    await page.goto(`${env.server.url}/analysis/xiangqi`);
    await page.locator('svg.board [data-piece]').first().waitFor();
    bad.push(...(await problems(page, lang)).map((p) => `analysis: ${p}`));

    await page.goto(`${env.server.url}/puzzles/jieqi`);
    await page.locator('.puzzles[data-state="solving"]').waitFor();
    bad.push(...(await problems(page, lang)).map((p) => `puzzles: ${p}`));

    const { id } = await aPlayer();
    assert.ok(id, 'a player');
    await page.goto(`${env.server.url}/player/${id}`);
    await page.locator(`.player-page[data-id="${id}"]`).waitFor();
    bad.push(...(await problems(page, lang)).map((p) => `player: ${p}`));

    const t = await aTournament();
    assert.ok(t.id, JSON.stringify(t));
    await page.goto(`${env.server.url}/tournaments`);
    await page.locator('.t-list[data-status=upcoming] tr[data-id]').first().waitFor();
    bad.push(...(await problems(page, lang)).map((p) => `tournaments: ${p}`));
    await page.goto(`${env.server.url}/tournament/${t.id}`);
    await page.locator('.tournament[data-status=upcoming] .t-me button.join').waitFor();
    bad.push(...(await problems(page, lang)).map((p) => `tournament: ${p}`));

    for (const variant of ['xiangqi', 'jieqi', 'shogi', 'minishogi']) {
      await page.goto(`${env.server.url}/rules/${variant}`);
      await page.locator(`article.rules[lang="${lang}"]`).waitFor();
      bad.push(...(await problems(page, lang)).map((p) => `rules/${variant}: ${p}`));
    }
    assert.deepEqual(bad, [], `${lang}:\n${bad.join('\n')}`);
    await ctx.close();
  });
}

test('plural forms come from the language\'s rules (Russian: 1 ход, 3 хода, 5 ходов)', async () => {
  const page = await (await newContext(env.browser)).newPage();
  await page.goto(`${env.server.url}/`);
  const forms = await page.evaluate(async () => {
    const i18n = await import('/static/js/i18n.js');
    await i18n.setLang('ru');
    const ru = await (await fetch('/static/locales/ru.json')).json();
    // A key whose Russian value has plural forms.
    const key = Object.keys(ru).find((k) => typeof ru[k] === 'object' && ru[k].few && ru[k].many);
    return { key, value: ru[key], out: [1, 3, 5, 21].map((n) => i18n.t(key, { n, side: 'X', pawns: 1 })) };
  });
  assert.ok(forms.key, 'Russian has plural values');
  const fill = (s, n) => s.replace('{n}', String(n)).replace('{side}', 'X').replace('{pawns}', '1');
  assert.deepEqual(forms.out, [fill(forms.value.one, 1), fill(forms.value.few, 3), fill(forms.value.many, 5), fill(forms.value.one, 21)]);
  await page.context().close();
});
