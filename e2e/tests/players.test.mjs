// Players without accounts (issue 24) in the browser: two people become players with one click
// each, meet rated through the lobby's quick pairing, one resigns, and both see their new
// ratings on their player pages (and the winner's in the next seek); the key carried to a new
// browser by its link (`/#key=…`) is the same player there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newContext } from '../lib/browser.mjs';
import { serverAndBrowser } from '../lib/fixture.mjs';

const env = serverAndBrowser();

/** Becomes a player named `name` from the home page; returns the player page's id. */
async function becomePlayer(page, name) {
  await page.goto(`${env.server.url}/`);
  await page.locator('form.become-player input[name=name]').fill(name);
  await page.locator('form.become-player button[type=submit]').click();
  await page.waitForURL(/\/player\/[A-Za-z0-9]+$/);
  await page.locator('.player-page .player-name', { hasText: name }).waitFor();
  // The key is shown once, as a link and a QR code, with the warning.
  const link = await page.locator('.player-key .carry-link').inputValue();
  assert.match(link, /\/#key=[A-Za-z0-9]{43}$/);
  await page.locator('.player-key .qr svg').waitFor();
  return { id: await page.locator('.player-page').getAttribute('data-id'), link };
}

/** Ticks "rated" and clicks the quick pairing button of xiangqi 10 + 5 on the home page. */
async function quickRated(page) {
  await page.goto(`${env.server.url}/`);
  await page.locator('.player-box .playing-as').waitFor();
  const rated = page.locator('input.quick-rated');
  if (!(await rated.isChecked())) await rated.check();
  await page.locator('button.quick-pair[data-variant=xiangqi][data-clock="10 min + 5 s"]').first().click();
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
}

const gameId = (page) => new URL(page.url()).pathname.split('/').pop();

/** The rating shown for xiangqi on `page`'s player page of `who`. */
async function shownRating(page, who) {
  await page.goto(`${env.server.url}/player/${encodeURIComponent(who)}`);
  const cell = page.locator('table.ratings tr[data-variant=xiangqi] .rating-value').first();
  await cell.waitFor();
  return cell.textContent();
}

test('two players meet rated through the lobby, one wins, both see their new ratings', async () => {
  const a = await (await newContext(env.browser)).newPage();
  const b = await (await newContext(env.browser)).newPage();
  const alice = await becomePlayer(a, 'alice');
  const bob = await becomePlayer(b, '王小明');
  assert.notEqual(alice.id, bob.id);

  await quickRated(a);
  const id = gameId(a);
  // Bob's lobby lists Alice's rated seek with her name and provisional rating.
  await b.goto(`${env.server.url}/`);
  const seek = b.locator(`.seek-table tr[data-id="${id}"]`);
  await seek.locator('.rated-mark').waitFor();
  assert.match(await seek.locator('.seek-player').textContent(), /alice \(1500\?\)/);
  await quickRated(b);
  assert.equal(gameId(b), id, 'the rated seek was taken');
  // Both names stand by the seats; the game says it is rated.
  await a.locator('.player .seat-player', { hasText: '王小明' }).waitFor();
  await b.locator('.player .seat-player', { hasText: 'alice' }).waitFor();
  assert.match(await a.locator('.time-control').textContent(), /Rated/);

  // Bob resigns (before his first move the page offers Abort alone: through the API, with the
  // seat's token as the page keeps it).
  await b.evaluate(async (gid) => {
    const token = localStorage.getItem(`jiang.token.${gid}`);
    const r = await fetch(`/api/games/${gid}/resign`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
    if (!r.ok) throw new Error(`resign: ${r.status}`);
  }, id);
  await a.locator('.banner[data-reason]').waitFor();

  const aliceRating = await shownRating(a, 'alice');
  const bobRating = await shownRating(b, '王小明');
  assert.match(aliceRating, /^1[6-9]\d\d\?$/, `alice won: ${aliceRating}`);
  assert.match(bobRating, /^1[0-4]\d\d\?$/, `bob lost: ${bobRating}`);
  // The graph and the game list, with the result and the change.
  await a.locator('.graph[data-variant=xiangqi] svg.rating-graph').waitFor();
  const row = a.locator(`.player-game[data-id="${id}"]`);
  assert.match(await row.locator('.result').textContent(), /won/i);
  assert.match(await row.locator('.rating-change').textContent(), /^\+\d+$/);
  // And in the next seek, Alice shows her new rating.
  await quickRated(a);
  const next = gameId(a);
  await b.goto(`${env.server.url}/`);
  const nextSeek = b.locator(`.seek-table tr[data-id="${next}"] .seek-player`);
  await nextSeek.waitFor();
  assert.match(await nextSeek.textContent(), new RegExp(`alice \\(${aliceRating.replace('?', '\\?')}\\)`));
  await a.context().close();
  await b.context().close();
});

test('the carry link makes a new browser the same player, and leaves the address bar', async () => {
  const a = await (await newContext(env.browser)).newPage();
  const carol = await becomePlayer(a, 'carol');
  const other = await (await newContext(env.browser)).newPage();
  await other.goto(carol.link);
  await other.waitForURL(/\/player\/[A-Za-z0-9]+$/);
  assert.ok(!other.url().includes('key='), other.url());
  await other.locator('.player-key .rotate-key').waitFor();
  assert.equal(await other.locator('.player-page').getAttribute('data-id'), carol.id);
  await other.goto(`${env.server.url}/`);
  assert.equal(await other.locator('.player-box .my-player').textContent(), 'carol');
  await a.context().close();
  await other.context().close();
});
