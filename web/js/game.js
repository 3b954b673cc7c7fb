// The game page `/g/<id>`: board, clocks, move list, actions, live updates over WebSocket.
import { t, currentLang } from './i18n.js';
import { api, tokenFor, saveToken, onMessages } from './api.js';
import { errorText } from './errors.js';
import { createBoard, aspect } from './board.js';
import { familyOf, sidesOf, parse, moveSquares } from './position.js';
import { findTyped } from './typed.js';
import { clockLabel, clockDuration, clockFigures, fmtMs, fmtLong } from './clock.js';
import { navigate } from './navigation.js';
import { turnAlerts, turnSoundOn, setTurnSound, turnNotifyOn, setTurnNotify, chime, beep } from './alerts.js';
import { refreshTurns } from './turns.js';
import { sideName } from './results.js';
import { gamePageHtml, askPromotion, resultBanner, drawOfferHtml, impasseHtml, actionsHtml, jieqiInfoHtml, tournamentBoxHtml } from './gamepanel.js';
import { seatPlayer } from './players.js';
import { chatPanel, chatSettingOn, setChatSetting, takebackBox, claimBox } from './comforts.js';
import { setHtml } from './html.js';
import { tournamentOfGame } from './tournamentsocket.js';

/** The move notations offered per family (the server writes them all). */
const STYLES = { xiangqi: ['wxf', 'chinese', 'iccs'], shogi: ['japanese', 'western', 'usi'] };
/** The API's move syntax per family (ICCS; USI), for typed moves worth asking the server about. */
const MACHINE_MOVE = { xiangqi: /^[a-i][0-9][a-i][0-9]$/, shogi: /^([1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])$/ };

const store = {
  get: (k, d) => localStorage.getItem('jiang.' + k) ?? d,
  set: (k, v) => localStorage.setItem('jiang.' + k, v),
};

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
    main.innerHTML = gamePageHtml(aspect(variant));
    attach();
  }

  const sides = () => sidesOf(view.variant);
  /** The tournament this game belongs to: the view says so, or the tournament socket that
   * brought this browser here did. */
  const tournamentId = () => view?.tournament?.id || tournamentOfGame(id);
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

  /** Asks whether to promote: resolves to true, false, or null (cancelled). */
  function choosePromotion(from, to, piece) {
    return askPromotion($('.promo'), view.variant, piece, pieceStyle()).finally(() => board?.focus());
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
      // A tournament game: the mark of a side that berserked (halved its clock), by its clock.
      const berserk = view.tournament?.berserk?.includes(side) ? `<span class="berserk-mark" title="${t('tournament.berserkedOf', { side: sn(side) })}">${t('tournament.berserkMark')}</span>` : '';
      el.innerHTML = `<span class="who"><span class="dot ${side}" aria-hidden="true"></span>${sn(side)}${you ? ` <em>(${t('game.you')})</em>` : ''}${player}${computer}${thinking}${away}</span>` +
        berserk + (clock ? `<span class="clock" data-side="${side}" role="timer" aria-label="${t('game.clockOf', { side: sn(side) })}"><span class="time"></span><span class="periods"></span></span>` : '');
    }
    updateClocks();
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
      // While disconnected the clocks are not counted on: what the server says is unknown.
      const f = clockFigures(view, side, (lostAt ?? performance.now()) - clockBase);
      if (!f) continue;
      const running = view.clock.running === side && view.status === 'playing';
      // Correspondence: days and hours to the deadline, a date (shown on hover).
      const days = view.clock_settings?.days;
      const deadline = days && view.status === 'playing' ? view.clock[side]?.deadline : null;
      el.querySelector('.time').textContent = days ? fmtLong(deadline ? deadline - Date.now() : f.ms) : fmtMs(f.ms);
      el.querySelector('.periods').textContent = days ? '' : f.periods > 0 ? t(f.inByoyomi ? 'clock.inByoyomi' : 'clock.periodsLeft', { n: f.periods, period: clockDuration(view.clock_settings?.byoyomi || 0) }) : '';
      el.classList.toggle('running', running);
      el.classList.toggle('low', running && f.ms < 10000);
      el.classList.toggle('byoyomi', !days && f.inByoyomi);
      el.classList.toggle('stale', lostAt !== null);
      el.title = lostAt !== null ? t('clock.paused') : deadline ? t('clock.moveBy', { date: new Date(deadline).toLocaleString() }) : '';
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
    const result = resultBanner(view);
    banner.hidden = !result;
    if (result) {
      banner.innerHTML = result.html;
      banner.setAttribute('aria-label', result.label);
      banner.dataset.reason = result.reason;
      banner.dataset.outcome = result.outcome;
    }

    const invite = $('.invite');
    invite.hidden = !(you && view.status === 'waiting');
    if (!invite.hidden) $('#invite-link').value = `${location.origin}/g/${id}`;
    $('.join').hidden = !(view.status === 'waiting' && !you);

    const offer = $('.draw-offer');
    offer.hidden = !(playing && view.draw_offer);
    if (!offer.hidden) setHtml(offer, drawOfferHtml(view, sn));

    const tb = $('.takeback-box');
    // Redrawn only when they change, so that a focused button keeps its focus (the keyboard's
    // Accept) whatever else the view brings.
    const takeback = takebackBox(view, sn);
    setHtml(tb, takeback);
    tb.hidden = !takeback;
    renderClaim();

    if (view.variant === 'shogi') {
      const info = $('.impasse-info');
      const impasse = impasseHtml(view, sn);
      setHtml(info, impasse);
      info.hidden = !impasse;
    }
    const rm = view.rematch || {};
    if (rm.id && rm.token) saveToken(rm.id, rm.token, rm.side);
    const tid = tournamentId();
    setHtml($('.actions'), actionsHtml(view, id, myTurn, !!tid));
    const tbox = $('.tournament-box');
    setHtml(tbox, tid ? tournamentBoxHtml(view, tid) : '');
    tbox.hidden = !tid;

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
      return;
    }
    const left = Math.max(0, away.claim_in_ms - (performance.now() - awayBase));
    const html = claimBox(sn(opp), left, fam(), claimWaiting);
    // Redrawn only when its words change, so that a focused button keeps its focus.
    setHtml(box, html);
    box.hidden = false;
  }

  function renderJieqi() {
    const box = $('.jieqi-info');
    if (view.variant !== 'jieqi') return;
    box.hidden = false;
    setHtml(box, jieqiInfoHtml(view, sn, pieceStyle()));
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

  let lastTurn = null;
  /** Title, chime and notification for the view of `alert.ply` plies, naming `lastMove`. */
  function sendAlert(alert, lastMove) {
    pendingAlert = null;
    const { variantName, myTurn } = alert;
    const chimed = alerts.update({ variantName, myTurn, lastMove });
    if (!chimed && alert.moved && store.get('sound', '0') === '1') beep(520, 0.05);
    // The site-wide count of games to move in (the title's `(n)`) follows this game's turn.
    if (myTurn !== lastTurn) {
      lastTurn = myTurn;
      refreshTurns();
    }
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
    onMessages(sock, onEvent);
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
    else if (a === 'berserk') post('berserk');
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

