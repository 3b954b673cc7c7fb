// The game page `/g/<id>`: board, clocks, move list, actions, live updates over WebSocket.
import { t, currentLang } from './i18n.js';
import { api, tokenFor, saveToken } from './api.js';
import { errorText } from './errors.js';
import { createBoard, aspect, pieceSvg } from './board.js';
import { familyOf, sidesOf, parse, moveSquares } from './position.js';
import { findTyped } from './typed.js';
import { clockLabel, clockDuration } from './clock.js';
import { navigate } from './navigation.js';
import { turnAlerts, turnSoundOn, setTurnSound, turnNotifyOn, setTurnNotify, chime } from './alerts.js';
import { seatPlayer } from './players.js';
import { chatPanel, chatSettingOn, setChatSetting, takebackBox, claimBox } from './comforts.js';

/** The move notations offered per family (the server writes them all). */
const STYLES = { xiangqi: ['wxf', 'chinese', 'iccs'], shogi: ['japanese', 'western', 'usi'] };
/** The API's move syntax per family (ICCS; USI), for typed moves worth asking the server about. */
const MACHINE_MOVE = { xiangqi: /^[a-i][0-9][a-i][0-9]$/, shogi: /^([1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])$/ };

const store = {
  get: (k, d) => localStorage.getItem('jiang.' + k) ?? d,
  set: (k, v) => localStorage.setItem('jiang.' + k, v),
};

/** The first/back/forward/last buttons under a move list; `steps` are their `data-step` values. */
export function stepButtons([first, back, forward, last]) {
  return `<div class="step">
        <button type="button" data-step="${first}" aria-label="${t('game.first')}">«</button>
        <button type="button" data-step="${back}" aria-label="${t('game.back')}">‹</button>
        <button type="button" data-step="${forward}" aria-label="${t('game.forward')}">›</button>
        <button type="button" data-step="${last}" aria-label="${t('game.last')}">»</button>
      </div>`;
}

/** A side's name; in shogi handicap games the roles 上手/下手 replace 先手/後手 (shogi.md). */
export function sideName(side, handicap) {
  if (handicap && (side === 'sente' || side === 'gote')) return t(side === 'gote' ? 'side.uwate' : 'side.shitate');
  return t('side.' + side);
}

/** Words for one result: {headline, reason, text}. Exported for tests and the dev preview. */
export function describeResult(variant, result, status, handicap = null, you = null) {
  if (status === 'aborted' || result?.reason === 'aborted') {
    const reason = t('reason.aborted');
    return { headline: t('result.aborted'), reason, text: t('result.line', { headline: t('result.aborted'), reason }) };
  }
  // An untimed game nobody moved in for 30 days: over, with no winner and no result.
  // A draw claimed against an absent player has nobody who "left" to name in the reason.
  if (result?.reason === 'disconnection' && !result.winner) {
    const reason = t('reason.disconnectionDraw');
    return { headline: t('result.draw'), reason, text: t('result.line', { headline: t('result.draw'), reason }) };
  }
  if (result?.reason === 'abandoned') {
    const reason = t('reason.abandoned');
    return { headline: t('result.abandoned'), reason, text: t('result.line', { headline: t('result.abandoned'), reason }) };
  }
  const sides = sidesOf(variant);
  const winner = result.winner;
  const loser = winner ? sides.find((s) => s !== winner) : null;
  // A seated player reads about themselves: "You won", "You lost".
  const headline = winner ? (you ? t(winner === you ? 'result.youWon' : 'result.youLost') : t('result.wins', { side: sideName(winner, handicap) })) : t('result.draw');
  const fam = familyOf(variant);
  const keys = [`reason.${result.reason}.${variant}`, `reason.${result.reason}.${fam}`, `reason.${result.reason}`];
  const key = keys.find((k) => t(k) !== k) || keys[2];
  const reason = t(key, { winner: winner ? sideName(winner, handicap) : '', loser: loser ? sideName(loser, handicap) : '' });
  return { headline, reason, text: t('result.line', { headline, reason }) };
}

function fmtMs(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

let audio = null;
function beep(freq = 880, dur = 0.08) {
  try {
    audio ||= new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = freq;
    g.gain.setValueAtTime(0.15, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + dur);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + dur);
  } catch {
    /* no audio: silent */
  }
}

