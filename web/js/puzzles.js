// The puzzle trainer `/puzzles/<variant>` (`?id=<puzzle>` one puzzle, `?theme=<name>` puzzles of
// a theme): find the move, the server says right, wrong or solved and plays the reply; a hint,
// the solution, the next puzzle, and "Analyse" once it is over. The solution stays on the server
// until it is earned; positions and legal moves come from POST /api/analysis: no rules here.
// A player's puzzle rating is the server's; a browser without a player key keeps its own here.
import { t } from './i18n.js';
import { api } from './api.js';
import { errorText } from './errors.js';
import { createBoard } from './board.js';
import { familyOf, sidesOf, parse, moveSquares } from './position.js';
import { sideName } from './results.js';
import { navigate } from './navigation.js';
import { me } from './players.js';
import { askPromotion, promoDialogHtml } from './gamepanel.js';

const VARIANTS = ['xiangqi', 'jieqi', 'shogi', 'minishogi'];
/** The themes offered in the chooser (every name of docs/puzzles.md is accepted in the URL). */
const THEMES = ['mate', 'mate_in_1', 'mate_in_2', 'mate_in_3', 'mate_in_4', 'mate_in_5', 'long_mate', 'tsume', 'advantage', 'fork', 'pin', 'discovered_attack', 'promotion', 'drop', 'sacrifice', 'reveal', 'one_move', 'long'];
/** How long the opponent's reply waits after the solver's move, and each step of a shown solution. */
const REPLY_MS = 450;

const ownRatingKey = (variant) => `jiang.puzzleRating.${variant}`;
function ownRating(variant) {
  try {
    return JSON.parse(localStorage.getItem(ownRatingKey(variant)) || 'null');
  } catch {
    return null;
  }
}

