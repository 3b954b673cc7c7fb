// Players without accounts (issue 24): the player key, kept by the server in an HttpOnly cookie
// (no script here ever reads it back); "Become a player"; the carry link `/#key=…` (read from
// the fragment, which the server never sees, then dropped from the address bar); names and
// ratings next to seats and seeks; and the player page `/player/<name or id>` with the ratings,
// a rating graph per variant, the game list and, on one's own page, the key's controls.
import { t } from './i18n.js';
import { api, ApiError } from './api.js';
import { errorText, failureText } from './errors.js';
import { esc } from './html.js';
import { navigate } from './navigation.js';

let mine = null; // the promise of this browser's player page (null: not a player)
let freshKey = null; // a key just created or rotated: shown once, on the player page
let carryError = null; // a carry link that did not work

/** Where this browser remembers who the server last said it is: its id and name, never the key. */
const REMEMBERED = 'jiang.player';

/** The player this browser was at the last answer ({id, name}), or null: drawn before the answer. */
export function rememberedPlayer() {
  try {
    const p = JSON.parse(localStorage.getItem(REMEMBERED) || 'null');
    return p && typeof p.id === 'string' ? { id: p.id, name: p.name ?? null } : null;
  } catch {
    return null;
  }
}

/** This browser's player (its page), or null. */
export function me(refresh = false) {
  if (!mine || refresh) {
    mine = api('/api/players/me').then(
      (p) => {
        localStorage.setItem(REMEMBERED, JSON.stringify({ id: p.id, name: p.name ?? null }));
        return p;
      },
      (ex) => {
        // The server said "no player here"; a network failure says nothing either way.
        if (ex instanceof ApiError && ex.status >= 400 && ex.status < 500) localStorage.removeItem(REMEMBERED);
        return null;
      },
    );
  }
  return mine;
}

/** Becomes a player (with `name`, if given), staying on the page: the answer `{id, key, name}`;
 * the player page shows the carry link the next time it is opened. */
export async function createPlayer(name) {
  const res = await api('/api/players', { method: 'POST', body: name ? { name } : {} });
  freshKey = res.key;
  me(true);
  return res;
}

/** Becomes a player (with `name`, if given): its page is next, with the carry link shown. */
export async function becomePlayer(name) {
  const res = await createPlayer(name);
  navigate(`/player/${encodeURIComponent(res.id)}`);
}

/** This browser's player, made with one click's worth of nothing (no name) when it has none:
 * `{player, created}` (what a tournament needs of a visitor: never a registration). */
export async function ensurePlayer() {
  const p = await me();
  if (p) return { player: p, created: false };
  const res = await createPlayer();
  return { player: { id: res.id, name: res.name ?? null }, created: true };
}

