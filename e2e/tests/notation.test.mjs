// Unit tests of the browser's pure modules (no browser needed): FEN reading for display,
// typed-move lookup, and that every locale has every English key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, START, moveSquares } from '../../web/js/position.js';
import { findTyped } from '../../web/js/typed.js';
import { LANGS } from '../../web/js/i18n.js';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');

// The browser holds no rules or notation: the server's hints and notation endpoint are tested
// in Rust (crates/server/tests/api.rs, the rules crate's notation tests). What is left here is
// display: reading a FEN into pieces to draw, and looking a typed text up among server names.

test('a FEN or SFEN is read into pieces to draw, hands and the side to move', () => {
  const xq = parse('xiangqi', START.xiangqi);
  assert.equal(xq.board.size, 32);
  assert.equal(xq.board.get('e0'), 'K');
  assert.equal(xq.board.get('h2'), 'C');
  assert.equal(xq.toMove, 'first');
  const jq = parse('jieqi', START.jieqi);
  assert.equal(jq.board.get('h2'), 'X');
  assert.equal(jq.board.get('e9'), 'k');
  const sg = parse('shogi', 'lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6');
  assert.equal(sg.board.get('4e'), 'B');
  assert.equal(sg.hands.second.B, 1);
  assert.equal(sg.toMove, 'second');
  const promoted = parse('minishogi', 'rbsgk/4+P/5/5/KGSBR w - 1');
  assert.equal(promoted.board.get('1b'), '+P');
  assert.throws(() => parse('xiangqi', '9/9 w'), /expected 10 ranks/);
});

test('the last move marks come from the machine text', () => {
  assert.deepEqual(moveSquares('h2e2'), { from: 'h2', to: 'e2' });
  assert.deepEqual(moveSquares('h2e2C'), { from: 'h2', to: 'e2' });
  assert.deepEqual(moveSquares('8h2b+'), { from: '8h', to: '2b' });
  assert.deepEqual(moveSquares('P*5e'), { from: null, to: '5e' });
});

test('typed moves are looked up among the names the server gave', () => {
  // As the view's legal_moves and hints.legal_names would give them.
  const legal = ['b2e2', 'h0g2', 'h2e2'];
  const names = [['C8.5', '炮八平五'], ['H2+3', '马二进三', '傌二進三'], ['C2.5', '炮二平五']];
  assert.equal(findTyped('C2.5', legal, names), 'h2e2');
  assert.equal(findTyped(' c2.5 ', legal, names), 'h2e2');
  assert.equal(findTyped('炮八平五', legal, names), 'b2e2');
  assert.equal(findTyped('傌二進三', legal, names), 'h0g2');
  assert.equal(findTyped('h0g2', legal, names), 'h0g2');
  assert.equal(findTyped('h0-g2', legal, names), 'h0g2');
  assert.equal(findTyped('R1+1', legal, names), null);
  assert.equal(findTyped('', legal, names), null);
  const sg = ['2g2f', '7g7f'];
  const sgNames = [['☗２六歩', 'P-26', 'P-2f'], ['☗７六歩', 'P-76', 'P-7f']];
  assert.equal(findTyped('P-76', sg, sgNames), '7g7f');
  assert.equal(findTyped('P76', sg, sgNames), '7g7f');
  assert.equal(findTyped('２六歩', sg, sgNames), '2g2f');
  assert.equal(findTyped('▲2六歩', sg, sgNames), '2g2f');
  // Without names (a spectator, or not your turn) only machine text is found.
  assert.equal(findTyped('7g7f', sg, []), '7g7f');
  assert.equal(findTyped('P-76', sg, []), null);
});

test('every locale has every English key, and only those (crates/jiang/tests/locales.rs checks the rest)', () => {
  const en = JSON.parse(fs.readFileSync(path.join(web, 'locales/en.json'), 'utf8'));
  for (const [lang] of LANGS.filter(([code]) => code !== 'en')) {
    const t = JSON.parse(fs.readFileSync(path.join(web, `locales/${lang}.json`), 'utf8'));
    assert.deepEqual(Object.keys(t).sort(), Object.keys(en).sort(), lang);
    for (const [k, v] of Object.entries(en)) {
      // A plural value's forms all carry the placeholders of its `other` form.
      const want = ((typeof v === 'string' ? v : v.other).match(/\{\w+\}/g) || []).sort();
      for (const form of typeof t[k] === 'string' ? [t[k]] : Object.values(t[k]))
        assert.deepEqual((form.match(/\{\w+\}/g) || []).sort(), want, `${lang} ${k} placeholders`);
    }
  }
  // Every result reason of clocks-and-games.md is explained.
  for (const r of ['checkmate', 'stalemate', 'resignation', 'timeout', 'timeout-vs-insufficient', 'repetition', 'perpetual-check', 'perpetual-chase', 'move-limit', 'insufficient-material', 'agreement', 'impasse', 'aborted', 'abandoned', 'disconnection'])
    assert.ok(en[`reason.${r}`], r);
  assert.ok(en['reason.disconnectionDraw'], 'a draw claimed against an absent player');
  assert.ok(en['result.abandoned'], 'the abandoned headline');
});

test('every browser module parses as an ES module', async () => {
  const { execFileSync } = await import('node:child_process');
  const os = await import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jiang-js-'));
  for (const f of fs.readdirSync(path.join(web, 'js'))) {
    // .mjs so that node checks it as a module whatever the nearest package.json says.
    const copy = path.join(dir, f.replace(/\.js$/, '.mjs'));
    fs.copyFileSync(path.join(web, 'js', f), copy);
    execFileSync(process.execPath, ['--check', copy]);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});
