// The analysis board `/analysis/<variant>` (`?fen=`/`?sfen=` a start, `?game=<id>` a finished
// game, `&knowledge=all|red|black` for Jieqi, `&line=m1,m2,…` a line to open): a move tree
// kept in the browser, every position and notation answered by the server (POST
// /api/analysis), exports with variations written by the server (POST /api/analysis/export).
// No rules here: the server lists the legal moves and names them.
import { t, currentLang } from './i18n.js';
import { api } from './api.js';
import { errorText } from './errors.js';
import { createBoard, aspect, pieceSvg } from './board.js';
import { familyOf, sidesOf, parse, moveSquares } from './position.js';
import { sideName, describeResult, stepButtons } from './results.js';
import { navigate } from './navigation.js';

const STYLES = { xiangqi: ['wxf', 'chinese', 'iccs'], shogi: ['japanese', 'western', 'usi'] };
const VARIANTS = ['xiangqi', 'jieqi', 'shogi', 'minishogi'];
const store = {
  get: (k, d) => localStorage.getItem('jiang.' + k) ?? d,
  set: (k, v) => localStorage.setItem('jiang.' + k, v),
};

export function analysisPage(main, variantParam) {
  const variant = VARIANTS.includes(variantParam) ? variantParam : 'xiangqi';
  const fam = familyOf(variant);
  const params = new URLSearchParams(location.search);
  const gameId = params.get('game') || null;
  const knowledge = variant === 'jieqi' && gameId ? params.get('knowledge') || 'all' : null;
  const fen = gameId ? null : params.get('fen') || params.get('sfen') || null;
  const storageKey = `analysis.${variant}|${gameId ? `g:${gameId}:${knowledge || ''}` : `f:${fen || 'start'}`}`;
  // Whether a covered Jieqi piece turns over by the deal (a finished game "as it was"), or
  // needs the identity the analyst supposes for it.
  const dealKnown = variant === 'jieqi' && gameId && knowledge === 'all';

  /** The tree: nodes by id; each {id, parent, move, text, children: [ids], pos}. */
  let nodes = new Map();
  let nextId = 1;
  let current = 0;
  let game = null; // {id, moves, result} of a game opened by id
  // What an imported record says besides its moves, as POST /api/import answered it:
  // {players, moves, result, winner, other_end}.
  let record = null;
  let board = null;
  let flipped = false;
  let busy = false;
  let destroyed = false;

  const source = () => (gameId ? { game: gameId, ...(knowledge ? { knowledge } : {}) } : { variant, ...(fen ? { fen } : {}) });
  const style = () => {
    const lang = currentLang();
    const dflt = fam === 'shogi' ? (lang === 'ja' ? 'japanese' : 'western') : lang.startsWith('zh') ? 'chinese' : 'wxf';
    const s = store.get('notation.' + fam, dflt);
    const chosen = STYLES[fam].includes(s) ? s : dflt;
    return chosen === 'chinese' && lang === 'zh-Hant' ? 'chinese-traditional' : chosen;
  };
  const sn = (side) => sideName(side);
  const $ = (s) => main.querySelector(s);

  function path(id = current) {
    const out = [];
    for (let n = nodes.get(id); n && n.parent !== null; n = nodes.get(n.parent)) out.unshift(n);
    return out;
  }
  const movesTo = (id = current) => path(id).map((n) => n.move);

  function addNode(parent, move, text, pos) {
    const id = nextId++;
    nodes.set(id, { id, parent, move, text, children: [], pos });
    if (parent !== null) nodes.get(parent).children.push(id);
    return id;
  }

  /** Keeps what a reload needs: the tree with its moves, texts and shown positions (the
   * legal moves are asked for again when needed). */
  function save() {
    const list = [...nodes.values()].map((n) => ({ id: n.id, parent: n.parent, move: n.move, text: n.text, children: n.children, pos: n.pos ? { ...n.pos, legal_moves: undefined, legal_notation: undefined } : null }));
    try {
      localStorage.setItem('jiang.' + storageKey, JSON.stringify({ style: style(), current, nextId, nodes: list, game, record }));
    } catch {
      /* storage full: the tree lives on in this tab */
    }
  }

  function restore() {
    try {
      const saved = JSON.parse(localStorage.getItem('jiang.' + storageKey) || 'null');
      record = gameId ? null : saved?.record || null;
      if (!saved?.nodes?.length) return false;
      nodes = new Map(saved.nodes.map((n) => [n.id, n]));
      nextId = saved.nextId;
      current = nodes.has(saved.current) ? saved.current : 0;
      game = saved.game || null;
      if (saved.style !== style()) refreshTexts();
      return true;
    } catch {
      return false;
    }
  }

  const request = (moves, from) => api('/api/analysis', { method: 'POST', body: { ...source(), moves, style: style(), from } });

  /** Starts the tree: the start position, and a game's moves as its main line. */
  async function load() {
    const first = await request([], 0);
    game = first.game || null;
    nodes = new Map([[0, { id: 0, parent: null, move: null, text: '', children: [], pos: first.positions[0] }]]);
    nextId = 1;
    current = 0;
    if (game?.moves?.length) await addLine(game.moves, false);
    save();
  }

  /** Adds `moves` from the start to the tree (the moves it already holds are followed) and
   * goes to its end when `goThere`. */
  async function addLine(moves, goThere) {
    let at = 0;
    let i = 0;
    for (; i < moves.length; i++) {
      const next = nodes.get(at).children.map((c) => nodes.get(c)).find((c) => c.move === moves[i]);
      if (!next) break;
      at = next.id;
    }
    if (i < moves.length) {
      const res = await request(moves, i + 1);
      for (let j = i; j < res.moves.length; j++) at = addNode(at, res.moves[j], res.notation[j] + (res.notes?.[j] || ''), res.positions[j - i]);
    }
    if (goThere) current = at;
    save();
  }

  /** Asks again for the texts of every line in the chosen notation (a style change). */
  async function refreshTexts() {
    const leaves = [...nodes.values()].filter((n) => n.parent !== null && !n.children.length);
    for (const leaf of leaves) {
      try {
        const line = path(leaf.id);
        const res = await request(line.map((n) => n.move), line.length);
        line.forEach((n, i) => (n.text = res.notation[i] + (res.notes?.[i] || '')));
        const pos = res.positions[0];
        if (pos) leaf.pos = pos;
      } catch {
        /* the old texts stay */
      }
    }
    for (const n of nodes.values()) if (n.pos) n.pos.legal_moves = undefined;
    save();
    render();
  }

  /** The current node's legal moves, asked for when the tree does not hold them. */
  async function ensureLegal() {
    const node = nodes.get(current);
    if (!node || Array.isArray(node.pos?.legal_moves)) return;
    const id = current;
    const line = movesTo(id);
    try {
      const res = await request(line, line.length);
      if (destroyed || !nodes.has(id)) return;
      nodes.get(id).pos = res.positions[0];
      if (id === current) render();
    } catch (e) {
      showError(e);
    }
  }

  async function play(mv) {
    if (busy) return;
    const node = nodes.get(current);
    // A covered Jieqi piece without the deal: the analyst says what it is supposed to be.
    if (variant === 'jieqi' && !dealKnown && mv.length === 4) {
      const piece = parse(variant, node.pos.fen).board.get(mv.slice(0, 2));
      if (piece === 'X' || piece === 'x') {
        const letter = await chooseReveal(piece === 'X' ? sidesOf(variant)[0] : sidesOf(variant)[1], node.pos.pool);
        if (!letter) return render();
        mv += letter;
      }
    }
    const existing = node.children.map((c) => nodes.get(c)).find((c) => c.move === mv || (c.move.length === 5 && mv.length === 4 && c.move.startsWith(mv)));
    if (existing) return go(existing.id);
    busy = true;
    const line = [...movesTo(), mv];
    try {
      const res = await request(line, line.length);
      if (destroyed) return;
      const i = line.length - 1;
      current = addNode(node.id, res.moves[i], res.notation[i] + (res.notes?.[i] || ''), res.positions[0]);
      save();
      hideError();
    } catch (e) {
      showError(e);
    } finally {
      busy = false;
      render();
    }
  }

  function go(id) {
    if (!nodes.has(id)) return;
    current = id;
    save();
    render();
  }

  function step(key) {
    const node = nodes.get(current);
    const parent = node.parent === null ? null : nodes.get(node.parent);
    if (key === 'ArrowLeft' && parent) go(parent.id);
    else if (key === 'ArrowRight' && node.children.length) go(node.children[0]);
    else if (key === 'Home') go(0);
    else if (key === 'End') {
      let n = node;
      while (n.children.length) n = nodes.get(n.children[0]);
      go(n.id);
    } else if ((key === 'ArrowUp' || key === 'ArrowDown') && parent) {
      const i = parent.children.indexOf(node.id);
      const j = i + (key === 'ArrowUp' ? -1 : 1);
      if (j >= 0 && j < parent.children.length) go(parent.children[j]);
    }
  }

  /** Moves the variation holding the current move one step towards the main line. */
  function promote() {
    for (let n = nodes.get(current); n && n.parent !== null; n = nodes.get(n.parent)) {
      const siblings = nodes.get(n.parent).children;
      const i = siblings.indexOf(n.id);
      if (i > 0) {
        siblings.splice(i, 1);
        siblings.splice(i - 1, 0, n.id);
        save();
        return render();
      }
    }
  }

  /** Deletes the current move and everything after it. */
  function remove() {
    const node = nodes.get(current);
    if (node.parent === null) return;
    const drop = (id) => {
      nodes.get(id).children.forEach(drop);
      nodes.delete(id);
    };
    const parent = nodes.get(node.parent);
    parent.children = parent.children.filter((c) => c !== node.id);
    drop(node.id);
    current = parent.id;
    save();
    render();
  }

  /** The tree as the export endpoint reads it: each move with the lines played instead. */
  function tree() {
    const lineFrom = (first, alts) => {
      const out = [{ move: first.move, variations: alts.map((a) => lineFrom(a, [])) }];
      for (let n = first; n.children.length; ) {
        const [mainId, ...others] = n.children;
        n = nodes.get(mainId);
        out.push({ move: n.move, variations: others.map((o) => lineFrom(nodes.get(o), [])) });
      }
      return out;
    };
    const root = nodes.get(0);
    return root.children.length ? lineFrom(nodes.get(root.children[0]), root.children.slice(1).map((c) => nodes.get(c))) : [];
  }

  async function exportTree(format, moves) {
    try {
      // An imported record's names and ending go into the export (the server writes the
      // result when the main line is still the recorded one).
      const facts = !gameId && record ? { record: { players: record.players || {}, moves: record.moves || [], ...(record.result ? { result: record.result } : {}) } } : {};
      const res = await api('/api/analysis/export', { method: 'POST', body: { ...source(), format, ...(moves ? { moves } : {}), tree: tree(), ...facts } });
      const url = URL.createObjectURL(new Blob([res.text], { type: 'text/plain;charset=utf-8' }));
      const a = Object.assign(document.createElement('a'), { href: url, download: res.file_name });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      $('.export-text').value = res.text;
      $('.export-text').hidden = false;
    } catch (e) {
      showError(e);
    }
  }

  function shareLink() {
    const url = new URL(location.href);
    url.search = '';
    if (gameId) {
      url.searchParams.set('game', gameId);
      if (knowledge) url.searchParams.set('knowledge', knowledge);
    } else if (fen) url.searchParams.set(fam === 'shogi' ? 'sfen' : 'fen', fen);
    const line = movesTo();
    if (line.length) url.searchParams.set('line', line.join(','));
    return url.toString();
  }

  /** Asks with the page's dialog: `choices` are [value, piece letter, label]; resolves to the
   * value chosen, or null. */
  function choose(title, choices) {
    const dlg = $('.choose');
    dlg.querySelector('h2').textContent = title;
    dlg.querySelector('.choices').innerHTML = choices.map(([value, piece, text]) => `<button value="${value}"><svg viewBox="-55 -60 110 120" aria-hidden="true">${pieceSvg(variant, piece, store.get('pieces', 'traditional'))}</svg><span>${text}</span></button>`).join('');
    return new Promise((resolve) => {
      dlg.addEventListener('close', () => resolve(choices.some(([v]) => v === dlg.returnValue) ? dlg.returnValue : null), { once: true });
      dlg.returnValue = '';
      dlg.showModal();
      dlg.querySelector('.choices button')?.focus();
    });
  }

  function chooseReveal(side, pool) {
    const letters = [...String(pool?.[side] || '').matchAll(/([A-Za-z])(\d+)/g)].filter((m) => Number(m[2]) > 0).map((m) => m[1]);
    return choose(t('analysis.reveal'), letters.map((l) => [l.toUpperCase(), l, t('piece.xiangqi.' + l.toUpperCase())]));
  }

  async function choosePromotion(from, to, piece) {
    const base = piece.replace('+', '');
    const shown = base.toUpperCase();
    const v = await choose(t('promo.title'), [['yes', '+' + shown, t('promo.yes')], ['no', shown, t('promo.no')]]);
    return v === 'yes' ? true : v === 'no' ? false : null;
  }

  function showError(e) {
    const el = $('.analysis-error');
    if (!el) return;
    el.textContent = errorText(e);
    el.hidden = false;
  }
  function hideError() {
    const el = $('.analysis-error');
    if (el) el.hidden = true;
  }

  // The engine: one WebSocket, one search at a time for the current node.
  let engineOn = false;
  let socket = null;
  let search = 0; // the number of the search whose lines are shown
  let engineFor = null; // the node the search is for

  function engineSocket() {
    if (socket && socket.readyState <= 1) return socket;
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/analysis/ws`);
    socket.addEventListener('message', (e) => onEngine(JSON.parse(e.data)));
    socket.addEventListener('close', () => {
      socket = null;
      if (engineOn && !destroyed) {
        engineOn = false;
        renderEngine();
      }
    });
    return socket;
  }

  function engineStart() {
    const ws = engineSocket();
    const msg = JSON.stringify({ type: 'start', ...source(), moves: movesTo(), style: style(), lines: Number(store.get('engine.lines', '1')) });
    engineFor = current;
    $('.engine-lines').innerHTML = '';
    $('.engine-status').textContent = t('engine.thinking');
    if (ws.readyState === 1) ws.send(msg);
    else ws.addEventListener('open', () => ws.send(msg), { once: true });
  }

  function toggleEngine() {
    engineOn = !engineOn;
    if (engineOn) engineStart();
    else if (socket?.readyState === 1) socket.send(JSON.stringify({ type: 'stop' }));
    renderEngine();
  }

  /** An evaluation from one point of view, whoever is to move: Red's (Sente's) score
   * `first` told as the side ahead and by how much ("Red +0.26", "Black +1.30", "Black mates
   * in 3", "Even"), never as a sign to interpret. */
  function evalText(first) {
    const [one, two] = sidesOf(variant);
    if (first.mate != null) return t('engine.mates', { side: sn(first.mate > 0 ? one : two), n: Math.abs(first.mate) });
    if (first.cp === 0) return t('engine.even');
    return t('engine.ahead', { side: sn(first.cp > 0 ? one : two), pawns: (Math.abs(first.cp) / 100).toFixed(2) });
  }
  /** Red's (Sente's) score as a fraction of the bar. */
  function barShare(score) {
    if (score.mate != null) return score.mate > 0 ? 1 : 0;
    return 1 / (1 + Math.exp(-score.cp / 250));
  }

  function onEngine(m) {
    if (destroyed) return;
    if (m.type === 'queued') search = m.search;
    else if (m.type === 'error') {
      showError(m);
      $('.engine-status').textContent = '';
    } else if (m.type === 'info' && m.search === search) {
      const best = m.lines[0];
      if (best) {
        const share = barShare(best.score_first);
        $('.eval-fill').style.width = `${(share * 100).toFixed(1)}%`;
        $('.eval-bar').setAttribute('aria-label', `${t('engine.bar')}: ${evalText(best.score_first)}`);
      }
      $('.engine-status').textContent = t('engine.depth', { depth: m.depth, nodes: m.nodes.toLocaleString() });
      $('.engine-lines').innerHTML = m.lines
        .map((l) => `<li><span class="score">${evalText(l.score_first)}</span> <span class="pv">${(l.pv_notation.length ? l.pv_notation : l.pv).join(' ')}</span></li>`)
        .join('');
    } else if (m.type === 'done' && m.search === search) {
      const el = $('.engine-status');
      el.textContent = m.depth ? `${el.textContent} · ${t('engine.done')}` : t('engine.nothing');
      if (engineOn && engineFor === current) {
        engineOn = false;
        renderEngine();
      }
    }
  }

  function renderEngine() {
    const btn = $('[data-act=engine]');
    if (!btn) return;
    btn.textContent = engineOn ? t('engine.stop') : t('engine.start');
    btn.setAttribute('aria-pressed', String(engineOn));
    $('[name=lines]').value = store.get('engine.lines', '1');
  }

  // The computer review of the main line: verdicts per main-line node, the graph, accuracy.
  let review = null; // {ids: [node ids of the main line], verdicts, evals, accuracy}

  function mainLine() {
    const ids = [];
    for (let n = nodes.get(0); n.children.length; ) {
      n = nodes.get(n.children[0]);
      ids.push(n.id);
    }
    return ids;
  }

  async function runReview() {
    const ids = mainLine();
    const btn = $('[data-act=review]');
    btn.disabled = true;
    $('.review-status').textContent = t('review.running', { n: ids.length + 1 });
    try {
      const res = await api('/api/analysis/review', { method: 'POST', body: { ...source(), moves: ids.map((id) => nodes.get(id).move), style: style() } });
      if (destroyed) return;
      review = { ids, verdicts: res.verdicts, evals: res.evals, accuracy: res.accuracy };
      $('.review-status').textContent = t('review.done', { nodes: res.nodes_per_position.toLocaleString() });
      render();
    } catch (e) {
      $('.review-status').textContent = '';
      showError(e);
    } finally {
      btn.disabled = false;
    }
  }

  /** The verdict of a node, if the review judged it. */
  function verdictOf(id) {
    const i = review?.ids.indexOf(id) ?? -1;
    return i >= 0 ? review.verdicts[i] : null;
  }

  function renderReview() {
    const graph = $('.eval-graph');
    const acc = $('.accuracy');
    if (!review) {
      graph.toggleAttribute('hidden', true);
      acc.innerHTML = '';
      return;
    }
    // Red's (Sente's) winning chance over the game: 0 at the bottom, 100 at the top.
    const share = (e) => (e == null ? null : e.mate != null ? (e.mate > 0 ? 1 : 0) : 1 / (1 + Math.exp(-e.cp / 250)));
    const n = Math.max(1, review.evals.length - 1);
    const pts = review.evals.map((e, i) => [(i / n) * 300, 80 - (share(e) ?? 0.5) * 80]);
    const at = review.ids.indexOf(current) + 1;
    const marks = review.verdicts
      .map((v, i) => (v.judgement ? `<circle class="mark ${v.judgement}" cx="${pts[i + 1][0]}" cy="${pts[i + 1][1]}" r="3"/>` : ''))
      .join('');
    graph.innerHTML = `<line class="mid" x1="0" y1="40" x2="300" y2="40"/><polygon class="area" points="0,80 ${pts.map((p) => p.join(',')).join(' ')} 300,80"/>${marks}${at > 0 || current === 0 ? `<line class="now" x1="${pts[at][0]}" y1="0" x2="${pts[at][0]}" y2="80"/>` : ''}`;
    graph.toggleAttribute('hidden', false);
    const moverOf = (i) => nodes.get(i === 0 ? 0 : review.ids[i - 1])?.pos?.to_move;
    const count = (side, j) => review.verdicts.filter((v, i) => v.judgement === j && moverOf(i) === side).length;
    acc.innerHTML = Object.entries(review.accuracy)
      .map(([side, a]) => `<li><strong>${sn(side)}</strong>: ${t('review.accuracy', { n: a })} · ${t('review.counts', { inaccuracies: count(side, 'inaccuracy'), mistakes: count(side, 'mistake'), blunders: count(side, 'blunder') })}</li>`)
      .join('');
  }

  const label = (sq, p) => (p ? `${sq} ${p}` : sq);

  function build() {
    const ratio = aspect(variant);
    main.innerHTML = `
<section class="game analysis" aria-labelledby="analysis-title">
  <div class="board-col" style="--ratio:${ratio}">
    <div class="board-host" style="aspect-ratio:${ratio}"></div>
  </div>
  <aside class="panel">
    <h1 id="analysis-title">${t('analysis.title')} · ${t('variant.' + variant)}</h1>
    <p class="game-result" hidden></p>
    <p class="status" role="status" aria-live="polite"></p>
    <p class="error analysis-error" role="alert" hidden></p>
    <nav class="tree-wrap" aria-label="${t('analysis.moves')}">
      <h2>${t('analysis.moves')}</h2>
      <div class="tree" tabindex="0"></div>
      <p class="hint">${t('analysis.keys')}</p>
      ${stepButtons(['Home', 'ArrowLeft', 'ArrowRight', 'End'])}
    </nav>
    <section class="engine" aria-labelledby="engine-title">
      <h2 id="engine-title">${t('engine.title')}</h2>
      <div class="engine-controls">
        <button type="button" class="primary" data-act="engine" aria-pressed="false">${t('engine.start')}</button>
        <label>${t('engine.lines')} <select name="lines">${[1, 2, 3].map((n) => `<option value="${n}">${n}</option>`).join('')}</select></label>
      </div>
      <div class="eval-bar" role="img" aria-label="${t('engine.bar')}"><div class="eval-fill"></div></div>
      <p class="hint engine-explain">${t('engine.explain')}</p>
      <p class="engine-status" aria-live="polite"></p>
      <ol class="engine-lines"></ol>
    </section>
    <section class="review" aria-labelledby="review-title">
      <h2 id="review-title">${t('review.title')}</h2>
      <button type="button" data-act="review">${t('review.start')}</button>
      <p class="review-status" aria-live="polite"></p>
      <svg class="eval-graph" viewBox="0 0 300 80" preserveAspectRatio="none" role="img" aria-label="${t('review.graph')}" hidden></svg>
      <ul class="accuracy"></ul>
    </section>
    <div class="actions">
      <button type="button" data-act="promote">${t('analysis.promote')}</button>
      <button type="button" data-act="delete" class="danger">${t('analysis.delete')}</button>
      <button type="button" data-act="flip">${t('action.flip')}</button>
      <button type="button" data-act="share">${t('analysis.share')}</button>
      <span class="downloads">${t('analysis.export')} ${fam === 'shogi' ? '<button type="button" class="link" data-export="kif">KIF</button>' : `<button type="button" class="link" data-export="pgn">PGN</button>${variant === 'jieqi' ? '' : ' <button type="button" class="link" data-export="pgn" data-moves="wxf">PGN (WXF)</button>'}`}</span>
    </div>
    <div class="copy-row share-row" hidden><input class="share-link" readonly aria-label="${t('analysis.share')}"></div>
    <textarea class="export-text" readonly hidden rows="6" aria-label="${t('analysis.export')}"></textarea>
    <details class="settings" open>
      <summary>${t('game.settings')}</summary>
      <label>${t('game.notation')} <select name="notation">${STYLES[fam].map((s) => `<option value="${s}">${t('notation.' + s)}</option>`).join('')}</select></label>
      ${knowledge ? `<label>${t('analysis.knowledge')} <select name="knowledge">${['all', 'red', 'black'].map((k) => `<option value="${k}"${k === knowledge ? ' selected' : ''}>${t('analysis.knowledge.' + k)}</option>`).join('')}</select></label>` : ''}
      ${gameId ? `<p><a href="/g/${gameId}">${t('analysis.backToGame')}</a></p>` : ''}
    </details>
    <form class="import">
      <h2>${t('analysis.import')}</h2>
      <label for="import-text">${t('analysis.importText')}</label>
      <textarea id="import-text" name="text" rows="4" spellcheck="false"></textarea>
      <label>${t('analysis.importFile')} <input type="file" name="file" accept=".pgn,.kif,.kifu,.ki2,.ki2u,.csa,.txt,.fen,.sfen"></label>
      <button type="submit" class="primary">${t('analysis.importButton')}</button>
    </form>
  </aside>
</section>
<dialog class="choose promo" aria-labelledby="choose-title">
  <form method="dialog">
    <h2 id="choose-title"></h2>
    <div class="choices promo-choices"></div>
    <button value="cancel" class="link">${t('promo.cancel')}</button>
  </form>
</dialog>`;
    board = createBoard($('.board-host'), { variant, interactive: true, label, onMove: play, choosePromotion });
    $('.board-col').style.setProperty('--ratio', String(board.aspect));
    $('[name=notation]').value = store.get('notation.' + fam, $('[name=notation]').value);
    $('.import').addEventListener('submit', onImport);
  }

  function onClick(e) {
    const el = e.target.closest('button, [data-node]');
    if (!el) return;
    if (el.dataset.node) return go(Number(el.dataset.node));
    if (el.dataset.step) return step(el.dataset.step);
    if (el.dataset.export) return exportTree(el.dataset.export, el.dataset.moves);
    const act = el.dataset.act;
    if (act === 'engine') toggleEngine();
    else if (act === 'review') runReview();
    else if (act === 'promote') promote();
    else if (act === 'delete') remove();
    else if (act === 'flip') {
      flipped = !flipped;
      render();
    } else if (act === 'share') {
      const link = shareLink();
      $('.share-row').hidden = false;
      $('.share-link').value = link;
      navigator.clipboard?.writeText(link).catch(() => {});
      $('.share-link').select();
    }
  }

  function onChange(e) {
    if (e.target.name === 'lines') {
      store.set('engine.lines', e.target.value);
      if (engineOn) engineStart();
    } else if (e.target.name === 'notation') {
      store.set('notation.' + fam, e.target.value);
      refreshTexts();
    } else if (e.target.name === 'knowledge') {
      const url = new URL(location.href);
      url.searchParams.set('knowledge', e.target.value);
      url.searchParams.delete('line');
      navigate(url.pathname + url.search);
    }
  }

  async function onImport(e) {
    e.preventDefault();
    const form = e.target;
    const file = form.file.files?.[0];
    try {
      let res;
      if (file) {
        const data = new FormData();
        data.append('file', file);
        const r = await fetch('/api/import', { method: 'POST', body: data });
        res = await r.json();
        if (!r.ok) throw res.error || {};
      } else res = await api('/api/import', { method: 'POST', body: { text: form.text.value } });
      const url = new URL(`/analysis/${res.variant}`, location.href);
      url.searchParams.set(familyOf(res.variant) === 'shogi' ? 'sfen' : 'fen', res.start);
      // A new import starts a new tree for its start, keeping what the record says besides
      // its moves (names, result) for the board to show and its exports to write.
      const facts = { players: res.players || {}, moves: res.moves, result: res.result, winner: res.winner, other_end: res.other_end };
      localStorage.setItem(`jiang.analysis.${res.variant}|f:${res.start}`, JSON.stringify({ record: facts }));
      if (res.moves.length) url.searchParams.set('line', res.moves.join(','));
      navigate(url.pathname + url.search);
    } catch (ex) {
      showError(ex);
    }
  }

  function onKey(e) {
    if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) return;
    if (e.target.closest?.('input, textarea, select, [data-square], dialog')) return;
    e.preventDefault();
    step(e.key);
  }

  /** The move tree as text: the main line, each variation in parentheses after its move. */
  function treeHtml() {
    const shogi = fam === 'shogi';
    const num = (n) => {
      const ply = path(n.id).length;
      return shogi ? `${ply}.` : ply % 2 === 1 ? `${(ply + 1) / 2}.` : `${ply / 2}…`;
    };
    const symbol = { inaccuracy: '?!', mistake: '?', blunder: '??' };
    const moveBtn = (n, numbered) => {
      const v = verdictOf(n.id);
      const j = v?.judgement;
      const title = j ? ` title="${t('review.' + j)}${v.better_notation ? ' · ' + t('review.better', { move: v.better_notation }) : ''}"` : '';
      return `<button type="button" class="tree-move${j ? ' ' + j : ''}" data-node="${n.id}"${n.id === current ? ' aria-current="step"' : ''}${title}>${numbered ? `<span class="num">${num(n)}</span>` : ''}${n.text}${j ? `<span class="judgement" aria-label="${t('review.' + j)}">${symbol[j]}</span>` : ''}</button>`;
    };
    const line = (first, alts) => {
      let html = moveBtn(first, true);
      for (const a of alts) html += ` <span class="variation">(${line(a, [])})</span>`;
      let n = first;
      let numbered = alts.length > 0;
      while (n.children.length) {
        const [mainId, ...others] = n.children;
        n = nodes.get(mainId);
        const ply = path(n.id).length;
        html += ' ' + moveBtn(n, numbered || shogi || ply % 2 === 1);
        numbered = false;
        for (const o of others) {
          html += ` <span class="variation">(${line(nodes.get(o), [])})</span>`;
          numbered = true;
        }
      }
      return html;
    };
    const root = nodes.get(0);
    if (!root.children.length) return `<p class="hint">${t('analysis.noMoves')}</p>`;
    return line(nodes.get(root.children[0]), root.children.slice(1).map((c) => nodes.get(c)));
  }

  /** An imported record's players and ending, as the record says them. */
  function showRecord(el) {
    const players = sidesOf(variant)
      .filter((s) => record.players?.[s])
      .map((s) => t('analysis.player', { side: sn(s), name: record.players[s] }))
      .join(' · ');
    let ending = '';
    if (record.result) ending = describeResult(variant, record.result, 'ended').text;
    else if (record.other_end) ending = record.winner ? t('analysis.recordEndWinner', { side: sn(record.winner), words: record.other_end }) : t('analysis.recordEnd', { words: record.other_end });
    const lines = [players, ending].filter(Boolean);
    el.hidden = !lines.length;
    el.replaceChildren(
      ...lines.map((text, i) => {
        const span = document.createElement('span');
        span.className = i === 0 && players ? 'record-players' : 'record-result';
        span.textContent = text;
        return span;
      }),
    );
  }

  function render() {
    if (destroyed || !nodes.has(current)) return;
    const node = nodes.get(current);
    const posInfo = node.pos || {};
    const pos = parse(variant, posInfo.fen);
    const revealed = [];
    for (const [sq, letter] of Object.entries(posInfo.covered_pieces || {})) {
      if (pos.board.has(sq)) {
        pos.board.set(sq, letter);
        revealed.push(sq);
      }
    }
    const sides = sidesOf(variant);
    const toMove = posInfo.to_move;
    const legal = Array.isArray(posInfo.legal_moves) ? posInfo.legal_moves : [];
    board.update({
      pos,
      orientation: flipped ? 'second' : 'first',
      lastMove: node.move ? moveSquares(node.move) : null,
      check: posInfo.check || null,
      legal,
      movable: toMove ? (toMove === sides[0] ? 'first' : 'second') : null,
      style: store.get('pieces', 'traditional'),
      endRevealed: revealed,
      endRevealedNote: t('analysis.dealt'),
    });
    board.svg.setAttribute('aria-label', t('aria.board.' + variant));
    if (!Array.isArray(posInfo.legal_moves) && toMove) ensureLegal();
    const status = $('.status');
    if (posInfo.result) status.textContent = describeResult(variant, posInfo.result, 'ended').text;
    else if (toMove) status.textContent = t('game.toMove', { side: sn(toMove) }) + (posInfo.check ? ` · ${t('analysis.check')}` : '');
    const gr = $('.game-result');
    if (game) {
      gr.hidden = false;
      gr.textContent = game.result ? describeResult(variant, game.result, 'ended').text : t('result.aborted');
    } else if (record) showRecord(gr);
    const treeEl = $('.tree');
    const html = treeHtml();
    if (treeEl.innerHTML !== html) treeEl.innerHTML = html;
    treeEl.querySelector('[aria-current]')?.scrollIntoView({ block: 'nearest' });
    renderReview();
    const v = verdictOf(current);
    if (v?.judgement) status.textContent += ` · ${t('review.' + v.judgement)}${v.better_notation ? ` (${t('review.better', { move: v.better_notation })})` : ''}`;
    if (engineOn && engineFor !== current) engineStart();
    renderEngine();
    $('[data-act=promote]').disabled = node.parent === null;
    $('[data-act=delete]').disabled = node.parent === null;
  }

  build();
  main.addEventListener('click', onClick);
  main.addEventListener('change', onChange);
  document.addEventListener('keydown', onKey);
  (async () => {
    const line = params.get('line');
    try {
      if (!restore()) await load();
      if (line) {
        await addLine(line.split(',').filter(Boolean), true);
        // The link's line now lives in the stored tree: a reload keeps the tree.
        const url = new URL(location.href);
        url.searchParams.delete('line');
        history.replaceState(null, '', url.pathname + url.search);
      }
      render();
      main.querySelector('.analysis')?.setAttribute('data-ready', '1');
    } catch (e) {
      main.querySelector('.board-host')?.replaceChildren();
      showError(e);
    }
  })();

  return {
    destroy() {
      destroyed = true;
      main.removeEventListener('click', onClick);
      main.removeEventListener('change', onChange);
      socket?.close();
      document.removeEventListener('keydown', onKey);
    },
    rerender() {
      build();
      render();
    },
  };
}
