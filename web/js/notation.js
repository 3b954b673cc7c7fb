// Human notation for display and typed input. The server speaks machine notation (ICCS, USI);
// these formatters replay the moves from the initial position so they can name pieces, files
// and directions. Xiangqi family: WXF, Chinese, ICCS. Shogi family: Japanese, Western, USI.
import { familyOf, parse, play, splitMove, isFirst, movesAs, attacks, coordsOf } from './position.js';

export const STYLES = { xiangqi: ['wxf', 'chinese', 'iccs'], shogi: ['japanese', 'western', 'usi'] };

const WXF = { K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' };
const CN = {
  hans: { first: { K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵' }, second: { K: '将', A: '士', B: '象', N: '马', R: '车', C: '炮', P: '卒' }, fwd: '进', back: '退', side: '平', front: '前', rear: '后' },
  hant: { first: { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵' }, second: { K: '將', A: '士', B: '象', N: '馬', R: '車', C: '砲', P: '卒' }, fwd: '進', back: '退', side: '平', front: '前', rear: '後' },
};
const RED_NUM = '一二三四五六七八九';
const WIDE = '１２３４５６７８９';

/** Xiangqi family: one move in WXF or Chinese, given the position before it. */
function xiangqiMove(pos, mv, style, script) {
  const { from, to } = splitMove(pos.variant, mv);
  const piece = pos.board.get(from);
  if (!piece) return mv;
  const red = isFirst(piece);
  const kind = movesAs(from, piece).toUpperCase();
  const fileIdx = (sq) => sq.charCodeAt(0) - 97;
  const fileNum = (sq) => (red ? 9 - fileIdx(sq) : fileIdx(sq) + 1);
  const rf = Number(from.slice(1));
  const rt = Number(to.slice(1));
  const fwd = red ? rt - rf : rf - rt;
  const straight = 'KRCP'.includes(kind);
  const dist = fwd === 0 || !straight ? fileNum(to) : Math.abs(fwd);
  // Like pieces on the same file are told apart by their order from the front.
  const same = [...pos.board]
    .filter(([sq, p]) => sq[0] === from[0] && isFirst(p) === red && movesAs(sq, p).toUpperCase() === kind)
    .map(([sq]) => Number(sq.slice(1)))
    .sort((a, b) => (red ? b - a : a - b));
  const order = same.indexOf(rf);
  if (style === 'wxf') {
    const dir = fwd > 0 ? '+' : fwd < 0 ? '-' : '.';
    const head = same.length === 2 ? (order === 0 ? '+' : '-') + WXF[kind] : same.length > 2 ? `${order + 1}${WXF[kind]}` : `${WXF[kind]}${fileNum(from)}`;
    return `${head}${dir}${dist}` + revealNote(pos.variant, mv, red, style, script === 'hant' ? 'zh-Hant' : 'zh-Hans');
  }
  const c = CN[script];
  const num = (n) => (red ? RED_NUM[n - 1] : WIDE[n - 1]);
  const verb = fwd > 0 ? c.fwd : fwd < 0 ? c.back : c.side;
  const name = c[red ? 'first' : 'second'][kind];
  let head;
  if (same.length === 2) head = (order === 0 ? c.front : c.rear) + name;
  else if (same.length === 3) head = [c.front, '中', c.rear][order] + name;
  else if (same.length > 3) head = RED_NUM[order] + name;
  else head = name + num(fileNum(from));
  return head + verb + num(dist) + revealNote(pos.variant, mv, red, style, script === 'hant' ? 'zh-Hant' : 'zh-Hans');
}

/**
 * Jieqi: the note a move's reveal adds to its WXF or Chinese text (` (R)`, `（车）`), or ''.
 * `red` tells whose piece was revealed. The server's notation endpoint names a covered piece
 * by its point only, so the page adds this note to the server's texts too.
 */
export function revealNote(variant, mv, red, style, lang) {
  const { reveal } = splitMove(variant, mv);
  if (!reveal || style === 'iccs') return '';
  if (style === 'wxf') return ` (${WXF[reveal.toUpperCase()]})`;
  const c = CN[lang === 'zh-Hant' ? 'hant' : 'hans'];
  return `（${c[red ? 'first' : 'second'][reveal.toUpperCase()]}）`;
}

const JA = { K: '玉', R: '飛', B: '角', G: '金', S: '銀', N: '桂', L: '香', P: '歩', '+R': '龍', '+B': '馬', '+S': '成銀', '+N': '成桂', '+L': '成香', '+P': 'と' };
const KANJI = '一二三四五六七八九';

const canPromote = (k) => 'RBSNLP'.includes(k);
const inZone = (variant, sente, rank) => (variant === 'minishogi' ? (sente ? rank === 0 : rank === 4) : sente ? rank <= 2 : rank >= 6);
function forced(variant, kind, sente, rank) {
  const last = sente ? rank === 0 : rank === (variant === 'minishogi' ? 4 : 8);
  const last2 = sente ? rank <= 1 : rank >= 7;
  return ((kind === 'P' || kind === 'L') && last) || (kind === 'N' && last2);
}

/** Shogi family: one move in Japanese or Western notation. */
function shogiMove(pos, mv, style, prevTo) {
  const m = splitMove(pos.variant, mv);
  const sente = pos.toMove === 'first';
  const mark = sente ? '☗' : '☖';
  const rank = (sq) => sq.charCodeAt(1) - 97;
  const jaSq = (sq) => WIDE[Number(sq[0]) - 1] + KANJI[rank(sq)];
  const wSq = (sq) => `${sq[0]}${rank(sq) + 1}`;
  const own = (p) => isFirst(p) === sente;
  if (m.drop) {
    const rivals = [...pos.board].filter(([sq, p]) => own(p) && p.toUpperCase() === m.drop && attacks(pos, sq).includes(m.to));
    if (style === 'western') return `${m.drop}*${wSq(m.to)}`;
    return `${mark}${jaSq(m.to)}${JA[m.drop]}${rivals.length ? '打' : ''}`;
  }
  const piece = pos.board.get(m.from);
  if (!piece) return mv;
  const kind = piece.startsWith('+') ? '+' + piece[1].toUpperCase() : piece.toUpperCase();
  const couldPromote = canPromote(kind) && (inZone(pos.variant, sente, rank(m.from)) || inZone(pos.variant, sente, rank(m.to)));
  const mustPromote = forced(pos.variant, kind, sente, rank(m.to));
  const rivals = [...pos.board].filter(([sq, p]) => sq !== m.from && own(p) && p.toUpperCase() === piece.toUpperCase() && attacks(pos, sq).includes(m.to)).map(([sq]) => sq);
  const capture = pos.board.has(m.to);
  if (style === 'western') {
    const origin = rivals.length ? wSq(m.from) : '';
    const suffix = m.promote ? '+' : couldPromote && !mustPromote ? '=' : '';
    return `${kind}${origin}${capture ? 'x' : '-'}${wSq(m.to)}${suffix}`;
  }
  const where = m.to === prevTo ? (JA[kind].length === 1 ? '同　' : '同') : jaSq(m.to);
  let dis = '';
  if (rivals.length) {
    // Direction relative to the mover: dy > 0 forward (上), < 0 back (引), 0 sideways (寄).
    const fwd = (a, b) => (sente ? rank(a) - rank(b) : rank(b) - rank(a));
    const dirOf = (sq) => Math.sign(fwd(sq, m.to));
    const mine = dirOf(m.from);
    const others = rivals.map(dirOf);
    const file = (sq) => Number(sq[0]);
    const vertical = mine > 0 ? '上' : mine < 0 ? '引' : '寄';
    // Sente's right is the lower file number; gote's the higher.
    const rightness = (sq) => (sente ? -file(sq) : file(sq));
    const same = rivals.filter((sq) => dirOf(sq) === mine);
    if (!others.includes(mine)) dis = vertical;
    else {
      const straightUp = mine > 0 && file(m.from) === file(m.to) && 'GS+S+N+L+P'.includes(kind);
      if (straightUp) dis = '直';
      else {
        const r = rightness(m.from);
        const all = [m.from, ...same].map(rightness);
        dis = r === Math.max(...all) ? '右' : r === Math.min(...all) ? '左' : '';
        const lateral = [m.from, ...rivals].filter((sq) => rightness(sq) === r);
        if (lateral.length > 1 || !dis) dis += vertical;
      }
    }
  }
  const promo = m.promote ? '成' : couldPromote && !mustPromote ? '不成' : '';
  return `${mark}${where}${JA[kind]}${dis}${promo}`;
}

/**
 * Format a game's moves. Returns {texts, positions}: positions[i] is the position before move i
 * (positions[moves.length] the current one), so the page can step through the game.
 */
export function formatGame(variant, initialFen, moves, style, lang) {
  let pos = parse(variant, initialFen);
  const positions = [pos];
  const texts = [];
  let prevTo = null;
  const script = lang === 'zh-Hant' ? 'hant' : 'hans';
  for (const mv of moves) {
    let text = mv;
    try {
      if (familyOf(variant) === 'shogi') {
        if (style !== 'usi') text = shogiMove(pos, mv, style, prevTo);
      } else if (style !== 'iccs') text = xiangqiMove(pos, mv, style, script);
      pos = play(pos, mv);
    } catch {
      break; // an unexpected move text: stop replaying, keep what we have
    }
    prevTo = splitMove(variant, mv).to;
    texts.push(text);
    positions.push(pos);
  }
  return { texts, positions };
}

const FULL = '０１２３４５６７８９';
const normalize = (s) =>
  String(s)
    .replace(/[☗☖▲△\s　()（）]/g, '')
    .replace(/[０-９]/g, (c) => String(FULL.indexOf(c)))
    .replace(/[一二三四五六七八九]/g, (c) => String(KANJI.indexOf(c) + 1))
    .toLowerCase();

/** Find the legal machine move a person typed, in any notation of the family. */
export function parseTyped(variant, pos, legal, input, prevTo, lang) {
  const want = normalize(input);
  if (!want) return null;
  const shogi = familyOf(variant) === 'shogi';
  const script = lang === 'zh-Hant' ? 'hant' : 'hans';
  for (const mv of legal) {
    const forms = [mv];
    if (shogi) {
      forms.push(shogiMove(pos, mv, 'western', prevTo), shogiMove(pos, mv, 'japanese', prevTo), shogiMove(pos, mv, 'japanese', null));
      const w = shogiMove(pos, mv, 'western', prevTo);
      forms.push(w.replace(/[-x=]/g, ''));
    } else forms.push(xiangqiMove(pos, mv, 'wxf', script), xiangqiMove(pos, mv, 'chinese', 'hans'), xiangqiMove(pos, mv, 'chinese', 'hant'), mv.slice(0, 2) + '-' + mv.slice(2));
    if (forms.some((f) => normalize(f) === want)) return mv;
  }
  return null;
}

export { coordsOf };
