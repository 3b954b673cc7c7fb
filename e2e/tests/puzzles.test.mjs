// The puzzle trainer (issue 26) in a real browser on the shipped sets: every variant's trainer
// solves a shipped puzzle by clicking (drops and promotions included) and shows the rating and
// "Analyse"; a wrong move, a hint and the solution; the keyboard; a phone; the home page's
// daily puzzles. The solutions come from the repository's files, never from the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serverAndBrowser } from '../lib/fixture.mjs';
import { repo } from '../lib/server.mjs';

const env = serverAndBrowser();
const VARIANTS = ['xiangqi', 'jieqi', 'shogi', 'minishogi'];

/** The shipped puzzles of `variant`, from every file of the repository's `puzzles/`. */
function shipped(variant) {
  const dir = path.join(repo, 'puzzles');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)))
    .filter((p) => p.variant === variant);
}

/** A shipped puzzle of `variant` with at least `moves` solver moves if there is one (else the longest). */
function pick(variant, moves = 1, want = () => true) {
  const all = shipped(variant).filter(want);
  assert.ok(all.length, `no shipped ${variant} puzzle`);
  return all.find((p) => Math.ceil(p.solution.length / 2) >= moves) || all.sort((a, b) => b.solution.length - a.solution.length)[0];
}

const waitPly = (page, ply) => page.waitForFunction((n) => document.querySelector('.puzzles')?.dataset.ply === String(n) && document.querySelector('.puzzles')?.dataset.state !== 'loading', ply);

/** Plays `move` (ICCS or USI, as the solution has it) on the trainer's board by clicking. */
async function playMove(page, variant, move) {
  const family = variant === 'shogi' || variant === 'minishogi' ? 'shogi' : 'xiangqi';
  if (family === 'shogi' && move[1] === '*') {
    await page.locator(`.hand-piece.movable[data-hand="${move[0]}" i]`).first().click();
    await page.click(`[data-square="${move.slice(2, 4)}"]`);
    return;
  }
  await page.click(`[data-square="${move.slice(0, 2)}"]`);
  await page.click(`[data-square="${move.slice(2, 4)}"]`);
  if (family === 'shogi') {
    // The promotion question comes only where the move may promote.
    const dialog = page.locator('dialog.promo[open]');
    if (await dialog.isVisible({ timeout: 400 }).catch(() => false)) await dialog.locator(move.endsWith('+') ? '.promo-yes' : '.promo-no').click();
  }
}

/** Plays a puzzle's whole solution on the page; each reply is waited for. */
async function solve(page, puzzle) {
  for (let i = 0; i < puzzle.solution.length; i += 2) {
    await waitPly(page, i);
    await playMove(page, puzzle.variant, puzzle.solution[i]);
  }
  await page.waitForSelector('.puzzle-status.solved');
}

for (const variant of VARIANTS) {
  test(`the ${variant} trainer solves a shipped puzzle`, async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const puzzle = pick(variant, 2);
    await page.goto(`${env.server.url}/puzzles/${variant}?id=${puzzle.id}`);
    await waitPly(page, 0);
    const html = await page.content();
    if (puzzle.solution.length > 1) assert.ok(!html.includes(puzzle.solution[1]), 'no reply before it is played');
    await solve(page, puzzle);
    assert.equal(await page.locator('.puzzles').getAttribute('data-ply'), String(puzzle.solution.length));
    assert.match(await page.locator('.puzzle-rating').textContent(), /\d/);
    const analyse = page.locator('.analyse-link');
    assert.ok(await analyse.isVisible());
    assert.ok((await analyse.getAttribute('href')).startsWith(`/analysis/${variant}?fen=`));
    // The next one is another puzzle.
    await page.click('.next-button');
    await page.waitForFunction((id) => !location.search.includes(id) && document.querySelector('.puzzles')?.dataset.state === 'solving', puzzle.id);
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

test('a wrong move, a hint, then the solution', async () => {
  const page = await env.browser.newPage();
  const puzzle = pick('xiangqi', 2);
  // A legal move that the server calls wrong (asked without a rating: nothing is stored).
  const base = env.server.url;
  const answer = await (await fetch(`${base}/api/analysis`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ variant: 'xiangqi', fen: puzzle.position, style: 'iccs' }) })).json();
  let wrong = null;
  for (const mv of answer.positions[0].legal_moves) {
    const r = await (await fetch(`${base}/api/puzzles/${puzzle.id}/move`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ move: mv }) })).json();
    if (r.result === 'wrong') {
      wrong = mv;
      break;
    }
  }
  assert.ok(wrong, 'a wrong move exists');
  await page.goto(`${base}/puzzles/xiangqi?id=${puzzle.id}`);
  await waitPly(page, 0);
  await playMove(page, 'xiangqi', wrong);
  await page.waitForSelector('.puzzle-status.wrong');
  assert.match(await page.locator('.puzzle-rating').textContent(), /\(-\d+\)/, 'the first wrong move is rated');
  await page.click('.hint-button');
  await page.waitForFunction((sq) => document.querySelector('.puzzle-note')?.textContent.includes(sq), puzzle.solution[0].slice(0, 2));
  assert.ok(await page.locator(`.marks .hl`).count(), 'the hinted piece is highlighted');
  await page.click('.solution-button');
  await page.waitForSelector('.puzzle-status.shown');
  await waitPly(page, puzzle.solution.length);
  await page.close();
});

test('the keyboard plays a puzzle', async () => {
  const page = await env.browser.newPage();
  const puzzle = pick('xiangqi', 1);
  await page.goto(`${env.server.url}/puzzles/xiangqi?id=${puzzle.id}`);
  for (let i = 0; i < puzzle.solution.length; i += 2) {
    await waitPly(page, i);
    const mv = puzzle.solution[i];
    await page.focus(`[data-square="${mv.slice(0, 2)}"]`);
    await page.keyboard.press('Enter');
    await page.focus(`[data-square="${mv.slice(2, 4)}"]`);
    await page.keyboard.press('Enter');
  }
  await page.waitForSelector('.puzzle-status.solved');
  await page.close();
});

test('on a phone the trainer fits and a drop is a tap', async () => {
  const ctx = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await ctx.newPage();
  const puzzle = pick('shogi', 1, (p) => p.solution[0].includes('*')) || pick('shogi', 1);
  await page.goto(`${env.server.url}/puzzles/shogi?id=${puzzle.id}`);
  await waitPly(page, 0);
  const width = await page.evaluate(() => document.scrollingElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling: ${width}`);
  const boardBox = await page.locator('.board-host').boundingBox();
  assert.ok(boardBox.width > 300, `the board uses the width: ${boardBox.width}`);
  await solve(page, puzzle);
  await ctx.close();
});

test('the home page links each daily puzzle', async () => {
  const page = await env.browser.newPage();
  await page.goto(env.server.url);
  await page.waitForSelector('.daily-list a');
  const links = await page.locator('.daily-list a').evaluateAll((as) => as.map((a) => a.dataset.daily));
  assert.deepEqual(links, VARIANTS);
  await page.locator('.daily-list a[data-daily=minishogi]').click();
  await page.waitForFunction(() => location.pathname === '/puzzles/minishogi' && document.querySelector('.puzzles')?.dataset.state === 'solving');
  const daily = await (await fetch(`${env.server.url}/api/puzzles/daily/minishogi`)).json();
  assert.ok(new URL(page.url()).searchParams.get('id') === daily.id);
  await page.close();
});
