// The front door (issue 22): a newcomer's first screens, on a desk (1280×800) and on a phone
// (390×844). The home page's first screen offers playing the computer now (the primary
// action), a stranger and a friend; every page fits a phone with no sideways scroll and no
// clipped board; a seek's creator is brought to the game wherever they are on the site; the
// computer says it is thinking, the banner speaks to the player, only the buttons that apply
// are shown; Watch marks games against the computer; a move made while the server is away is
// shown as pending and confirmed when it is back, with the clocks shown paused meanwhile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { newContext, playComputer, artifacts } from '../lib/browser.mjs';
import { serverAndBrowser } from '../lib/fixture.mjs';

const env = serverAndBrowser();

const DESK = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SIZES = [
  ['desk', DESK],
  ['phone', PHONE],
];
const VARIANTS = ['xiangqi', 'jieqi', 'shogi', 'minishogi'];

async function pageAt(viewport) {
  return (await newContext(env.browser, { viewport })).newPage();
}

/** Creates a game through the API from `page`'s origin; keeps the seat as the UI does. */
async function apiGame(page, body) {
  await page.goto(`${env.server.url}/`);
  const res = await page.evaluate(async (b) => (await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) })).json(), body);
  assert.ok(res.id, JSON.stringify(res));
  await page.evaluate(([id, token, side]) => {
    localStorage.setItem(`jiang.token.${id}`, token);
    localStorage.setItem(`jiang.side.${id}`, side);
  }, [res.id, res.token, res.side]);
  return res;
}

for (const [size, viewport] of SIZES) {
  test(`${size}: the first screen offers the computer now (primary), a stranger and a friend; one click starts a computer game`, async () => {
    const page = await pageAt(viewport);
    await page.goto(`${env.server.url}/`);
    const primary = page.locator('button.play-computer');
    await primary.waitFor();
    await page.locator('.quick-pair').first().waitFor();
    const b = await primary.boundingBox();
    assert.ok(b.y >= 0 && b.y + b.height <= viewport.height, `the primary button at ${b.y}–${b.y + b.height} px`);
    assert.match(await primary.getAttribute('class'), /\bprimary\b/);
    // The stranger and the friend follow, in less weight; the lobby and Watch below them.
    const order = await page.evaluate(() => ['.computer-card', '.stranger-card', '.friend-card', '.lobby', '.watch'].map((s) => document.querySelector(s).getBoundingClientRect().top));
    if (size === 'desk') {
      assert.ok(order[1] < viewport.height && order[2] < viewport.height, `stranger and friend cards in view: ${order}`);
      assert.ok(order[0] <= order[1] && order[1] < order[2], `${order}`);
    } else assert.ok(order[0] < order[1] && order[1] < order[2], `${order}`);
    assert.ok(order[3] > order[2] && order[4] > order[3], `lobby and Watch below: ${order}`);
    assert.equal(await page.locator('.friend-card button[type=submit]').count(), 1);
    await page.screenshot({ path: path.join(artifacts, `frontdoor-home-${size}.png`) });

    // Sensible defaults: one click, and the computer game is under way with the newcomer to move.
    await primary.click();
    await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
    await page.locator('.player.top .computer-name').waitFor();
    await page.locator('.player.bottom.to-move').waitFor();
    const box = await page.locator('svg.board').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= viewport.width + 0.5, `board ${box.x}+${box.width}`);
    await page.screenshot({ path: path.join(artifacts, `frontdoor-computer-${size}.png`) });
    await page.context().close();
  });
}

