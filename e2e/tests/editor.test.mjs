// The board editor (issue 13) in Chromium: a position set up by clicks, drags, the keyboard
// and by paste in each variant, the server's verdict shown in the reader's language, and a
// game started from a valid position.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer } from '../lib/server.mjs';
import { launch, newContext, artifacts } from '../lib/browser.mjs';

let server;
let browser;
before(async () => ([server, browser] = await Promise.all([startServer(), launch()])));
after(() => Promise.all([browser?.close(), server?.close()]));

async function open(variant, lang = 'en') {
  const ctx = await newContext(browser);
  await ctx.addCookies([{ name: 'lang', value: lang, url: server.url }]);
  const page = await ctx.newPage();
  await page.goto(`${server.url}/editor/${variant}`);
  await page.locator('.editor svg.board').waitFor();
  await verdict(page, 'valid');
  return page;
}

/** Waits until the server's verdict is shown: `valid` or `invalid`. */
async function verdict(page, kind) {
  await page.locator(`.editor-verdict.${kind}`).waitFor();
}

const fen = (page) => page.locator('.editor-fen textarea').inputValue();
const pick = (page, piece) => page.click(`.palette-piece[data-piece="${piece}"]`);
const square = (page, sq) => page.click(`[data-square="${sq}"]`);
const pieceOn = (page, sq) => page.locator(`.editor [data-at="${sq}"]`).getAttribute('data-piece');

/** Sets up a position by clicks: clear, then each `[piece, square]` placed from the palette. */
async function place(page, placements) {
  await page.click('[data-tool=clear]');
  for (const [piece, sq] of placements) {
    await pick(page, piece);
    await square(page, sq);
  }
}

async function waitForFen(page, expected) {
  await page.waitForFunction((f) => document.querySelector('.editor-fen textarea').value === f, expected);
}

async function paste(page, text) {
  await page.fill('.editor-fen textarea', text);
}

test('xiangqi: clicks, a drag, right-click, the keyboard; a position to analyse', async () => {
  const page = await open('xiangqi');
  await place(page, [['K', 'e0'], ['k', 'd9'], ['R', 'a0']]);
  await waitForFen(page, '3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1');
  await verdict(page, 'valid');
  // Drag the chariot from a0 to a5, right-click it away, put it back with the keyboard.
  const from = await page.locator('[data-square="a0"]').boundingBox();
  const to = await page.locator('[data-square="a5"]').boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  await waitForFen(page, '3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1');
  await page.click('[data-square="a5"]', { button: 'right' });
  await waitForFen(page, '3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1');
  await page.focus('.palette-piece[data-piece="C"]');
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('.palette-piece[data-piece="C"]', 'aria-pressed'), 'true');
  await page.focus('[data-square="b2"]');
  await page.keyboard.press('Enter');
  await waitForFen(page, '3k5/9/9/9/9/9/9/1C7/9/4K4 w - - 0 1');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await waitForFen(page, '3k5/9/9/9/9/9/9/1CC6/9/4K4 w - - 0 1');
  await page.keyboard.press('Delete');
  await waitForFen(page, '3k5/9/9/9/9/9/9/1C7/9/4K4 w - - 0 1');
  // Black to move, by the radio.
  await page.check('input[name=to-move][value=second]');
  await waitForFen(page, '3k5/9/9/9/9/9/9/1C7/9/4K4 b - - 0 1');
  await verdict(page, 'valid');
  const href = await page.getAttribute('[data-action=analyse]', 'href');
  assert.equal(href, `/analysis/xiangqi?fen=${encodeURIComponent('3k5/9/9/9/9/9/9/1C7/9/4K4 b - - 0 1')}`);
  // Flip and start position.
  await page.click('[data-tool=flip]');
  await page.click('[data-tool=start]');
  await waitForFen(page, 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
  await verdict(page, 'valid');
  await page.context().close();
});

