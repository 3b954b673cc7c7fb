// Live play comforts (issue 14) in Chromium, for each variant: two browser contexts (two
// people) chat, take back a move, premove, and one claims the win after the other vanishes.
// The keyboard does the answering (takeback, claim) and a drop from the hand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.mjs';
import { launch, newContext } from '../lib/browser.mjs';

let server;
let browser;

before(async () => {
  // The shortest grace period: a 1-minute game waits 6 s before a claim (docs/api.md).
  process.env.JIANG_CLAIM_GRACE_MIN = '1';
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** The first side and a shuffle of both kings: legal from the start, no capture, no reveal. */
const KINGS = {
  xiangqi: ['red', ['e0e1', 'e9e8', 'e1e0', 'e8e9']],
  jieqi: ['red', ['e0e1', 'e9e8', 'e1e0', 'e8e9']],
  shogi: ['sente', ['5i4h', '5a4b', '4h5i', '4b5a']],
  minishogi: ['sente', ['5e4d', '1a2b', '4d5e', '2b1a']],
};

/** The third move of KINGS, taken back, as the English page's notation writes it. */
const TAKEN_BACK = { xiangqi: 'K5-1', jieqi: 'K5-1', shogi: 'K-59', minishogi: 'K-55' };

async function api(path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = await res.json();
  assert.ok(res.ok, `${path}: ${JSON.stringify(json)}`);
  return json;
}

/** A browser (context) holding `token`'s seat in game `id`, on the game page. */
async function player(id, token) {
  const ctx = await newContext(browser);
  await ctx.addInitScript(([k, v]) => {
    try {
      localStorage.setItem(k, v);
    } catch {
      /* about:blank has no storage */
    }
  }, [`jiang.token.${id}`, token]);
  const page = await ctx.newPage();
  await page.goto(`${server.url}/g/${id}`);
  await page.locator('svg.board [data-piece]').first().waitFor();
  await page.locator('.chat #chat-input').waitFor();
  return { ctx, page };
}

const square = (page, sq) => page.locator(`svg.board [data-square="${sq}"]`);
const plies = (page) => page.locator('.moves button[data-ply]').count();

async function waitPlies(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('.moves button[data-ply]').length === n, n);
}

/** Plays `mv` (a board move in machine notation) by clicking its two squares. */
async function play(page, mv) {
  await page.locator('.player.bottom.to-move').waitFor();
  await square(page, mv.slice(0, 2)).click();
  await square(page, mv.slice(2, 4)).click();
}

for (const variant of Object.keys(KINGS)) {
  test(`${variant}: chat, takeback, premove, and a claim after the opponent vanishes`, async () => {
    const [first, moves] = KINGS[variant];
    const created = await api('/api/games', { variant, side: first, clock: { main: 60 } });
    const joined = await api(`/api/games/${created.id}/join`, {});
    const a = await player(created.id, created.token);
    const b = await player(created.id, joined.token);

    // Chat: text only (markup and links stay text), both ways.
    const text = 'hi <b>bold</b> https://example.com';
    await a.page.locator('#chat-input').fill(text);
    await a.page.locator('#chat-input').press('Enter');
    const line = b.page.locator('.chat-log li', { hasText: 'https://example.com' });
    await line.waitFor();
    assert.equal(await line.locator('.text').textContent(), text);
    assert.equal(await b.page.locator('.chat-log b, .chat-log a').count(), 0, 'no markup from chat');
    await b.page.locator('#chat-input').fill('good luck');
    await b.page.locator('.chat-form button[type=submit]').click();
    await a.page.locator('.chat-log li', { hasText: 'good luck' }).waitFor();

    // Three moves; the first player asks to take back the third, the second accepts by keyboard.
    await play(a.page, moves[0]);
    await waitPlies(b.page, 1);
    await play(b.page, moves[1]);
    await waitPlies(a.page, 2);
    await play(a.page, moves[2]);
    await waitPlies(b.page, 3);
    await a.page.locator('[data-action=takeback-request]').click();
    const accept = b.page.locator('.takeback-box [data-action=takeback-accept]');
    await accept.focus();
    await b.page.keyboard.press('Enter');
    await waitPlies(a.page, 2);
    await waitPlies(b.page, 2);
    await a.page.locator('.chat-log li.note').waitFor();
    // The note names the move in the page's notation (WXF, Western), never in machine text.
    const note = await a.page.locator('.chat-log li.note').textContent();
    assert.equal(note, `${first === 'red' ? 'Red' : 'Sente'} took back: ${TAKEN_BACK[variant]}`);

    // Premove: the second player queues its move while the first is to move; a click on the
    // board takes it back; queued again, it is played at once after the first's move.
    await square(b.page, moves[3].slice(0, 2)).click();
    await square(b.page, moves[3].slice(2, 4)).click();
    await b.page.locator('svg.board .marks .premove').first().waitFor();
    assert.equal(await a.page.locator('svg.board .marks .premove').count(), 0, 'the opponent never sees it');
    await square(b.page, moves[3].slice(0, 2)).click();
    await b.page.locator('svg.board .marks .premove').first().waitFor({ state: 'detached' });
    await square(b.page, moves[3].slice(0, 2)).click();
    await square(b.page, moves[3].slice(2, 4)).click();
    await b.page.locator('[data-action=premove-cancel]').waitFor();
    assert.equal(await b.page.locator('[data-action=premove-cancel]').textContent(), 'Cancel the premove (marked on the board)');
    await play(a.page, moves[2]);
    await waitPlies(a.page, 4);
    await waitPlies(b.page, 4);
    assert.equal(await b.page.locator('svg.board .marks .premove').count(), 0);
    assert.equal(await plies(b.page), 4);

    // The second player vanishes: the first sees the mark within 5 s, then claims by keyboard.
    await b.ctx.close();
    await a.page.locator('.player .away-mark').waitFor({ timeout: 5000 });
    const claim = a.page.locator('.claim-box [data-action=claim-win]');
    await claim.waitFor({ timeout: 20000 });
    await claim.focus();
    await a.page.keyboard.press('Enter');
    await a.page.locator('.banner[data-reason=disconnection]').waitFor();
    await a.ctx.close();
  });
}

test('shogi: a drop from the hand by keyboard', async () => {
  const created = await api('/api/games', { variant: 'shogi', side: 'sente' });
  const joined = await api(`/api/games/${created.id}/join`, {});
  for (const [mv, token] of [['7g7f', created.token], ['3c3d', joined.token], ['8h2b+', created.token], ['3a2b', joined.token]])
    await api(`/api/games/${created.id}/move`, { move: mv }, token);
  const a = await player(created.id, created.token);
  await a.page.locator('.player.bottom.to-move').waitFor();
  // The hand's bishop is a tab stop; Enter picks it and sends the focus to the board.
  const hand = a.page.locator('svg.board [data-hand="B"]');
  assert.equal(await hand.getAttribute('tabindex'), '0');
  // On a square, the piece letter picks the piece from the hand; Enter drops it there.
  await square(a.page, '5e').focus();
  await a.page.keyboard.press('b');
  await a.page.keyboard.press('Enter');
  await waitPlies(a.page, 5);
  assert.equal(await a.page.locator('svg.board [data-at="5e"]').getAttribute('data-piece'), 'B');
  await a.ctx.close();
});
