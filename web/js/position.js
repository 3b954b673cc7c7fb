// Board geometry and FEN/SFEN reading for display. The browser never decides legality: the
// server sends `legal_moves`. This module only turns position text into something to draw,
// replays machine moves for notation and step-back, and answers display questions (is a king
// attacked, impasse points) with simple piece patterns.

/** @typedef {'xiangqi'|'jieqi'|'shogi'|'minishogi'} Variant */
/** @typedef {{variant: Variant, files: number, ranks: number, board: Map<string,string>,
 *   hands: {first: Object<string,number>, second: Object<string,number>}, toMove: 'first'|'second'}} Pos */

/** @param {string} variant */
export const familyOf = (variant) => (variant === 'shogi' || variant === 'minishogi' ? 'shogi' : 'xiangqi');

/** Side names per family, first mover first. */
export const sidesOf = (variant) => (familyOf(variant) === 'shogi' ? ['sente', 'gote'] : ['red', 'black']);

/** @param {string} variant */
export const dims = (variant) =>
  variant === 'minishogi' ? { files: 5, ranks: 5 } : familyOf(variant) === 'shogi' ? { files: 9, ranks: 9 } : { files: 9, ranks: 10 };

export const START = {
  xiangqi: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
  jieqi: 'xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1',
  shogi: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
  minishogi: 'rbsgk/4p/5/P4/KGSBR b - 1',
};

/** Square name of (file index from the left as the first player sees it, row index from the top). */
export function squareAt(variant, col, row) {
  const { files, ranks } = dims(variant);
  if (familyOf(variant) === 'shogi') return `${files - col}${String.fromCharCode(97 + row)}`;
  return `${String.fromCharCode(97 + col)}${ranks - 1 - row}`;
}

/** Inverse of squareAt: {col, row} as the first player sees the board. */
export function coordsOf(variant, sq) {
  const { files, ranks } = dims(variant);
  if (familyOf(variant) === 'shogi') return { col: files - Number(sq[0]), row: sq.charCodeAt(1) - 97 };
  return { col: sq.charCodeAt(0) - 97, row: ranks - 1 - Number(sq.slice(1)) };
}

export const isFirst = (piece) => piece.replace('+', '') === piece.replace('+', '').toUpperCase();

/** Parse FEN (xiangqi family) or SFEN (shogi family). Throws Error on malformed text. */
export function parse(variant, text) {
  const { files, ranks } = dims(variant);
  const fields = String(text).trim().split(/\s+/);
  const rows = fields[0].split('/');
  if (rows.length !== ranks) throw new Error(`expected ${ranks} ranks, got ${rows.length}`);
  const board = new Map();
  const shogi = familyOf(variant) === 'shogi';
  rows.forEach((rowText, row) => {
    let col = 0;
    for (let i = 0; i < rowText.length; i++) {
      const ch = rowText[i];
      if (/\d/.test(ch)) {
        col += Number(ch);
        continue;
      }
      let piece = ch;
      if (ch === '+' && shogi) piece = '+' + rowText[++i];
      piece = piece.replace('E', 'B').replace('e', 'b').replace('H', 'N').replace('h', 'n');
      if (col >= files) throw new Error(`rank ${row + 1} is too long`);
      board.set(squareAt(variant, col, row), piece);
      col++;
    }
  });
  const side = fields[1] || (shogi ? 'b' : 'w');
  const hands = { first: {}, second: {} };
  if (shogi && fields[2] && fields[2] !== '-') {
    for (const m of fields[2].matchAll(/(\d*)([A-Za-z])/g)) {
      const n = m[1] ? Number(m[1]) : 1;
      const who = m[2] === m[2].toUpperCase() ? 'first' : 'second';
      hands[who][m[2].toUpperCase()] = (hands[who][m[2].toUpperCase()] || 0) + n;
    }
  }
  // Xiangqi: 'w' (or 'r') is Red; shogi: 'b' is sente.
  const toMove = shogi ? (side === 'b' ? 'first' : 'second') : side === 'b' ? 'second' : 'first';
  return { variant, files, ranks, board, hands, toMove };
}

/** Write the board part (and side) back as text: used for "copy FEN" of an earlier position. */
export function write(pos) {
  const shogi = familyOf(pos.variant) === 'shogi';
  const rows = [];
  for (let row = 0; row < pos.ranks; row++) {
    let s = '';
    let empty = 0;
    for (let col = 0; col < pos.files; col++) {
      const p = pos.board.get(squareAt(pos.variant, col, row));
      if (!p) empty++;
      else {
        if (empty) s += empty;
        empty = 0;
        s += p;
      }
    }
    if (empty) s += empty;
    rows.push(s);
  }
  if (!shogi) return `${rows.join('/')} ${pos.toMove === 'first' ? 'w' : 'b'}`;
  let hand = '';
  for (const [who, up] of [['first', true], ['second', false]])
    for (const k of 'RBGSNLP') {
      const n = pos.hands[who][k];
      if (n) hand += (n > 1 ? n : '') + (up ? k : k.toLowerCase());
    }
  return `${rows.join('/')} ${pos.toMove === 'first' ? 'b' : 'w'} ${hand || '-'}`;
}

