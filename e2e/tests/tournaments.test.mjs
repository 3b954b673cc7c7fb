// Tournaments in the browser (issue 25): players join an arena and a Swiss on the tournament
// page, are sent to each new game by the tournament socket (with their seat token), finish
// their games through the game page (one resigns), are paired again, and read the final
// standings; the list page's create form (a visitor with no player becomes one on the spot),
// the list, joining from it, withdrawing; both pages fit a 375 px phone; a 45-player table a
// page at a time (the reader's own first, the pager, "My place").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { newContext, artifacts, launch } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';

// Seven players come from one address here, more than the five a new address may create at
// once (`--players-per-hour`).
const env = { server: undefined, browser: undefined };
before(async () => {
  // Every player here comes from 127.0.0.1, and the test polls the tournament's state beside
  // the browsers' own requests: the per-address limits (new players, API requests) are off.
  env.server = await startServer(['--rate-limit', '0']);
  env.browser = await launch();
});
after(async () => {
  await env.browser?.close();
  await env.server?.close();
});

/** A person on a machine of their own who became a player named `name` (through the API, as
 * the home page's button does): their page, on the home page. */
async function player(name, viewport) {
  const ctx = await newContext(env.browser, viewport ? { viewport } : {});
  const page = await ctx.newPage();
  page.on('dialog', (d) => d.accept());
  await page.goto(`${env.server.url}/`);
  const res = await page.evaluate(async (n) => (await fetch('/api/players', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: n }) })).json(), name);
  assert.ok(res.id, JSON.stringify(res));
  page.playerId = res.id;
  page.playerName = name;
  return page;
}

