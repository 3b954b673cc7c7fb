// The board editor, `/editor/<variant>[?fen=…|?sfen=…]`: place and remove pieces, hands,
// side to move, the FEN/SFEN live. The server judges the position (POST
// /api/positions/validate) and the page says its problems in the reader's language; from a
// valid position: analyse it, or start a game from it (the side and clock chosen: the side
// to move by default). The position lives in the URL, so Back and reload keep it.
import { t } from './i18n.js';
import { api, createGame, ApiError } from './api.js';
import { errorText } from './errors.js';
import { createBoard, pieceSvg } from './board.js';
import { START, familyOf, sidesOf, parse, write, isFirst } from './position.js';
import { navigate } from './navigation.js';
import { clockLabel } from './clock.js';
import { PRESETS } from './home.js';
import { esc } from './html.js';

const VARIANTS = ['xiangqi', 'jieqi', 'shogi', 'minishogi'];

/** The palette of each variant, Red's/sente's letters (the other side's are lowercase). */
const PALETTE = {
  xiangqi: ['K', 'A', 'B', 'N', 'R', 'C', 'P'],
  jieqi: ['K', 'A', 'B', 'N', 'R', 'C', 'P', 'X'],
  shogi: ['K', 'R', 'B', 'G', 'S', 'N', 'L', 'P', '+R', '+B', '+S', '+N', '+L', '+P'],
  minishogi: ['K', 'R', 'B', 'G', 'S', 'P', '+R', '+B', '+S', '+P'],
};
const HAND_KINDS = { shogi: ['R', 'B', 'G', 'S', 'N', 'L', 'P'], minishogi: ['R', 'B', 'G', 'S', 'P'] };
/** Jieqi: the kinds of a pool field, and the field of a full set (jieqi.md, Notation). */
const POOL_KINDS = ['A', 'B', 'N', 'R', 'C', 'P'];
const FULL_POOL = 'A2B2N2R2C2P5a2b2n2r2c2p5';
/** The wire's kind names (docs/api.md) as piece letters, for the piece names of the locales. */
const KIND_LETTERS = {
  general: 'K', advisor: 'A', elephant: 'B', horse: 'N', chariot: 'R', cannon: 'C', soldier: 'P',
  king: 'K', rook: 'R', bishop: 'B', gold: 'G', silver: 'S', knight: 'N', lance: 'L', pawn: 'P',
};
const ERASER = '';

const ofSide = (letter, owner) => (owner === 'first' ? letter : letter.toLowerCase());

/** A Jieqi pool field (`A2R1p5`, `-`) as counts per side and letter: display data only. */
function poolCounts(text) {
  const counts = { first: {}, second: {} };
  for (const [, letter, n] of String(text || '').matchAll(/([A-Za-z])(\d+)/g))
    counts[letter === letter.toUpperCase() ? 'first' : 'second'][letter.toUpperCase()] = Number(n);
  return counts;
}

/** Counts per side and letter written back as a pool field. */
function poolText(counts) {
  let text = '';
  for (const owner of ['first', 'second'])
    for (const k of POOL_KINDS) if (counts[owner][k]) text += ofSide(k, owner) + counts[owner][k];
  return text || '-';
}

