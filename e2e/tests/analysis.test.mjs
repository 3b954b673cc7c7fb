// The analysis board (issue 13) in Chromium against the real server: a finished game opened
// with "Analyse" (never offered while a game is played), the moves walked with the keyboard,
// a variation added on the board, the tree exported with its variations and kept across a
// reload, with the engine's lines; every variant from its start; a record imported and opened;
// a non-English locale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newContext, artifacts } from '../lib/browser.mjs';
import { serverAndBrowser } from '../lib/fixture.mjs';
import path from 'node:path';

const env = serverAndBrowser();

/** POST `body` to `path` from `page` (same origin), answering the JSON. */
async function post(page, url, body, token) {
  return page.evaluate(
    async ([u, b, tok]) => {
      const headers = { 'content-type': 'application/json' };
      if (tok) headers.authorization = `Bearer ${tok}`;
      const r = await fetch(u, { method: 'POST', headers, body: JSON.stringify(b) });
      return { status: r.status, body: await r.json() };
    },
    [url, body, token],
  );
}

/** A game of `variant` between two API seats with `moves` played; `end` resigns it. */
async function playedGame(page, variant, moves, end = true) {
  await page.goto(`${env.server.url}/`);
  const created = await post(page, '/api/games', { variant, side: variant.includes('shogi') ? 'sente' : 'red' });
  const id = created.body.id;
  const joined = await post(page, `/api/games/${id}/join`, {});
  const tokens = [created.body.token, joined.body.token];
  for (const [i, mv] of moves.entries()) {
    const r = await post(page, `/api/games/${id}/move`, { move: mv }, tokens[i % 2]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  if (end) assert.equal((await post(page, `/api/games/${id}/resign`, {}, tokens[0])).status, 200);
  return id;
}

/** The contrast ratio (WCAG) of `locator`'s text colour against its background colour. */
async function contrast(locator) {
  const [fg, bg] = await locator.evaluate((el) => {
    const s = getComputedStyle(el);
    return [s.color, s.backgroundColor];
  });
  const lum = (css) => {
    const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}

const current = (page) => page.locator('.tree [aria-current]').innerText();
const ready = (page) => page.waitForSelector('.analysis[data-ready]');

test('no Analyse button while a game is played; a finished game opens, walks, branches, exports and survives a reload', async () => {
  const ctx = await newContext(env.browser);
  const page = await ctx.newPage();
  const live = await playedGame(page, 'xiangqi', ['h2e2', 'h9g7'], false);
  await page.goto(`${env.server.url}/g/${live}`);
  await page.waitForSelector('.moves button');
  assert.equal(await page.locator('a.analyse').count(), 0, 'a game being played offers no analysis');
  const refused = await post(page, '/api/analysis', { game: live, style: 'wxf' });
  assert.equal(refused.body.error.code, 'game_in_progress');

  const id = await playedGame(page, 'xiangqi', ['h2e2', 'h9g7', 'h0g2']);
  await page.goto(`${env.server.url}/g/${id}`);
  await page.locator('a.analyse').click();
  await page.waitForURL(/\/analysis\/xiangqi\?game=/);
  await ready(page);
  assert.deepEqual(await page.locator('.tree .tree-move').allInnerTexts(), ['1.C2.5', 'H8+7', '2.H2+3']);
  assert.match(await page.locator('.game-result').innerText(), /Black/);

  // Keyboard: End, ←, Home, →.
  await page.locator('.tree').focus();
  await page.keyboard.press('End');
  assert.equal(await current(page), '2.H2+3');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await current(page), 'H8+7');
  await page.keyboard.press('Home');
  assert.equal(await page.locator('.tree [aria-current]').count(), 0);
  await page.keyboard.press('ArrowRight');
  assert.equal(await current(page), '1.C2.5');

  // A variation: after 1. C2.5, black plays the other horse (b9 → c7) on the board.
  await page.click('[data-square="b9"]');
  await page.click('[data-square="c7"]');
  await page.waitForSelector('.tree .variation');
  assert.equal(await current(page), '1…H2+3');
  // The current move inside a variation is readable: its text against its background has
  // at least the WCAG AA contrast of 4.5.
  assert.ok((await contrast(page.locator('.tree .variation .tree-move[aria-current]'))) >= 4.5, 'current move in a variation is readable');
  await page.keyboard.press('ArrowUp');
  assert.equal(await current(page), 'H8+7', '↑ goes to the variation before');
  await page.keyboard.press('ArrowDown');
  assert.equal(await current(page), '1…H2+3');
  // Promote it: it becomes the main line.
  await page.click('[data-act=promote]');
  assert.deepEqual((await page.locator('.tree > .tree-move').allInnerTexts()).slice(0, 2), ['1.C2.5', 'H2+3']);

  // The engine: lines arrive live for the current position, with the bar and the number.
  await page.selectOption('select[name=lines]', '2');
  await page.click('[data-act=engine]');
  await page.waitForFunction(() => document.querySelectorAll('.engine-lines li').length === 2, null, { timeout: 20000 });
  // Evaluations from one point of view: the side ahead and by how much, whoever is to move.
  assert.match(await page.locator('.engine-lines li').first().innerText(), /^((Red|Black) \+\d+\.\d\d|Even|(Red|Black) mates in \d+) /);
  assert.match(await page.locator('.eval-bar').getAttribute('aria-label'), /^Evaluation bar: (Red|Black|Even)/);
  assert.match(await page.locator('.engine-explain').innerText(), /ahead/);
  await page.click('[data-act=engine]');
  assert.equal(await page.locator('[data-act=engine]').getAttribute('aria-pressed'), 'false');

  // Export with variations.
  await page.click('[data-export=pgn][data-moves=wxf]');
  await page.waitForSelector('.export-text:not([hidden])');
  const pgn = await page.locator('.export-text').inputValue();
  assert.match(pgn, /1\. C2\.5 H2\+3 \(1\.\.\. H8\+7 2\. H2\+3\)/, pgn);

  // Reload: the tree and the current move are kept.
  await page.reload();
  await ready(page);
  assert.equal(await current(page), 'H2+3');
  assert.equal(await page.locator('.tree .variation').count(), 1);
  // Delete the variation.
  await page.locator('.tree .variation .tree-move').first().click();
  await page.click('[data-act=delete]');
  assert.equal(await page.locator('.tree .variation').count(), 0);
  await page.screenshot({ path: path.join(artifacts, 'analysis-xiangqi.png') });
  await ctx.close();
});

test('every variant opens from its start, plays a move on the board and gets the engine\'s line', async () => {
  const ctx = await newContext(env.browser);
  const page = await ctx.newPage();
  for (const [variant, from, to, text] of [
    ['xiangqi', 'h2', 'e2', 'C2.5'],
    ['jieqi', 'h2', 'e2', 'C2.5'],
    ['shogi', '7g', '7f', 'P-76'],
    ['minishogi', '5d', '5c', 'P-53'],
  ]) {
    await page.goto(`${env.server.url}/analysis/${variant}`);
    await ready(page);
    await page.click(`[data-square="${from}"]`);
    await page.click(`[data-square="${to}"]`);
    if (variant === 'jieqi') {
      // A covered piece: the analyst says what it is supposed to be (here a cannon).
      await page.waitForSelector('dialog.choose[open]');
      await page.click('dialog.choose button[value="C"]');
    }
    await page.waitForSelector('.tree .tree-move');
    const got = await page.locator('.tree .tree-move').first().innerText();
    assert.ok(got.includes(text), `${variant}: ${got}`);
    // The engine's best line for the position after it.
    await page.click('[data-act=engine]');
    await page.waitForSelector('.engine-lines li', { timeout: 20000 });
    await page.click('[data-act=engine]');
  }
  await ctx.close();
});

test('a record imported on the analysis page opens as its main line', async () => {
  const ctx = await newContext(env.browser);
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/analysis/xiangqi`);
  await ready(page);
  await page.fill('#import-text', '1. C2.5 H8+7 2. H2+3 *');
  await page.click('.import button[type=submit]');
  await page.waitForFunction(() => document.querySelectorAll('.tree .tree-move').length === 3);
  assert.equal(await current(page), '2.H2+3');
  assert.doesNotMatch(page.url(), /line=/, 'the line lives in the stored tree');
  await ctx.close();
});

test('imported records show and export their result and players: a KIF resignation, a PGN checkmate, a CSA disconnection', async () => {
  const ctx = await newContext(env.browser);
  const page = await ctx.newPage();
  const records = [
    {
      variant: 'shogi',
      text: '先手：Alice\n後手：Bob\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８八角成(22)\n   5 投了\nまで4手で後手の勝ち\n',
      players: 'Sente: Alice · Gote: Bob',
      result: /^Gote wins: .*resign/i,
      export: 'kif',
      written: [/先手：Alice/, /投了/, /まで4手で後手の勝ち/],
    },
    {
      variant: 'xiangqi',
      text: '[Game "Chinese Chess"]\n[Red "Alice"]\n[Black "Bob"]\n[FEN "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1"]\n[Result "1-0"]\n\n1. b7b9 1-0\n',
      players: 'Red: Alice · Black: Bob',
      result: /^Red wins: .*checkmate/i,
      export: 'pgn',
      written: [/\[Red "Alice"\]/, /\[Result "1-0"\]/, /\[Termination "checkmate"\]/],
    },
    {
      variant: 'shogi',
      text: "V2.2\nN+Alice\nN-Bob\nPI\n+\n+7776FU\n-3334FU\n'切断\n%-ILLEGAL_ACTION\n'jiang-result: 1-0 disconnection\n",
      players: 'Sente: Alice · Gote: Bob',
      result: /^Sente wins: .*(left|disconnect)/i,
      export: 'kif',
      written: [/後手：Bob/, /切断/, /まで2手で先手の勝ち/],
    },
  ];
  for (const r of records) {
    await page.goto(`${env.server.url}/analysis/${r.variant}`);
    await ready(page);
    await page.fill('#import-text', r.text);
    await page.click('.import button[type=submit]');
    await page.waitForSelector('.game-result .record-result');
    await ready(page);
    assert.equal(await page.locator('.game-result .record-players').innerText(), r.players);
    assert.match(await page.locator('.game-result .record-result').innerText(), r.result);
    if (r.variant === 'xiangqi') await page.screenshot({ path: path.join(artifacts, 'analysis-imported-record.png') });
    // A reload keeps them; the export writes them.
    await page.reload();
    await ready(page);
    assert.equal(await page.locator('.game-result .record-players').innerText(), r.players);
    await page.click(`[data-export=${r.export}]`);
    await page.waitForSelector('.export-text:not([hidden])');
    const text = await page.locator('.export-text').inputValue();
    for (const w of r.written) assert.match(text, w, text);
  }
  await ctx.close();
});

test('the analysis board in Japanese: shogi moves in Japanese notation after a finished game', async () => {
  const ctx = await newContext(env.browser, { locale: 'ja-JP' });
  const page = await ctx.newPage();
  const id = await playedGame(page, 'shogi', ['7g7f', '3c3d']);
  await page.goto(`${env.server.url}/g/${id}`);
  await page.locator('a.analyse').click();
  await ready(page);
  assert.match(await page.locator('#analysis-title').innerText(), /検討盤/);
  assert.deepEqual(await page.locator('.tree .tree-move').allInnerTexts(), ['1.☗７六歩', '2.☖３四歩']);
  await page.click('[data-export=kif]');
  await page.waitForSelector('.export-text:not([hidden])');
  assert.match(await page.locator('.export-text').inputValue(), /７六歩\(77\)/);
  await ctx.close();
});

test('a computer review draws the evaluation graph, marks the blunder with the better move and rates both sides', async () => {
  const ctx = await newContext(env.browser);
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/`);
  // Red's chariot goes to a5, where Black's chariot takes it.
  const created = await post(page, '/api/games', { variant: 'xiangqi', side: 'red', fen: '3k5/9/9/9/8r/9/9/9/9/R3K4 w - - 0 1' });
  const id = created.body.id;
  const joined = await post(page, `/api/games/${id}/join`, {});
  await post(page, `/api/games/${id}/move`, { move: 'a0a5' }, created.body.token);
  await post(page, `/api/games/${id}/move`, { move: 'i5a5' }, joined.body.token);
  await post(page, `/api/games/${id}/resign`, {}, created.body.token);
  await page.goto(`${env.server.url}/g/${id}`);
  await page.locator('a.analyse').click();
  await ready(page);
  await page.click('[data-act=review]');
  await page.waitForSelector('.eval-graph:not([hidden]), .analysis-error:not([hidden])', { timeout: 60000 });
  assert.equal(await page.locator('.analysis-error').isVisible(), false, await page.locator('.analysis-error').innerText());
  const blunder = page.locator('.tree .tree-move.blunder');
  assert.equal(await blunder.count(), 1);
  assert.match(await blunder.innerText(), /\?\?$/);
  assert.match(await blunder.getAttribute('title'), /Blunder · better: /);
  assert.equal(await page.locator('.accuracy li').count(), 2);
  assert.equal(await page.locator('.eval-graph .mark.blunder').count(), 1);
  await page.screenshot({ path: path.join(artifacts, 'analysis-review.png') });
  await ctx.close();
});

test('an import the server refuses is said in the reader\'s language, with its line', async () => {
  for (const [lang, expected] of [
    ['ja', '1行目：PGN・KIF・KI2・CSA の棋譜でも、FEN・SFEN・局面の行でもありません。'],
    ['es', 'Línea 1: El texto no es una partida PGN, KIF, KI2 ni CSA, ni una línea FEN, SFEN o de posición.'],
    ['en', 'Line 3: Move 3 a0a5 is not legal there.'],
  ]) {
    const ctx = await newContext(env.browser);
    await ctx.addCookies([{ name: 'lang', value: lang, url: env.server.url }]);
    const page = await ctx.newPage();
    await page.goto(`${env.server.url}/analysis/xiangqi`);
    await ready(page);
    await page.fill('#import-text', lang === 'en' ? '[Game "Chinese Chess"]\n\n1. h2e2 h9g7 2. a0a5 *\n' : 'hello there');
    await page.click('.import button[type=submit]');
    await page.waitForSelector('.analysis-error:not([hidden])');
    assert.equal(await page.locator('.analysis-error').innerText(), expected);
    await ctx.close();
  }
});