/** Creates a tournament through the API from `page` (its player): the summary. */
async function createTournament(page, body) {
  const res = await page.evaluate(async (b) => {
    const r = await fetch('/api/tournaments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    return { status: r.status, body: await r.json() };
  }, body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** The tournament's state as the server says it. */
async function stateOf(id) {
  const res = await fetch(`${env.server.url}/api/tournaments/${id}`);
  const body = await res.json();
  assert.ok(res.ok, `GET /api/tournaments/${id}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Opens the tournament page and joins with its button. */
async function joinOnPage(page, id) {
  await page.goto(`${env.server.url}/tournament/${id}`);
  await page.locator('.t-me button.join').click();
  await page.locator(`.standings tr[data-player="${page.playerId}"]`).waitFor();
  await page.locator('.t-me button.withdraw').waitFor();
}

/**
 * Polls the tournament's state until `pick(state)` says something (then returns it) or the
 * tournament is finished (then `null`); at most `ms`.
 */
async function nextGame(id, pick, ms = 90000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const state = await stateOf(id);
    const found = pick(state);
    if (found) return found;
    if (state.tournament.status === 'finished') return null;
    assert.ok(Date.now() < deadline, `nothing after ${ms} ms: ${JSON.stringify(state.tournament)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const gameOf = (page) => new URL(page.url()).pathname.match(/^\/g\/([A-Za-z0-9]+)$/)?.[1] ?? null;

/** Waits until `page` is sent to a game other than `previous`: its id. */
async function sentToGame(page, previous = null) {
  await page.waitForURL((url) => /^\/g\/[A-Za-z0-9]+$/.test(url.pathname) && url.pathname !== `/g/${previous}`, { timeout: 15000 });
  const id = gameOf(page);
  await page.locator('.board-host svg.board').waitFor();
  return id;
}

/** A move through the API with the seat token the page keeps (the board is tested elsewhere). */
async function move(page, id, mv) {
  await page.evaluate(
    async ([gid, m]) => {
      const token = localStorage.getItem(`jiang.token.${gid}`);
      const r = await fetch(`/api/games/${gid}/move`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ move: m }) });
      if (!r.ok) throw new Error(`move ${m}: ${r.status} ${await r.text()}`);
    },
    [id, mv],
  );
}

/** Game `id` between the pages `a` and `b` (both on it): one move each, then the loser (by
 * default the second seat, Black; else the page `loser`) resigns through the game page's
 * button; returns [winner, loser]. */
async function playOut(a, b, id, loser = null) {
  const sideOf = (p) => p.evaluate((gid) => localStorage.getItem(`jiang.side.${gid}`), id);
  const red = (await sideOf(a)) === 'red' ? a : b;
  const black = red === a ? b : a;
  assert.equal(await sideOf(black), 'black');
  // The game page shows the way back to the tournament from the start.
  await red.locator('.tournament-box a.to-tournament').waitFor();
  await move(red, id, 'h2e2');
  await move(black, id, 'h7e7');
  const resigning = loser ?? black;
  const winner = resigning === a ? b : a;
  await resigning.locator('.actions button[data-action=resign]').click();
  // Over: each page shows its result, then (an arena, a Swiss's next round) the tournament may
  // bring the player to the next game 2 s later, on a busy machine before a look finds the
  // banner: either is fine, the banner when the page is still here.
  for (const [page, outcome] of [[resigning, 'lost'], [winner, 'won']]) {
    await page.waitForFunction(([gid, o]) => location.pathname !== `/g/${gid}` || document.querySelector(`.banner[data-outcome=${o}]`), [id, outcome]);
  }
  // A button back to the tournament, and no rematch (the tournament pairs the next game).
  if (gameOf(resigning) === id) {
    assert.equal(await resigning.locator('.actions button[data-action=rematch]').count(), 0);
    assert.ok((await resigning.locator('.tournament-box a.button.to-tournament').count()) <= 1);
  }
  const game = (await stateOf(red.tid)).games.find((g) => g.id === id);
  assert.equal(game.result, winner === red ? 'first' : 'second', 'the loser resigned');
  return [winner, resigning];
}

/** The standings table's rows as shown: {id, rank, score, games, wdl, sheet, buchholz, sb, fire}. */
async function shownStandings(page) {
  return page.locator('.standings tbody tr').evaluateAll((rows) =>
    rows.map((r) => ({
      id: r.dataset.player,
      rank: r.querySelector('.rank').textContent,
      score: r.querySelector('.score').textContent,
      games: r.querySelector('.games').textContent,
      wdl: r.querySelector('.wdl').textContent,
      sheet: [...r.querySelectorAll('.sheet .mark')].map((m) => m.textContent).join(' '),
      buchholz: r.querySelector('.buchholz')?.textContent ?? null,
      sb: r.querySelector('.sb')?.textContent ?? null,
      fire: !!r.querySelector('.fire-mark'),
    })),
  );
}

/** Scrolls sideways? The document of `page` must not be wider than its viewport. */
async function fitsWidth(page, what) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${what}: ${scroll} px wide in ${width}`);
}

test('arena: two players join on the page, are sent to each game, one resigns every game, and the final standings are right', async () => {
  const ann = await player('ann');
  const bob = await player('bob');
  const arena = await createTournament(ann, { kind: 'arena', variant: 'xiangqi', clock: { main: 180, increment: 2 }, minutes: 1, rated: true });
  ann.tid = bob.tid = arena.id;
  await joinOnPage(ann, arena.id);
  await joinOnPage(bob, arena.id);
  assert.equal(await ann.locator('.tournament').getAttribute('data-status'), 'running');
  assert.match(await ann.locator('.t-countdown').textContent(), /Ends in (1:00|0:[0-5]\d)/);
  await fitsWidth(ann, 'the arena page');

  // Paired after 2 s of waiting: both browsers go to the game by themselves.
  const first = await sentToGame(ann);
  assert.equal(await sentToGame(bob), first);

  // On the tournament page during the game: the game is live, "your game" leads back, and the
  // berserk button asks the server (which refuses while berserk is not supported: its message
  // is shown).
  await ann.goto(`${env.server.url}/tournament/${arena.id}`);
  await ann.locator(`.t-live li[data-game="${first}"]`).waitFor();
  const berserk = ann.locator('.t-me button.berserk');
  if (await berserk.count()) {
    await berserk.click();
    await ann.waitForFunction(() => document.querySelector('.t-error')?.textContent || !document.querySelector('.t-me button.berserk'));
  }
  assert.equal(gameOf(ann), null, 'a game already seen does not pull the player back');
  await ann.locator('.t-me a.my-game-link').click();
  await ann.waitForURL(`**/g/${first}`);

  // Games until the minute is over: Ann wins each (Bob resigns on the game page, catching her on
  // fire from the third win); after each game both are sent to the next one (the same two:
  // nobody else is waiting).
  const results = new Map([[ann.playerId, []], [bob.playerId, []]]);
  let games = 0;
  for (let game = first; game; ) {
    const [winner, loser] = await playOut(ann, bob, game, bob);
    results.get(winner.playerId).push('win');
    results.get(loser.playerId).push('loss');
    games++;
    game = await nextGame(arena.id, (s) => s.games.find((g) => g.result === 'playing'));
    if (game) for (const p of [ann, bob]) await p.waitForURL(`**/g/${game.id}`, { timeout: 5000 });
    game = game?.id;
  }
  assert.ok(games >= 2, `${games} games`);

  // The end: the last game's result stays on the page (no more pairings), with the way back to
  // the tournament, which finishes when the minute is over.
  await ann.locator('.banner[data-outcome]').waitFor();
  await ann.locator('.tournament-box a.to-tournament').click();
  await ann.waitForURL(`**/tournament/${arena.id}`);
  await ann.locator('.tournament[data-status=finished]').waitFor({ timeout: 70000 });
  assert.match(await ann.locator('.t-status').textContent(), /Finished/);
  const server = await stateOf(arena.id);
  const rows = await shownStandings(ann);
  assert.equal(rows.length, 2);
  for (const [i, s] of server.standings.entries()) {
    assert.equal(rows[i].id, s.id);
    assert.equal(rows[i].rank, String(s.rank));
    assert.equal(rows[i].score, String(s.score));
    assert.equal(rows[i].games, String(s.games));
    assert.equal(rows[i].wdl, `${s.wins}/${s.draws}/${s.losses}`);
    assert.equal(rows[i].fire, s.on_fire);
  }
  // The points by hand (docs/tournaments.md): 2 a win, 4 when the two games before were wins.
  const sheet = (list) => list.map((r, i) => (r === 'loss' ? 0 : i >= 2 && list[i - 1] === 'win' && list[i - 2] === 'win' ? 4 : 2));
  const points = (pid) => sheet(results.get(pid)).reduce((a, b) => a + b, 0);
  const wins = (pid) => results.get(pid).filter((r) => r === 'win').length;
  const [top, second] = [ann.playerId, bob.playerId].sort((a, b) => points(b) - points(a) || wins(b) - wins(a));
  assert.equal(rows[0].score, String(points(top)));
  assert.equal(rows[1].score, String(points(second)));
  assert.equal(rows[0].sheet, sheet(results.get(rows[0].id)).join(' '));
  assert.equal(rows[1].sheet, sheet(results.get(rows[1].id)).join(' '));
  const tied = points(top) === points(second) && wins(top) === wins(second);
  if (!tied) assert.equal(rows[0].id, top);
  assert.deepEqual([rows[0].rank, rows[1].rank], ['1', tied ? '1' : '2']);
  assert.equal(rows[0].games, String(games));
  // Ann won every game: on fire now, each win after the second marked on fire in her sheet.
  assert.equal(rows[0].id, ann.playerId);
  assert.equal(rows[0].fire, true, 'Ann is on fire');
  assert.equal(await ann.locator(`.standings tr[data-player="${ann.playerId}"] .mark.fire`).count(), games - 2);
  // The finished games are listed, none live.
  assert.equal(await ann.locator('.t-finished li[data-game]').count(), games);
  assert.equal(await ann.locator('.t-live li[data-game]').count(), 0);
  await ann.screenshot({ path: path.join(artifacts, 'tournament-arena.png'), fullPage: true });
  await ann.context().close();
  await bob.context().close();
});

test('Swiss: three players, two rounds, a bye each round, played to the end with Buchholz and Sonneborn–Berger shown', async () => {
  const pages = [await player('cho'), await player('dia'), await player('eve')];
  // A few seconds ahead: all three are in before the first round is paired (on a busy machine
  // three joins through the page take several seconds).
  const startsAt = new Date(Date.now() + 12000).toISOString();
  const swiss = await createTournament(pages[0], { kind: 'swiss', variant: 'xiangqi', clock: { main: 300, increment: 3 }, rounds: 2, starts_at: startsAt });
  for (const p of pages) p.tid = swiss.id;
  for (const page of pages) await joinOnPage(page, swiss.id);
  assert.equal(await pages[0].locator('.tournament').getAttribute('data-status'), 'upcoming');
  assert.match(await pages[2].locator('.t-countdown').textContent(), /Starts in 0:(0\d|1[0-2])/);

  const score = new Map(pages.map((p) => [p.playerId, 0]));
  const met = new Map(pages.map((p) => [p.playerId, []])); // opponents, with the result
  const byes = [];
  for (const round of [1, 2]) {
    // Round N's game and bye: the two players are sent to the game by their sockets (from the
    // tournament page, or the last round's game page); the third sits out.
    const { game, bye } = await nextGame(swiss.id, (s) => {
      const g = s.games.find((x) => x.round === round);
      const b = (s.byes || []).find((x) => x.round === round);
      return g && b ? { game: g, bye: b.player } : null;
    });
    const [a, b] = [game.first, game.second].map((pid) => pages.find((p) => p.playerId === pid));
    for (const p of [a, b]) {
      await p.waitForURL(`**/g/${game.id}`, { timeout: 5000 });
      await p.locator('.board-host svg.board').waitFor();
    }
    byes.push(bye);
    const [winner, loser] = await playOut(a, b, game.id);
    assert.equal(winner.playerId, game.first);
    score.set(winner.playerId, score.get(winner.playerId) + 1);
    score.set(bye, score.get(bye) + 1);
    met.get(winner.playerId).push([loser.playerId, 1]);
    met.get(loser.playerId).push([winner.playerId, 0]);
  }
  assert.notEqual(byes[0], byes[1], 'nobody gets a second bye');

  const page = pages[0];
  await nextGame(swiss.id, (s) => s.tournament.status === 'finished');
  await page.goto(`${env.server.url}/tournament/${swiss.id}`);
  await page.locator('.tournament[data-status=finished]').waitFor();
  const rows = await shownStandings(page);
  assert.equal(rows.length, 3);
  // By hand: a win or a bye 1; Buchholz the opponents' scores (a bye adds nothing);
  // Sonneborn–Berger the scores of the opponents beaten.
  const half = (x) => (Number.isInteger(x) ? String(x) : `${Math.floor(x) || ''}½`);
  for (const row of rows) {
    const opponents = met.get(row.id);
    assert.equal(row.score, half(score.get(row.id)), `score of ${row.id}`);
    assert.equal(row.buchholz, half(opponents.reduce((n, [o]) => n + score.get(o), 0)), `Buchholz of ${row.id}`);
    assert.equal(row.sb, half(opponents.reduce((n, [o, r]) => n + r * score.get(o), 0)), `SB of ${row.id}`);
    const byeRounds = byes.flatMap((p, i) => (p === row.id ? [i + 1] : []));
    assert.equal(row.sheet.split(' ').filter((m) => m === 'B').length, byeRounds.length, `the bye in ${row.id}'s sheet: ${row.sheet}`);
  }
  // Ranked by score, then Buchholz, then SB; the page shows the server's ranks.
  const server = await stateOf(swiss.id);
  assert.deepEqual(rows.map((r) => [r.id, r.rank]), server.standings.map((s) => [s.id, String(s.rank)]));
  for (const [i, r] of rows.entries()) if (i) assert.ok(Number(r.rank) >= Number(rows[i - 1].rank));
  // The byes by round, and the two finished games.
  for (const [i, p] of byes.entries()) await page.locator(`.byes .bye[data-round="${i + 1}"][data-player="${p}"]`).waitFor();
  assert.equal(await page.locator('.t-finished li[data-game]').count(), 2);
  assert.match(await page.locator('.t-countdown').textContent(), /Finished/);
  await page.screenshot({ path: path.join(artifacts, 'tournament-swiss.png'), fullPage: true });
  for (const p of pages) await p.context().close();
});