const clone = (pos) => ({ ...pos, board: new Map(pos.board), hands: { first: { ...pos.hands.first }, second: { ...pos.hands.second } } });

/** Split a machine move: ICCS `h2e2`, Jieqi `h2e2C`, USI `7g7f`, `8h2b+`, `P*5e`. */
export function splitMove(variant, mv) {
  if (familyOf(variant) === 'shogi') {
    if (mv[1] === '*') return { drop: mv[0].toUpperCase(), to: mv.slice(2, 4) };
    return { from: mv.slice(0, 2), to: mv.slice(2, 4), promote: mv[4] === '+' };
  }
  return { from: mv.slice(0, 2), to: mv.slice(2, 4), reveal: mv[4] || null };
}

/** Play a machine move on a display position (no legality check: moves come from the server). */
export function play(pos, mv) {
  const next = clone(pos);
  const m = splitMove(pos.variant, mv);
  const mover = pos.toMove;
  const captured = pos.board.get(m.to) || null;
  if (m.drop) {
    next.board.set(m.to, mover === 'first' ? m.drop : m.drop.toLowerCase());
    next.hands[mover][m.drop] = (next.hands[mover][m.drop] || 1) - 1;
    if (!next.hands[mover][m.drop]) delete next.hands[mover][m.drop];
  } else {
    let piece = pos.board.get(m.from);
    if (!piece) throw new Error(`no piece on ${m.from}`);
    next.board.delete(m.from);
    if (m.reveal) piece = m.reveal;
    if (m.promote) piece = '+' + piece;
    next.board.set(m.to, piece);
    if (captured && familyOf(pos.variant) === 'shogi') {
      const k = captured.replace('+', '').toUpperCase();
      next.hands[mover][k] = (next.hands[mover][k] || 0) + 1;
    }
  }
  next.toMove = mover === 'first' ? 'second' : 'first';
  next.captured = captured;
  return next;
}

const inside = (pos, c, r) => c >= 0 && c < pos.files && r >= 0 && r < pos.ranks;

// Xiangqi starting points decide how a covered Jieqi piece moves.
const XQ_HOME = {
  a0: 'R', b0: 'N', c0: 'B', d0: 'A', f0: 'A', g0: 'B', h0: 'N', i0: 'R', b2: 'C', h2: 'C',
  a3: 'P', c3: 'P', e3: 'P', g3: 'P', i3: 'P',
};
/** The kind a piece moves as (covered Jieqi pieces move as their starting point's piece). */
export function movesAs(sq, piece) {
  if (piece === 'X') return XQ_HOME[sq] || 'P';
  if (piece === 'x') {
    const mirror = sq[0] + (9 - Number(sq.slice(1)));
    return (XQ_HOME[mirror] || 'P').toLowerCase();
  }
  return piece;
}