/** A carry link (`/#key=…`): keeps its key in this browser and clears it from the address. */
export async function adoptCarriedKey() {
  const m = location.hash.match(/^#key=([A-Za-z0-9]{20,64})$/);
  if (!m) return;
  history.replaceState(null, '', location.pathname + location.search);
  try {
    const page = await api('/api/players/me/cookie', { method: 'POST', body: {}, playerKey: m[1] });
    me(true);
    history.replaceState(null, '', `/player/${encodeURIComponent(page.id)}`);
  } catch (ex) {
    carryError = ex;
  }
}

/** A player's name as shown (a player without one is "Player" and its id's start). */
export const displayName = (p) => p?.name || t('player.unnamed', { id: String(p?.id || '').slice(0, 6) });

/** A rating as shown: `1623`, provisional `1500?`. */
export const ratingText = (r) => (r ? `${r.rating}${r.provisional ? '?' : ''}` : '');

/** A link to player `p`'s page, with `rating` (an API rating, or a seek's number) after it. */
export function playerLink(p, rating) {
  const shown = typeof rating === 'number' ? `${rating}${p.provisional ? '?' : ''}` : ratingText(rating);
  return `<a class="player-link" href="/player/${esc(encodeURIComponent(p.name || p.id))}">${esc(displayName(p))}</a>${shown ? ` <span class="rating">(${shown})</span>` : ''}`;
}

const seats = new Map(); // player id + game status → its page, or 'loading'

/** The player holding a seat, as the game page shows it: name and rating in the game's variant
 * and speed; '' until loaded (then `redraw` is called). Loaded again when the status changes. */
export function seatPlayer(id, view, redraw) {
  const key = `${id}/${view.status}`;
  const p = seats.get(key);
  if (p === undefined) {
    seats.set(key, 'loading');
    api(`/api/players/${encodeURIComponent(id)}`)
      .then((page) => {
        seats.set(key, page);
        redraw();
      })
      .catch(() => seats.delete(key));
    return '';
  }
  if (p === 'loading') return '';
  const ratings = view.clock_settings ? p.ratings : p.correspondence;
  const r = ratings?.[view.variant] || { rating: 1500, provisional: true };
  return ` <span class="seat-player">${playerLink(p, r)}</span>`;
}

/** An SVG line of a rating history (`points`: {rating}), drawn to fit 320×120. */
export function ratingGraph(points, label) {
  if (points.length < 1) return '';
  const ratings = points.map((p) => p.rating);
  const lo = Math.min(...ratings) - 20;
  const hi = Math.max(...ratings) + 20;
  const x = (i) => (points.length === 1 ? 160 : 10 + (i * 300) / (points.length - 1));
  const y = (r) => 110 - ((r - lo) * 100) / (hi - lo);
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join(' ');
  const dots = points.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="2.5"><title>${p.rating}</title></circle>`).join('');
  return `<svg class="rating-graph" viewBox="0 0 320 120" role="img" aria-label="${esc(label)}">
<text x="2" y="12" class="axis">${hi - 20}</text><text x="2" y="118" class="axis">${lo + 20}</text>
<path d="${path}" fill="none" stroke="currentColor" stroke-width="2"/>${dots}</svg>`;
}

const RESULT = { win: 'mygames.won', loss: 'mygames.lost', draw: 'result.draw' };

/** The player page `/player/<name or id>`. */
export function playerPage(main, who) {
  let view = null;
  let own = false;
  let error = carryError ? errorText(carryError) : '';
  let shownKey = freshKey;
  let qr = '';
  carryError = null;
  freshKey = null;

  async function load() {
    try {
      view = await api(`/api/players/${encodeURIComponent(who)}`);
      const m = await me(true);
      own = !!m && m.id === view.id;
      if (shownKey && own) qr = await qrSvg(carryLink(shownKey));
    } catch (ex) {
      error = failureText(ex);
    }
    render();
  }

  const carryLink = (key) => `${location.origin}/#key=${key}`;

  async function qrSvg(text) {
    try {
      const res = await fetch('/api/qr', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text }) });
      return res.ok ? await res.text() : '';
    } catch {
      return '';
    }
  }

  /** Runs a control's request; a refusal is shown above the page. */
  async function act(fn) {
    error = '';
    await fn().catch((ex) => (error = failureText(ex)));
    render();
  }

  function ratingsTable(ratings, caption) {
    const rows = Object.entries(ratings || {});
    if (!rows.length) return '';
    return `<table class="ratings"><caption>${caption}</caption><thead><tr><th>${t('lobby.col.variant')}</th><th>${t('player.rating')}</th><th>${t('player.games')}</th></tr></thead><tbody>
${rows.map(([v, r]) => `<tr data-variant="${v}"><td>${t('variant.' + v)}</td><td class="rating-value">${ratingText(r)}</td><td>${r.games}</td></tr>`).join('')}</tbody></table>`;
  }

  function gameRow(g) {
    const opponent = g.opponent ? playerLink(g.opponent) : `<span class="muted">${t('player.anonymousOpponent')}</span>`;
    const change = g.rating_change === undefined ? '' : ` <span class="rating-change">${g.rating_change > 0 ? '+' : ''}${g.rating_change}</span>`;
    const result = g.result ? t(RESULT[g.result]) : g.status === 'aborted' ? t('result.aborted') : t('mygames.playing');
    // The server lists the games where it is this player's move first; on one's own page
    // they say so (with a correspondence game's deadline).
    const turn = g.your_turn && own ? ` <span class="your-turn">${t('game.yourTurn')}</span>` : '';
    const deadline = g.your_turn && g.deadline ? ` <span class="deadline muted">${esc(t('clock.moveBy', { date: new Date(g.deadline).toLocaleString() }))}</span>` : '';
    return `<li class="player-game${g.your_turn ? ' my-turn' : ''}" data-id="${esc(g.id)}"><a href="/g/${esc(g.id)}">${t('variant.' + g.variant)}</a> · ${g.rated ? t('player.rated') : t('player.casual')} · ${t('player.versus')} ${opponent} · <span class="result">${esc(result)}</span>${change}${turn}${deadline}</li>`;
  }

  function controls() {
    if (!own) return '';
    return `<section class="player-key" aria-labelledby="key-title">
  <h2 id="key-title">${t('player.keyTitle')}</h2>
  <p class="warning">${t('player.keyWarning')}</p>
  ${shownKey ? `<label>${t('player.carryLink')} <input class="carry-link" readonly value="${esc(carryLink(shownKey))}"></label>
  <div class="qr">${qr}</div>
  <p class="hint">${t('player.carryHint')}</p>` : `<p class="hint">${t('player.carryRotateHint')}</p>`}
  <button type="button" class="rotate-key">${t('player.rotate')}</button>
  <form class="rename"><label>${t('player.name')} <input name="name" maxlength="20" value="${esc(view.name || '')}"></label> <button type="submit">${t('player.saveName')}</button></form>
  <button type="button" class="forget-key">${t('player.forget')}</button>
  <button type="button" class="delete-player danger">${t('player.delete')}</button>
</section>`;
  }

  function render() {
    if (!view) {
      main.innerHTML = `<section class="player-page"><p class="error" role="alert"${error ? '' : ' hidden'}>${esc(error)}</p></section>`;
      return;
    }
    const graphs = Object.entries(view.history || {})
      .map(([v, points]) => `<figure class="graph" data-variant="${v}"><figcaption>${t('variant.' + v)}</figcaption>${ratingGraph(points, t('player.graphOf', { variant: t('variant.' + v) }))}</figure>`)
      .join('');
    main.innerHTML = `<section class="player-page" data-id="${esc(view.id)}">
  <h1 class="player-name">${esc(displayName(view))}</h1>
  <p class="error" role="alert"${error ? '' : ' hidden'}>${esc(error)}</p>
  ${ratingsTable(view.ratings, t('player.realtime')) || `<p class="muted">${t('player.noRatings')}</p>`}
  ${ratingsTable(view.correspondence, t('player.correspondence'))}
  ${ratingsTable(view.puzzles, t('player.puzzles'))}
  <div class="graphs">${graphs}</div>
  <h2>${t('player.gamesTitle')}</h2>
  ${view.games.length ? `<ul class="player-games">${view.games.map(gameRow).join('')}</ul>` : `<p class="muted">${t('mygames.none')}</p>`}
  ${controls()}
</section>`;
    document.title = `Jiang — ${displayName(view)}`;
    if (!own) return;
    main.querySelector('.rotate-key').addEventListener('click', () =>
      act(async () => {
        if (!confirm(t('player.rotateConfirm'))) return;
        const res = await api('/api/players/me/key', { method: 'POST', body: {} });
        shownKey = res.key;
        qr = await qrSvg(carryLink(shownKey));
      }),
    );
    main.querySelector('.rename').addEventListener('submit', (e) => {
      e.preventDefault();
      const name = new FormData(e.target).get('name');
      act(async () => {
        view = await api('/api/players/me', { method: 'PATCH', body: { name } });
        me(true);
        history.replaceState(null, '', `/player/${encodeURIComponent(view.name || view.id)}`);
      });
    });
    // Leaving this player on this device (`forget`: the cookie) or for good: asked first,
    // then the home page.
    const leave = (selector, question, path) =>
      main.querySelector(selector).addEventListener('click', () =>
        act(async () => {
          if (!confirm(t(question))) return;
          await api(path, { method: 'DELETE', body: {} });
          localStorage.removeItem(REMEMBERED);
          me(true);
          navigate('/');
        }),
      );
    leave('.forget-key', 'player.forgetConfirm', '/api/players/me/cookie');
    leave('.delete-player', 'player.deleteConfirm', '/api/players/me');
  }

  render();
  load();
  return { rerender: render };
}