export function editorPage(main, variant) {
  if (!VARIANTS.includes(variant)) variant = 'xiangqi';
  const fam = familyOf(variant);
  const sides = sidesOf(variant);
  const params = new URLSearchParams(location.search);
  const given = params.get(fam === 'shogi' ? 'sfen' : 'fen');

  let pos = null; // {variant, board: Map, hands, toMove}
  let pool = null; // Jieqi: the pool field as given, or null (derived by the server)
  let chosen = null; // the palette letter to place, ERASER, or null
  let orientation = 'first';
  let verdict = null; // the server's PositionCheck for the current text
  let seq = 0;
  let timer = null;
  let board = null;
  let text = ''; // the FEN/SFEN shown and judged
  let dropped = false; // a palette piece was just dropped on the board: ignore its click
  let level = Number(localStorage.getItem('jiang.home.level')) || 3; // the home page's choice
  // The game's side and clock: the side to move until the player picks one; no clock until
  // one is picked (a set-up position is studied, not raced).
  let sideChoice = null; // a side name, `random`, or null: the side to move
  let clockChoice = 'none'; // a preset's index or `none`
  const presets = PRESETS[fam];
  const sideToMove = () => sides[pos?.toMove === 'second' ? 1 : 0];

  const pieceName = (letter) => {
    const key = letter.startsWith('+') ? '+' + letter[1].toUpperCase() : letter.toUpperCase();
    return t(`piece.${fam}.${key}`);
  };
  const sideName = (owner) => t('side.' + sides[owner === 'first' ? 0 : 1]);
  const label = (sq, p) => (p ? t('aria.piece', { square: sq, side: sideName(isFirst(p) ? 'first' : 'second'), piece: pieceName(p) }) : t('aria.empty', { square: sq }));

  /** Reads `text` into the drawn position; false when it cannot even be drawn. */
  function load(text) {
    try {
      const next = parse(variant, text);
      pos = next;
      const fields = String(text).trim().split(/\s+/);
      pool = variant === 'jieqi' && fields.length === 5 ? fields[2] : null;
      return true;
    } catch {
      return false;
    }
  }

  function render() {
    main.innerHTML = `
<section class="editor">
  <nav class="variant-tabs" aria-label="${t('rules.variants')}">
    ${VARIANTS.map((v) => `<a href="/editor/${v}"${v === variant ? ' aria-current="page"' : ''}>${t('variant.' + v)}</a>`).join('')}
  </nav>
  <h1>${t('editor.title', { variant: t('variant.' + variant) })}</h1>
  <div class="editor-layout">
    <div class="editor-board"><div class="board-host" aria-label="${t('aria.board.' + variant)}"></div>
      <p class="hint">${t('editor.hint')}</p></div>
    <div class="editor-panel">
      <fieldset class="palette">
        <legend>${t('editor.palette')}</legend>
        ${['first', 'second'].map((owner) => `<div class="palette-row" role="group" aria-label="${esc(sideName(owner))}">${PALETTE[variant]
          .map((k) => ofSide(k, owner)).map((p) => `<button type="button" class="palette-piece" data-piece="${p}" aria-pressed="false" aria-label="${esc(t('editor.pieceLabel', { side: sideName(owner), piece: pieceName(p) }))}"><svg viewBox="-50 -50 100 100" aria-hidden="true">${pieceSvg(variant, p, 'traditional', 0.9)}</svg></button>`).join('')}</div>`).join('')}
        <button type="button" class="palette-piece eraser" data-piece="${ERASER}" aria-pressed="false">${t('editor.eraser')}</button>
      </fieldset>
      ${HAND_KINDS[variant] ? `
      <fieldset class="editor-hands">
        <legend>${t('editor.hands')}</legend>
        ${counters('hands', HAND_KINDS[variant], 'editor.handOf')}
      </fieldset>` : ''}
      ${variant === 'jieqi' ? `
      <fieldset class="editor-pool">
        <legend>${t('editor.pool')}</legend>
        <label><input type="checkbox" name="pool-auto"${pool === null ? ' checked' : ''}> ${t('editor.poolAuto')}</label>
        <div class="pool-counts"${pool === null ? ' hidden' : ''}>${counters('pool', POOL_KINDS, 'editor.poolOf')}</div>
      </fieldset>` : ''}
      <fieldset class="editor-turn">
        <legend>${t('editor.toMove')}</legend>
        <div class="chips">${['first', 'second'].map((owner) => `<label class="chip"><input type="radio" name="to-move" value="${owner}"><span>${esc(sideName(owner))}</span></label>`).join('')}</div>
      </fieldset>
      <div class="editor-tools">
        <button type="button" data-tool="start">${t('editor.start')}</button>
        <button type="button" data-tool="clear">${t('editor.clear')}</button>
        <button type="button" data-tool="flip">${t('editor.flip')}</button>
      </div>
      <label class="editor-fen">${t(fam === 'shogi' ? 'editor.sfen' : 'editor.fen')}
        <textarea rows="2" spellcheck="false" autocomplete="off">${esc(text)}</textarea></label>
      <div class="editor-verdict" role="status" aria-live="polite"></div>
      <div class="editor-actions">
        <a class="button" data-action="analyse" href="#">${t('editor.analyse')}</a>
        <button type="button" class="primary" data-action="friend">${t('editor.playFriend')}</button>
        <label class="editor-side">${t('home.side')}
          <select name="side">${[...sides, 'random'].map((s) => `<option value="${s}">${esc(t('side.' + s))}</option>`).join('')}</select></label>
        <label class="editor-clock">${t('home.clock')}
          <select name="clock">${presets.map(([, c], i) => `<option value="${i}"${clockChoice === String(i) ? ' selected' : ''}>${esc(clockLabel(c))}</option>`).join('')}<option value="none"${clockChoice === 'none' ? ' selected' : ''}>${esc(clockLabel(null))}</option></select></label>
        <label class="editor-level">${t('home.level')}
          <select name="level">${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="${n}"${n === level ? ' selected' : ''}>${n}</option>`).join('')}</select></label>
        <button type="button" data-action="computer">${t('home.playComputer')}</button>
        <p class="error" role="alert" hidden></p>
      </div>
    </div>
  </div>