test('xiangqi: problems in Japanese, then a game with a friend from a pasted position', async () => {
  const page = await open('xiangqi', 'ja');
  await paste(page, '4k4/9/9/9/9/9/9/9/9/3KK4 w - - 0 1');
  await verdict(page, 'invalid');
  assert.equal(await page.locator('.editor-verdict li').first().textContent(), '紅の帥・将が2枚あります。1枚だけにしてください。');
  assert.ok(await page.isDisabled('[data-action=friend]'));
  // A text that is no FEN at all is located in Japanese too, never in the server's English.
  await paste(page, 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABZR w - - 0 1');
  await page.locator('.editor-verdict.invalid li', { hasText: '読み取れません' }).waitFor();
  assert.equal(await page.locator('.editor-verdict li').first().textContent(), 'このテキストは局面として読み取れません：盤面の0段目');
  await paste(page, '4k4/9/9/9/9/9/9/9/9/3KK4 w - - 0 1');
  await page.locator('.editor-verdict.invalid li', { hasText: '2枚' }).waitFor();
  // The pasted text is drawn.
  assert.equal(await pieceOn(page, 'd0'), 'K');
  assert.equal(await pieceOn(page, 'e0'), 'K');
  await paste(page, '3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1');
  await verdict(page, 'valid');
  assert.equal(await pieceOn(page, 'e1'), 'R');
  await page.click('[data-action=friend]');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await page.locator('svg.board [data-at="e1"][data-piece="R"]').waitFor();
  const id = new URL(page.url()).pathname.split('/').pop();
  const view = await (await fetch(`${server.url}/api/games/${id}`)).json();
  assert.equal(view.initial_fen, '3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1');
  await page.context().close();
});

test('jieqi: covered pieces by clicks, a pool by paste, problems in Hungarian, analysed but not played', async () => {
  const page = await open('jieqi', 'hu');
  await place(page, [['K', 'e0'], ['k', 'd9'], ['X', 'a0'], ['x', 'i9']]);
  await waitForFen(page, '3k4x/9/9/9/9/9/9/9/9/X3K4 w - - 0 1');
  await verdict(page, 'valid');
  assert.ok(await page.isDisabled('[data-action=friend]'));
  // An explicit pool: it starts from the one the server derived, and the steppers change it.
  await page.uncheck('input[name=pool-auto]');
  await waitForFen(page, '3k4x/9/9/9/9/9/9/9/9/X3K4 w A2B2N2R2C2P5a2b2n2r2c2p5 0 1');
  await page.locator('.hand-count[data-store="pool"][data-owner="first"][data-kind="R"] .less').click();
  await waitForFen(page, '3k4x/9/9/9/9/9/9/9/9/X3K4 w A2B2N2R1C2P5a2b2n2r2c2p5 0 1');
  await verdict(page, 'valid');
  await page.check('input[name=pool-auto]');
  await waitForFen(page, '3k4x/9/9/9/9/9/9/9/9/X3K4 w - - 0 1');
  await paste(page, '3k4x/9/9/9/9/9/9/9/X8/4K4 w R1r1 0 1');
  await verdict(page, 'invalid');
  assert.equal(
    await page.locator('.editor-verdict li').first().textContent(),
    'a1: lefordított bábu (Piros) csak a saját oldala kezdőpontjain állhat.',
  );
  assert.equal(await page.isChecked('input[name=pool-auto]'), false);
  assert.equal(await page.locator('.hand-count[data-store="pool"][data-owner="second"][data-kind="R"] output').textContent(), '1');
  await page.screenshot({ path: path.join(artifacts, 'editor-jieqi-hu.png'), fullPage: true });
  await page.context().close();
});

test('shogi: clicks and hands, nifu in Spanish and English, a game from a pasted position', async () => {
  const page = await open('shogi');
  await place(page, [['K', '5i'], ['k', '5a'], ['P', '5g']]);
  const more = page.locator('.hand-count[data-owner="second"][data-kind="P"] .more');
  await more.click();
  await more.click();
  await waitForFen(page, '4k4/9/9/9/9/9/4P4/9/4K4 b 2p 1');
  await verdict(page, 'valid');
  await page.locator('.hand-count[data-owner="second"][data-kind="P"] .less').click();
  await waitForFen(page, '4k4/9/9/9/9/9/4P4/9/4K4 b p 1');
  // Nifu by a click (the pawn is still chosen in the palette): a second sente pawn on file 5.
  assert.equal(await page.getAttribute('.palette-piece[data-piece="P"]', 'aria-pressed'), 'true');
  await square(page, '5e');
  await verdict(page, 'invalid');
  assert.equal(await page.locator('.editor-verdict li').first().textContent(), 'Nifu on file 5: Sente has two unpromoted pawns there.');
  await page.context().close();

  const es = await open('shogi', 'es');
  await paste(es, 'k3P4/9/9/9/9/9/9/9/K8 b - 1');
  await verdict(es, 'invalid');
  assert.equal(await es.locator('.editor-verdict li').first().textContent(), '5a: esta pieza (peón, Sente) nunca podría moverse desde aquí.');
  await paste(es, 'k8/9/9/9/9/9/9/9/K8 b G 1');
  await verdict(es, 'valid');
  await es.click('[data-action=friend]');
  await es.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await es.locator('svg.board [data-at="9i"][data-piece="K"]').waitFor();
  await es.context().close();
});

test('minishogi: clicks, paste, the side not to move in check, a game against the computer', async () => {
  const page = await open('minishogi');
  await place(page, [['K', '3e'], ['k', '3a'], ['+R', '1c']]);
  await waitForFen(page, '2k2/5/4+R/5/2K2 b - 1');
  await verdict(page, 'valid');
  await paste(page, '2k2/2R2/5/5/2K2 b - 1');
  await verdict(page, 'invalid');
  assert.equal(await page.locator('.editor-verdict li').first().textContent(), 'The side not to move (Gote) is in check.');
  assert.equal(await pieceOn(page, '3b'), 'R');
  assert.ok(await page.isDisabled('[data-action=computer]'));
  // Play the computer (level 2) from a legal position.
  await paste(page, '2k2/5/2R2/5/2K2 w - 1');
  await verdict(page, 'valid');
  await page.selectOption('select[name=level]', '2');
  await page.click('[data-action=computer]');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = new URL(page.url()).pathname.split('/').pop();
  const view = await (await fetch(`${server.url}/api/games/${id}`)).json();
  assert.equal(view.initial_fen, '2k2/5/2R2/5/2K2 w - 1');
  assert.equal(view.status, 'playing');
  assert.equal(view.computer?.level ?? view.computer, 2, JSON.stringify(view.computer));
  await page.context().close();
});

test('the editor is linked from the home page and the rules', async () => {
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await page.goto(`${server.url}/`);
  await page.click('.variant-card a[href="/editor/shogi"]');
  await page.waitForURL(/\/editor\/shogi$/);
  await page.locator('.editor svg.board').waitFor();
  await page.goto(`${server.url}/rules/minishogi`);
  await page.click('.editor-cta a[href="/editor/minishogi"]');
  await page.waitForURL(/\/editor\/minishogi$/);
  await ctx.close();
});

test('editor → game: the side to move is the default side, a clock can be chosen; the position lives in the URL through Analyse, Back and reload', async () => {
  // Sente to move, mate in one (G*5b).
  const mateIn1 = '4k4/9/4P4/9/9/9/9/9/4K4 b G 1';
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await page.goto(`${server.url}/editor/shogi?sfen=${encodeURIComponent(mateIn1)}`);
  await verdict(page, 'valid');
  assert.equal(await page.locator('select[name=side]').inputValue(), 'sente', 'the side to move by default');
  // Gote to move: the default follows; back to sente.
  await page.click('.editor-turn label:has(input[value=second])');
  await verdict(page, 'valid');
  assert.equal(await page.locator('select[name=side]').inputValue(), 'gote');
  assert.match(decodeURIComponent(page.url()), /\?sfen=4k4\/9\/4P4\/9\/9\/9\/9\/9\/4K4 w G 1$/);
  await page.click('.editor-turn label:has(input[value=first])');
  await verdict(page, 'valid');
  // The clock choices are the one clock label's.
  assert.deepEqual(await page.locator('select[name=clock] option').allInnerTexts(), ['10 min + 30 s byo-yomi', '3 min + 10 s byo-yomi', '30 min + 1 min byo-yomi', 'No clock']);
  await page.selectOption('select[name=clock]', '1');
  await page.screenshot({ path: path.join(artifacts, 'editor-game-choices.png') });

  // Analyse, then Back: the editor shows the edited position, not the start.
  await page.click('[data-action=analyse]');
  await page.waitForURL(/\/analysis\/shogi\?sfen=/);
  await page.goBack();
  await page.locator('.editor svg.board').waitFor();
  await verdict(page, 'valid');
  assert.equal(await fen(page), mateIn1);
  // A reload keeps it too.
  await page.reload();
  await verdict(page, 'valid');
  assert.equal(await fen(page), mateIn1);

  // Play the computer: the player is sente (to move), with the chosen clock.
  await page.selectOption('select[name=clock]', '1');
  await page.selectOption('select[name=level]', '1');
  await page.click('[data-action=computer]');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = new URL(page.url()).pathname.split('/').pop();
  const view = await (await fetch(`${server.url}/api/games/${id}`)).json();
  assert.equal(view.initial_fen, mateIn1);
  assert.equal(view.to_move, 'sente');
  assert.equal(view.computer?.side, 'gote', JSON.stringify(view.computer));
  assert.deepEqual(view.clock_settings, { main: 180, increment: 0, byoyomi: 10, periods: 1 });
  await page.locator('.time-control').waitFor();
  assert.equal(await page.locator('.time-control').innerText(), 'Clock: 3 min + 10 s byo-yomi');
  await ctx.close();
});
