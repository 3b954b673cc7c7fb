// Cross-site request forgery in a real browser: the seat cookie works from the server's own
// pages, and a page of another origin on the same site (another port of 127.0.0.1, so
// SameSite=Lax still sends the cookie) can neither move, resign, take a seat nor open the
// player's socket.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServer } from '../lib/server.mjs';
import { launch, newContext } from '../lib/browser.mjs';

let server;
let browser;
let evil;
let evilUrl;

before(async () => {
  server = await startServer();
  browser = await launch();
  // The attacker's page: any HTML document served from another origin.
  evil = http.createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>evil</title><body>evil</body>');
  });
  await new Promise((r) => evil.listen(0, '127.0.0.1', r));
  evilUrl = `http://127.0.0.1:${evil.address().port}/`;
});
after(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((r) => (evil ? evil.close(r) : r()));
});

/** The game as a spectator sees it (from Node, no cookie). */
async function view(id) {
  const res = await fetch(`${server.url}/api/games/${id}`);
  assert.equal(res.status, 200);
  return res.json();
}

test('the seat cookie acts from the server’s own page and from nowhere else', async () => {
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await page.goto(`${server.url}/`);
  // Create from the server's page (the cookie is set), then a second player joins by API.
  const id = await page.evaluate(async () => {
    const res = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant: 'xiangqi', side: 'red' }) });
    return (await res.json()).id;
  });
  assert.ok((await ctx.cookies()).some((c) => c.name === `jiang_seat_${id}` && c.httpOnly && c.sameSite === 'Lax'));
  const joined = await fetch(`${server.url}/api/games/${id}/join`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(joined.status, 200);

  // Same origin, JSON, no token but the cookie: the browser's Origin makes it count.
  const own = await page.evaluate(async (id) => {
    const res = await fetch(`/api/games/${id}/move`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move: 'h2e2' }) });
    return { status: res.status, body: await res.json() };
  }, id);
  assert.equal(own.status, 200, JSON.stringify(own.body));
  assert.equal(own.body.you, 'red');

  // The other origin: a no-cors text/plain resign, a form-encoded resign, a form join.
  const attacker = await ctx.newPage();
  await attacker.goto(evilUrl);
  await attacker.evaluate(async (target) => {
    await fetch(`${target}/resign`, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
    await fetch(`${target}/abort`, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'x=1' });
  }, `${server.url}/api/games/${id}`);
  // A real form submission (a top-level navigation) shows the server's refusal.
  await attacker.evaluate((action) => {
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = action;
    form.enctype = 'text/plain';
    const input = document.createElement('input');
    input.name = '{"move":"h9g7","x":"';
    input.value = '"}';
    form.append(input);
    document.body.append(form);
    form.submit();
  }, `${server.url}/api/games/${id}/resign`);
  await attacker.waitForURL(/\/resign$/);
  assert.match(await attacker.locator('body').innerText(), /cross_origin/);

  // Its WebSocket never opens.
  await attacker.goto(evilUrl);
  const socket = await attacker.evaluate(
    (url) =>
      new Promise((resolve) => {
        const ws = new WebSocket(url);
        ws.onopen = () => resolve('open');
        ws.onclose = (e) => resolve(`closed ${e.code}`);
      }),
    `${server.url.replace('http://', 'ws://')}/api/games/${id}/ws`,
  );
  assert.equal(socket, 'closed 1006');

  // Nothing changed: red's one move, the game goes on, both seats as they were.
  const v = await view(id);
  assert.equal(v.status, 'playing');
  assert.deepEqual(v.moves, ['h2e2']);

  // The server's own page still opens the player's socket with the cookie.
  const seat = await page.evaluate(
    (url) =>
      new Promise((resolve) => {
        const ws = new WebSocket(url);
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === 'state') {
            ws.close();
            resolve(m.you);
          }
        };
        ws.onclose = () => resolve('closed');
      }),
    `${server.url.replace('http://', 'ws://')}/api/games/${id}/ws`,
  );
  assert.equal(seat, 'red');
  await ctx.close();
});

test('another origin cannot make the visitor’s browser take a seat', async () => {
  const created = await fetch(`${server.url}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"variant":"shogi","side":"sente"}' });
  const { id } = await created.json();
  const ctx = await newContext(browser);
  const attacker = await ctx.newPage();
  await attacker.goto(evilUrl);
  await attacker.evaluate(async (url) => {
    await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
  }, `${server.url}/api/games/${id}/join`);
  const v = await view(id);
  assert.equal(v.status, 'waiting');
  assert.equal(v.seats.gote, false);
  assert.ok(!(await ctx.cookies()).some((c) => c.name === `jiang_seat_${id}`));
  await ctx.close();
});
