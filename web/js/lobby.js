// The lobby on the home page: counts, quick pairing, open seeks, the games in play ("Watch")
// and this browser's games ("My games"). Everything shown comes from the server: the lobby
// WebSocket (`/api/lobby/ws`: a snapshot, then updates) and `POST /api/summaries` for the
// games whose seats this browser keeps in local storage.
import { t } from './i18n.js';
import { api, saveToken, tokenFor, myGames, sideFor, ApiError } from './api.js';
import { errorText } from './errors.js';
import { navigate } from './navigation.js';
import { clockLabel } from './clock.js';
import { rememberSeek, pendingSeeks, seekLeft, onSeekTaken } from './seeks.js';
import { esc } from './html.js';
import { isMyTurn, turnCount } from './turns.js';
import { turnNotifyOn, setTurnNotify } from './alerts.js';
import { playerLink } from './players.js';

export { clockLabel };

/** Quick pairing: the common clocks per variant (API clocks, seconds). */
export const QUICK = [
  ['xiangqi', { main: 600, increment: 5 }],
  ['xiangqi', { main: 300, increment: 3 }],
  ['jieqi', { main: 300, increment: 3 }],
  ['shogi', { main: 600, byoyomi: 30 }],
  ['minishogi', { main: 180, increment: 2 }],
];


const sameClock = (a, b) =>
  !!a && !!b && a.main === b.main && (a.increment || 0) === (b.increment || 0) && (a.byoyomi || 0) === (b.byoyomi || 0);

const waited = (ms) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** Mounts the lobby into `root` (quick pairing into `quickRoot` when given, else inside the
 * lobby); returns { rerender(), destroy() }. */
