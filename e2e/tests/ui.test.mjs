// Browser tests: the real server (built from this repository) on a random port with a temporary
// SQLite database, driven through Debian's Chromium by playwright-core. Two browser contexts are
// two people on two machines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createGame, newContext, people, leave, choose, transferred, drag, box, artifacts, layoutShift, watchLayoutShift } from '../lib/browser.mjs';
import { serverAndBrowser } from '../lib/fixture.mjs';

const metrics = {};
const env = serverAndBrowser(() => {
  fs.writeFileSync(path.join(artifacts, 'metrics.json'), JSON.stringify(metrics, null, 2));
  console.log('metrics:', JSON.stringify(metrics));
});

const board = (page) => page.locator('svg.board');
const piece = (page, sq) => page.locator(`svg.board [data-at="${sq}"]`);
const click = async (page, sq) => page.locator(`svg.board [data-square="${sq}"]`).click();
const myTurn = (page) => page.locator('.player.bottom.to-move').waitFor();

/** Create a game from the home page; returns the invite link read back from the clipboard. */
async function create(page, { variant, clock = 'none', side, handicap }) {
  await page.goto(`${env.server.url}/`);
  await choose(page, 'variant', variant);
  await choose(page, 'clock', clock);
  if (side) await choose(page, 'side', side);
  if (handicap) await page.selectOption('select[name=handicap]', handicap);
  await page.locator('form.create button[type=submit]').click();
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await page.locator('svg.board [data-piece]').first().waitFor();
  await page.locator('.invite').waitFor();
  await page.locator('button.copy-link').click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, await page.locator('#invite-link').inputValue());
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/g\/[A-Za-z0-9]{8,}$/);
  return link;
}

/** Open an invite link and take the free seat. */
async function join(page, link) {
  await page.goto(link);
  const take = page.locator('button.take-seat');
  await take.waitFor();
  await take.click();
  await page.locator('.join').waitFor({ state: 'hidden' });
  await page.locator('svg.board [data-piece]').first().waitFor();
}

/** Waits for `page`'s turn, then plays `from`–`to` by clicking the two points. */
async function clickMove(page, from, to) {
  await myTurn(page);
  await click(page, from);
  await click(page, to);
}

/** A game created through the API from `body` on `a`'s page, `b` seated opposite, `a` to move. */
async function seated(a, b, body) {
  const g = await createGame(a, env.server.url, body);
  await join(b, `${env.server.url}/g/${g.id}`);
  await a.goto(`${env.server.url}/g/${g.id}`);
  await myTurn(a);
}

/** Every page in `pages` shows the end banner, saying `label` to screen readers. */
/** Each page's banner says its label (`labels`: one for all, or one per page: a seated
 * player reads "You won" / "You lost"). */
async function bannerSays(pages, labels) {
  for (const [i, page] of pages.entries()) {
    const banner = page.locator('.banner');
    await banner.waitFor();
    assert.equal(await banner.getAttribute('aria-label'), Array.isArray(labels) ? labels[i] : labels);
  }
}

async function resign(page) {
  page.once('dialog', (d) => d.accept());
  await page.locator('[data-action=resign]').click();
}