/** Pages at phone size: their scroll width and the board's box. */
async function fits(page, url, viewport, what) {
  await page.goto(`${env.server.url}${url}`);
  await page.locator('main#main > *').first().waitFor();
  if (/^\/(g|analysis|editor)\//.test(url)) await page.locator('svg.board [data-piece]').first().waitFor();
  await page.waitForTimeout(200);
  const m = await page.evaluate(() => {
    const b = document.querySelector('svg.board')?.getBoundingClientRect();
    return { width: document.documentElement.scrollWidth, board: b ? [b.left, b.right] : null };
  });
  assert.ok(m.width <= viewport.width, `${what} ${url}: ${m.width} px wide`);
  if (m.board) assert.ok(m.board[0] >= 0 && m.board[1] <= viewport.width + 0.5, `${what} ${url}: board ${m.board}`);
  return m;
}

test('every page fits a 390 px phone (no sideways scroll, the board whole); the analysis page fits a desk', async () => {
  const page = await pageAt(PHONE);
  const urls = ['/', '/rules/xiangqi', '/rules/jieqi', '/rules/shogi', '/rules/minishogi', '/tournaments'];
  for (const v of VARIANTS) urls.push(`/analysis/${v}`, `/editor/${v}`);
  for (const v of VARIANTS) {
    const res = await apiGame(page, { variant: v, opponent: { computer: 1 }, clock: null });
    urls.push(`/g/${res.id}`);
  }
  for (const url of urls) await fits(page, url, PHONE, 'phone');
  await page.goto(`${env.server.url}/analysis/shogi`);
  await page.screenshot({ path: path.join(artifacts, 'frontdoor-analysis-phone.png') });
  await page.context().close();
  const desk = await pageAt(DESK);
  for (const v of VARIANTS) await fits(desk, `/analysis/${v}`, DESK, 'desk');
  await desk.context().close();
});

for (const [size, viewport] of SIZES) {
  test(`${size}: a seek's creator elsewhere on the site is taken to the game (rules page) or told with a link (analysis) within 2 s`, async () => {
    const creator = await pageAt(viewport);
    const stranger = await pageAt(viewport);
    for (const [where, variant] of [['/rules/shogi', 'minishogi'], ['/analysis/xiangqi', 'jieqi']]) {
      await creator.goto(`${env.server.url}/`);
      await creator.locator(`button.quick-pair[data-variant=${variant}]`).click();
      await creator.waitForURL(/\/g\/[A-Za-z0-9]+$/);
      const id = new URL(creator.url()).pathname.split('/').pop();
      // The creator goes elsewhere on the site while waiting.
      await creator.goto(`${env.server.url}${where}`);
      await creator.locator('main#main > *').first().waitFor();
      await creator.waitForTimeout(500);
      await stranger.goto(`${env.server.url}/`);
      const seek = stranger.locator(`.seek-table tr[data-id="${id}"] button[data-join]`);
      await seek.waitFor();
      const t0 = Date.now();
      await seek.click();
      await stranger.waitForURL(new RegExp(`/g/${id}$`));
      if (where.startsWith('/rules')) {
        await creator.waitForURL(new RegExp(`/g/${id}$`), { timeout: 2000 });
      } else {
        const notice = creator.locator(`.seek-notice[data-id="${id}"] a`);
        await notice.waitFor({ timeout: 2000 });
        await creator.screenshot({ path: path.join(artifacts, `frontdoor-seek-notice-${size}.png`) });
        await notice.click();
        await creator.waitForURL(new RegExp(`/g/${id}$`));
      }
      assert.ok(Date.now() - t0 < 2500, `told after ${Date.now() - t0} ms`);
      // The creator is in the game, seated; nothing aborts it.
      await creator.locator('.player.bottom em').waitFor();
      await creator.locator('.banner').waitFor({ state: 'hidden' });
      assert.equal(await creator.evaluate(async (gid) => (await (await fetch(`/api/games/${gid}`)).json()).status, id), 'playing');
      const aborted = await creator.evaluate(async (gid) => (await fetch(`/api/games/${gid}/abort`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem(`jiang.token.${gid}`)}` }, body: '{}' })).status, id);
      assert.equal(aborted, 200);
    }
    await creator.context().close();
    await stranger.context().close();
  });
}

for (const [size, viewport] of SIZES) {
  test(`${size}: against the computer: Abort alone before the first move, "thinking…" while it moves, no first-move countdown, "You lost" on resigning`, async () => {
    const page = await pageAt(viewport);
    await page.goto(`${env.server.url}/`);
    // Level 8 thinks for its pace (about 3 s untimed): long enough to see it thinking.
    await playComputer(page, { variant: 'shogi', clock: 'none', side: 'sente', level: '8' });
    await page.locator('.player.bottom.to-move').waitFor();
    const actions = async () => page.locator('.actions button[data-action]').evaluateAll((bs) => bs.map((b) => b.dataset.action));
    let acts = await actions();
    assert.ok(acts.includes('abort'), `${acts}`);
    for (const a of ['resign', 'takeback-request', 'impasse', 'draw-offer']) assert.ok(!acts.includes(a), `${a} before the first move: ${acts}`);
    assert.ok(await page.locator('.first-move').isHidden(), 'no first-move countdown against the computer');
    await page.fill('#type-move-input', '7g7f');
    await page.press('#type-move-input', 'Enter');
    const thinking = page.locator('.player.top .thinking');
    await thinking.waitFor({ timeout: 5000 });
    await page.screenshot({ path: path.join(artifacts, `frontdoor-thinking-${size}.png`) });
    await page.locator('.moves button[data-ply="2"]').waitFor({ timeout: 20000 });
    await thinking.waitFor({ state: 'detached' });
    acts = await actions();
    assert.ok(acts.includes('resign') && !acts.includes('abort') && !acts.includes('impasse'), `${acts}`);
    page.once('dialog', (d) => d.accept());
    await page.locator('[data-action=resign]').click();
    const banner = page.locator('.banner[data-outcome=lost]');
    await banner.waitFor();
    assert.match(await banner.locator('strong').textContent(), /^You lost$/);
    await page.context().close();
  });
}

test('Watch marks a game against the computer and drops it when its player left', async () => {
  const player = await pageAt(DESK);
  const res = await apiGame(player, { variant: 'xiangqi', side: 'red', opponent: { computer: 3 }, clock: { main: 300, increment: 3 } });
  await player.goto(`${env.server.url}/g/${res.id}`);
  await player.locator('.player.bottom.to-move').waitFor();
  const watcher = await pageAt(PHONE);
  await watcher.goto(`${env.server.url}/`);
  const row = watcher.locator(`.watch-table tr:has(a[href="/g/${res.id}"])`);
  await row.locator('.computer-mark').waitFor();
  assert.match(await row.locator('.computer-mark').textContent(), /computer · level 3/);
  await player.context().close();
  await row.waitFor({ state: 'detached', timeout: 5000 });
  await watcher.context().close();
});

test('chat lines do not break after the name (the player bar\'s layout is not the chat\'s)', async () => {
  const page = await pageAt(PHONE);
  await page.goto(`${env.server.url}/`);
  const display = await page.evaluate(() => {
    const ul = document.createElement('ul');
    ul.className = 'chat-log';
    ul.innerHTML = '<li><span class="who">Red</span> hello</li>';
    document.getElementById('main').append(ul);
    return getComputedStyle(ul.querySelector('.who')).display;
  });
  assert.equal(display, 'inline');
  await page.context().close();
});

for (const [size, viewport] of SIZES) {
  test(`${size}: a move made while the server is down is shown pending with the clocks paused, then confirmed when it is back`, async () => {
    const page = await pageAt(viewport);
    const res = await apiGame(page, { variant: 'xiangqi', side: 'red', opponent: { computer: 1 }, clock: { main: 300, increment: 3 } });
    await page.goto(`${env.server.url}/g/${res.id}`);
    await page.locator('.player.bottom.to-move').waitFor();
    // Two moves each, so that the clocks run.
    await page.fill('#type-move-input', 'h2e2');
    await page.press('#type-move-input', 'Enter');
    await page.locator('.moves button[data-ply="2"]').waitFor({ timeout: 20000 });
    await page.locator('.player.bottom.to-move').waitFor();
    await env.server.stop('SIGKILL');
    try {
      await page.locator('.clock.stale').first().waitFor({ timeout: 10000 });
      await page.locator('.player.bottom.to-move').waitFor();
      await page.fill('#type-move-input', 'b0c2');
      await page.press('#type-move-input', 'Enter');
      const note = page.locator('.pending-note[data-state=pending]');
      await note.waitFor();
      // The move stays drawn, and the clocks do not count on.
      await page.locator('svg.board [data-at="c2"]').waitFor();
      const before = await page.locator('.clock .time').allTextContents();
      await page.waitForTimeout(1500);
      assert.deepEqual(await page.locator('.clock .time').allTextContents(), before);
      await page.screenshot({ path: path.join(artifacts, `frontdoor-pending-${size}.png`) });
    } finally {
      await env.server.start();
    }
    // Back: the move is sent again and confirmed; the note and the paused marks go.
    await page.locator('.pending-note').waitFor({ state: 'hidden', timeout: 20000 });
    await page.locator('.moves button[data-ply="3"]').waitFor({ timeout: 20000 });
    await page.locator('.clock.stale').first().waitFor({ state: 'detached' });
    const status = await page.evaluate(async (id) => (await (await fetch(`/api/games/${id}`)).json()).moves, res.id);
    assert.equal(status[2], 'b0c2');
    await page.context().close();
  });
}

for (const [size, viewport] of SIZES) {
  test(`${size}: a move made while this browser is offline is visibly taken back when the game changed meanwhile`, async () => {
    const a = await pageAt(viewport);
    const b = await pageAt(viewport);
    const res = await apiGame(a, { variant: 'xiangqi', side: 'red', clock: { main: 300, increment: 3 } });
    await a.goto(`${env.server.url}/g/${res.id}`);
    await b.goto(`${env.server.url}/g/${res.id}`);
    await b.locator('button.take-seat').click();
    await b.locator('.join').waitFor({ state: 'hidden' });
    await a.locator('.player.bottom.to-move').waitFor();
    await a.context().setOffline(true);
    try {
      await a.fill('#type-move-input', 'h2e2');
      await a.press('#type-move-input', 'Enter');
      await a.locator('.pending-note[data-state=pending]').waitFor();
      await a.locator('.clock.stale').first().waitFor();
      // Meanwhile the opponent aborts the game (before its first move).
      const status = await b.evaluate(async (gid) => (await fetch(`/api/games/${gid}/abort`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem(`jiang.token.${gid}`)}` }, body: '{}' })).status, res.id);
      assert.equal(status, 200);
    } finally {
      await a.context().setOffline(false);
    }
    // Back online: the move is shown taken back, the board shows the server's position.
    await a.locator('.pending-note[data-state=taken-back]').waitFor({ timeout: 20000 });
    await a.locator('.banner').waitFor();
    await a.locator('svg.board [data-at="h2"][data-piece="C"]').waitFor();
    assert.equal(await a.locator('.moves button').count(), 0);
    await a.screenshot({ path: path.join(artifacts, `frontdoor-taken-back-${size}.png`) });
    await a.context().close();
    await b.context().close();
  });
}
