// Unit tests of the browser's pure modules (no browser needed): notation formatters, typed-move
// parsing, position display helpers, and that every locale has every English key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatGame, parseTyped } from '../../web/js/notation.js';
import { parse, START, checkedKing, impasse, handicapCredit, write } from '../../web/js/position.js';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');

test('xiangqi WXF, Chinese (simplified and traditional) and ICCS', () => {
  const moves = ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7', 'e2e6'];
  assert.deepEqual(formatGame('xiangqi', START.xiangqi, moves, 'wxf', 'en').texts, ['C2.5', 'H8+7', 'H2+3', 'R9.8', 'R1.2', 'H2+3', 'C5+4']);
  assert.deepEqual(formatGame('xiangqi', START.xiangqi, moves.slice(0, 4), 'chinese', 'zh-Hans').texts, ['炮二平五', '马８进７', '马二进三', '车９平８']);
  assert.deepEqual(formatGame('xiangqi', START.xiangqi, moves.slice(0, 2), 'chinese', 'zh-Hant').texts, ['炮二平五', '馬８進７']);
  assert.deepEqual(formatGame('xiangqi', START.xiangqi, moves.slice(0, 2), 'iccs', 'en').texts, ['h2e2', 'h9g7']);
});

test('xiangqi: two like pieces on one file are front and rear', () => {
  // Red cannons on e2 and e4 (after h2e2 and b2e2... set up directly).
  const fen = '4k4/9/9/9/9/9/4C4/4C4/9/4K4 w - - 0 1';
  const { texts } = formatGame('xiangqi', fen, ['e3d3'], 'wxf', 'en');
  assert.deepEqual(texts, ['+C.6']);
  assert.deepEqual(formatGame('xiangqi', fen, ['e2d2'], 'chinese', 'zh-Hans').texts, ['后炮平六']);
});

test('jieqi: a covered piece moves as its point and shows its reveal', () => {
  const { texts, positions } = formatGame('jieqi', START.jieqi, ['h2e2R', 'b7e7c'], 'wxf', 'en');
  assert.deepEqual(texts, ['C2.5 (R)', 'C2.5 (C)']);
  assert.equal(positions[2].board.get('e2'), 'R');
  assert.equal(positions[2].board.get('e7'), 'c');
});

test('shogi Western, Japanese and USI', () => {
  const moves = ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e'];
  assert.deepEqual(formatGame('shogi', START.shogi, moves, 'western', 'en').texts, ['P-76', 'P-34', 'Bx22+', 'Sx22', 'B*45']);
  assert.deepEqual(formatGame('shogi', START.shogi, moves, 'japanese', 'ja').texts, ['☗７六歩', '☖３四歩', '☗２二角成', '☖同　銀', '☗４五角']);
  const { positions } = formatGame('shogi', START.shogi, moves, 'usi', 'en');
  assert.equal(write(positions[5]), 'lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b');
});

test('shogi Japanese disambiguation: 右/左 and 直 for golds', () => {
  // Sente golds on 6i and 4i; both can reach 5h.
  const fen = '4k4/9/9/9/9/9/9/9/3G1G3 b - 1';
  assert.equal(formatGame('shogi', fen, ['6i5h'], 'japanese', 'ja').texts[0], '☗５八金左');
  assert.equal(formatGame('shogi', fen, ['4i5h'], 'japanese', 'ja').texts[0], '☗５八金右');
  assert.equal(formatGame('shogi', fen, ['4i5h'], 'western', 'en').texts[0], 'G49-58');
});

test('shogi: declined promotion is shown', () => {
  const fen = '4k4/9/4P4/9/9/9/9/9/4K4 b - 1';
  // Pawn on 5c moves to 5b: optional promotion declined.
  assert.equal(formatGame('shogi', fen, ['5c5b'], 'japanese', 'ja').texts[0], '☗５二歩不成');
  assert.equal(formatGame('shogi', fen, ['5c5b'], 'western', 'en').texts[0], 'P-52=');
});

test('typed moves are found in any notation of the family', () => {
  const xq = parse('xiangqi', START.xiangqi);
  const legal = ['h2e2', 'b2e2', 'h0g2'];
  assert.equal(parseTyped('xiangqi', xq, legal, 'C2.5', null, 'en'), 'h2e2');
  assert.equal(parseTyped('xiangqi', xq, legal, '炮八平五', null, 'en'), 'b2e2');
  assert.equal(parseTyped('xiangqi', xq, legal, 'h0g2', null, 'en'), 'h0g2');
  assert.equal(parseTyped('xiangqi', xq, legal, 'R1+1', null, 'en'), null);
  const sg = parse('shogi', START.shogi);
  assert.equal(parseTyped('shogi', sg, ['7g7f', '2g2f'], 'P-76', null, 'en'), '7g7f');
  assert.equal(parseTyped('shogi', sg, ['7g7f', '2g2f'], '２六歩', null, 'ja'), '2g2f');
});

test('check, impasse points and handicap credit for display', () => {
  const xq = parse('xiangqi', '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1');
  assert.equal(checkedKing(xq, 'first'), 'e0'); // flying general
  const sg = parse('shogi', '4k4/9/9/9/9/9/9/9/4K4 b - 1');
  assert.equal(checkedKing(sg, 'first'), null);
  const entered = parse('shogi', 'K+R+BGGSS2/PPPPPPPPP/9/9/9/9/9/9/4k4 b - 1');
  const f = impasse(entered, 'first');
  assert.equal(f.kingIn, true);
  assert.equal(f.pieces, 15);
  assert.equal(f.points, 5 + 5 + 4 + 9);
  assert.equal(handicapCredit(parse('shogi', 'lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1')), 5);
  assert.equal(handicapCredit(parse('shogi', START.shogi)), 0);
});

test('every locale has every English key, and only those', () => {
  const en = JSON.parse(fs.readFileSync(path.join(web, 'locales/en.json'), 'utf8'));
  for (const lang of ['zh-Hans', 'zh-Hant', 'ja', 'vi', 'es', 'hu']) {
    const t = JSON.parse(fs.readFileSync(path.join(web, `locales/${lang}.json`), 'utf8'));
    assert.deepEqual(Object.keys(t).sort(), Object.keys(en).sort(), lang);
    for (const [k, v] of Object.entries(en)) {
      const want = (v.match(/\{\w+\}/g) || []).sort();
      assert.deepEqual((t[k].match(/\{\w+\}/g) || []).sort(), want, `${lang} ${k} placeholders`);
    }
  }
  // Every result reason of clocks-and-games.md is explained.
  for (const r of ['checkmate', 'stalemate', 'resignation', 'timeout', 'timeout-vs-insufficient', 'repetition', 'perpetual-check', 'perpetual-chase', 'move-limit', 'insufficient-material', 'agreement', 'impasse', 'aborted', 'abandoned'])
    assert.ok(en[`reason.${r}`], r);
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
