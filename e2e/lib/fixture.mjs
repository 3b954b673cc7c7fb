// One real server and one Chromium for a test file: started before its tests, closed after.
import { before, after } from 'node:test';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';

/**
 * Starts `jiang serve` and Chromium before the file's tests and closes both after them (after
 * `cleanup`, when given). The returned object holds `server` and `browser` once started.
 */
export function serverAndBrowser(cleanup) {
  const env = { server: undefined, browser: undefined };
  before(async () => {
    env.server = await startServer();
    env.browser = await launch();
  });
  after(async () => {
    await cleanup?.();
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}