test('xiangqi: create, copy the link, join, click, drag and type moves, resign; both see the result', async () => {
  const [a, b] = await people(env.browser, 2);
  const link = await create(a, { variant: 'xiangqi', side: 'red' });
  // A visitor only looks until they ask for the seat (a GET never takes it).
  await b.goto(link);
  await b.locator('button.take-seat').waitFor();
  await join(b, link);

  // The second player sees the board turned: Black at the bottom.
  const e0 = await box(b, '[data-square="e0"]');
  const e9 = await box(b, '[data-square="e9"]');
  assert.ok(e9.y > e0.y, 'black at the bottom for black');

  // Red: click-click (cannon h2 → e2).
  await myTurn(a);
  await click(a, 'h2');
  assert.ok((await a.locator('svg.board .hints .dest').count()) > 0, 'legal destinations shown');
  await click(a, 'e2');
  await b.locator('svg.board [data-at="e2"][data-piece="C"]').waitFor();
  // Black: drag and drop (horse h9 → g7).
  await myTurn(b);
  await drag(b, '[data-square="h9"]', '[data-square="g7"]');
  await a.locator('svg.board [data-at="g7"][data-piece="n"]').waitFor();
  // Red: type a move in WXF.
  await myTurn(a);
  await a.fill('#type-move-input', 'H2+3');
  await a.press('#type-move-input', 'Enter');
  await b.locator('svg.board [data-at="g2"][data-piece="N"]').waitFor();
  await b.locator('.moves button[data-ply="3"]').waitFor();
  assert.deepEqual(await b.locator('.moves button').allTextContents(), ['C2.5', 'H8+7', 'H2+3']);
  // Check is highlighted: none yet.
  assert.equal(await a.locator('svg.board .marks .check').count(), 0);

  // Step back with the arrow keys.
  await a.locator('.moves-wrap h2').click();
  await a.keyboard.press('ArrowLeft');
  assert.equal(await piece(a, 'g2').count(), 0, 'earlier position shown');
  await a.keyboard.press('End');
  await piece(a, 'g2').waitFor();

  await a.screenshot({ path: path.join(artifacts, 'xiangqi.png') });
  await myTurn(b);
  await resign(b);
  await bannerSays([a, b], ['You won: Black resigned', 'You lost: Black resigned']);
  // Rematch: both ask, both get a link to the next game, with the sides swapped.
  await a.locator('[data-action=rematch]').click();
  await b.locator('[data-action=rematch]', { hasText: 'Accept rematch' }).click();
  for (const p of [a, b]) await p.locator('a.to-rematch').waitFor();
  await a.locator('a.to-rematch').click();
  await a.waitForURL((u) => u.pathname !== new URL(link).pathname);
  await a.locator('.player.bottom[data-side="black"]').waitFor();
  await leave(a, b);
});

test('xiangqi: the check the server reports is ringed, live and when stepping back; typed Chinese', async () => {
  const [a, b] = await people(env.browser, 2);
  // Red's chariot e1 → d1 (车五平六) checks Black's general on d9.
  const fen = '3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1';
  await seated(a, b, { variant: 'xiangqi', side: 'red', fen });
  const ring = (p) => p.locator('svg.board .marks .check');
  assert.equal(await ring(a).count(), 0, 'no check yet');
  // A move that is not legal is refused where it was typed, and changes nothing.
  await a.fill('#type-move-input', 'R5+9');
  await a.press('#type-move-input', 'Enter');
  await a.locator('.type-move .error').waitFor();
  assert.equal(await piece(a, 'e1').getAttribute('data-piece'), 'R');
  await a.fill('#type-move-input', '车五平六');
  await a.press('#type-move-input', 'Enter');
  for (const p of [a, b]) {
    await p.locator('svg.board [data-at="d1"][data-piece="R"]').waitFor();
    await ring(p).waitFor();
  }
  // The ring sits on Black's general (d9).
  const [r, d9] = [await box(b, 'svg.board .marks .check'), await box(b, '[data-square="d9"]')];
  assert.ok(Math.abs(r.x + r.width / 2 - (d9.x + d9.width / 2)) < 2 && Math.abs(r.y + r.height / 2 - (d9.y + d9.height / 2)) < 2, 'ring on d9');
  await b.locator('.moves button[data-ply="1"]').waitFor();
  assert.deepEqual(await b.locator('.moves button').allTextContents(), ['R5.6']);
  // Stepping back shows the position before the move, without the ring; End brings it back.
  await b.locator('.moves-wrap h2').click();
  await b.keyboard.press('ArrowLeft');
  await piece(b, 'e1').waitFor();
  assert.equal(await ring(b).count(), 0, 'no check before the move');
  await b.keyboard.press('End');
  await ring(b).waitFor();
  // Black answers by typing ICCS with a dash.
  await myTurn(b);
  await b.fill('#type-move-input', 'd9-e9');
  await b.press('#type-move-input', 'Enter');
  await a.locator('svg.board [data-at="e9"][data-piece="k"]').waitFor();
  await a.locator('.moves button[data-ply="2"]').waitFor();
  assert.equal(await ring(a).count(), 0, 'out of check');
  await leave(a, b);
});

