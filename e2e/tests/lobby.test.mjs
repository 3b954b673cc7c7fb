// The lobby in the browser: two strangers (two browser contexts, no link exchanged) meet with
// one click each, through quick pairing and through an open game, in every variant; the lobby
// lists seeks and games live, and "My games" lists each game with its result.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.mjs';
import { launch, newContext, choose } from '../lib/browser.mjs';

let server;
let browser;

before(async () => {
  // Eight seeks a minute from one address (127.0.0.1) is over the default churn limit; and
  // the two strangers share that address, so their page loads (each asks for the player, the
  // daily puzzles, the lobby and the games' summaries) would meet the API's per-address rate
  // limit on a fast machine (a 429 where a game's status was expected).
  server = await startServer(['--seeks-per-minute', '600', '--max-seeks-per-address', '10', '--rate-limit', '100']);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// Each variant with a quick-pairing clock, as the one clock label writes it.
const VARIANTS = [
  ['xiangqi', '10 min + 5 s'],
  ['jieqi', '5 min + 3 s'],
  ['shogi', '10 min + 30 s byo-yomi'],
  ['minishogi', '3 min + 2 s'],
];

/** The home page with the lobby connected. */
async function home(page) {
  await page.goto(`${server.url}/`);
  await page.locator('.lobby .lobby-counts .players').waitFor();
}

const gameId = (page) => new URL(page.url()).pathname.split('/').pop();

/** Both pages are in game `id`, which has started (the creator's invite box is gone). */
async function bothIn(creator, joiner) {
  await joiner.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  assert.equal(gameId(joiner), gameId(creator));
  await joiner.locator('svg.board [data-piece]').first().waitFor();
  await creator.locator('.invite').waitFor({ state: 'hidden' });
  const answer = await creator.evaluate(async (id) => {
    const r = await fetch(`/api/games/${id}`);
    return { code: r.status, body: await r.json() };
  }, gameId(creator));
  assert.equal(answer.body.status, 'playing', `GET /api/games/{id}: ${answer.code} ${JSON.stringify(answer.body)}`);
}

test('two strangers meet through the lobby with one click each, in every variant; My games shows the results', async () => {
  const a = await (await newContext(browser)).newPage();
  const b = await (await newContext(browser)).newPage();
  const resigned = [];
  for (const [variant, clock] of VARIANTS) {
    // Quick pairing: the first click opens a seek and waits on the game's page …
    await home(a);
    await home(b);
    const quick = (page) => page.locator(`button.quick-pair[data-variant=${variant}][data-clock="${clock}"]`);
    await quick(a).click();
    await a.waitForURL(/\/g\/[A-Za-z0-9]+$/);
    await a.locator('.invite').waitFor();
    // … the stranger's lobby shows it (live), and the same button joins it.
    await b.locator(`.seek-table tr[data-id="${gameId(a)}"]`).waitFor();
    await b.locator(`button.quick-pair.has-seek[data-variant=${variant}][data-clock="${clock}"]`).waitFor();
    await quick(b).click();
    await bothIn(a, b);
    // The game is on the Watch list of a third page.
    const id = gameId(a);
    const c = await (await newContext(browser)).newPage();
    await home(c);
    await c.locator(`.watch-table a[href="/g/${id}"]`).waitFor();
    await c.context().close();
    // The creator resigns: a result for My games. Before one's first move the page offers
    // Abort alone (issue 22), so the resignation goes through the API, with the seat's token.
    await a.evaluate(async (gid) => {
      const token = localStorage.getItem(`jiang.token.${gid}`);
      const r = await fetch(`/api/games/${gid}/resign`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
      if (!r.ok) throw new Error(`resign: ${r.status}`);
    }, id);
    await a.locator('.banner[data-reason]').waitFor();
    resigned.push(id);

    // An open game from the form: listed in the lobby, one click on Join.
    await home(a);
    await choose(a, 'variant', variant);
    await a.locator('input[name=open]').check();
    await a.locator('form.create button[type=submit]').click();
    await a.waitForURL(/\/g\/[A-Za-z0-9]+$/);
    await a.locator('.invite').waitFor();
    const open = gameId(a);
    await home(b);
    const join = b.locator(`.seek-table tr[data-id="${open}"] button[data-join]`);
    await join.waitFor();
    // Keyboard: focus the Join button and press Enter.
    await join.focus();
    await b.keyboard.press('Enter');
    await bothIn(a, b);
    // Once taken, the seek leaves every lobby.
    await home(b);
    await b.locator(`.seek-table tr[data-id="${open}"]`).waitFor({ state: 'detached' });
  }
  // My games, in the browser of the player who won each resigned game.
  await home(b);
  for (const id of resigned) {
    const row = b.locator(`.my-games li:has(a[href="/g/${id}"])`);
    await row.waitFor();
    assert.equal((await row.locator('.my-result').textContent()).trim(), 'You won');
  }
  await home(a);
  for (const id of resigned) {
    const row = a.locator(`.my-games li:has(a[href="/g/${id}"])`);
    assert.equal((await row.locator('.my-result').textContent()).trim(), 'You lost');
  }
  // Both halves' games are listed.
  assert.ok((await a.locator('.my-games li').count()) >= 2 * VARIANTS.length);
});

test('a seek can be cancelled from the lobby; counts are shown', async () => {
  const a = await (await newContext(browser)).newPage();
  await home(a);
  await a.locator('button.quick-pair[data-variant=minishogi]').click();
  await a.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = gameId(a);
  // Back in the lobby the page holds its seek, shows it as its own, and can cancel it.
  await home(a);
  const row = a.locator(`.seek-table tr[data-id="${id}"]`);
  await row.locator('.yours').waitFor();
  await row.locator('button[data-cancel]').click();
  await row.waitFor({ state: 'detached' });
  const counts = await a.locator('.lobby-counts').textContent();
  assert.match(counts, /Players online: \d+/);
  assert.match(counts, /Games in play: \d+/);
});