/** Squares a piece attacks (pseudo-legal, for display: check highlight, notation, impasse). */
export function attacks(pos, sq) {
  const piece = pos.board.get(sq);
  if (!piece) return [];
  const first = isFirst(piece);
  const { col, row } = coordsOf(pos.variant, sq);
  const out = [];
  const at = (c, r) => pos.board.get(squareAt(pos.variant, c, r));
  const ray = (dc, dr, max = 99) => {
    let c = col + dc;
    let r = row + dr;
    for (let n = 0; n < max && inside(pos, c, r); n++, c += dc, r += dr) {
      out.push(squareAt(pos.variant, c, r));
      if (at(c, r)) break;
    }
  };
  const step = (dc, dr) => inside(pos, col + dc, row + dr) && out.push(squareAt(pos.variant, col + dc, row + dr));
  if (familyOf(pos.variant) === 'shogi') {
    const f = first ? -1 : 1; // forward in rows
    const kind = piece.replace(/[a-z]/, (c) => c.toUpperCase());
    const gold = () => [[0, f], [-1, f], [1, f], [-1, 0], [1, 0], [0, -f]].forEach(([c, r]) => step(c, r));
    switch (kind) {
      case 'K': for (const c of [-1, 0, 1]) for (const r of [-1, 0, 1]) if (c || r) step(c, r); break;
      case 'G': case '+P': case '+L': case '+N': case '+S': gold(); break;
      case 'S': [[0, f], [-1, f], [1, f], [-1, -f], [1, -f]].forEach(([c, r]) => step(c, r)); break;
      case 'N': step(-1, 2 * f); step(1, 2 * f); break;
      case 'L': ray(0, f); break;
      case 'P': step(0, f); break;
      case 'R': case '+R': ray(1, 0); ray(-1, 0); ray(0, 1); ray(0, -1); if (kind === '+R') [[1, 1], [1, -1], [-1, 1], [-1, -1]].forEach(([c, r]) => step(c, r)); break;
      case 'B': case '+B': ray(1, 1); ray(1, -1); ray(-1, 1); ray(-1, -1); if (kind === '+B') [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(([c, r]) => step(c, r)); break;
    }
    return out;
  }
  const kind = movesAs(sq, piece).toUpperCase();
  const f = first ? -1 : 1;
  const crossed = first ? row <= 4 : row >= 5;
  switch (kind) {
    case 'K': [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(([c, r]) => step(c, r)); {
      // Flying general: attacks along an open file.
      let r = row + f;
      while (inside(pos, col, r) && !at(col, r)) r += f;
      if (inside(pos, col, r) && at(col, r)?.toUpperCase() === 'K') out.push(squareAt(pos.variant, col, r));
    } break;
    case 'A': [[1, 1], [1, -1], [-1, 1], [-1, -1]].forEach(([c, r]) => step(c, r)); break;
    case 'B': for (const [c, r] of [[2, 2], [2, -2], [-2, 2], [-2, -2]]) if (inside(pos, col + c, row + r) && !at(col + c / 2, row + r / 2)) step(c, r); break;
    case 'N':
      for (const [c, r, lc, lr] of [[1, 2, 0, 1], [-1, 2, 0, 1], [1, -2, 0, -1], [-1, -2, 0, -1], [2, 1, 1, 0], [2, -1, 1, 0], [-2, 1, -1, 0], [-2, -1, -1, 0]])
        if (inside(pos, col + lc, row + lr) && !at(col + lc, row + lr)) step(c, r);
      break;
    case 'R': ray(1, 0); ray(-1, 0); ray(0, 1); ray(0, -1); break;
    case 'C':
      for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        let c = col + dc;
        let r = row + dr;
        let screen = false;
        for (; inside(pos, c, r); c += dc, r += dr) {
          if (!at(c, r)) continue;
          if (screen) { out.push(squareAt(pos.variant, c, r)); break; }
          screen = true;
        }
      }
      break;
    case 'P': step(0, f); if (crossed) { step(1, 0); step(-1, 0); } break;
  }
  return out;
}

/** The square of `side`'s king if any enemy piece attacks it, else null. */
export function checkedKing(pos, side) {
  const king = [...pos.board].find(([, p]) => p === (side === 'first' ? 'K' : 'k'));
  if (!king) return null;
  for (const [sq, p] of pos.board) {
    if (isFirst(p) === (side === 'first')) continue;
    if (attacks(pos, sq).includes(king[0])) return king[0];
  }
  return null;
}

const VALUE5 = new Set(['R', 'B', '+R', '+B']);
/** Impasse figures for one side of a shogi position (shogi.md, 27-point declaration rule). */
export function impasse(pos, side, credit = 0) {
  const first = side === 'first';
  const inZone = (sq) => {
    const r = sq.charCodeAt(1) - 97;
    return first ? r <= 2 : r >= 6;
  };
  let kingIn = false;
  let pieces = 0;
  let points = credit;
  for (const [sq, p] of pos.board) {
    if (isFirst(p) !== first || !inZone(sq)) continue;
    const k = p.toUpperCase();
    if (k === 'K') kingIn = true;
    else {
      pieces++;
      points += VALUE5.has(k) ? 5 : 1;
    }
  }
  for (const [k, n] of Object.entries(pos.hands[side])) points += (VALUE5.has(k) ? 5 : 1) * n;
  // 24-point count (information only): all pieces on board and in hand.
  let total = 0;
  for (const p of pos.board.values()) if (isFirst(p) === first && p.toUpperCase() !== 'K') total += VALUE5.has(p.toUpperCase()) ? 5 : 1;
  for (const [k, n] of Object.entries(pos.hands[side])) total += (VALUE5.has(k) ? 5 : 1) * n;
  return { kingIn, pieces, points, total: total + credit, needed: first ? 28 : 27 };
}

/** Handicap credit for the giver (gote): points of gote's pieces missing from the start. */
export function handicapCredit(initial) {
  if (initial.variant !== 'shogi') return 0;
  const full = { R: 1, B: 1, G: 2, S: 2, N: 2, L: 2, P: 9 };
  for (const [, p] of initial.board) if (!isFirst(p) && full[p.toUpperCase()] !== undefined) full[p.toUpperCase()]--;
  for (const [k, n] of Object.entries(initial.hands.second)) if (full[k] !== undefined) full[k] -= n;
  let credit = 0;
  for (const [k, n] of Object.entries(full)) if (n > 0) credit += n * (VALUE5.has(k) ? 5 : 1);
  return credit;
}