test('xiangqi: a draw offered and accepted; a spectator watches read-only', async () => {
  const [a, b, c] = await people(env.browser, 3);
  const link = await create(a, { variant: 'xiangqi', side: 'red' });
  await join(b, link);
  await c.goto(link);
  await c.locator('svg.board [data-piece]').first().waitFor();
  assert.equal(await c.locator('button.take-seat').isVisible(), false, 'no seat left for a third visitor');
  // Keyboard play on the board: focus a point, Enter to pick up, arrows to move, Enter to play.
  await myTurn(a);
  await a.locator('svg.board [data-square="h0"]').focus();
  await a.keyboard.press('Enter');
  for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowUp']) await a.keyboard.press(key);
  assert.equal(await a.evaluate(() => document.activeElement?.dataset.square), 'g2');
  assert.match(await a.locator('svg.board [data-square="e0"]').getAttribute('aria-label'), /^e0, Red general$/);
  await a.keyboard.press('Enter');
  await c.locator('svg.board [data-at="g2"][data-piece="N"]').waitFor();
  await a.locator('[data-action=draw-offer]').click();
  await b.locator('[data-action=draw-accept]').click();
  await bannerSays([a, b, c], 'Draw: the players agreed to a draw');
  assert.equal(await c.locator('[data-action=resign], [data-action=rematch]').count(), 0, 'a spectator has no player buttons');
  await leave(a, b, c);
});

test('shogi: a promotion choice, a drop by click and a drop by drag', async () => {
  const [a, b] = await people(env.browser, 2);
  const link = await create(a, { variant: 'shogi', side: 'sente' });
  await join(b, link);
  await clickMove(a, '7g', '7f');
  await myTurn(b);
  await drag(b, '[data-square="3c"]', '[data-square="3d"]');
  await myTurn(a);
  // Bishop takes bishop in the zone: promotion is optional, so the dialog asks.
  await click(a, '8h');
  await click(a, '2b');
  await a.locator('dialog.promo[open]').waitFor();
  await a.locator('dialog.promo .promo-yes').click();
  await b.locator('svg.board [data-at="2b"][data-piece="+B"]').waitFor();
  await clickMove(b, '3a', '2b');
  await a.locator('svg.board [data-hand="B"]').waitFor();
  await myTurn(a);
  // Drop the captured bishop: click the hand, then the square.
  await a.locator('svg.board [data-hand="B"]').click();
  await click(a, '4e');
  await b.locator('svg.board [data-at="4e"][data-piece="B"]').waitFor();
  assert.equal(await a.locator('svg.board [data-hand="B"]').count(), 0);
  await b.locator('svg.board [data-hand="b"]').waitFor(); // gote holds the promoted bishop it took, unpromoted
  assert.deepEqual(await a.locator('.moves button').allTextContents(), ['P-76', 'P-34', 'Bx22+', 'Sx22', 'B*45']);
  // Gote drops its bishop by dragging it from the hand.
  await myTurn(b);
  await drag(b, 'svg.board [data-hand="b"]', 'svg.board [data-square="6e"]');
  await a.locator('svg.board [data-at="6e"][data-piece="b"]').waitFor();
  assert.equal(await b.locator('svg.board [data-hand="b"]').count(), 0);
  await a.locator('.moves button[data-ply="6"]').waitFor();
  assert.equal(await a.locator('.moves button[data-ply="6"]').textContent(), 'B*65');
  await a.screenshot({ path: path.join(artifacts, 'shogi.png') });
  await myTurn(a);
  await resign(a);
  await bannerSays([a, b], ['You lost: Sente resigned', 'You won: Sente resigned']);
  await leave(a, b);
});

test('shogi handicap: the giver plays gote as uwate (上手) and moves first', async () => {
  const [a, b] = await people(env.browser, 2);
  const link = await create(a, { variant: 'shogi', side: 'gote', handicap: 'bishop' });
  assert.equal(await a.locator('svg.board [data-piece="b"]').count(), 0, 'the bishop is removed');
  assert.match(await a.locator('.player.bottom .who').textContent(), /^Uwate \(上手\)/);
  await join(b, link);
  await myTurn(a);
  assert.match(await b.locator('.player.bottom .who').textContent(), /^Shitate \(下手\)/);
  await leave(a, b);
});

test('shogi impasse: the point counts show, and the declaration wins when it holds', async () => {
  const [a, b] = await people(env.browser, 2);
  // Sente's king and 17 pieces in the zone: 25 points on the board + 3 pawns in hand = 28.
  const fen = 'KRBGGSS+N+N/LLPPPPPPP/9/9/9/9/9/9/4k4 b 3P 1';
  await seated(a, b, { variant: 'shogi', side: 'sente', fen });
  const info = a.locator('.impasse-info');
  await info.waitFor();
  assert.match(await info.textContent(), /Sente: 28 of 28 points, 17 pieces in the zone/);
  const declare = a.locator('[data-action=impasse]');
  assert.equal(await declare.isEnabled(), true);
  assert.equal(await b.locator('[data-action=impasse]').isEnabled(), false, 'not offered to the side not to move');
  await declare.click();
  await bannerSays([a, b], ['You won: Sente declared impasse with enough points (entering king)', 'You lost: Sente declared impasse with enough points (entering king)']);
  await leave(a, b);
});

