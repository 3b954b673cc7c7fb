// Playing the computer (issue 11): a visitor alone picks a game, a level, a side and a clock on
// the home page, presses "Play with the computer", makes a move and sees the computer answer,
// in each of the four variants; the page names the opponent and shows no invite link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { newContext, choose, playComputer, artifacts } from '../lib/browser.mjs';
import { serverAndBrowser } from '../lib/fixture.mjs';

const env = serverAndBrowser();

/** Per variant: the first side and a first move for it, typed as the move box takes it. */
const GAMES = [
  ['xiangqi', 'red', 'h2e2'],
  ['jieqi', 'red', 'h2e2'],
  ['shogi', 'sente', '7g7f'],
  ['minishogi', 'sente', '5d5c'],
];

for (const [variant, side, move] of GAMES) {
  test(`${variant}: play the computer from the home page, move, see its answer`, async () => {
    const page = await (await newContext(env.browser)).newPage();
    await page.goto(`${env.server.url}/`);
    await choose(page, 'variant', variant);
    await choose(page, 'clock', 'none');
    await choose(page, 'side', side);
    // Keyboard: pick the level in its list, then press the button with Enter.
    await page.locator('select[name=level]').focus();
    await page.selectOption('select[name=level]', '1');
    await page.locator('button.play-computer').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
    await page.locator('svg.board [data-piece]').first().waitFor();

    // The opponent is named, and nobody is invited: the game is already under way.
    const opponent = page.locator('.player.top .computer-name');
    await opponent.waitFor();
    assert.equal((await opponent.textContent()).trim(), 'Computer · level 1');
    assert.equal(await page.locator('.player.bottom .computer-name').count(), 0);
    assert.ok(await page.locator('.invite').isHidden(), 'no invite link');
    assert.equal(await page.locator('[data-action=draw-offer]').count(), 0, 'no draw offer to the computer');

    await page.locator('.player.bottom.to-move').waitFor();
    await page.fill('#type-move-input', move);
    await page.press('#type-move-input', 'Enter');
    // The computer's answer arrives by itself, and it is the visitor's turn again.
    await page.locator('.moves button[data-ply="2"]').waitFor({ timeout: 20000 });
    await page.locator('.player.bottom.to-move').waitFor();
    await page.screenshot({ path: path.join(artifacts, `computer-${variant}.png`) });
    await page.context().close();
  });
}

test('the level and a side chosen for the computer game are kept; the computer may move first', async () => {
  const page = await (await newContext(env.browser)).newPage();
  await page.goto(`${env.server.url}/`);
  await playComputer(page, { variant: 'xiangqi', clock: '0', side: 'black', level: '2' });
  await page.locator('.player.top[data-side="red"] .computer-name', { hasText: 'Computer · level 2' }).waitFor();
  // Red (the computer) moves first; then Black, the visitor, is to move.
  await page.locator('.moves button[data-ply="1"]').waitFor({ timeout: 20000 });
  await page.locator('.player.bottom.to-move[data-side="black"]').waitFor();
  await page.goto(`${env.server.url}/`);
  assert.equal(await page.locator('select[name=level]').inputValue(), '2');
  await page.context().close();
});
