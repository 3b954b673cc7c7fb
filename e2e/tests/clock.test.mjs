// The one clock label (web/js/clock.js) every page writes a time control with: its outputs in
// English and Japanese, the byo-yomi period's length always shown. No browser needed: the
// locale catalogues are read from web/locales.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
globalThis.document ??= { documentElement: {} };
const realFetch = globalThis.fetch;
globalThis.fetch = async (url) => {
  const code = String(url).match(/locales\/([\w-]+)\.json$/)?.[1];
  if (!code) return realFetch(url);
  const text = fs.readFileSync(path.join(web, 'locales', `${code}.json`), 'utf8');
  return { ok: true, json: async () => JSON.parse(text) };
};
const { setLang } = await import('../../web/js/i18n.js');
const { clockLabel, clockDuration } = await import('../../web/js/clock.js');

before(() => setLang('en'));

test('every kind of clock has one label, in English', async () => {
  await setLang('en');
  const cases = [
    [null, 'No clock'],
    [{ main: 300, increment: 3 }, '5 min + 3 s'],
    [{ main: 180, increment: 2 }, '3 min + 2 s'],
    [{ main: 600 }, '10 min'],
    [{ main: 600, byoyomi: 30 }, '10 min + 30 s byo-yomi'],
    [{ main: 600, byoyomi: 30, periods: 1 }, '10 min + 30 s byo-yomi'],
    [{ main: 180, byoyomi: 10, periods: 1 }, '3 min + 10 s byo-yomi'],
    [{ main: 300, byoyomi: 30, periods: 3 }, '5 min + 3 × 30 s byo-yomi'],
    [{ main: 0, byoyomi: 60, periods: 1 }, '0 s + 1 min byo-yomi'],
    [{ main: 90, increment: 0 }, '1:30 min'],
    [{ main: 45, increment: 5 }, '45 s + 5 s'],
    [{ main: 600, increment: 5, move_limit: 60 }, '10 min + 5 s, at most 1 min a move'],
    [{ days: 3 }, '3 days per move'],
    [{ days: 1 }, '1 day per move'],
    [{ main: 0, increment: 0, byoyomi: 0, days: 14 }, '14 days per move'],
  ];
  for (const [clock, label] of cases) assert.equal(clockLabel(clock), label, JSON.stringify(clock));
  assert.equal(clockDuration(30), '30 s');
});

test('the label is in the reader\'s language', async () => {
  await setLang('ja');
  assert.equal(clockLabel({ main: 600, byoyomi: 30, periods: 1 }), '10分 + 秒読み30秒');
  assert.equal(clockLabel({ main: 300, byoyomi: 30, periods: 3 }), '5分 + 秒読み30秒 × 3回');
  assert.equal(clockLabel(null), '持ち時間なし');
  await setLang('zh-Hans');
  assert.equal(clockLabel({ main: 300, increment: 3 }), '5 分钟 + 3 秒');
  await setLang('en');
});

test('no page writes a clock label of its own: they all import clockLabel', () => {
  for (const file of ['home.js', 'lobby.js', 'game.js', 'editor.js']) {
    const text = fs.readFileSync(path.join(web, 'js', file), 'utf8');
    assert.match(text, /import \{[^}]*clockLabel[^}]*\} from '\.\/clock\.js'/, file);
    assert.doesNotMatch(text, /`\$\{m\}\|\$\{c\.byoyomi\}`|'∞'/, `${file} formats a clock itself`);
  }
});