test('jieqi: face-down pieces, a reveal, the pool', async () => {
  const [a, b] = await people(env.browser, 2);
  const link = await create(a, { variant: 'jieqi', side: 'red' });
  await join(b, link);
  assert.equal(await a.locator('svg.board [data-piece="X"]').count(), 15);
  assert.equal(await a.locator('svg.board [data-piece="x"]').count(), 15);
  await clickMove(a, 'h2', 'e2');
  // The covered piece is turned over on its destination, for both players.
  for (const p of [a, b]) {
    const revealed = p.locator('svg.board [data-at="e2"]');
    await revealed.waitFor();
    await p.waitForFunction(() => /^[KABNRCP]$/.test(document.querySelector('svg.board [data-at="e2"]')?.dataset.piece || ''));
  }
  assert.equal(await b.locator('svg.board [data-piece="X"]').count(), 14);
  // The move list names the piece by its point and notes what was revealed (the server's note).
  await b.locator('.moves button[data-ply="1"]').waitFor();
  assert.match(await b.locator('.moves button[data-ply="1"]').textContent(), /^C2\.5 \([AEHRCP]\)$/);
  await b.locator('.jieqi-info .pool').first().waitFor();
  // Black reveals a piece; Red's covered cannon-point piece then takes the covered piece on h9
  // over the screen on h7. Only Red learns what it took.
  await clickMove(b, 'a6', 'a5');
  await clickMove(a, 'b2', 'b9');
  const taken = (p) => p.locator('.captures[data-side="red"] svg').first();
  await taken(a).waitFor();
  await taken(b).waitFor();
  assert.notEqual(await taken(a).getAttribute('aria-label'), 'face-down piece', 'the captor sees what it took');
  assert.equal(await taken(b).getAttribute('aria-label'), 'face-down piece', 'the owner does not');
  await a.screenshot({ path: path.join(artifacts, 'jieqi.png') });
  await leave(a, b);
});

test('the clock counts down between server events', async () => {
  const [a, b] = await people(env.browser, 2);
  const link = await create(a, { variant: 'xiangqi', side: 'red', clock: '0' });
  await join(b, link);
  await clickMove(a, 'h2', 'e2');
  await clickMove(b, 'h9', 'g7');
  await myTurn(a);
  const clock = a.locator('.clock[data-side="red"] .time');
  await a.locator('.clock[data-side="red"].running').waitFor();
  const secs = (s) => s.split(':').reduce((n, x) => n * 60 + Number(x), 0);
  const t1 = secs(await clock.textContent());
  await a.waitForTimeout(2300);
  const t2 = secs(await clock.textContent());
  assert.ok(t1 - t2 >= 1 && t1 - t2 <= 5, `clock went from ${t1} to ${t2}`);
  assert.ok(t1 <= 303 && t1 >= 290, `5+3 clock shows ${t1}`);
  await leave(a, b);
});