/** The home page's player box: "Become a player" (with an optional name), or who one is. */
export function playerBox(root) {
  // Drawn at once from what this browser remembers, so that the page below does not move when
  // the server answers (a click aimed at a button would land beside it); redrawn only if the
  // answer differs (a form being typed in would be lost).
  let player = rememberedPlayer();
  let error = '';
  function render() {
    root.innerHTML = player
      ? `<p class="playing-as">${t('player.playingAs')} <a class="my-player" href="/player/${esc(encodeURIComponent(player.name || player.id))}">${esc(displayName(player))}</a></p>`
      : `<form class="become-player"><p class="hint">${t('player.becomeHint')}</p>
<label>${t('player.nameOptional')} <input name="name" maxlength="20" autocomplete="off"></label>
<button type="submit" class="primary">${t('player.become')}</button>
<p class="error" role="alert"${error ? '' : ' hidden'}>${esc(error)}</p></form>`;
    root.querySelector('.become-player')?.addEventListener('submit', async (e) => {
      e.preventDefault();
      const name = String(new FormData(e.target).get('name') || '').trim();
      try {
        await becomePlayer(name || undefined);
      } catch (ex) {
        error = failureText(ex);
        render();
      }
    });
  }
  me().then((p) => {
    const same = (p?.id ?? null) === (player?.id ?? null) && (p?.name ?? null) === (player?.name ?? null);
    player = p;
    if (!same) render();
  });
  render();
  return { rerender: render };
}