test('the tournaments page: a visitor with no player creates one with the form (becoming a player), others join from the list, withdraw', async () => {
  const ctx = await newContext(env.browser, { viewport: { width: 375, height: 760 } });
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/`);
  await page.locator('.site-nav a[href="/tournaments"]').click();
  await page.waitForURL('**/tournaments');
  await page.locator('.t-list[data-status=upcoming]').waitFor();
  assert.equal(await page.locator('.site-nav a[href="/tournaments"]').getAttribute('aria-current'), 'page');
  await fitsWidth(page, 'the tournaments page');

  // The form: an arena of shogi, the second clock preset, 45 minutes, in an hour, rated.
  const form = page.locator('form.tournament-create');
  await form.locator('label.chip', { has: page.locator('input[name=variant][value=shogi]') }).click();
  await form.locator('label.chip', { has: page.locator('input[name=clock][value="1"]') }).click();
  assert.equal(await form.locator('input[name=clock][value=none]').count(), 0, 'tournament games are timed');
  await form.locator('input[name=minutes]').fill('45');
  await form.locator('label.chip', { has: page.locator('input[name=start][value=at]') }).click();
  const local = await page.evaluate(() => {
    const d = new Date(Date.now() + 3600 * 1000);
    d.setSeconds(0, 0);
    const p = (n) => String(n).padStart(2, '0');
    return { value: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`, iso: d.toISOString() };
  });
  await form.locator('input[name=starts_at]').fill(local.value);
  await form.locator('input[name=rated]').check();
  await form.locator('button[type=submit]').click();
  await page.waitForURL(/\/tournament\/[A-Za-z0-9]+$/);
  const id = page.url().split('/').pop();
  // This browser became a player on the way, and is told where its key is.
  await page.locator('.new-player a[href^="/player/"]').waitFor();
  const created = await stateOf(id);
  assert.equal(created.tournament.kind, 'arena');
  assert.equal(created.tournament.variant, 'shogi');
  assert.equal(created.tournament.clock.main, 180);
  assert.equal(created.tournament.clock.byoyomi, 10);
  assert.equal(created.tournament.minutes, 45);
  assert.equal(created.tournament.rated, true);
  assert.equal(Date.parse(created.tournament.starts_at), Date.parse(local.iso));
  await page.locator('.tournament[data-status=upcoming]').waitFor();
  assert.match(await page.locator('.t-countdown').textContent(), /Starts in (1:00:00|59:\d\d)/);
  await page.locator('.t-me button.join').click();
  await page.locator('.standings tbody tr').waitFor();
  await fitsWidth(page, 'the tournament page');

  // Another visitor without a player joins from the list.
  const other = await (await newContext(env.browser)).newPage();
  await other.goto(`${env.server.url}/tournaments`);
  const row = other.locator(`.t-list[data-status=upcoming] tr[data-id="${id}"]`);
  await row.waitFor();
  assert.equal(await row.locator('.players').textContent(), '1');
  await row.locator('button[data-join]').click();
  await other.waitForURL(`**/tournament/${id}`);
  await other.locator('.standings tbody tr:nth-child(2)').waitFor();
  // The first browser's page follows live (the socket).
  await page.locator('.standings tbody tr:nth-child(2)').waitFor();
  assert.match(await page.locator('.t-facts').textContent(), /2 players/);
  // The list marks the tournament joined.
  await other.goto(`${env.server.url}/tournaments`);
  await other.locator(`tr[data-id="${id}"] .joined`).waitFor();

  // Withdrawing: marked in the standings, and the button offers to join again.
  await other.goto(`${env.server.url}/tournament/${id}`);
  await other.locator('.t-me button.withdraw').click();
  await other.locator('.t-me button.join').waitFor();
  await page.locator('.standings tr[data-withdrawn]').waitFor();
  await page.screenshot({ path: path.join(artifacts, 'tournament-phone.png'), fullPage: true });
  await ctx.close();
  await other.context().close();
});