test('a rules page renders in Hungarian', async () => {
  const ctx = await newContext(env.browser);
  await ctx.addCookies([{ name: 'lang', value: 'hu', url: env.server.url }]);
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/rules/jieqi`);
  assert.equal(await page.getAttribute('html', 'lang'), 'hu');
  // The page's strings arrive with the locale: wait for them rather than read them at once.
  await page.waitForFunction(() => document.querySelector('.skip-link')?.textContent === 'Ugrás a tartalomra');
  const article = page.locator('.article');
  await article.locator('h1, h2').first().waitFor();
  assert.equal(await article.getAttribute('lang'), null, 'the Hungarian article itself, not the fallback');
  assert.match(await article.textContent(), /[áéíóöőúüű]/);
  if (await article.locator('figure.diagram').count()) await article.locator('figure.diagram svg.board').first().waitFor();
  assert.match(await page.locator('.site-footer .build').textContent(), /^v\d+\.\d+\.\d+ · \w+$/);
  await page.screenshot({ path: path.join(artifacts, 'rules-hu.png'), fullPage: true });
  // The language picker switches in place and remembers the choice.
  await page.selectOption('#lang-select', 'ja');
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  assert.ok((await ctx.cookies()).some((c) => c.name === 'lang' && c.value === 'ja'));
  await ctx.close();
});

test('the home page does not move when the server is slow to say who the player is', async () => {
  // The player box is drawn from what the browser remembers; the answer, late here, changes
  // nothing that was right (a stranger's click on a quick-pairing button once landed beside it).
  for (const player of [false, true]) {
    const ctx = await newContext(env.browser);
    if (player) {
      const setup = await ctx.newPage();
      await setup.goto(`${env.server.url}/`);
      await setup.evaluate(async () => fetch('/api/players', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
      await setup.goto(`${env.server.url}/`);
      await setup.locator('.player-box .playing-as').waitFor();
      await setup.close();
    }
    await watchLayoutShift(ctx);
    await ctx.route('**/api/players/me', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const page = await ctx.newPage();
    await page.goto(`${env.server.url}/`);
    await page.locator('.player-box').first().waitFor();
    await page.locator(player ? '.player-box .playing-as' : '.player-box .become-player').waitFor();
    await page.waitForResponse('**/api/players/me');
    await page.waitForTimeout(300);
    const shift = await layoutShift(page);
    assert.ok(shift !== null && shift < 0.01, `${player ? 'a player' : 'a stranger'}: layout shift ${shift}`);
    await ctx.close();
  }
});

test('home and game pages: screenshots, bytes transferred and layout shift', async () => {
  const ctx = await newContext(env.browser);
  await watchLayoutShift(ctx);
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/`);
  await page.locator('form.create').waitFor();
  await page.waitForLoadState('networkidle');
  metrics.homeBytes = await transferred(page);
  // The player box, the lobby and the daily puzzles all answer after the first draw: none may
  // move what is already on the page (a click aimed at a button would land beside it).
  await page.locator('.daily-puzzles:not([hidden])').waitFor();
  await page.waitForTimeout(300);
  metrics.homeLayoutShift = await layoutShift(page);
  await page.screenshot({ path: path.join(artifacts, 'home.png'), fullPage: true });
  const res = await page.evaluate(async () => (await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ variant: 'minishogi' }) })).json());
  await ctx.close();
  const ctx2 = await newContext(env.browser);
  await watchLayoutShift(ctx2);
  const game = await ctx2.newPage();
  await game.goto(`${env.server.url}/g/${res.id}`);
  await game.locator('svg.board [data-piece]').first().waitFor();
  await game.waitForLoadState('networkidle');
  metrics.gameBytes = await transferred(game);
  await game.waitForTimeout(300);
  metrics.gameLayoutShift = await layoutShift(game);
  await game.screenshot({ path: path.join(artifacts, 'minishogi.png') });
  console.log(`home ${(metrics.homeBytes / 1024).toFixed(1)} KB, layout shift ${metrics.homeLayoutShift}; game ${(metrics.gameBytes / 1024).toFixed(1)} KB, layout shift ${metrics.gameLayoutShift}`);
  assert.ok(metrics.homeLayoutShift !== null && metrics.homeLayoutShift < 0.01, `home layout shift ${metrics.homeLayoutShift}`);
  assert.ok(metrics.gameLayoutShift !== null && metrics.gameLayoutShift < 0.01, `layout shift ${metrics.gameLayoutShift}`);
  assert.ok(metrics.homeBytes <= 150 * 1024, `home page ${metrics.homeBytes} bytes`);
  assert.ok(metrics.gameBytes <= 150 * 1024, `game page ${metrics.gameBytes} bytes`);
  await ctx2.close();
});

test('the page recovers after the server restarts', async () => {
  const [a, b] = await people(env.browser, 2);
  const link = await create(a, { variant: 'xiangqi', side: 'red' });
  await join(b, link);
  await clickMove(a, 'b2', 'e2');
  await piece(b, 'e2').waitFor();
  await env.server.restart('SIGKILL');
  // Both pages reconnect by themselves and resynchronise from the state message.
  await myTurn(b);
  await b.waitForFunction(() => !document.querySelector('.status')?.textContent.includes('reconnecting'), null, { timeout: 20000 });
  await click(b, 'b9');
  await click(b, 'c7');
  await a.locator('svg.board [data-at="c7"][data-piece="n"]').waitFor({ timeout: 20000 });
  assert.deepEqual(await a.locator('.moves button').allTextContents(), ['C8.5', 'H2+3']);
  await leave(a, b);
});