export function gamePage(main, id) {
  const sn = (side) => sideName(side, view?.handicap);
  let view = null;
  let token = tokenFor(id);
  const alerts = turnAlerts(id);
  let board = null;
  let shownPly = null; // null = live
  // The move list and the positions it steps through, as the server's notation endpoint
  // writes them: {style, ply, texts, positions: [{fen, check}]}. Asked for again when the
  // number of moves or the style changes.
  let history = null;
  let historyPending = ''; // `${style}|${ply}` being fetched
  let historyFailed = ''; // the last `${style}|${ply}` that failed: not retried until the ply changes
  /** A view's turn alert waiting for its last move in the user's notation (see `setView`). */
  let pendingAlert = null;
  let flipped = false;
  let ws = null;
  let backoff = 500;
  let reconnectTimer = null;
  let destroyed = false;
  let clockBase = 0; // performance.now() when the clock figures arrived
  let tick = null;
  let lastBeep = null;
  let connected = false;
  let lostAt = null; // performance.now() when the connection was lost (clocks pause)
  // A move sent while the server could not be reached: {move, ply} (ply: the moves before it).
  // It stays drawn as pending; when the connection returns it is sent again if the position is
  // the same (then confirmed by the server), otherwise shown as taken back.
  let unsent = null;
  let takenBack = null; // the text of a pending move the returning connection took back
  let keepAlive = null;
  let viewBase = 0; // performance.now() when the last full view arrived
  let awayBase = 0; // performance.now() when the `away` figures arrived
  let claimWaiting = false; // the player chose to wait for an absent opponent
  let chat = null;

  const $ = (s) => main.querySelector(s);
  let built = false;
  main.innerHTML = '<section class="game" aria-busy="true"></section>';

  /** The page's structure, built when the first view arrives: its variant sizes the board's
   * box from the start, so nothing moves when the board is drawn. */
  function build(variant) {
    built = true;
    const ratio = aspect(variant);
  main.innerHTML = `
<section class="game" aria-labelledby="game-title">
  <h1 id="game-title" class="visually-hidden">${t('game.title')}</h1>
  <div class="board-col" style="--ratio:${ratio}">
    <div class="player top"></div>
    <div class="board-host" style="aspect-ratio:${ratio}"></div>
    <div class="player bottom"></div>
  </div>
  <aside class="panel">
    <p class="status" role="status" aria-live="polite"></p>
    <p class="time-control hint"></p>
    <p class="first-move" hidden></p>
    <p class="pending-note" role="alert" hidden></p>
    <div class="banner" role="alert" hidden></div>
    <div class="invite" hidden>
      <label for="invite-link">${t('game.invite')}</label>
      <div class="copy-row"><input id="invite-link" readonly><button type="button" class="copy-link">${t('game.copy')}</button></div>
    </div>
    <div class="join" hidden><p>${t('game.seatFree')}</p><button type="button" class="primary take-seat">${t('game.takeSeat')}</button></div>
    <div class="draw-offer" hidden></div>
    <div class="takeback-box" hidden></div>
    <div class="claim-box" role="alert" hidden></div>
    <div class="actions"></div>
    <div class="impasse-info" hidden></div>
    <div class="jieqi-info" hidden></div>
    <nav class="moves-wrap" aria-label="${t('game.moves')}">
      <h2>${t('game.moves')}</h2>
      <ol class="moves"></ol>
      ${stepButtons(['home', 'back', 'fwd', 'end'])}
    </nav>
    <form class="type-move" hidden>
      <label for="type-move-input">${t('game.typeMove')}</label>
      <div class="copy-row"><input id="type-move-input" autocomplete="off" spellcheck="false"><button type="submit">${t('game.play')}</button></div>
      <p class="error" role="alert" hidden></p>
    </form>
    <details class="settings">
      <summary>${t('game.settings')}</summary>
      <label>${t('game.pieces')} <select name="pieces"><option value="traditional">${t('pieces.traditional')}</option><option value="western">${t('pieces.western')}</option></select></label>
      <label>${t('game.notation')} <select name="notation"></select></label>
      <label class="check"><input type="checkbox" name="sound"> ${t('game.sound')}</label>
      <label class="check"><input type="checkbox" name="turnSound"> ${t('game.turnSound')}</label>
      <label class="check"><input type="checkbox" name="turnNotify"> ${t('game.turnNotify')}</label>
      <label class="check"><input type="checkbox" name="chat"> ${t('chat.setting')}</label>
      <p class="hint notify-denied" hidden>${t('game.notifyDenied')}</p>
    </details>
    <p class="spectators" aria-live="off"></p>
    <section class="chat" aria-labelledby="chat-title"></section>
  </aside>
</section>
<dialog class="promo" aria-labelledby="promo-title">
  <form method="dialog">
    <h2 id="promo-title">${t('promo.title')}</h2>
    <div class="promo-choices">
      <button value="yes" class="promo-yes"></button>
      <button value="no" class="promo-no"></button>
    </div>
    <button value="cancel" class="link">${t('promo.cancel')}</button>
  </form>
</dialog>`;
    attach();
  }

  const sides = () => sidesOf(view.variant);
  const fam = () => familyOf(view.variant);
  const seatOf = (side) => (side === sides()[0] ? 'first' : 'second');
  const notationStyle = () => {
    const styles = STYLES[fam()];
    const lang = currentLang();
    const dflt = fam() === 'shogi' ? (lang === 'ja' ? 'japanese' : 'western') : lang.startsWith('zh') ? 'chinese' : 'wxf';
    const s = store.get('notation.' + fam(), dflt);
    return styles.includes(s) ? s : dflt;
  };
  const pieceStyle = () => store.get('pieces', 'traditional');

  const pieceName = (p) => {
    if (!p) return '';
    if (fam() === 'shogi') {
      const k = p.startsWith('+') ? '+' + p[1].toUpperCase() : p.toUpperCase();
      return t('piece.shogi.' + k);
    }
    return t('piece.xiangqi.' + p.toUpperCase());
  };
  const ownerOf = (p) => (p.replace('+', '') === p.replace('+', '').toUpperCase() ? sides()[0] : sides()[1]);
  const label = (sq, p, count) => {
    if (!sq) return t('aria.hand', { side: sn(ownerOf(p)), piece: pieceName(p), count });
    if (!p) return t('aria.empty', { square: sq });
    return t('aria.piece', { square: sq, side: sn(ownerOf(p)), piece: pieceName(p) });
  };

  function choosePromotion(from, to, piece) {
    const dlg = $('.promo');
    const base = piece.replace('+', '');
    const up = base.toUpperCase() === base;
    const shown = up ? base : base.toUpperCase(); // drawn pointing up, as the mover sees it
    const svg = (p) => `<svg viewBox="-55 -60 110 120" aria-hidden="true">${pieceSvg(view.variant, p, pieceStyle())}</svg>`;
    dlg.querySelector('.promo-yes').innerHTML = svg('+' + shown) + `<span>${t('promo.yes')}</span>`;
    dlg.querySelector('.promo-no').innerHTML = svg(shown) + `<span>${t('promo.no')}</span>`;
    return new Promise((resolve) => {
      dlg.addEventListener(
        'close',
        () => {
          const v = dlg.returnValue;
          board?.focus();
          resolve(v === 'yes' ? true : v === 'no' ? false : null);
        },
        { once: true },
      );
      dlg.returnValue = '';
      dlg.showModal();
      dlg.querySelector('.promo-yes').focus();
    });
  }

  function attach() {
    $('.copy-link').addEventListener('click', (e) => copy($('#invite-link').value, e.target));
    $('.take-seat').addEventListener('click', async (e) => {
      e.target.disabled = true;
      try {
        const res = await api(`/api/games/${id}/join`, { method: 'POST', body: {} });
        token = res.token;
        saveToken(id, token, res.side);
        disconnect();
        await refresh();
        connect();
      } catch (ex) {
        showError(errorText(ex));
        e.target.disabled = false;
        refresh();
      }
    });
    $('.type-move').addEventListener('submit', (e) => {
      e.preventDefault();
      const input = $('#type-move-input');
      const err = $('.type-move .error');
      const mv = findTyped(input.value, view.legal_moves || [], view.hints?.legal_names);
      // Not our turn: a move in the server's syntax is queued as a premove (B*5e: a predrop).
      const premoveText = input.value.trim();
      if (!mv && view.you && view.status === 'playing' && view.to_move !== view.you && MACHINE_MOVE[fam()]?.test(premoveText)) {
        input.value = '';
        return void post('premove', { move: premoveText });
      }
      if (!mv) {
        // A move in the server's own syntax that is not among the legal moves: let the server
        // say which rule refuses it (the answer's `reason`, shown in the reader's language).
        const text = input.value.trim();
        if (MACHINE_MOVE[fam()]?.test(text)) return void post('move', { move: text });
        err.textContent = t('game.notLegal', { move: input.value });
        err.hidden = false;
        return;
      }
      input.value = '';
      sendMove(mv);
    });
    const settings = $('.settings');
    settings.querySelector('[name=pieces]').value = pieceStyle();
    settings.querySelector('[name=sound]').checked = store.get('sound', '0') === '1';
    settings.querySelector('[name=turnSound]').checked = turnSoundOn();
    settings.querySelector('[name=turnNotify]').checked = turnNotifyOn();
    settings.querySelector('[name=chat]').checked = chatSettingOn();
    chat = chatPanel($('.chat'), { send: wsSend, sideName: sn, moveStyle: () => serverStyle(notationStyle(), currentLang()) });
    settings.addEventListener('change', async (e) => {
      const el = e.target;
      if (el.name === 'turnSound') {
        setTurnSound(el.checked);
        if (el.checked) chime();
        return;
      }
      if (el.name === 'turnNotify') {
        el.dataset.asked = el.checked ? '1' : '';
        const on = await setTurnNotify(el.checked);
        el.checked = on;
        // Asked for but refused by the browser: say so (the checkbox stays off).
        settings.querySelector('.notify-denied').hidden = on || !el.dataset.asked || typeof Notification === 'undefined' || Notification.permission !== 'denied';
        return;
      }
      if (el.name === 'chat') {
        setChatSetting(el.checked);
        // The setting turns this game's channels off (or on) too.
        if (view?.you) for (const channel of ['players', 'spectators']) wsSend({ type: 'chat_mute', channel, muted: !el.checked });
        return;
      }
      if (el.name === 'pieces') store.set('pieces', el.value);
      if (el.name === 'notation') store.set('notation.' + fam(), el.value);
      if (el.name === 'sound') {
        store.set('sound', el.checked ? '1' : '0');
        if (el.checked) beep(660, 0.05);
      }
      render();
    });
  }

  function ensureBoard() {
    if (board) return;
    store.set('variant.' + id, view.variant);
    board = createBoard($('.board-host'), {
      variant: view.variant,
      interactive: true,
      label,
      choosePromotion,
      onMove: sendMove,
      onPremove: (move) => post('premove', { move }),
      onPremoveCancel: () => post('premove', { move: null }),
    });
    $('.board-col').style.setProperty('--ratio', String(board.aspect));
    const notation = $('select[name=notation]');
    notation.innerHTML = STYLES[fam()].map((s) => `<option value="${s}">${t('notation.' + s)}</option>`).join('');
  }

  /** The notation endpoint's name for a style shown in `lang`. */
  function serverStyle(style, lang) {
    if (style === 'chinese') return lang === 'zh-Hant' ? 'chinese-traditional' : 'chinese';
    return style;
  }

  /** Asks the server for the move list in `style` at `ply`; a stale or failed answer is ignored. */
  function fetchHistory(style, ply) {
    const key = `${style}|${ply}`;
    if (historyPending === key || historyFailed === key) return;
    historyPending = key;
    api(`/api/games/${id}/notation?style=${encodeURIComponent(style)}`)
      .then((res) => {
        if (historyPending === key) historyPending = '';
        // Stale: the server had a different number of moves.
        if (destroyed || !Array.isArray(res?.moves) || !Array.isArray(res.positions) || res.moves.length !== ply) return;
        // Jieqi: the server's note for each reveal (` (R)`, `（车）`) follows the move.
        const texts = Array.isArray(res.notes) ? res.moves.map((m, i) => m + (res.notes[i] || '')) : res.moves;
        history = { style, ply, texts, positions: res.positions };
        if (view && view.moves.length === ply) render();
        if (pendingAlert?.ply === ply) sendAlert(pendingAlert, texts[ply - 1]);
      })
      .catch(() => {
        if (historyPending === key) historyPending = '';
        historyFailed = key;
        // Without the move list, the alert names the move as the server recorded it.
        if (pendingAlert?.ply === ply && view) sendAlert(pendingAlert, view.moves[ply - 1]);
      });
  }

  /** The move list as far as the server has written it: {texts, positions}. */
  function format() {
    const style = serverStyle(notationStyle(), currentLang());
    const ply = view.moves.length;
    if (!view.pendingMove && (!history || history.style !== style || history.ply !== ply)) fetchHistory(style, ply);
    return history || { texts: [], positions: [] };
  }

  /** The position on the board (live, or an earlier one of the history) with its checked king
   * and its FEN. */
  function shown() {
    const past = shownPly === null || shownPly >= view.moves.length ? null : format().positions[shownPly];
    if (past) return { pos: parse(view.variant, past.fen), check: past.check, fen: past.fen };
    const pos = parse(view.variant, view.fen);
    // After a Jieqi game, the pieces still face down are revealed to everyone.
    for (const [sq, letter] of Object.entries(view.covered_pieces || {})) if (pos.board.has(sq)) pos.board.set(sq, letter);
    if (view.pendingMove) {
      // A move on its way to the server: its piece is drawn on the destination (a drawing
      // only; the server's answer brings the position).
      const { from, to } = moveSquares(view.pendingMove);
      const piece = from && pos.board.get(from);
      if (piece) {
        pos.board.delete(from);
        pos.board.set(to, view.pendingMove.endsWith('+') ? '+' + piece : piece);
      }
    }
    return { pos, check: view.pendingMove ? null : view.hints?.check ?? null, fen: view.fen };
  }

  function render() {
    if (!view) return;
    ensureBoard();
    const live = shownPly === null;
    const ply = live ? view.moves.length : shownPly;
    const { pos, check } = shown();
    const you = view.you;
    const mySeat = you ? seatOf(you) : null;
    const bottom = (mySeat === 'second') !== flipped ? 'second' : 'first';
    const last = ply > 0 ? moveSquares(view.moves[ply - 1]) : null;
    const myTurn = live && view.status === 'playing' && you && view.to_move === you;
    // Jieqi after the end: the pieces still face down, as the server's final view names them.
    const atEnd = shownPly === null || shownPly >= view.moves.length;
    const endRevealed = atEnd ? Object.keys(view.covered_pieces || {}).filter((sq) => pos.board.has(sq)) : [];
    board.update({
      endRevealed,
      endRevealedNote: t('jieqi.endRevealed'),
      pos,
      orientation: bottom,
      lastMove: last,
      check,
      legal: myTurn ? view.legal_moves || [] : [],
      movable: myTurn ? mySeat : null,
      // Not our turn: a move may be queued (the server judges it when the turn comes).
      premovable: live && view.status === 'playing' && you && !myTurn && !view.pendingMove ? mySeat : null,
      premove: view.premove ? moveSquares(view.premove) : null,
      style: pieceStyle(),
      label,
    });
    board.svg.setAttribute('aria-label', t('aria.board.' + view.variant));
    renderPlayers(bottom);
    renderMoves(ply);
    renderPanel(myTurn);
  }

  function renderPlayers(bottom) {
    const [first, second] = sides();
    const topSide = bottom === 'first' ? second : first;
    const botSide = bottom === 'first' ? first : second;
    for (const [el, side] of [[$('.player.top'), topSide], [$('.player.bottom'), botSide]]) {
      const you = view.you === side;
      const toMove = view.status === 'playing' && view.to_move === side;
      el.className = `player ${el === $('.player.top') ? 'top' : 'bottom'}${toMove ? ' to-move' : ''}`;
      el.dataset.side = side;
      const clock = view.clock?.[side];
      // An absent player: the mark beside its clock (the server says within a moment).
      const away = view.status === 'playing' && view.away?.[side] ? `<span class="away-mark" title="${t('presence.awayOf', { side: sn(side) })}">${t('presence.away')}</span>` : '';
      const computer = view.computer?.side === side ? ` <span class="computer-name">${t('game.computer', { level: view.computer.level })}</span>` : '';
      // The computer to move: say that it is thinking (its answer comes as a move event).
      const thinking = view.computer?.side === side && toMove && !view.pendingMove ? ` <span class="thinking" role="status">${t('game.thinking')}</span>` : '';
      // A seat taken with a player key: the player's name and rating in this variant.
      const player = view.players?.[side] ? seatPlayer(view.players[side], view, () => renderPlayers(bottom)) : '';
      el.innerHTML = `<span class="who"><span class="dot ${side}" aria-hidden="true"></span>${sn(side)}${you ? ` <em>(${t('game.you')})</em>` : ''}${player}${computer}${thinking}${away}</span>` +
        (clock ? `<span class="clock" data-side="${side}" role="timer" aria-label="${t('game.clockOf', { side: sn(side) })}"><span class="time"></span><span class="periods"></span></span>` : '');
    }
    updateClocks();
  }

  /** The byo-yomi countdown in ms, from the view's time control. */
  function byoyomiMs() {
    return (view.clock_settings?.byoyomi || 0) * 1000;
  }

  /** A side's clock as it should read now: the server's figures counted down locally. */
  function clockFigures(side) {
    const c = view.clock?.[side];
    if (!c) return null;
    let ms = c.ms;
    let periods = c.periods ?? 0;
    let inByoyomi = !!c.byoyomi;
    if (view.clock.running === side && view.status === 'playing') {
      // While disconnected the clocks are not counted on: what the server says is unknown.
      ms -= (lostAt ?? performance.now()) - clockBase;
      const byo = byoyomiMs();
      if (ms < 0 && periods > 0 && byo > 0) {
        // Main time (or a countdown) ran out locally: the next countdown starts.
        const over = -ms;
        periods -= Math.floor(over / byo) + (inByoyomi ? 1 : 0);
        ms = byo - (over % byo);
        inByoyomi = true;
        if (periods <= 0) ms = 0;
      }
    }
    return { ms, periods, inByoyomi };
  }

  function updateClocks() {
    if (view && built && view.away && Object.keys(view.away).length) renderClaim();
    const fm = main.querySelector('.first-move');
    if (fm && view) {
      const left = view.first_move_ms == null || view.status !== 'playing' ? null : view.first_move_ms - (performance.now() - viewBase);
      fm.hidden = left === null;
      if (left !== null) fm.textContent = t('game.firstMove', { side: sn(view.to_move), s: Math.max(0, Math.ceil(left / 1000)) });
    }
    if (!view?.clock) return;
    for (const el of main.querySelectorAll('.clock')) {
      const side = el.dataset.side;
      const f = clockFigures(side);
      if (!f) continue;
      const running = view.clock.running === side && view.status === 'playing';
      el.querySelector('.time').textContent = fmtMs(f.ms);
      el.querySelector('.periods').textContent = f.periods > 0 ? t(f.inByoyomi ? 'clock.inByoyomi' : 'clock.periodsLeft', { n: f.periods, period: clockDuration(view.clock_settings?.byoyomi || 0) }) : '';
      el.classList.toggle('running', running);
      el.classList.toggle('low', running && f.ms < 10000);
      el.classList.toggle('byoyomi', f.inByoyomi);
      el.classList.toggle('stale', lostAt !== null);
      el.title = lostAt !== null ? t('clock.paused') : '';
      const mark = el.querySelector('.stale-mark');
      if (lostAt !== null && !mark) el.insertAdjacentHTML('beforeend', `<span class="stale-mark">${t('clock.paused')}</span>`);
      else if (lostAt === null && mark) mark.remove();
      if (running && f.ms < 10000 && view.you === side && store.get('sound', '0') === '1') {
        const s = Math.ceil(f.ms / 1000);
        if (s !== lastBeep && s >= 0) {
          lastBeep = s;
          beep(s <= 3 ? 1200 : 880);
        }
      }
    }
  }

  function renderMoves(ply) {
    const f = format();
    const ol = $('.moves');
    const shogi = fam() === 'shogi';
    let html = '';
    for (let i = 0; i < f.texts.length; i += 2) {
      html += `<li><span class="num">${i / 2 + 1}.</span>`;
      for (const j of [i, i + 1]) {
        if (j >= f.texts.length) break;
        html += `<button type="button" data-ply="${j + 1}"${j + 1 === ply ? ' aria-current="step"' : ''}${shogi ? ` title="${j + 1}"` : ''}>${f.texts[j]}</button>`;
      }
      html += '</li>';
    }
    if (ol.innerHTML !== html) {
      ol.innerHTML = html;
      if (shownPly === null) ol.scrollTop = ol.scrollHeight;
    } else ol.querySelectorAll('button').forEach((b) => (Number(b.dataset.ply) === ply ? b.setAttribute('aria-current', 'step') : b.removeAttribute('aria-current')));
    main.querySelector('.moves-wrap').classList.toggle('history', shownPly !== null);
  }

  function renderPanel(myTurn) {
    const you = view.you;
    const status = $('.status');
    $('.time-control').textContent = t('game.timeControl', { clock: clockLabel(view.clock_settings) }) + (view.rated ? ` · ${t('game.rated')}` : '');
    const playing = view.status === 'playing';
    // A visitor to a waiting game reads the same sentence in the join box below.
    if (view.status === 'waiting') status.textContent = you ? t('game.waiting') : '';
    else if (playing) status.textContent = myTurn ? t('game.yourTurn') : t('game.toMove', { side: sn(view.to_move) });
    else status.textContent = '';
    if (shownPly !== null) status.textContent = t('game.viewing', { ply: shownPly, total: view.moves.length });
    if (!connected) status.textContent += (status.textContent ? ' · ' : '') + t('game.reconnecting');
    const note = $('.pending-note');
    note.hidden = !unsent && !takenBack;
    note.dataset.state = unsent ? 'pending' : takenBack ? 'taken-back' : '';
    note.textContent = unsent ? t('game.movePending') : takenBack ? t('game.moveTakenBack') : '';

    const banner = $('.banner');
    if (view.status === 'ended' || view.status === 'aborted') {
      const r = describeResult(view.variant, view.result || { winner: null, reason: 'aborted' }, view.status, view.handicap, you);
      banner.innerHTML = `<strong>${r.headline}</strong><span>${r.reason}</span>`;
      banner.setAttribute('aria-label', r.text);
      banner.dataset.reason = view.result?.reason || 'aborted';
      banner.dataset.outcome = !view.result?.winner || view.status === 'aborted' ? 'none' : !you ? 'other' : view.result.winner === you ? 'won' : 'lost';
      banner.hidden = false;
    } else banner.hidden = true;

    const invite = $('.invite');
    invite.hidden = !(you && view.status === 'waiting');
    if (!invite.hidden) $('#invite-link').value = `${location.origin}/g/${id}`;
    $('.join').hidden = !(view.status === 'waiting' && !you);

    const offer = $('.draw-offer');
    const opp = you ? sides().find((s) => s !== you) : null;
    offer.hidden = !(playing && view.draw_offer);
    if (!offer.hidden) {
      offer.innerHTML = view.draw_offer === you ? `<p>${t('draw.offered')}</p>` :
        `<p>${t('draw.offeredBy', { side: sn(view.draw_offer) })}</p>` +
        (you ? `<div class="row"><button type="button" data-action="draw-accept" class="primary">${t('draw.accept')}</button><button type="button" data-action="draw-decline">${t('draw.decline')}</button></div>` : '');
    }

    const tb = $('.takeback-box');
    tb.innerHTML = takebackBox(view, sn);
    tb.hidden = !tb.innerHTML;
    renderClaim();

    // Actions.
    const acts = [];
    const btn = (action, text, enabled = true, cls = '') => acts.push(`<button type="button" data-action="${action}" class="${cls}"${enabled ? '' : ' disabled'}>${text}</button>`);
    // Only what applies: before a player's first move, Abort alone (rules: abort before each
    // side's first move; the first move of each side is never taken back).
    const myMoves = you ? view.moves.filter((_, i) => (i % 2 === 0) === (seatOf(you) === parse(view.variant, view.initial_fen).toMove)).length : 0;
    if (you && playing && myMoves > 0) btn('resign', t('action.resign'), true, 'danger');
    // The computer declines every draw offer (docs/api.md): no button for it.
    if (you && playing && myMoves > 0 && fam() === 'xiangqi' && !view.draw_offer && !view.computer) btn('draw-offer', t('action.offerDraw'));
    if (you && playing && myMoves > 1 && !view.takeback) btn('takeback-request', t('takeback.request'));
    if (you && playing && view.premove) btn('premove-cancel', t('premove.cancel'));
    if (you && (view.status === 'waiting' || (playing && myMoves === 0))) btn('abort', t('action.abort'));
    if (view.variant === 'shogi') {
      // The server counts the points (with any handicap credit) and says whether the viewer
      // to move may declare.
      const info = $('.impasse-info');
      const figs = view.impasse ? sides().map((side) => ({ side, ...view.impasse[side] })) : [];
      if (figs.some((f) => f.king_in_zone)) {
        info.hidden = false;
        info.innerHTML = `<h2>${t('impasse.title')}</h2><ul>` + figs.map((f) => `<li>${t('impasse.line', { side: sn(f.side), points: f.declaration, needed: f.needed, pieces: f.pieces_in_zone, total: f.total })}${f.king_in_zone ? '' : ' · ' + t('impasse.notEntered')}</li>`).join('') + '</ul>';
      } else info.hidden = true;
      // Declaring impasse applies once the player's king has entered the zone: the button is
      // shown from then on (enabled when the server says the declaration holds).
      const canDeclare = myTurn && view.hints?.can_declare_impasse === true;
      const mine = figs.find((f) => f.side === you);
      if (you && playing && (canDeclare || mine?.king_in_zone)) btn('impasse', t('action.impasse'), canDeclare);
    }
    const rm = view.rematch || {};
    const asked = rm.requested || [];
    if (rm.id && rm.token) saveToken(rm.id, rm.token, rm.side);
    if (you && (view.status === 'ended' || view.status === 'aborted') && !rm.id) {
      if (asked.includes(you)) btn('rematch', t('action.rematchSent'), false);
      else btn('rematch', asked.length ? t('action.acceptRematch') : t('action.rematch'), true, 'primary');
    }
    // Analysis only once the game is over, for everyone (never while it is played).
    if (view.status === 'ended' || view.status === 'aborted') acts.push(`<a class="button analyse" href="/analysis/${view.variant}?game=${id}">${t('action.analyse')}</a>`);
    btn('flip', t('action.flip'));
    btn('copy-fen', t(fam() === 'shogi' ? 'action.copySfen' : 'action.copyFen'));
    // [query, label]: the record formats of docs/api.md (PGN also with WXF moves, not for Jieqi).
    const formats = fam() === 'shogi'
      ? [['kif', 'KIF'], ['ki2', 'KI2'], ['csa', 'CSA'], ['sfen', 'SFEN']]
      : [['pgn', 'PGN'], ...(view.variant === 'jieqi' ? [] : [['pgn&moves=wxf', 'PGN (WXF)']]), ['fen', 'FEN']];
    acts.push(`<span class="downloads">${t('action.download')} ${formats.map(([f, label]) => `<a href="/api/games/${id}/record?format=${f}" download>${label}</a>`).join(' ')}</span>`);
    $('.actions').innerHTML = acts.join('');
    if (rm.id) $('.actions').insertAdjacentHTML('afterbegin', `<a class="button primary to-rematch" href="/g/${rm.id}">${t('action.toRematch')}</a>`);

    $('.type-move').hidden = !(you && playing);
    $('.spectators').textContent = view.spectators ? t('game.spectators', { n: view.spectators }) : '';
    chat?.render(view);
    renderJieqi();
  }

  /** The claim box: the opponent away, a countdown to the claim, then the claims. */
  function renderClaim() {
    const box = $('.claim-box');
    const opp = view.you ? sides().find((s) => s !== view.you) : null;
    const away = view.status === 'playing' && opp ? view.away?.[opp] : null;
    if (!away) {
      claimWaiting = false;
      box.hidden = true;
      box.dataset.key = '';
      return;
    }
    const left = Math.max(0, away.claim_in_ms - (performance.now() - awayBase));
    const html = claimBox(sn(opp), left, fam(), claimWaiting);
    // Redrawn only when its words change, so that a focused button keeps its focus.
    if (box.dataset.key !== html) {
      box.innerHTML = html;
      box.dataset.key = html;
    }
    box.hidden = false;
  }

  function renderJieqi() {
    const box = $('.jieqi-info');
    if (view.variant !== 'jieqi') return;
    box.hidden = false;
    const [red, black] = sides();
    const glyph = (p) => `<svg class="mini" viewBox="-50 -50 100 100" role="img" aria-label="${p === 'X' || p === 'x' ? t('piece.xiangqi.X') : pieceName(p)}">${pieceSvg('jieqi', p, pieceStyle())}</svg>`;
    const caseFor = (letter, side) => (side === red ? letter.toUpperCase() : letter.toLowerCase());
    // Captured pieces, grouped by who took them; a covered piece whose identity this viewer may
    // not know is shown face down.
    const taken = { [red]: [], [black]: [] };
    const captured = view.captured || {};
    for (const [key, list] of Object.entries(captured)) {
      for (const c of Array.isArray(list) ? list : []) {
        const owner = c.side || (key === red ? black : red);
        const letter = c.piece ? caseFor(c.piece, owner) : owner === red ? 'X' : 'x';
        taken[owner === red ? black : red].push(letter);
      }
    }
    let html = `<h2>${t('jieqi.captured')}</h2>`;
    for (const side of [red, black])
      html += `<p class="captures" data-side="${side}"><span>${t('jieqi.capturedBy', { side: sn(side) })}</span> ${taken[side].map(glyph).join('') || '—'}</p>`;
    html += `<h2>${t('jieqi.pool')}</h2>`;
    for (const side of [red, black]) {
      const text = typeof view.pool === 'object' && view.pool ? view.pool[side] : '';
      const items = [...String(text || '').matchAll(/([A-Za-z])(\d+)/g)].map((m) => [caseFor(m[1], side), Number(m[2])]).filter(([, n]) => n > 0);
      html += `<p class="pool" data-side="${side}"><span>${t('jieqi.stillHidden', { side: sn(side) })}</span> ${items.map(([p, n]) => `<span class="pool-item">${glyph(p)}×${n}</span>`).join('') || '—'}</p>`;
    }
    if (view.commitment) html += `<p class="commitment"><span>${t('jieqi.commitment')}</span> <code>${view.commitment}</code></p>`;
    if (view.deal) html += `<p class="commitment"><span>${t('jieqi.deal')}</span> <code>${view.deal}</code> <code>${view.salt || ''}</code></p>`;
    if (Object.keys(view.covered_pieces || {}).length)
      html += `<p class="end-reveal-legend"><svg class="mini end-revealed" viewBox="-50 -50 100 100" aria-hidden="true">${pieceSvg('jieqi', 'R', pieceStyle())}</svg> ${t('jieqi.endRevealedLegend')}</p>`;
    box.innerHTML = html;
  }

  function setView(v, fromState = false) {
    const firstDraw = !board;
    if (!built) build(v.variant);
    if (fromState) performance.mark('jiang:state');
    const prevPly = view?.moves?.length;
    view = v;
    view.moves ||= [];
    view.away ||= {};
    clockBase = performance.now();
    awayBase = clockBase;
    viewBase = clockBase;
    if (shownPly !== null && shownPly >= view.moves.length) shownPly = null;
    render();
    if (fromState) {
      performance.mark('jiang:drawn');
      performance.measure(firstDraw ? 'jiang:board-first' : 'jiang:board', 'jiang:state', 'jiang:drawn');
    }
    const ply = view.moves.length;
    const alert = {
      ply,
      variantName: t('variant.' + view.variant),
      myTurn: view.status === 'playing' && !!view.you && view.to_move === view.you,
      moved: prevPly !== undefined && ply > prevPly,
    };
    const texts = format().texts;
    if (!ply || texts.length === ply) sendAlert(alert, ply ? texts[ply - 1] : '');
    else if (historyFailed.endsWith(`|${ply}`)) sendAlert(alert, view.moves[ply - 1]);
    // The last move in the user's notation comes with the move list: alert when it arrives.
    else pendingAlert = alert;
  }

  /** Title, chime and notification for the view of `alert.ply` plies, naming `lastMove`. */
  function sendAlert(alert, lastMove) {
    pendingAlert = null;
    const { variantName, myTurn } = alert;
    const chimed = alerts.update({ variantName, myTurn, lastMove });
    if (!chimed && alert.moved && store.get('sound', '0') === '1') beep(520, 0.05);
  }

  async function refresh() {
    try {
      setView(await api(`/api/games/${id}`, { token }), true);
    } catch (e) {
      if (e.status === 404) {
        main.innerHTML = `<section class="game"><div class="notfound"><h1>${t('game.notFound')}</h1><p><a href="/">${t('game.newGame')}</a></p></div></section>`;
        destroyed = true;
        disconnect();
      }
    }
  }

  /** Close the socket on purpose (no reconnection from it). */
  function disconnect() {
    clearTimeout(reconnectTimer);
    if (ws) {
      ws.onclose = null;
      ws.close();
      ws = null;
    }
  }

  function connect() {
    if (destroyed) return;
    disconnect();
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const q = token ? `?token=${encodeURIComponent(token)}` : '';
    const sock = new WebSocket(`${proto}://${location.host}/api/games/${id}/ws${q}`);
    ws = sock;
    sock.onopen = () => {
      backoff = 500;
    };
    // Keep the connection alive, and let the server's clock correct local drift now and then.
    clearInterval(keepAlive);
    keepAlive = setInterval(() => {
      if (sock.readyState !== WebSocket.OPEN) return;
      sock.send(JSON.stringify({ type: view?.status === 'playing' && view.clock ? 'clock' : 'ping' }));
    }, 15000);
    sock.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      onEvent(msg);
    };
    sock.onclose = () => {
      if (ws === sock) connectionLost();
    };
  }

  /** The connection is gone (the socket closed, or a request could not reach the server): the
   * clocks pause, and the socket is opened again (after a growing delay). */
  function connectionLost() {
    if (connected || lostAt === null) lostAt = performance.now();
    connected = false;
    if (ws) {
      // A socket that still looks open may take long to notice: drop it now.
      const old = ws;
      ws = null;
      old.onclose = null;
      old.close();
    }
    if (view) render();
    if (destroyed) return;
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 8000);
  }

  function onEvent(msg) {
    const { type, ...rest } = msg;
    if (type === 'state') {
      connected = true;
      lostAt = null;
      const pending = unsent;
      unsent = null;
      setView(rest, true);
      if (pending) {
        // The connection is back: send the pending move again if the position is the same,
        // otherwise say that it was taken back.
        const moves = rest.moves || [];
        const same = rest.status === 'playing' && moves.length === pending.ply && rest.you && rest.to_move === rest.you && (rest.legal_moves || []).includes(pending.move);
        // The server had it already (only its answer was lost): confirmed.
        if (moves[pending.ply] === pending.move) render();
        else if (same) sendMove(pending.move);
        else {
          takenBack = pending.move;
          render();
        }
      }
      return;
    }
    if (type === 'error') {
      showError(errorText(msg));
      board?.deselect();
      return;
    }
    if (!view) return;
    if (type === 'spectators') {
      view.spectators = rest.spectators ?? rest.count ?? view.spectators;
      $('.spectators').textContent = view.spectators ? t('game.spectators', { n: view.spectators }) : '';
      return;
    }
    if (type === 'chat_history') return void chat?.history(rest);
    if (type === 'chat') return void chat?.line(msg);
    if (type === 'takeback' || type === 'premove' || type === 'presence') {
      if (type === 'takeback') view.takeback = rest.takeback;
      if (type === 'premove') {
        view.premove = rest.premove;
        if (rest.dropped) showError(t('premove.dropped'));
      }
      if (type === 'presence') {
        view.away = rest.away || {};
        awayBase = performance.now();
      }
      render();
      return;
    }
    if (type === 'clock') {
      if (rest.clock) view.clock = rest.clock;
      clockBase = performance.now();
      updateClocks();
      return;
    }
    // move, end, draw_offer, rematch: merge what the event carries; resynchronise when the
    // event does not follow on from what we have.
    if (type === 'move') {
      performance.mark('jiang:state');
      const n = rest.ply ?? view.moves.length + 1;
      if (n > view.moves.length + 1 || !rest.move) return void refresh();
      rest.moves = [...view.moves.slice(0, n - 1), rest.move];
    }
    if (type === 'rematch') {
      const { ply: _ply, ...r } = rest;
      void _ply;
      setView({ ...view, rematch: r });
      return;
    }
    const merged = { ...view, ...rest, pendingMove: null };
    // Fields the server leaves out when empty: absent means none.
    if (type === 'move' || type === 'end') {
      merged.takeback = rest.takeback ?? null;
      merged.premove = rest.premove ?? null;
      merged.away = rest.away ?? {};
    }
    if (type === 'move' && !('legal_moves' in rest)) merged.legal_moves = [];
    setView(merged, type === 'move');
    if ((type === 'move' || type === 'end') && (!('legal_moves' in rest) || !rest.fen)) refresh();
  }

  /** Sends a message over the socket (chat, claims: they need the socket's presence). */
  function wsSend(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    else showError(t('game.reconnecting'));
  }

  function showError(text) {
    if (!built) return;
    const p = $('.type-move .error');
    const status = $('.status');
    if (!$('.type-move').hidden) {
      p.textContent = text;
      p.hidden = false;
    } else status.textContent = text;
  }

  async function post(action, body) {
    try {
      const res = await api(`/api/games/${id}/${action}`, { method: 'POST', body: body ?? {}, token });
      // The answer is a view; a socket event may already have brought a newer one.
      if (res && res.status && res.variant) {
        if (!(typeof res.ply === 'number' && view && res.ply < view.moves.length && res.status === view.status)) setView(res);
      } else refresh();
      return res;
    } catch (e) {
      if (action === 'move' && e.status === 0 && view) {
        // The server could not be reached: the move stays drawn (Jieqi: the reveal is the
        // server's, so only the note), marked as pending.
        unsent = { move: body.move, ply: view.moves.length - (view.pendingMove === body.move ? 1 : 0) };
        connectionLost();
        return null;
      }
      showError(errorText(e));
      board?.deselect();
      refresh();
      return null;
    }
  }

  function sendMove(mv) {
    $('.type-move .error').hidden = true;
    takenBack = null;
    // Show the move at once (the piece on its destination, no input until the answer); the
    // server's answer (or the socket) brings the position. Jieqi waits: the reveal is the
    // server's to tell.
    if (view.variant !== 'jieqi') {
      const hints = { ...view.hints, legal_names: [], check: null };
      setView({ ...view, moves: [...view.moves, mv], legal_moves: [], hints, to_move: sides().find((s) => s !== view.to_move), pendingMove: mv });
    }
    post('move', { move: mv });
  }

  // Panel events.
  main.addEventListener('click', async (e) => {
    const stepBtn = e.target.closest('[data-step]');
    if (stepBtn) return step(stepBtn.dataset.step);
    const plyBtn = e.target.closest('[data-ply]');
    if (plyBtn) {
      const p = Number(plyBtn.dataset.ply);
      shownPly = p >= view.moves.length ? null : p;
      return render();
    }
    const a = e.target.closest('[data-action]')?.dataset.action;
    if (!a) return;
    if (a === 'resign') {
      if (confirm(t('action.resignConfirm'))) post('resign');
    } else if (a === 'draw-offer') post('draw', { action: 'offer' });
    else if (a === 'draw-accept') post('draw', { action: 'accept' });
    else if (a === 'draw-decline') post('draw', { action: 'decline' });
    else if (a === 'abort') post('abort');
    else if (a === 'impasse') post('impasse');
    else if (a === 'rematch') post('rematch');
    else if (a.startsWith('takeback-')) post('takeback', { action: a.slice('takeback-'.length) });
    else if (a === 'premove-cancel') post('premove', { move: null });
    else if (a === 'claim-win' || a === 'claim-draw') wsSend({ type: 'claim', result: a === 'claim-win' ? 'win' : 'draw' });
    else if (a === 'claim-wait') {
      claimWaiting = true;
      renderClaim();
    }
    else if (a === 'flip') {
      flipped = !flipped;
      render();
    } else if (a === 'copy-fen') {
      copy(shown().fen, e.target);
    }
  });
  async function copy(text, button) {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const ta = document.createElement('textarea');
      ta.value = text;
      document.body.append(ta);
      ta.select();
      document.execCommand('copy');
      ta.remove();
    }
    const old = button.textContent;
    button.textContent = t('game.copied');
    setTimeout(() => (button.textContent = old), 1500);
  }

  function step(dir) {
    if (!view) return;
    const n = view.moves.length;
    const cur = shownPly === null ? n : shownPly;
    const next = { home: 0, back: Math.max(0, cur - 1), fwd: Math.min(n, cur + 1), end: n }[dir];
    shownPly = next >= n ? null : next;
    render();
  }
  const onKey = (e) => {
    if (!view || e.target.closest?.('input, select, textarea, dialog, [data-square], [data-hand]')) return;
    const dir = { ArrowLeft: 'back', ArrowRight: 'fwd', Home: 'home', End: 'end' }[e.key];
    if (!dir) return;
    e.preventDefault();
    step(dir);
  };
  document.addEventListener('keydown', onKey);
  tick = setInterval(updateClocks, 100);

  refresh().then(connect);

  return {
    destroy() {
      destroyed = true;
      clearInterval(keepAlive);
      clearInterval(tick);
      clearTimeout(reconnectTimer);
      document.removeEventListener('keydown', onKey);
      disconnect();
    },
  };
}

export { fmtMs, navigate };
