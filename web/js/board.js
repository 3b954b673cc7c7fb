// The SVG board for all four variants: drawing, highlights and input (click-click,
// drag-and-drop with pointer events, keyboard). It knows geometry and pictures, never rules:
// legal moves are handed in from the server's view.
import { dims, familyOf, squareAt, coordsOf, isFirst } from './position.js';
import { esc } from './html.js';

const NS = 'http://www.w3.org/2000/svg';

export const XQ_CHARS = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};
const XQ_LETTERS = { K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' };
export const SHOGI_CHARS = {
  K: '玉', k: '王', R: '飛', B: '角', G: '金', S: '銀', N: '桂', L: '香', P: '歩',
  '+R': '龍', '+B': '馬', '+S': '全', '+N': '圭', '+L': '杏', '+P': 'と',
};

/** Geometry of one variant's drawing, in SVG user units. */
function geometry(variant, stack, noHands = false) {
  const { files, ranks } = dims(variant);
  if (familyOf(variant) === 'xiangqi') {
    const S = 100;
    const M = 78;
    return { xq: true, files, ranks, cw: S, ch: S, gx: M, gy: M, W: 8 * S + 2 * M, H: 9 * S + 2 * M, wood: [0, 0, 8 * S + 2 * M, 9 * S + 2 * M] };
  }
  const cw = 100;
  const ch = 109;
  const pad = 46;
  const hw = 128;
  const gap = 18;
  const gw = files * cw;
  const gh = ranks * ch;
  const woodW = gw + 2 * pad;
  const woodH = gh + 2 * pad;
  if (noHands) return { xq: false, files, ranks, cw, ch, gx: pad, gy: pad, W: woodW, H: woodH, wood: [0, 0, woodW, woodH], hand: null };
  if (stack) {
    const hh = 126;
    return { xq: false, files, ranks, cw, ch, gx: pad, gy: hh + gap + pad, W: woodW, H: woodH + 2 * (hh + gap), wood: [0, hh + gap, woodW, woodH], hand: { stack, hw: woodW, hh, top: [0, 0], bottom: [0, hh + gap + woodH + gap] } };
  }
  // Side layout: the komadai stand beside the board, the opponent's top left, yours bottom right.
  const kinds = variant === 'minishogi' ? 5 : 7;
  const hh = Math.min(woodH, kinds * 106 + 24);
  return { xq: false, files, ranks, cw, ch, gx: hw + gap + pad, gy: pad, W: woodW + 2 * (hw + gap), H: woodH, wood: [hw + gap, 0, woodW, woodH], hand: { stack, hw, hh, top: [0, 0], bottom: [hw + gap + woodW + gap, woodH - hh] } };
}

/** Aspect ratio (width / height) of a variant's drawing, to reserve the box before drawing. */
export function aspect(variant, stack = false) {
  const g = geometry(variant, stack);
  return g.W / g.H;
}


/** Inner SVG of one piece centred on (0,0). `style` is 'traditional' or 'western'. */
export function pieceSvg(variant, piece, style = 'traditional', scale = 1, upsideDown = null) {
  if (familyOf(variant) === 'xiangqi') {
    const red = piece === piece.toUpperCase();
    const cls = red ? 'red' : 'black';
    if (piece === 'X' || piece === 'x')
      return `<g class="pc covered ${cls}" transform="scale(${scale})"><circle class="shadow" r="44" cx="2" cy="5"/><circle class="disc" r="44"/><circle class="ring" r="35"/><path class="mark" d="M0-17L17 0 0 17-17 0Z"/></g>`;
    const text = style === 'western' ? XQ_LETTERS[piece.toUpperCase()] : XQ_CHARS[piece];
    return `<g class="pc ${cls} ${style}" transform="scale(${scale})"><circle class="shadow" r="44" cx="2" cy="5"/><circle class="face" r="44"/><circle class="ring" r="37"/><text y="2">${text}</text></g>`;
  }
  const promoted = piece.startsWith('+');
  const base = piece.replace('+', '');
  const up = base.toUpperCase();
  const sente = base === up;
  const key = promoted ? '+' + up : up === 'K' ? base : up;
  const big = 'KRB'.includes(up) ? 1 : up === 'P' ? 0.88 : up === 'G' || up === 'S' ? 0.96 : 0.92;
  const w = 84 * big;
  const h = 96 * big;
  const path = `M0 ${-h / 2}L${w * 0.4} ${-h * 0.33}L${w / 2} ${h / 2}L${-w / 2} ${h / 2}L${-w * 0.4} ${-h * 0.33}Z`;
  const text = style === 'western' ? (promoted ? '+' + up : up) : SHOGI_CHARS[key];
  const fs = style === 'western' ? (promoted ? 38 : 48) : 54 * big;
  const turned = upsideDown ?? !sente;
  return `<g class="pc koma ${promoted ? 'promoted' : ''} ${style}" transform="scale(${scale})${turned ? ' rotate(180)' : ''}"><path class="shadow" d="${path}" transform="translate(2 4)"/><path class="face" d="${path}"/><text y="${h * 0.1}" font-size="${fs}">${text}</text></g>`;
}

/**
 * Create a board in `host`. Options: variant, interactive, onMove(move) for a chosen machine
 * move, choosePromotion(from, to) → Promise<boolean|null>, label(sq, piece) → aria text,
 * onPremove(move) for a move queued while it is not the player's turn (state `premovable`: the
 * player's seat; any own piece to any square, the server judges it when its turn comes) and
 * onPremoveCancel() when a queued premove (state `premove`: {from, to}) is clicked away or
 * Escape is pressed.
 * Edit mode (the board editor) instead: edit = {click(sq), clear(sq), move(from, to)}: a click
 * or Enter/Space on a square, a right click or Delete on one, a piece dragged to another
 * square (off the board: cleared). The board decides nothing about what they mean.
 */
export function createBoard(host, opts) {
  const variant = opts.variant;
  const stack = opts.stack ?? (familyOf(variant) === 'shogi' && window.matchMedia?.('(max-width: 760px)').matches);
  const g = geometry(variant, stack, !!opts.noHands);
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${g.W} ${g.H}`);
  svg.setAttribute('class', `board ${familyOf(variant)} ${variant}`);
  svg.setAttribute('role', 'group');
  svg.dataset.variant = variant;
  host.style.aspectRatio = `${g.W} / ${g.H}`;
  host.replaceChildren(svg);
  const layer = (name) => {
    const el = document.createElementNS(NS, 'g');
    el.setAttribute('class', name);
    svg.append(el);
    return el;
  };
  const surface = layer('surface');
  const marks = layer('marks');
  const pieces = layer('pieces');
  const hints = layer('hints');
  const squares = layer('squares');
  const hands = layer('hands');
  const drag = layer('drag');

  let state = { pos: null, orientation: 'first', lastMove: null, check: null, highlight: [], arrows: [], legal: [], movable: null, premovable: null, premove: null, style: 'traditional', label: opts.label || ((s) => s), endRevealed: [], endRevealedNote: '' };
  let selected = null; // {from} or {drop: letter}
  let focusSq = null;
  let drawnOrientation = null;

  const flip = () => state.orientation === 'second';
  /** Centre of a square/point in SVG units. */
  const centre = (sq) => {
    let { col, row } = coordsOf(variant, sq);
    if (flip()) {
      col = g.files - 1 - col;
      row = g.ranks - 1 - row;
    }
    return g.xq ? [g.gx + col * g.cw, g.gy + row * g.ch] : [g.gx + (col + 0.5) * g.cw, g.gy + (row + 0.5) * g.ch];
  };
  const squareFromPoint = (x, y) => {
    let col = g.xq ? Math.round((x - g.gx) / g.cw) : Math.floor((x - g.gx) / g.cw);
    let row = g.xq ? Math.round((y - g.gy) / g.ch) : Math.floor((y - g.gy) / g.ch);
    if (col < 0 || row < 0 || col >= g.files || row >= g.ranks) return null;
    if (flip()) {
      col = g.files - 1 - col;
      row = g.ranks - 1 - row;
    }
    return squareAt(variant, col, row);
  };

  function drawSurface() {
    const o = [];
    const [wx, wy, ww, wh] = g.wood;
    o.push(`<rect class="wood" x="${wx}" y="${wy}" width="${ww}" height="${wh}" rx="${g.xq ? 18 : 10}"/>`);
    if (g.xq) {
      const { gx, gy, cw } = g;
      const X = (c) => gx + c * cw;
      const Y = (r) => gy + r * cw;
      o.push(`<rect class="frame" x="${gx - 14}" y="${gy - 14}" width="${8 * cw + 28}" height="${9 * cw + 28}"/>`);
      let d = `M${X(0)} ${Y(0)}H${X(8)}V${Y(9)}H${X(0)}Z`;
      for (let r = 1; r < 9; r++) d += `M${X(0)} ${Y(r)}H${X(8)}`;
      for (let c = 1; c < 8; c++) d += `M${X(c)} ${Y(0)}V${Y(4)}M${X(c)} ${Y(5)}V${Y(9)}`;
      d += `M${X(3)} ${Y(0)}L${X(5)} ${Y(2)}M${X(5)} ${Y(0)}L${X(3)} ${Y(2)}M${X(3)} ${Y(7)}L${X(5)} ${Y(9)}M${X(5)} ${Y(7)}L${X(3)} ${Y(9)}`;
      o.push(`<path class="lines" d="${d}"/>`);
      // Point markers at the cannon and soldier points (half markers on the edges).
      let m = '';
      const mark = (c, r) => {
        const x = X(c);
        const y = Y(r);
        for (const sx of [-1, 1]) {
          if ((c === 0 && sx < 0) || (c === 8 && sx > 0)) continue;
          for (const sy of [-1, 1]) m += `M${x + sx * 24} ${y + sy * 8}H${x + sx * 8}V${y + sy * 24}`;
        }
      };
      for (const r of [2, 7]) for (const c of [1, 7]) mark(c, r);
      for (const r of [3, 6]) for (const c of [0, 2, 4, 6, 8]) mark(c, r);
      o.push(`<path class="markers" d="${m}"/>`);
      const ry = (Y(4) + Y(5)) / 2;
      const river = flip() ? ['漢', '界', '楚', '河'] : ['楚', '河', '漢', '界'];
      o.push(`<g class="river"><text x="${X(1.5)}" y="${ry}">${river[0]}</text><text x="${X(2.5)}" y="${ry}">${river[1]}</text><text x="${X(5.5)}" y="${ry}" >${river[2]}</text><text x="${X(6.5)}" y="${ry}">${river[3]}</text></g>`);
      // Coordinates (ICCS) for learners and keyboard players.
      let coords = '';
      for (let c = 0; c < 9; c++) {
        const file = String.fromCharCode(97 + (flip() ? 8 - c : c));
        coords += `<text x="${X(c)}" y="${Y(9) + 56}">${file}</text>`;
      }
      for (let r = 0; r < 10; r++) coords += `<text x="${gx - 52}" y="${Y(r)}">${flip() ? r : 9 - r}</text>`;
      o.push(`<g class="coords">${coords}</g>`);
    } else {
      const { gx, gy, cw, ch, files, ranks } = g;
      o.push(`<rect class="grid-bg" x="${gx}" y="${gy}" width="${files * cw}" height="${ranks * ch}"/>`);
      let d = '';
      for (let r = 0; r <= ranks; r++) d += `M${gx} ${gy + r * ch}H${gx + files * cw}`;
      for (let c = 0; c <= files; c++) d += `M${gx + c * cw} ${gy}V${gy + ranks * ch}`;
      o.push(`<path class="lines" d="${d}"/>`);
      if (files === 9) for (const c of [3, 6]) for (const r of [3, 6]) o.push(`<circle class="star" cx="${gx + c * cw}" cy="${gy + r * ch}" r="7"/>`);
      const kanji = '一二三四五六七八九';
      const wide = '１２３４５６７８９';
      let coords = '';
      for (let c = 0; c < files; c++) {
        const n = flip() ? c + 1 : files - c;
        coords += `<text x="${gx + (c + 0.5) * cw}" y="${gy - 22}">${wide[n - 1]}</text>`;
      }
      for (let r = 0; r < ranks; r++) {
        const n = flip() ? ranks - r : r + 1;
        coords += `<text x="${gx + files * cw + 23}" y="${gy + (r + 0.5) * ch}">${kanji[n - 1]}</text>`;
      }
      o.push(`<g class="coords">${coords}</g>`);
      const hd = g.hand;
      if (hd) for (const where of ['top', 'bottom']) {
        const [x, y] = hd[where];
        o.push(`<rect class="komadai" x="${x}" y="${y}" width="${hd.hw}" height="${hd.hh}" rx="10"/>`);
      }
    }
    surface.innerHTML = o.join('');
    // Squares: transparent targets carrying the test hook and the accessible name.
    const s = [];
    for (let row = 0; row < g.ranks; row++)
      for (let col = 0; col < g.files; col++) {
        const sq = squareAt(variant, col, row);
        const [x, y] = centre(sq);
        const w = g.cw;
        const h = g.ch;
        s.push(`<rect data-square="${sq}" role="button" tabindex="-1" x="${x - w / 2}" y="${y - h / 2}" width="${w}" height="${h}" rx="${g.xq ? 50 : 4}"/>`);
      }
    squares.innerHTML = s.join('');
    drawnOrientation = state.orientation;
  }

  const handOrder = variant === 'minishogi' ? 'RBGSP' : 'RBGSNLP';
  function handSlot(owner, i) {
    const hd = g.hand;
    const mine = owner === (flip() ? 'second' : 'first'); // the bottom player's hand
    const [x, y] = hd[mine ? 'bottom' : 'top'];
    const n = handOrder.length;
    if (hd.stack) {
      const step = Math.min(112, (hd.hw - 20) / n);
      const idx = mine ? i : n - 1 - i;
      return [x + 10 + step * (idx + 0.5), y + hd.hh / 2];
    }
    const step = Math.min(106, (hd.hh - 20) / n);
    const idx = mine ? n - 1 - i : i;
    const y0 = mine ? y + hd.hh - 10 - step * n : y + 10;
    return [x + hd.hw / 2, y0 + step * (idx + 0.5)];
  }

  function drawHands() {
    if (g.xq || !g.hand) return;
    const o = [];
    for (const owner of ['first', 'second']) {
      const h = state.pos?.hands?.[owner] || {};
      [...handOrder].forEach((k, i) => {
        const n = h[k] || 0;
        if (!n) return;
        const letter = owner === 'first' ? k : k.toLowerCase();
        const [x, y] = handSlot(owner, i);
        const sel = selected?.drop === letter ? ' selected' : '';
        const canDrop = (state.movable === owner && state.legal.some((m) => m.startsWith(k + '*'))) || premoving() === owner;
        const top = owner !== (flip() ? 'second' : 'first');
        o.push(`<g class="hand-piece${sel}${canDrop ? ' movable' : ''}" data-hand="${letter}" data-count="${n}" role="button" tabindex="${canDrop ? 0 : -1}" aria-label="${esc(state.label(null, letter, n))}" transform="translate(${x} ${y})">` +
          `<rect class="hit" x="-50" y="-54" width="100" height="108"/>${pieceSvg(variant, letter, state.style, 0.92, top)}` +
          (n > 1 ? `<g class="count" transform="translate(34 ${top ? -38 : 38})"><circle r="19"/><text y="1">${n}</text></g>` : '') + '</g>');
      });
    }
    hands.innerHTML = o.join('');
  }

  function drawPieces(animate) {
    const o = [];
    for (const [sq, p] of state.pos?.board || []) {
      const [x, y] = centre(sq);
      // Jieqi: a piece the server turned over only because the game ended looks apart.
      const end = state.endRevealed.includes(sq) ? ' class="end-revealed" data-end-revealed=""' : '';
      o.push(`<g data-piece="${p}" data-at="${sq}"${end} transform="translate(${x} ${y})">${pieceSvg(variant, p, state.style, 1, g.xq ? null : isFirst(p) === flip())}</g>`);
    }
    pieces.innerHTML = o.join('');
    if (animate && state.lastMove && state.lastMove.from) {
      const el = pieces.querySelector(`[data-at="${state.lastMove.to}"]`);
      const [fx, fy] = centre(state.lastMove.from);
      const [tx, ty] = centre(state.lastMove.to);
      el?.animate?.([{ transform: `translate(${fx}px, ${fy}px)` }, { transform: `translate(${tx}px, ${ty}px)` }], { duration: 160, easing: 'ease-out' });
    }
  }
  /** The seat that may queue a premove now (not its turn), or null. */
  const premoving = () => (!state.movable && state.premovable) || null;
  /** Premove targets: any square not holding one's own piece (drops: any empty square). */
  const premoveTargets = (sel) => {
    const all = [...squares.children].map((el) => el.dataset.square);
    const mine = (sq) => {
      const p = state.pos?.board.get(sq);
      return !!p && isFirst(p) === (state.premovable === 'first');
    };
    return sel.drop ? all.filter((sq) => !state.pos?.board.has(sq)) : all.filter((sq) => sq !== sel.from && !mine(sq));
  };
  const targetsFrom = (sel) => {
    if (!sel) return [];
    if (premoving()) return premoveTargets(sel);
    const prefix = sel.drop ? sel.drop.toUpperCase() + '*' : sel.from;
    return state.legal.filter((m) => m.startsWith(prefix) && (sel.drop || m[1] !== '*')).map((m) => m.slice(sel.drop ? 2 : 2, sel.drop ? 4 : 4));
  };

  function drawMarks() {
    const o = [];
    const cell = (sq, cls) => {
      const [x, y] = centre(sq);
      if (g.xq) o.push(`<circle class="${cls}" cx="${x}" cy="${y}" r="49"/>`);
      else o.push(`<rect class="${cls}" x="${x - g.cw / 2}" y="${y - g.ch / 2}" width="${g.cw}" height="${g.ch}"/>`);
    };
    if (state.lastMove) {
      if (state.lastMove.from) cell(state.lastMove.from, 'last from');
      cell(state.lastMove.to, 'last');
    }
    for (const sq of state.highlight || []) cell(sq, 'hl');
    if (state.check) {
      const [x, y] = centre(state.check);
      o.push(`<circle class="check" cx="${x}" cy="${y}" r="58"/>`);
    }
    if (selected?.from) cell(selected.from, 'sel');
    // A queued premove: its squares, apart from the last move's.
    if (state.premove) {
      if (state.premove.from) cell(state.premove.from, 'premove from');
      cell(state.premove.to, 'premove');
    }
    marks.innerHTML = o.join('');
    const h = [];
    for (const to of new Set(targetsFrom(selected))) {
      const [x, y] = centre(to);
      const occupied = state.pos.board.has(to);
      h.push(occupied ? `<circle class="dest capture" cx="${x}" cy="${y}" r="46"/>` : `<circle class="dest" cx="${x}" cy="${y}" r="15"/>`);
    }
    for (const [from, to] of state.arrows || []) {
      const [x1, y1] = centre(from);
      const [x2, y2] = centre(to);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const ux = (x2 - x1) / len;
      const uy = (y2 - y1) / len;
      const ex = x2 - ux * 30;
      const ey = y2 - uy * 30;
      h.push(`<g class="arrow"><line x1="${x1 + ux * 20}" y1="${y1 + uy * 20}" x2="${ex}" y2="${ey}"/><path d="M${x2 - ux * 8} ${y2 - uy * 8}L${ex - uy * 22} ${ey + ux * 22}L${ex + uy * 22} ${ey - ux * 22}Z"/></g>`);
    }
    hints.innerHTML = h.join('');
    for (const el of squares.children) {
      const sq = el.dataset.square;
      const p = state.pos?.board.get(sq);
      const end = p && state.endRevealed.includes(sq) ? state.endRevealedNote : '';
      el.setAttribute('aria-label', state.label(sq, p || null) + (end ? ` (${end})` : ''));
      // The hover text: the squares lie over the pieces, so the title goes on the square.
      let title = el.querySelector('title');
      if (end && !title) title = el.appendChild(document.createElementNS(NS, 'title'));
      if (title) title.textContent = end;
      el.classList.toggle('target', targetsFrom(selected).includes(sq));
    }
    hands.querySelectorAll('[data-hand]').forEach((el) => el.classList.toggle('selected', selected?.drop === el.dataset.hand));
  }

  const mineAt = (sq) => {
    const p = state.pos?.board.get(sq);
    if (premoving()) return !!p && isFirst(p) === (state.premovable === 'first');
    return !!p && state.movable && isFirst(p) === (state.movable === 'first') && state.legal.some((m) => m.startsWith(sq));
  };

  async function tryMove(sel, to) {
    if (premoving()) {
      selected = null;
      drawMarks();
      opts.onPremove?.(sel.drop ? `${sel.drop.toUpperCase()}*${to}` : sel.from + to);
      return true;
    }
    const cands = sel.drop ? state.legal.filter((m) => m === `${sel.drop.toUpperCase()}*${to}`) : state.legal.filter((m) => m.startsWith(sel.from + to));
    if (!cands.length) return false;
    let mv = cands[0];
    if (cands.length > 1) {
      const promo = cands.find((m) => m.endsWith('+'));
      const plain = cands.find((m) => !m.endsWith('+'));
      const choice = opts.choosePromotion ? await opts.choosePromotion(sel.from, to, state.pos.board.get(sel.from)) : true;
      if (choice === null || choice === undefined) return true;
      mv = choice ? promo : plain;
    }
    selected = null;
    drawMarks();
    opts.onMove?.(mv);
    return true;
  }

  // Pointer input: one handler for mouse, pen and touch.
  let press = null;
  const toSvg = (e) => {
    const pt = svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  };
  svg.addEventListener('pointerdown', async (e) => {
    if (opts.edit) return editDown(e);
    if (!opts.interactive || e.button > 0) return;
    // A click on the board takes a queued premove back.
    if (state.premove) {
      e.preventDefault();
      opts.onPremoveCancel?.();
      return;
    }
    const handEl = e.target.closest?.('[data-hand]');
    const p = toSvg(e);
    const sq = handEl ? null : squareFromPoint(p.x, p.y);
    if (handEl) {
      const letter = handEl.dataset.hand;
      const owner = letter === letter.toUpperCase() ? 'first' : 'second';
      if ((state.movable || premoving()) !== owner) return;
      selected = selected?.drop === letter ? null : { drop: letter };
      press = selected ? { x: e.clientX, y: e.clientY, id: e.pointerId, sel: selected, piece: letter, dragging: false, fresh: true } : null;
      drawMarks();
      if (press) svg.setPointerCapture?.(e.pointerId);
      e.preventDefault();
      return;
    }
    if (!sq) return;
    if (selected && targetsFrom(selected).includes(sq)) {
      e.preventDefault();
      await tryMove(selected, sq);
      return;
    }
    if (mineAt(sq)) {
      const again = selected?.from === sq;
      selected = { from: sq };
      press = { x: e.clientX, y: e.clientY, id: e.pointerId, sel: selected, piece: state.pos.board.get(sq), dragging: false, again };
      svg.setPointerCapture?.(e.pointerId);
      drawMarks();
      e.preventDefault();
      return;
    }
    selected = null;
    drawMarks();
  });
  // Edit mode: every square is a target; a press on a piece may become a drag.
  function editDown(e) {
    if (e.button > 0) return;
    const p = toSvg(e);
    const sq = squareFromPoint(p.x, p.y);
    if (!sq) return;
    e.preventDefault();
    press = { x: e.clientX, y: e.clientY, id: e.pointerId, sel: { from: sq }, piece: state.pos?.board.get(sq), dragging: false, edit: true };
    svg.setPointerCapture?.(e.pointerId);
  }
  svg.addEventListener('contextmenu', (e) => {
    if (!opts.edit) return;
    e.preventDefault();
    const p = toSvg(e);
    const sq = squareFromPoint(p.x, p.y);
    if (sq) opts.edit.clear(sq);
  });
  svg.addEventListener('pointermove', (e) => {
    if (!press || e.pointerId !== press.id) return;
    if (press.edit && !press.piece) return;
    if (!press.dragging && Math.hypot(e.clientX - press.x, e.clientY - press.y) < 6) return;
    const p = toSvg(e);
    if (!press.dragging) {
      press.dragging = true;
      drag.innerHTML = `<g class="dragging">${pieceSvg(variant, press.piece, state.style, 1.12, g.xq ? null : false)}</g>`;
      const origin = press.sel.from ? pieces.querySelector(`[data-at="${press.sel.from}"]`) : hands.querySelector(`[data-hand="${press.piece}"]`);
      origin?.classList.add('ghost');
      press.origin = origin;
    }
    drag.firstChild.setAttribute('transform', `translate(${p.x} ${p.y})`);
    const over = squareFromPoint(p.x, p.y);
    squares.querySelectorAll('.over').forEach((el) => el.classList.remove('over'));
    if (over && (press.edit || targetsFrom(press.sel).includes(over))) squares.querySelector(`[data-square="${over}"]`)?.classList.add('over');
  });
  const endPress = async (e, cancelled) => {
    if (!press || e.pointerId !== press.id) return;
    const pr = press;
    press = null;
    drag.innerHTML = '';
    pr.origin?.classList.remove('ghost');
    squares.querySelectorAll('.over').forEach((el) => el.classList.remove('over'));
    if (pr.edit) {
      if (cancelled) return;
      if (!pr.dragging) return opts.edit.click(pr.sel.from);
      const p = toSvg(e);
      const over = squareFromPoint(p.x, p.y);
      if (!over) opts.edit.clear(pr.sel.from);
      else if (over !== pr.sel.from) opts.edit.move(pr.sel.from, over);
      return;
    }
    if (!pr.dragging) {
      if (pr.again) {
        selected = null;
        drawMarks();
      }
      return;
    }
    const p = toSvg(e);
    const over = cancelled ? null : squareFromPoint(p.x, p.y);
    if (!(over && (await tryMove(pr.sel, over)))) {
      if (over !== pr.sel.from) selected = null;
      drawMarks();
    }
  };
  svg.addEventListener('pointerup', (e) => endPress(e, false));
  svg.addEventListener('pointercancel', (e) => endPress(e, true));

  // Keyboard: one tab stop, arrows move the focus, Enter/Space acts like a click.
  const focusSquare = (sq) => {
    const el = squares.querySelector(`[data-square="${sq}"]`);
    if (!el) return;
    squares.querySelectorAll('[tabindex="0"]').forEach((x) => x.setAttribute('tabindex', '-1'));
    el.setAttribute('tabindex', '0');
    el.focus();
    focusSq = sq;
  };
  svg.addEventListener('keydown', async (e) => {
    const el = e.target.closest?.('[data-square],[data-hand]');
    if (!el) return;
    if (el.dataset.hand && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      selectDrop(el.dataset.hand, true);
      return;
    }
    if (e.key === 'Escape' && state.premove) {
      e.preventDefault();
      opts.onPremoveCancel?.();
      return;
    }
    const sq = el.dataset.square;
    if (!sq) return;
    let { col, row } = coordsOf(variant, sq);
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (d) {
      e.preventDefault();
      e.stopPropagation();
      const s = flip() ? -1 : 1;
      col = Math.min(g.files - 1, Math.max(0, col + d[0] * s));
      row = Math.min(g.ranks - 1, Math.max(0, row + d[1] * s));
      focusSquare(squareAt(variant, col, row));
    } else if (opts.edit && (e.key === 'Enter' || e.key === ' ' || e.key === 'Delete' || e.key === 'Backspace')) {
      e.preventDefault();
      e.stopPropagation();
      if (e.key === 'Enter' || e.key === ' ') opts.edit.click(sq);
      else opts.edit.clear(sq);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      if (!opts.interactive) return;
      if (selected && targetsFrom(selected).includes(sq)) await tryMove(selected, sq);
      else {
        selected = mineAt(sq) && selected?.from !== sq ? { from: sq } : null;
        drawMarks();
      }
    } else if (e.key === 'Escape') {
      selected = null;
      drawMarks();
    } else if (/^[a-z]$/i.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey && g.hand) {
      // A piece letter on a square picks that piece from the player's hand (P, L, N, S, G,
      // B, R), as a click on it would: then Enter on a square drops it there.
      const owner = state.movable || premoving();
      const letter = owner === 'first' ? e.key.toUpperCase() : e.key.toLowerCase();
      if (owner && hands.querySelector(`[data-hand="${letter}"]`)) {
        e.preventDefault();
        selectDrop(letter, false);
      }
    }
  });

  /** Picks (or puts back) `letter` from the hand; `toBoard`: the focus goes to the board. */
  function selectDrop(letter, toBoard) {
    const owner = letter === letter.toUpperCase() ? 'first' : 'second';
    if ((state.movable || premoving()) !== owner) return;
    selected = selected?.drop === letter ? null : { drop: letter };
    drawMarks();
    if (selected && toBoard) (squares.querySelector('[tabindex="0"]') || squares.firstChild)?.focus();
  }

  return {
    svg,
    /** Width / height of the drawing. */
    aspect: g.W / g.H,
    /** Redraw with a new state (any subset of fields). */
    update(next) {
      const prevMove = state.lastMove;
      const prevPos = state.pos;
      state = { ...state, ...next };
      if (drawnOrientation !== state.orientation) drawSurface();
      const moved = next.lastMove && prevPos && (!prevMove || prevMove.to !== next.lastMove.to || prevMove.from !== next.lastMove.from);
      if (selected && !(selected.from ? mineAt(selected.from) : state.movable || premoving())) selected = null;
      drawPieces(moved && !next.noAnimation);
      drawHands();
      drawMarks();
      const first = focusSq || (state.orientation === 'second' ? squareAt(variant, g.files - 1, 0) : squareAt(variant, 0, g.ranks - 1));
      const el = squares.querySelector(`[data-square="${first}"]`);
      if (el && !squares.querySelector('[tabindex="0"]')) el.setAttribute('tabindex', '0');
    },
    /** Clear any selection (e.g. after a rejected move). */
    deselect() {
      selected = null;
      drawMarks();
    },
    focus() {
      (squares.querySelector('[tabindex="0"]') || squares.firstChild)?.focus();
    },
    /** The square under a point of the page (client coordinates), or null: for drops from
     * outside the board (the editor's palette). */
    squareAtClient(clientX, clientY) {
      const p = toSvg({ clientX, clientY });
      return squareFromPoint(p.x, p.y);
    },
  };
}