</section>`;
    document.title = `Jiang — ${t('editor.title', { variant: t('variant.' + variant) })}`;
    board = createBoard(main.querySelector('.board-host'), {
      variant,
      noHands: true,
      stack: false,
      label,
      edit: { click: place, clear: (sq) => change(() => pos.board.delete(sq)), move: movePiece },
    });
    wire();
    show();
    validate();
  }

  /** Count steppers per side for `kinds`: the hands (`store` `hands`) or the Jieqi pool. */
  function counters(store, kinds, groupKey) {
    return ['first', 'second'].map((owner) => `<div class="hand-row" role="group" aria-label="${esc(t(groupKey, { side: sideName(owner) }))}"><span class="hand-side">${esc(sideName(owner))}</span>${kinds
      .map((k) => `<span class="hand-count" data-store="${store}" data-owner="${owner}" data-kind="${k}"><svg viewBox="-50 -50 100 100" aria-hidden="true">${pieceSvg(variant, ofSide(k, owner), 'traditional', 0.9, false)}</svg><button type="button" class="less" aria-label="${esc(t('editor.handLess', { side: sideName(owner), piece: pieceName(k) }))}">−</button><output aria-live="polite"></output><button type="button" class="more" aria-label="${esc(t('editor.handMore', { side: sideName(owner), piece: pieceName(k) }))}">+</button></span>`).join('')}</div>`).join('');
  }

  /** The counts a stepper edits: the side's hand, or its pool (a copy, written back). */
  const countsOf = (store) => (store === 'pool' ? poolCounts(pool) : pos.hands);

  function place(sq) {
    if (chosen === null) return;
    change(() => {
      if (chosen === ERASER || pos.board.get(sq) === chosen) pos.board.delete(sq);
      else pos.board.set(sq, chosen);
    });
  }

  function movePiece(from, to) {
    change(() => {
      const p = pos.board.get(from);
      pos.board.delete(from);
      pos.board.set(to, p);
    });
  }

  /** Applies an edit, rewrites the text and asks the server. */
  function change(edit) {
    edit();
    text = write(pos, pool);
    main.querySelector('.editor-fen textarea').value = text;
    show();
    validate();
  }

  /** Keeps the position in the URL (`?fen=` / `?sfen=`): Back from a game or the analysis
   * board, and a reload, come back to it. */
  function remember() {
    // The start position keeps the plain address.
    const plain = text === START[variant] || text === write(parse(variant, START[variant]), null);
    const url = plain ? `/editor/${variant}` : `/editor/${variant}?${fam === 'shogi' ? 'sfen' : 'fen'}=${encodeURIComponent(text)}`;
    if (location.pathname + location.search !== url) history.replaceState(history.state, '', url);
  }

  function show() {
    board.update({ pos, orientation, style: 'traditional', noAnimation: true });
    main.querySelectorAll('.palette-piece').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.piece === chosen)));
    main.querySelectorAll('.hand-count').forEach((el) => {
      const n = countsOf(el.dataset.store)[el.dataset.owner][el.dataset.kind] || 0;
      el.querySelector('output').textContent = String(n);
      el.querySelector('.less').disabled = n === 0;
    });
    const radio = main.querySelector(`input[name=to-move][value=${pos.toMove}]`);
    if (radio) radio.checked = true;
    const side = main.querySelector('select[name=side]');
    if (side) side.value = sideChoice || sideToMove();
    remember();
    const auto = main.querySelector('input[name=pool-auto]');
    if (auto) {
      auto.checked = pool === null;
      main.querySelector('.pool-counts').hidden = pool === null;
    }
  }

  function validate() {
    clearTimeout(timer);
    const my = ++seq;
    verdict = null;
    showVerdict();
    timer = setTimeout(async () => {
      try {
        const answer = await api('/api/positions/validate', { method: 'POST', body: { variant, fen: text } });
        if (my !== seq) return;
        verdict = answer;
      } catch (ex) {
        if (my !== seq) return;
        verdict = { error: ex instanceof ApiError && ex.status ? errorText(ex) : t('error.network') };
      }
      showVerdict();
    }, 120);
  }

  /** One problem of the server's list as a sentence in the reader's language. */
  function problemText(p) {
    const side = p.side ? t('side.' + p.side) : '';
    const piece = p.piece ? pieceName(KIND_LETTERS[p.piece] || 'P') : '';
    const args = { ...p, side, piece };
    switch (p.problem) {
      case 'king_count':
        return t(`editor.problem.king_count.${p.found === 0 ? 'none' : 'many'}.${fam}`, args);
      case 'too_many':
        return t(p.side ? 'editor.problem.too_many' : 'editor.problem.too_many.hands', args);
      case 'unreadable': {
        // Where, in the reader's language (the server's English `message` is for API clients).
        const part = t('editor.unreadable.' + p.part);
        const where = p.rank ? t('editor.unreadable.rank', { part, rank: p.rank }) : part;
        return t('editor.unreadable.at', { text: t('editor.problem.unreadable'), where });
      }
      default:
        return t('editor.problem.' + p.problem, args);
    }
  }

  function showVerdict() {
    const box = main.querySelector('.editor-verdict');
    const analyse = main.querySelector('[data-action=analyse]');
    const friend = main.querySelector('[data-action=friend]');
    const valid = !!verdict?.valid;
    box.classList.toggle('invalid', !!verdict && !valid);
    box.classList.toggle('valid', valid);
    if (!verdict) box.innerHTML = `<p class="muted">${t('editor.checking')}</p>`;
    else if (verdict.error) box.innerHTML = `<p>${esc(verdict.error)}</p>`;
    else if (!valid) box.innerHTML = `<ul class="problems">${verdict.problems.map((p) => `<li data-problem="${p.problem}">${esc(problemText(p))}</li>`).join('')}</ul>`;
    else {
      const notes = [t('editor.valid')];
      if (verdict.outcome) notes.push(t('editor.over'));
      else if (variant === 'jieqi') notes.push(t('editor.jieqiDeal'));
      else if (!verdict.playable) notes.push(t('editor.tsume'));
      box.innerHTML = notes.map((n) => `<p>${esc(n)}</p>`).join('');
    }
    if (valid) {
      const key = fam === 'shogi' ? 'sfen' : 'fen';
      analyse.href = `/analysis/${variant}?${key}=${encodeURIComponent(verdict.fen)}`;
      analyse.removeAttribute('aria-disabled');
      analyse.removeAttribute('tabindex');
    } else {
      analyse.setAttribute('href', '#');
      analyse.setAttribute('aria-disabled', 'true');
      analyse.setAttribute('tabindex', '-1');
    }
    friend.disabled = !verdict?.playable;
    main.querySelector('[data-action=computer]').disabled = !verdict?.playable;
  }

  function wire() {
    main.querySelectorAll('.palette-piece').forEach((b) => {
      b.addEventListener('click', () => {
        if (dropped) return void (dropped = false);
        chosen = chosen === b.dataset.piece ? null : b.dataset.piece;
        show();
      });
      // Drag from the palette onto the board.
      b.addEventListener('pointerdown', (e) => {
        if (e.button > 0) return;
        b.setPointerCapture?.(e.pointerId);
      });
      b.addEventListener('pointerup', (e) => {
        const sq = board.squareAtClient(e.clientX, e.clientY);
        if (!sq) return;
        dropped = true;
        chosen = b.dataset.piece;
        place(sq);
      });
    });
    main.querySelectorAll('.hand-count').forEach((el) => {
      const step = (d) => change(() => {
        const counts = countsOf(el.dataset.store);
        const h = counts[el.dataset.owner];
        h[el.dataset.kind] = Math.max(0, Math.min(18, (h[el.dataset.kind] || 0) + d));
        if (el.dataset.store === 'pool') pool = poolText(counts);
      });
      el.querySelector('.less').addEventListener('click', () => step(-1));
      el.querySelector('.more').addEventListener('click', () => step(1));
    });
    main.querySelector('input[name=pool-auto]')?.addEventListener('change', (e) => {
      // Explicit: start from the pool the server last derived (or a full set); automatic: none.
      const fields = verdict?.fen?.split(' ') || [];
      change(() => (pool = e.target.checked ? null : fields.length === 5 ? fields[2] : FULL_POOL));
      main.querySelector('.pool-counts').hidden = e.target.checked;
    });
    main.querySelectorAll('input[name=to-move]').forEach((r) => r.addEventListener('change', () => change(() => (pos.toMove = r.value))));
    main.querySelector('[data-tool=start]').addEventListener('click', () => {
      load(START[variant]);
      change(() => {});
    });
    main.querySelector('[data-tool=clear]').addEventListener('click', () =>
      change(() => {
        pos.board.clear();
        pos.hands = { first: {}, second: {} };
        if (variant === 'jieqi') pool = null;
      }),
    );
    main.querySelector('[data-tool=flip]').addEventListener('click', () => {
      orientation = orientation === 'first' ? 'second' : 'first';
      show();
    });
    const textarea = main.querySelector('.editor-fen textarea');
    textarea.addEventListener('input', () => {
      text = textarea.value;
      if (load(text)) show();
      remember();
      validate();
    });
    main.querySelector('[data-action=analyse]').addEventListener('click', (e) => {
      if (!verdict?.valid) e.preventDefault();
    });
    main.querySelector('select[name=side]').addEventListener('change', (e) => (sideChoice = e.target.value));
    main.querySelector('select[name=clock]').addEventListener('change', (e) => (clockChoice = e.target.value));
    main.querySelector('select[name=level]').addEventListener('change', (e) => {
      level = Number(e.target.value);
      localStorage.setItem('jiang.home.level', String(level));
    });
    // A game from the position: with a friend (who joins by the link), or the computer.
    const start = (e, opponent) => {
      if (!verdict?.playable) return;
      const button = e.currentTarget;
      const err = main.querySelector('.editor-actions .error');
      err.hidden = true;
      button.disabled = true;
      const clock = clockChoice === 'none' ? {} : { clock: presets[Number(clockChoice)][1] };
      createGame({ variant, fen: verdict.fen, side: sideChoice || sideToMove(), ...clock, ...opponent }).then(
        (id) => navigate(`/g/${id}`),
        (ex) => {
          button.disabled = false;
          err.hidden = false;
          err.textContent = ex instanceof ApiError && ex.status ? errorText(ex) : t('error.network');
        },
      );
    };
    main.querySelector('[data-action=friend]').addEventListener('click', (e) => start(e, {}));
    main.querySelector('[data-action=computer]').addEventListener('click', (e) => start(e, { opponent: { computer: level } }));
  }

  if (!(given && load(given))) load(START[variant]);
  text = given || write(pos, pool);
  render();
  return { rerender: render, destroy: () => clearTimeout(timer) };
}