export function mountLobby(root, quickRoot = null) {
  const seeks = new Map(); // id → seek, with `since` (local ms when its wait began)
  const games = new Map();
  let counts = null;
  let sock = null;
  let closed = false;
  let retry = 0;
  let heldKey = '';
  let busy = false;
  let mine = [];
  let error = '';
  // A redraw between a button's press and its release would swallow the click: while a
  // pointer is down in the lobby, redraws wait for its release.
  let pressing = false;
  let pending = false;
  // Quick pairing rated (needs a player) or casual: this browser's last choice.
  let ratedQuick = localStorage.getItem('jiang.quick.rated') === '1';

  const own = () => [...seeks.keys()].filter((id) => tokenFor(id));

  function hold() {
    const seats = own().slice(0, 32).map((id) => ({ id, token: tokenFor(id) }));
    const key = seats.map((s) => s.id).join(',');
    if (key === heldKey || !sock || sock.readyState !== 1) return;
    heldKey = key;
    sock.send(JSON.stringify({ type: 'hold', seats }));
  }

  function apply(msg) {
    const now = Date.now();
    const addSeek = (s) => seeks.set(s.id, { ...s, since: now - s.waiting_ms });
    if (msg.type === 'snapshot') {
      seeks.clear();
      games.clear();
      msg.seeks.forEach(addSeek);
      msg.games.forEach((g) => games.set(g.id, g));
      counts = msg.counts;
    } else if (msg.type === 'update') {
      (msg.seeks || []).forEach(addSeek);
      (msg.seeks_gone || []).forEach((id) => seeks.delete(id));
      (msg.games || []).forEach((g) => games.set(g.id, g));
      (msg.games_gone || []).forEach((id) => games.delete(id));
      if (msg.counts) counts = msg.counts;
    } else return;
    // This browser's seeks that left the lobby: taken (go to the game), or gone.
    const left = msg.type === 'snapshot' ? pendingSeeks().filter((id) => !seeks.has(id)) : (msg.seeks_gone || []).filter((id) => pendingSeeks().includes(id));
    left.forEach(seekLeft);
    hold();
    render();
  }

  function connect() {
    if (closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    sock = new WebSocket(`${proto}://${location.host}/api/lobby/ws`);
    heldKey = '';
    sock.onopen = () => {
      retry = 0;
      render();
    };
    sock.onmessage = (e) => {
      try {
        apply(JSON.parse(e.data));
      } catch {
        /* a message this page does not read */
      }
    };
    sock.onclose = () => {
      if (closed) return;
      render();
      setTimeout(connect, Math.min(10000, 500 * 2 ** retry++));
    };
  }

  async function loadMine() {
    const ids = myGames(100);
    if (!ids.length) {
      mine = [];
      return render();
    }
    try {
      const res = await api('/api/summaries', { method: 'POST', body: { ids } });
      // The games where it is this browser's move first (correspondence and live alike).
      mine = res.games.sort((a, b) => isMyTurn(b) - isMyTurn(a) || b.updated_at - a.updated_at);
      turnCount(mine.filter(isMyTurn).map((g) => g.id));
    } catch {
      mine = [];
    }
    render();
  }

  /** Runs a click's request once at a time; a refusal is shown in the lobby's alert. */
  async function act(fn) {
    if (busy) return;
    busy = true;
    error = '';
    try {
      await fn();
    } catch (ex) {
      error = ex instanceof ApiError && ex.status ? errorText(ex) : t('error.network');
      render();
    } finally {
      busy = false;
    }
  }

  const quick = (i) =>
    act(async () => {
      const [variant, clock] = QUICK[i];
      const body = { variant, clock, own: own() };
      if (ratedQuick) body.rated = true;
      const res = await api('/api/lobby/pair', { method: 'POST', body });
      saveToken(res.id, res.token, res.side);
      if (res.created) rememberSeek(res.id);
      navigate(`/g/${res.id}`);
    });

  const join = (id) =>
    act(async () => {
      const res = await api(`/api/games/${id}/join`, { method: 'POST', body: {} });
      saveToken(id, res.token, res.side);
      navigate(`/g/${id}`);
    });

  const cancel = (id) =>
    act(async () => {
      await api(`/api/games/${id}/abort`, { method: 'POST', body: {}, token: tokenFor(id) });
      seeks.delete(id);
      render();
    });

  function resultText(g) {
    if (g.status === 'playing') return t('mygames.playing');
    if (g.status === 'waiting') return t('mygames.waiting');
    if (g.status === 'aborted' || !g.result) return t('result.aborted');
    const side = sideFor(g.id);
    if (!g.result.winner) return t('result.draw');
    if (side) return t(side === g.result.winner ? 'mygames.won' : 'mygames.lost');
    return t('result.wins', { side: t('side.' + g.result.winner) });
  }

  function render() {
    if (pressing) {
      pending = true;
      return;
    }
    pending = false;
    // Keep the keyboard focus on the same control across a redraw.
    const focused = root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const live = sock && sock.readyState === 1;
    const now = Date.now();
    const seekRows = [...seeks.values()].map((s) => {
      const mineSeek = !!tokenFor(s.id);
      return `<tr data-id="${esc(s.id)}">
        <td>${t('variant.' + s.variant)}${s.rated ? ` <span class="rated-mark">${t('lobby.ratedMark')}</span>` : ''}${s.rating_range ? ` <span class="range">${t('lobby.range', { min: s.rating_range[0], max: s.rating_range[1] })}</span>` : ''}</td>
        <td class="seek-player">${s.player ? playerLink(s.player, s.player.rating) : '—'}</td><td>${clockLabel(s.clock)}</td>
        <td>${t('side.' + s.side)}</td><td>${s.handicap ? t('handicap.' + s.handicap) : '—'}</td>
        <td class="waited" data-since="${s.since}">${waited(now - s.since)}</td>
        <td>${mineSeek
          ? `<span class="yours">${t('lobby.yours')}</span> <button type="button" data-key="cancel-${esc(s.id)}" data-cancel="${esc(s.id)}">${t('lobby.cancel')}</button>`
          : `<button type="button" class="primary" data-key="join-${esc(s.id)}" data-join="${esc(s.id)}">${t('lobby.join')}</button>`}</td></tr>`;
    });
    const gameRows = [...games.values()].map((g) => `<tr${g.computer ? ' class="vs-computer"' : ''}>
        <td>${t('variant.' + g.variant)}${g.computer ? ` <span class="computer-mark">${t('lobby.vsComputer', { level: g.computer })}</span>` : ''}${g.players ? ` <span class="watch-players">${Object.values(g.players).map((p) => playerLink(p, p.rating)).join(' · ')}</span>` : ''}</td><td>${clockLabel(g.clock)}</td><td>${g.moves}</td><td>${g.spectators}</td>
        <td><a href="/g/${esc(g.id)}" data-key="watch-${esc(g.id)}">${t('lobby.watchGame')}</a></td></tr>`);
    const mineRows = mine.map((g) => `<li class="my-game${isMyTurn(g) ? ' my-turn' : ''}" data-status="${g.status}">
        <a href="/g/${esc(g.id)}" data-key="mine-${esc(g.id)}">${t('variant.' + g.variant)} · ${clockLabel(g.clock)}</a>
        <span class="my-result">${resultText(g)}</span> <span class="muted">${t('mygames.moves', { n: g.moves })}</span>${isMyTurn(g) ? ` <span class="your-turn">${t('game.yourTurn')}</span>` : ''}${isMyTurn(g) && g.deadline ? ` <span class="deadline muted">${esc(t('clock.moveBy', { date: new Date(g.deadline).toLocaleString() }))}</span>` : ''}</li>`);
    const quickHtml = `<div class="quick">
    ${quickRoot ? '' : `<h3>${t('lobby.quick')}</h3>`}
    <div class="quick-buttons">${QUICK.map(([v, c], i) => {
      const waiting = [...seeks.values()].some((s) => s.variant === v && sameClock(s.clock, c) && !s.handicap && !!s.rated === ratedQuick && !tokenFor(s.id));
      return `<button type="button" class="quick-pair${waiting ? ' has-seek' : ''}" data-key="quick-${i}" data-quick="${i}" data-variant="${v}" data-clock="${clockLabel(c)}">${t('variant.' + v)} ${clockLabel(c)}</button>`;
    }).join('')}</div>
    <label class="check"><input type="checkbox" class="quick-rated" data-key="quick-rated"${ratedQuick ? ' checked' : ''}> ${t('lobby.rated')}</label>
    <p class="hint">${t('lobby.quickHint')}</p>
  </div>`;
    if (quickRoot) {
      const focusedQuick = quickRoot.contains(document.activeElement) ? document.activeElement.dataset.key : null;
      quickRoot.innerHTML = quickHtml;
      if (focusedQuick) quickRoot.querySelector(`[data-key="${CSS.escape(focusedQuick)}"]`)?.focus();
    }
    root.innerHTML = `
<section class="lobby" aria-labelledby="lobby-title">
  <h2 id="lobby-title">${t('lobby.title')}</h2>
  <p class="lobby-counts" aria-live="polite">${counts
    ? `<span class="players">${t('lobby.players', { n: counts.players })}</span> · <span class="in-play">${t('lobby.games', { n: counts.games })}</span>`
    : ''}${live ? '' : ` <span class="muted">${t('lobby.offline')}</span>`}</p>
  <p class="error" role="alert"${error ? '' : ' hidden'}>${esc(error)}</p>
  ${quickRoot ? '' : quickHtml}
  <div class="seeks">
    <h3>${t('lobby.seeks')}</h3>
    ${seekRows.length ? `<table class="lobby-table seek-table"><thead><tr><th>${t('lobby.col.variant')}</th><th>${t('lobby.col.player')}</th><th>${t('lobby.col.clock')}</th><th>${t('lobby.col.side')}</th><th>${t('lobby.col.handicap')}</th><th>${t('lobby.col.waiting')}</th><th><span class="visually-hidden">${t('lobby.join')}</span></th></tr></thead><tbody>${seekRows.join('')}</tbody></table>` : `<p class="muted">${t('lobby.noSeeks')}</p>`}
  </div>
  <div class="watch">
    <h3>${t('lobby.watch')}</h3>
    ${gameRows.length ? `<table class="lobby-table watch-table"><thead><tr><th>${t('lobby.col.variant')}</th><th>${t('lobby.col.clock')}</th><th>${t('lobby.col.moves')}</th><th>${t('lobby.col.spectators')}</th><th><span class="visually-hidden">${t('lobby.watchGame')}</span></th></tr></thead><tbody>${gameRows.join('')}</tbody></table>` : `<p class="muted">${t('lobby.noGames')}</p>`}
  </div>
  <div class="my-games">
    <h3>${t('mygames.title')}</h3>
    ${mineRows.length ? `<ul>${mineRows.join('')}</ul>` : `<p class="muted">${t('mygames.none')}</p>`}
    ${mineRows.length && typeof Notification !== 'undefined' ? `<label class="check"><input type="checkbox" class="turn-notify" data-key="turn-notify"${turnNotifyOn() ? ' checked' : ''}> ${t('game.turnNotify')}</label>` : ''}
  </div>
</section>`;
    if (focused) root.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  }

  root.addEventListener('pointerdown', () => (pressing = true));
  quickRoot?.addEventListener('pointerdown', () => (pressing = true));
  const released = () => {
    if (!pressing) return;
    pressing = false;
    // After the click event of this press.
    if (pending) setTimeout(render);
  };
  document.addEventListener('pointerup', released);
  document.addEventListener('pointercancel', released);
  const onClick = (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    if (b.dataset.quick !== undefined) quick(Number(b.dataset.quick));
    else if (b.dataset.join) join(b.dataset.join);
    else if (b.dataset.cancel) cancel(b.dataset.cancel);
  };
  root.addEventListener('click', onClick);
  quickRoot?.addEventListener('click', onClick);
  const onRated = (e) => {
    if (e.target.classList?.contains('turn-notify')) {
      // Asks the browser's permission only now, on the user's click.
      setTurnNotify(e.target.checked).then((on) => (e.target.checked = on));
      return;
    }
    if (!e.target.classList?.contains('quick-rated')) return;
    ratedQuick = e.target.checked;
    localStorage.setItem('jiang.quick.rated', ratedQuick ? '1' : '0');
    render();
  };
  root.addEventListener('change', onRated);
  quickRoot?.addEventListener('change', onRated);
  // One of this browser's seeks was taken: "My games" says so at once.
  const offTaken = onSeekTaken(() => loadMine());
  // The waiting times tick without redrawing the tables.
  const ticker = setInterval(() => {
    const now = Date.now();
    root.querySelectorAll('.waited').forEach((td) => (td.textContent = waited(now - Number(td.dataset.since))));
  }, 1000);

  render();
  connect();
  loadMine();
  return {
    rerender: render,
    destroy() {
      closed = true;
      clearInterval(ticker);
      offTaken();
      document.removeEventListener('pointerup', released);
      document.removeEventListener('pointercancel', released);
      sock?.close();
    },
  };
}
