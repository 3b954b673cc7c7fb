// Board geometry and FEN/SFEN reading for display. The browser holds no rules: the server
// sends the legal moves with their names, the checked king, the impasse points and, for the
// move list, every position the game went through. This module only turns position text into
// pieces to draw (a FEN is display data: reading it decides nothing).

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

/** Write a position read by `parse` (or built by the editor) back as text: FEN for the
 * xiangqi family (`pool`: a Jieqi pool field, else `- -` and the server derives the pool),
 * SFEN for the shogi family. Display data only: the server judges what it describes. */
export function write(pos, pool = null) {
  const { files, ranks } = dims(pos.variant);
  const rows = [];
  for (let row = 0; row < ranks; row++) {
    let text = '';
    let empty = 0;
    for (let col = 0; col < files; col++) {
      const p = pos.board.get(squareAt(pos.variant, col, row));
      if (!p) {
        empty++;
        continue;
      }
      if (empty) text += empty;
      empty = 0;
      text += p;
    }
    rows.push(empty ? text + empty : text);
  }
  const board = rows.join('/');
  if (familyOf(pos.variant) === 'shogi') {
    let hands = '';
    for (const owner of ['first', 'second'])
      for (const k of 'RBGSNLP') {
        const n = pos.hands[owner][k] || 0;
        if (n) hands += (n > 1 ? n : '') + (owner === 'first' ? k : k.toLowerCase());
      }
    return `${board} ${pos.toMove === 'first' ? 'b' : 'w'} ${hands || '-'} 1`;
  }
  const side = pos.toMove === 'first' ? 'w' : 'b';
  return pool ? `${board} ${side} ${pool} 0 1` : `${board} ${side} - - 0 1`;
}

/** The squares a machine move names, to mark the last move: ICCS `h2e2`, Jieqi `h2e2C`, USI
 * `7g7f`, `8h2b+`, `P*5e` (a drop has no `from`). Text slicing only. */
export function moveSquares(mv) {
  if (mv[1] === '*') return { from: null, to: mv.slice(2, 4) };
  return { from: mv.slice(0, 2), to: mv.slice(2, 4) };
}