export function puzzlesPage(main, variantParam) {
  const variant = VARIANTS.includes(variantParam) ? variantParam : 'xiangqi';
  const params = new URLSearchParams(location.search);
  let theme = THEMES.includes(params.get('theme')) ? params.get('theme') : '';
  let wanted = params.get('id');
  let puzzle = null; // the PuzzleView
  let line = []; // the moves played in this puzzle, as the server answered them
  let pos = null; // the current AnalysisPosition
  let state = 'loading'; // loading | solving | wrong | solved | shown | failed
  let attemptEnded = false; // this attempt was rated (or cannot be any more)
  let hinted = false;
  let hintFrom = null;
  let message = '';
  let ratingNote = '';
  let keyHolder = false;
  let destroyed = false;
  let busy = false;
  let board = null;
  const timers = new Set();
  const $ = (s) => main.querySelector(s);
  const later = (ms) => new Promise((resolve) => timers.add(setTimeout(resolve, ms)));

  function frame() {
    main.innerHTML = `
<section class="puzzles">
  <h1 class="visually-hidden">${t('puzzle.title')}</h1>
  <nav class="puzzle-variants" aria-label="${t('puzzle.variants')}">
    ${VARIANTS.map((v) => `<a href="/puzzles/${v}"${v === variant ? ' aria-current="page"' : ''}>${t('variant.' + v)}</a>`).join('')}
  </nav>
  <div class="game puzzle-layout">
    <div class="board-col"><div class="board-host"></div></div>
    <aside class="panel puzzle-panel">
      <p class="puzzle-status" role="status" aria-live="polite"></p>
      <p class="puzzle-note"></p>
      <div class="puzzle-buttons">
        <button type="button" class="hint-button">${t('puzzle.hint')}</button>
        <button type="button" class="solution-button">${t('puzzle.solution')}</button>
        <button type="button" class="next-button primary">${t('puzzle.next')}</button>
        <a class="analyse-link button" hidden>${t('puzzle.analyse')}</a>
      </div>
      <dl class="puzzle-facts"></dl>
      <label class="theme-choice">${t('puzzle.theme')}
        <select name="theme">
          <option value="">${t('puzzle.anyTheme')}</option>
          ${THEMES.map((th) => `<option value="${th}"${th === theme ? ' selected' : ''}>${t('theme.' + th)}</option>`).join('')}
        </select>
      </label>
      <p class="puzzle-rating"></p>
      <p class="error" role="alert" hidden></p>
    </aside>
  </div>
</section>
${promoDialogHtml()}`;
    board = createBoard($('.board-host'), { variant, interactive: true, onMove, choosePromotion });
    $('.board-col').style.setProperty('--ratio', String(board.aspect));
    $('.hint-button').addEventListener('click', onHint);
    $('.solution-button').addEventListener('click', onSolution);
    $('.next-button').addEventListener('click', () => next());
    $('[name=theme]').addEventListener('change', (e) => {
      theme = e.target.value;
      const url = `/puzzles/${variant}${theme ? `?theme=${theme}` : ''}`;
      history.replaceState(null, '', url);
      next();
    });
  }

  /** Shogi: whether to promote, asked like the game page does (true, false, or null). */
  function choosePromotion(from, to, piece) {
    return askPromotion($('.promo'), variant, piece, localStorage.getItem('jiang.pieces') || 'traditional').finally(() => board?.focus());
  }

  function showError(e) {
    const el = $('.error');
    if (!el) return;
    el.textContent = e ? errorText(e) : '';
    el.hidden = !e;
  }

  /** The position after `line`, with its legal moves, from the server. */
  async function position() {
    const answer = await api('/api/analysis', {
      method: 'POST',
      body: { variant, fen: puzzle.position, moves: line, style: familyOf(variant) === 'shogi' ? 'usi' : 'iccs', from: line.length },
    });
    return answer.positions[answer.positions.length - 1];
  }

  function solverSide() {
    return puzzle.to_move === sidesOf(variant)[0] ? 'first' : 'second';
  }

  function render() {
    if (destroyed || !board) return;
    const solving = state === 'solving' || state === 'wrong';
    const current = pos ? parse(variant, pos.fen) : null;
    board.update({
      pos: current,
      orientation: puzzle ? solverSide() : 'first',
      lastMove: line.length ? moveSquares(line[line.length - 1]) : null,
      check: pos?.check || null,
      legal: solving && pos ? pos.legal_moves : [],
      movable: solving && pos?.to_move === puzzle?.to_move ? solverSide() : null,
      highlight: hintFrom && !hintFrom.endsWith('*') ? [hintFrom] : [],
      style: localStorage.getItem('jiang.pieces') || 'traditional',
    });
    board.svg.setAttribute('aria-label', t('aria.board.' + variant));
    // The number of moves shown, for whoever waits on the trainer (tests, assistive tools).
    $('.puzzles').dataset.ply = String(line.length);
    $('.puzzles').dataset.state = state;
    const status = $('.puzzle-status');
    const side = puzzle ? sideName(puzzle.to_move) : '';
    status.className = `puzzle-status ${state}`;
    status.textContent =
      state === 'loading' ? t('puzzle.loading')
      : state === 'failed' ? t('puzzle.none')
      : state === 'solved' ? t('puzzle.solved')
      : state === 'shown' ? t('puzzle.shown')
      : state === 'wrong' ? t('puzzle.wrong')
      : line.length ? t('puzzle.keepGoing', { side })
      : t('puzzle.find', { side });
    const note = $('.puzzle-note');
    note.textContent = message;
    note.hidden = !message;
    const over = state === 'solved' || state === 'shown';
    $('.hint-button').disabled = !solving || busy;
    $('.solution-button').disabled = !solving || busy;
    const analyse = $('.analyse-link');
    analyse.hidden = !over || !puzzle;
    if (puzzle) analyse.href = `/analysis/${variant}?fen=${encodeURIComponent(puzzle.position)}${line.length ? `&line=${line.map(encodeURIComponent).join(',')}` : ''}`;
    const facts = $('.puzzle-facts');
    facts.innerHTML = puzzle
      ? `<dt>${t('puzzle.rating')}</dt><dd>${over ? puzzle.rating : '?'}</dd>` +
        `<dt>${t('puzzle.moves')}</dt><dd>${t('puzzle.movesCount', { n: puzzle.moves })}</dd>` +
        (over ? `<dt>${t('puzzle.themes')}</dt><dd>${puzzle.themes.map((th) => t('theme.' + th)).join(', ')}</dd>` : '')
      : '';
    const mine = keyHolder ? puzzle?.you : ownRating(variant);
    $('.puzzle-rating').textContent = (mine ? t('puzzle.yourRating', { rating: Math.round(mine.rating) }) : t('puzzle.unrated')) + (ratingNote ? ` (${ratingNote})` : '');
    document.title = `Jiang — ${t('puzzle.title')} · ${t('variant.' + variant)}`;
  }

  /** Loads a puzzle (the one asked for by id, else the next one) and shows its position. */
  async function next() {
    clearTimers();
    state = 'loading';
    message = '';
    ratingNote = '';
    showError(null);
    render();
    try {
      keyHolder = !!(await me());
      const previous = puzzle?.id;
      if (wanted) {
        puzzle = await api(`/api/puzzles/${encodeURIComponent(wanted)}`);
        wanted = null;
      } else {
        const q = new URLSearchParams({ variant });
        if (theme) q.set('theme', theme);
        const own = ownRating(variant);
        if (!keyHolder && own) q.set('rating', String(Math.round(own.rating)));
        if (previous) q.set('after', previous);
        puzzle = await api(`/api/puzzles/next?${q}`);
      }
      if (destroyed) return;
      if (puzzle.variant !== variant) return navigate(`/puzzles/${puzzle.variant}?id=${puzzle.id}`);
      history.replaceState(null, '', `/puzzles/${variant}?id=${puzzle.id}${theme ? `&theme=${theme}` : ''}`);
      line = [];
      hinted = false;
      hintFrom = null;
      attemptEnded = keyHolder && puzzle.attempted;
      pos = await position();
      state = 'solving';
    } catch (e) {
      if (destroyed) return;
      puzzle = null;
      pos = null;
      state = 'failed';
      if (e.code !== 'puzzle_not_found') showError(e);
    }
    render();
    board?.focus();
  }

  /** What a move or a give-up sends about a browser's own rating (once per attempt). */
  function ratingFields() {
    if (keyHolder || attemptEnded) return {};
    return { rating: ownRating(variant) || { rating: 1500, deviation: 350, volatility: 0.06 }, hinted };
  }

  function noteRated(rated) {
    attemptEnded = true;
    if (!rated) return;
    const change = Math.round(rated.change);
    ratingNote = change >= 0 ? `+${change}` : String(change);
    if (keyHolder) puzzle.you = rated.rating;
    else localStorage.setItem(ownRatingKey(variant), JSON.stringify(rated.rating));
  }

  async function onMove(mv) {
    if (busy || !(state === 'solving' || state === 'wrong')) return;
    busy = true;
    showError(null);
    try {
      const answer = await api(`/api/puzzles/${puzzle.id}/move`, { method: 'POST', body: { move: mv, line, ...ratingFields() } });
      if (answer.result === 'wrong') {
        if (!attemptEnded) noteRated(answer.rated);
        state = 'wrong';
        message = '';
        board.deselect();
      } else {
        if (answer.result === 'solved') noteRated(answer.rated);
        line.push(answer.played);
        hintFrom = null;
        pos = await position();
        state = answer.result === 'solved' ? 'solved' : state;
        message = '';
        render();
        if (answer.reply) {
          await later(REPLY_MS);
          line.push(answer.reply);
          pos = await position();
          state = 'solving';
        }
      }
    } catch (e) {
      showError(e);
      board.deselect();
    } finally {
      busy = false;
      render();
    }
  }

  async function onHint() {
    if (busy) return;
    try {
      const answer = await api(`/api/puzzles/${puzzle.id}/hint`, { method: 'POST', body: { line } });
      hinted = true;
      hintFrom = answer.from;
      message = hintFrom.endsWith('*') ? t('puzzle.hintDrop', { piece: hintFrom.slice(0, -1) }) : t('puzzle.hintSquare', { square: hintFrom });
      render();
    } catch (e) {
      showError(e);
    }
  }

  async function onSolution() {
    if (busy) return;
    busy = true;
    try {
      const body = { line };
      if (!keyHolder) Object.assign(body, { ...ratingFields(), ended: attemptEnded });
      delete body.hinted;
      const answer = await api(`/api/puzzles/${puzzle.id}/solution`, { method: 'POST', body });
      noteRated(answer.rated);
      state = 'shown';
      hintFrom = null;
      message = '';
      for (const mv of answer.solution.slice(line.length)) {
        line.push(mv);
        pos = await position();
        render();
        await later(REPLY_MS);
        if (destroyed) return;
      }
    } catch (e) {
      showError(e);
    } finally {
      busy = false;
      render();
    }
  }

  function clearTimers() {
    for (const id of timers) clearTimeout(id);
    timers.clear();
  }

  frame();
  next();
  return {
    rerender() {
      frame();
      render();
    },
    destroy() {
      destroyed = true;
      clearTimers();
    },
  };
}

/** The home page's daily puzzles: a link per variant to its puzzle of the day. */
export async function dailyPuzzles(host) {
  const items = await Promise.all(
    VARIANTS.map((v) =>
      api(`/api/puzzles/daily/${v}`)
        .then((p) => ({ v, p }))
        .catch(() => ({ v, p: null })),
    ),
  );
  const found = items.filter((i) => i.p);
  host.hidden = !found.length;
  host.querySelector('.daily-list').innerHTML = found
    .map(({ v, p }) => `<li><a href="/puzzles/${v}?id=${encodeURIComponent(p.id)}" data-daily="${v}"><span class="variant-name">${t('variant.' + v)}</span> <span class="daily-line">${t('puzzle.dailyLine', { side: sideName(p.to_move), n: p.moves })}</span></a></li>`)
    .join('');
}