test('berserk: from the tournament page and from the game page before the first move; the mark by the berserked clocks, the halved time, no button after', async () => {
  const fay = await player('fay');
  const gus = await player('gus');
  const arena = await createTournament(fay, { kind: 'arena', variant: 'xiangqi', clock: { main: 180, increment: 2 }, minutes: 5 });
  fay.tid = gus.tid = arena.id;
  await joinOnPage(fay, arena.id);
  await joinOnPage(gus, arena.id);
  const id = await sentToGame(fay);
  assert.equal(await sentToGame(gus), id);
  const sideOf = (p) => p.evaluate((gid) => localStorage.getItem(`jiang.side.${gid}`), id);
  const [red, black] = (await sideOf(fay)) === 'red' ? [fay, gus] : [gus, fay];

  // Red berserks from the tournament page, then goes back to the game: the mark by Red's clock,
  // half the main time (no increment).
  await red.goto(`${env.server.url}/tournament/${arena.id}`);
  const fromPage = red.locator('.t-me button.berserk');
  await fromPage.click();
  await fromPage.waitFor({ state: 'detached' });
  assert.equal(await red.locator('.t-error').isHidden(), true, await red.locator('.t-error').textContent());
  await red.locator('.t-me a.my-game-link').click();
  await red.waitForURL(`**/g/${id}`);
  await red.locator('.player[data-side=red] .berserk-mark').waitFor();
  assert.equal(await red.locator('.player[data-side=red] .clock .time').textContent(), '1:30');
  assert.equal(await red.locator('.tournament-box button[data-action=berserk]').count(), 0);

  // Black berserks on the game page (the seat's own button).
  const onGame = black.locator('.tournament-box button[data-action=berserk]');
  await onGame.click();
  await black.locator('.player[data-side=black] .berserk-mark').waitFor();
  await onGame.waitFor({ state: 'detached' });
  await black.locator('.player[data-side=red] .berserk-mark').waitFor();
  await black.screenshot({ path: path.join(artifacts, 'tournament-game-berserk.png') });
  // Red's page hears of it by the next event at the latest.
  await move(red, id, 'h2e2');
  await red.locator('.player[data-side=black] .berserk-mark').waitFor();
  // A second berserk is refused.
  const again = await black.evaluate(async (gid) => {
    const token = localStorage.getItem(`jiang.token.${gid}`);
    const r = await fetch(`/api/games/${gid}/berserk`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
    return r.status;
  }, id);
  assert.equal(again, 409);
  await fay.context().close();
  await gus.context().close();
});

test('a large tournament: the standings come a page at a time; a player far down opens on their own page, pages through, and "My place" brings them back; fits a phone', async () => {
  const host = await player('host');
  const startsAt = new Date(Date.now() + 3600 * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  const arena = await createTournament(host, { kind: 'arena', variant: 'xiangqi', clock: { main: 180 }, minutes: 30, starts_at: startsAt });
  // 44 players join through the API (keys of their own), then the browser's.
  const api = async (url, key, body) => {
    const r = await fetch(`${env.server.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { authorization: `Player ${key}` } : {}) }, body: JSON.stringify(body) });
    const json = await r.json();
    assert.ok(r.ok, `${url}: ${r.status} ${JSON.stringify(json)}`);
    return json;
  };
  for (let i = 0; i < 44; i++) {
    const { key } = await api('/api/players', null, { name: `crowd${i}` });
    await api(`/api/tournaments/${arena.id}/join`, key, {});
  }
  const zoe = await player('zoe', { width: 375, height: 740 });
  await zoe.evaluate(async (id) => {
    const r = await fetch(`/api/tournaments/${id}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    if (!r.ok) throw new Error(`join: ${r.status}`);
  }, arena.id);
  const whole = (await stateOf(arena.id)).standings.map((s) => s.id);
  assert.equal(whole.length, 45);
  const zoePage = Math.floor(whole.indexOf(zoe.playerId) / 20) + 1;
  const rowsOf = () => zoe.locator('.standings tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.player));
  const pageText = () => zoe.locator('.t-pager .t-page').textContent();

  await zoe.goto(`${env.server.url}/tournament/${arena.id}`);
  await zoe.locator(`.standings tr.me[data-player="${zoe.playerId}"]`).waitFor();
  await zoe.waitForFunction((p) => document.querySelector('.t-pager .t-page')?.textContent === `Page ${p} of 3`, zoePage);
  assert.deepEqual(await rowsOf(), whole.slice((zoePage - 1) * 20, zoePage * 20));
  assert.equal(await zoe.locator('.t-pager button.t-my-page').count(), 0, 'no "My place" on my own page');
  await fitsWidth(zoe, 'a page of the standings');

  // To the first page and on through all three: the whole table, in order.
  if (zoePage !== 1) await zoe.locator('.t-pager button[data-page="1"]').first().click();
  await zoe.waitForFunction(() => document.querySelector('.t-pager .t-page')?.textContent === 'Page 1 of 3');
  const seen = [...(await rowsOf())];
  assert.equal(await zoe.locator('.t-pager button[aria-label="Previous page"]').isDisabled(), true);
  for (const n of [2, 3]) {
    await zoe.locator('.t-pager button[aria-label="Next page"]').click();
    await zoe.waitForFunction((p) => document.querySelector('.t-pager .t-page')?.textContent === `Page ${p} of 3`, n);
    seen.push(...(await rowsOf()));
  }
  assert.deepEqual(seen, whole);
  assert.equal(await zoe.locator('.t-pager button[aria-label="Next page"]').isDisabled(), true);
  // The games note says whose games a page lists, and the buttons still say she joined.
  await zoe.locator('.t-page-games').waitFor();
  await zoe.locator('.t-me button.withdraw').waitFor();

  // Away from her page, "My place" takes her back; the page survives a new player's join.
  if (zoePage !== 3) {
    await zoe.locator('.t-pager button.t-my-page').click();
    await zoe.waitForFunction((p) => document.querySelector('.t-pager .t-page')?.textContent === `Page ${p} of 3`, zoePage);
  } else {
    await zoe.locator('.t-pager button[data-page="1"]').first().click();
    await zoe.locator('.t-pager button.t-my-page').click();
    await zoe.waitForFunction(() => document.querySelector('.t-pager .t-page')?.textContent === 'Page 3 of 3');
  }
  await zoe.locator(`.standings tr.me[data-player="${zoe.playerId}"]`).waitFor();
  assert.equal(await pageText(), `Page ${zoePage} of 3`);
  const { key } = await api('/api/players', null, { name: 'late' });
  await api(`/api/tournaments/${arena.id}/join`, key, {});
  await zoe.waitForFunction(() => /46 players/.test(document.querySelector('.t-facts')?.textContent ?? ''));
  // She is followed where she stands now (the newcomer may have pushed her a page down).
  const now = (await stateOf(arena.id)).standings.map((s) => s.id);
  const herPage = Math.floor(now.indexOf(zoe.playerId) / 20) + 1;
  await zoe.waitForFunction((p) => document.querySelector('.t-pager .t-page')?.textContent === `Page ${p} of 3`, herPage);
  await zoe.locator(`.standings tr.me[data-player="${zoe.playerId}"]`).waitFor();
  await zoe.screenshot({ path: path.join(artifacts, 'tournament-pages-phone.png'), fullPage: true });
  await zoe.context().close();
  await host.context().close();
});
