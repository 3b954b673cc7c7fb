// Correspondence games in the browser (issue 25): created from the home form with days per
// move, joined by a friend through the link; the clock shows days and hours to a deadline;
// the player to move sees the game first in "My games", marked, and the tab title counts the
// games where it is their move, on any page of the site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.mjs';
import { launch, newContext, choose } from '../lib/browser.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const gameId = (page) => new URL(page.url()).pathname.split('/').pop();

test('a correspondence game from the home form: days on the clock, your turn first in My games and in the tab title', async () => {
  const a = await (await newContext(browser)).newPage();
  const b = await (await newContext(browser)).newPage();
  // Red creates it: Correspondence, 2 days per move.
  await a.goto(`${server.url}/`);
  await a.locator('.lobby .lobby-counts .players').waitFor();
  await choose(a, 'variant', 'xiangqi');
  await choose(a, 'clock', 'days');
  await a.locator('.days-clock').waitFor();
  await a.selectOption('select[name=days]', '2');
  await choose(a, 'side', 'red');
  await a.locator('form.create button[type=submit]').click();
  await a.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = gameId(a);
  const view = await a.evaluate(async (gid) => (await fetch(`/api/games/${gid}`)).json(), id);
  assert.equal(view.clock_settings.days, 2);
  assert.equal(view.time_control, '2d');
  // A friend follows the link and takes the other seat.
  await b.goto(`${server.url}/g/${id}`);
  await b.locator('button.take-seat').click();
  await b.locator('.join').waitFor({ state: 'hidden' });
  // Red has two days for the first move: the clock says so, and the deadline on hover.
  await a.locator('.player.bottom.to-move').waitFor();
  const clock = a.locator('.clock[data-side="red"] .time');
  await a.waitForFunction(() => /^[12] d \d+ h$/.test(document.querySelector('.clock[data-side="red"] .time')?.textContent || ''));
  assert.match(await clock.textContent(), /^1 d 23 h$|^2 d 0 h$/);
  assert.match(await a.locator('.clock[data-side="red"]').getAttribute('title'), /^Move by /);
  // Red moves; now it is Black's turn.
  await a.locator('svg.board [data-square="h2"]').click();
  await a.locator('svg.board [data-square="e2"]').click();
  await b.locator('.player.bottom.to-move').waitFor();
  // Black's home page: the game comes first in My games, marked, and the title counts it.
  await b.goto(`${server.url}/`);
  const first = b.locator('.my-games li').first();
  await first.locator('.your-turn').waitFor();
  assert.equal(await first.locator('a').getAttribute('href'), `/g/${id}`);
  assert.equal((await first.locator('.your-turn').textContent()).trim(), 'Your move');
  assert.match(await first.locator('a').textContent(), /2 days per move/);
  await b.waitForFunction(() => document.title.startsWith('(1) '));
  // Another page of the site keeps the count in front of its own title.
  await b.goto(`${server.url}/rules/xiangqi`);
  await b.waitForFunction(() => /^\(1\) .*Jiang/.test(document.title));
  // Red's home page: not Red's turn, no count.
  await a.goto(`${server.url}/`);
  await a.locator(`.my-games li a[href="/g/${id}"]`).waitFor();
  assert.equal(await a.locator('.my-games li.my-turn').count(), 0);
  await a.waitForTimeout(300);
  assert.doesNotMatch(await a.title(), /^\(\d+\) /);
  // Black answers from the game page; the count goes with the turn.
  await b.goto(`${server.url}/g/${id}`);
  await b.locator('.player.bottom.to-move').waitFor();
  await b.locator('svg.board [data-square="h7"]').click();
  await b.locator('svg.board [data-square="e7"]').click();
  await b.waitForFunction(() => !/^\(\d+\) /.test(document.title));
  await a.waitForFunction(() => document.title.startsWith('(1) '), null, { timeout: 40000 });
  // Notifications are the user's to turn on (a checkbox under My games): off until then.
  assert.equal(await a.locator('.my-games input.turn-notify').isChecked(), false);
  assert.equal(await a.evaluate(() => localStorage.getItem('jiang.turnNotify')), null);
});
