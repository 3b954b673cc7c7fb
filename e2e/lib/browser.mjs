// Debian's Chromium driven by playwright-core (no downloaded browser).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts');
fs.mkdirSync(artifacts, { recursive: true });

export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ARGS });
}

/** A new context with clipboard access, reporting page errors to the test's output. */
export async function newContext(browser, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  ctx.on('page', (p) => p.on('pageerror', (e) => console.error('pageerror:', e.message)));
  return ctx;
}

/** Bytes transferred for the page so far (document and every resource, fonts excepted). */
export async function transferred(page) {
  return page.evaluate(() => {
    const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
    return entries.filter((e) => !/\.(woff2?|ttf|otf)(\?|$)/.test(e.name)).reduce((n, e) => n + (e.transferSize || e.encodedBodySize || 0), 0);
  });
}

/** The first board draw time (ms from the state arriving to the board drawn). */
export async function drawTime(page) {
  return page.evaluate(() => performance.getEntriesByName('jiang:board-first')[0]?.duration ?? null);
}

/** Drag with the mouse from one element's centre to another's, in small steps. */
export async function drag(page, from, to) {
  await page.locator(to).scrollIntoViewIfNeeded();
  await page.locator(from).scrollIntoViewIfNeeded();
  const a = await page.locator(from).boundingBox();
  const b = await page.locator(to).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(a.x + a.width / 2 + ((b.x - a.x) * i) / 8, a.y + a.height / 2 + ((b.y - a.y) * i) / 8);
  await page.mouse.up();
}
