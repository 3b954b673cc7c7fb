// Debian's Chromium driven by playwright-core (no downloaded browser).
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts');
fs.mkdirSync(artifacts, { recursive: true });

export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ARGS });
}

/**
 * Creates a game from `body` through the API from `page`, on the server's own page at `base`
 * (which then holds the creator's seat cookie, and the seat token in local storage as the UI
 * keeps it): the answer.
 */
export async function createGame(page, base, body) {
  await page.goto(`${base}/`);
  const res = await page.evaluate(async (b) => {
    const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    return r.json();
  }, body);
  assert.ok(res.id, JSON.stringify(res));
  await page.evaluate(([id, token]) => localStorage.setItem(`jiang.token.${id}`, token), [res.id, res.token]);
  return res;
}

/** A new context with clipboard access, reporting page errors to the test's output. */
export async function newContext(browser, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  ctx.on('page', (p) => p.on('pageerror', (e) => console.error('pageerror:', e.message)));
  return ctx;
}

/**
 * Picks `value` in the radio group `name` as a person does, by clicking its label, until the
 * page shows it picked: the home page redraws its form when the game changes, and the lobby
 * above the form moves it whenever its lists change, possibly between a look and a click.
 */
export async function choose(page, name, value) {
  const input = page.locator(`input[name=${name}][value="${value}"]`);
  for (let tries = 0; !(await input.isChecked()); tries++) {
    assert.ok(tries < 5, `${name} = ${value} could not be picked`);
    await page.locator('label', { has: input }).click();
  }
}

/**
 * From the home page (already open), a game against the computer at `level`: the variant,
 * clock and side picked as a person does, then "Play the computer"; resolves on the game page.
 */
export async function playComputer(page, { variant, clock, side, level }) {
  await choose(page, 'variant', variant);
  await choose(page, 'clock', clock);
  await choose(page, 'side', side);
  await page.selectOption('select[name=level]', level);
  await page.locator('button.play-computer').click();
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
}

/** `n` people, each on a machine of their own (a new context each): their pages. */
export async function people(browser, n) {
  const pages = [];
  for (let i = 0; i < n; i++) pages.push(await (await newContext(browser)).newPage());
  return pages;
}

/** The people on `pages` leave: each page's context is closed. */
export async function leave(...pages) {
  for (const page of pages) await page.context().close();
}

/** Bytes transferred for the page so far (document and every resource, fonts excepted). */
export async function transferred(page) {
  return page.evaluate(() => {
    const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
    return entries.filter((e) => !/\.(woff2?|ttf|otf)(\?|$)/.test(e.name)).reduce((n, e) => n + (e.transferSize || e.encodedBodySize || 0), 0);
  });
}

/** Cumulative layout shift so far (needs `watchLayoutShift` before the page loads). */
export async function layoutShift(page) {
  return page.evaluate(() => window.__cls ?? null);
}

/** Record layout shifts (not caused by input) from the start of every page of the context. */
export async function watchLayoutShift(ctx) {
  await ctx.addInitScript(() => {
    window.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The first board draw time (ms from the state arriving to the board drawn). */
export async function drawTime(page) {
  return page.evaluate(() => performance.getEntriesByName('jiang:board-first')[0]?.duration ?? null);
}

/** An element's box, waiting until it is attached, visible and measured. */
export async function box(page, selector) {
  for (let i = 0; i < 50; i++) {
    const loc = page.locator(selector);
    await loc.waitFor();
    const b = await loc.boundingBox();
    if (b) return b;
    await page.waitForTimeout(100);
  }
  throw new Error(`no box for ${selector}`);
}

/** Drag with the mouse from one element's centre to another's, in small steps. */
export async function drag(page, from, to) {
  await page.locator(to).scrollIntoViewIfNeeded();
  await page.locator(from).scrollIntoViewIfNeeded();
  const a = await box(page, from);
  const b = await box(page, to);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(a.x + a.width / 2 + ((b.x - a.x) * i) / 8, a.y + a.height / 2 + ((b.y - a.y) * i) / 8);
  await page.mouse.up();
}
