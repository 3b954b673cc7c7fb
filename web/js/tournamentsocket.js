// The tournament sockets (`/api/tournaments/{id}/ws`, issue 25), one per tournament, shared by
// every page: the tournament page's live standings, and "your next game" for the tournaments
// this browser joined, followed from every page of the site as seeks.js follows its seeks.
// A pairing brings the player to the game at once with its seat token (kept as every seat
// is: api.js `saveToken`), except from a game in progress elsewhere, the analysis board or the
// editor (work a jump would lose): there a notice with a one-click link. The player cookie
// names the player to the server, so no key is handled here.
import { t } from './i18n.js';
import { saveToken, onMessages } from './api.js';
import { navigate } from './navigation.js';
import { showNotice } from './seeks.js';

const KEY = 'jiang.tournaments';

/** The tournaments this browser joined and has not seen finish or withdrawn from. */
export function joinedTournaments() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list.filter((id) => typeof id === 'string' && /^[A-Za-z0-9]+$/.test(id)).slice(-8) : [];
  } catch {
    return [];
  }
}

/** Follows tournament `id` from every page (joined). */
export function rememberTournament(id) {
  const list = joinedTournaments();
  if (list.includes(id)) return;
  localStorage.setItem(KEY, JSON.stringify([...list, id]));
  followTournaments();
}

/** Stops following tournament `id` (withdrawn, or over). */
export function forgetTournament(id) {
  const list = joinedTournaments();
  if (!list.includes(id)) return;
  localStorage.setItem(KEY, JSON.stringify(list.filter((x) => x !== id)));
  followTournaments();
}

/** The tournament game `gameId` belongs to, when a tournament socket gave it to this browser. */
export const tournamentOfGame = (gameId) => localStorage.getItem(`jiang.tournament.${gameId}`);

/** id → {ws, watchers: Set, retry, timer, last: the latest `standings`, page: the page asked
 * for (undefined: the server's choice, the player's own page)} */
const sockets = new Map();

/**
 * Calls `fn` with every message of tournament `id`'s socket (`standings`, `game` for this
 * player), the latest standings first when the socket already has them; returns the function
 * that stops it.
 */
export function watchTournament(id, fn) {
  const entry = entryOf(id);
  entry.watchers.add(fn);
  if (entry.last) queueMicrotask(() => entry.watchers.has(fn) && fn(entry.last));
  followTournaments();
  return () => {
    entry.watchers.delete(fn);
    followTournaments();
  };
}

/**
 * Follows page `page` of tournament `id`'s standings (from 1), or with `null` the page where this
 * player stands; kept across reconnections. The socket answers with that page's `standings`.
 */
export function followPage(id, page) {
  const entry = entryOf(id);
  entry.page = page;
  if (entry.ws?.readyState === 1) entry.ws.send(JSON.stringify(pageMessage(page)));
}

const pageMessage = (page) => (page ? { type: 'page', page } : { type: 'page' });

/** Whether tournament `id`'s socket is open (the page says when it is not). */
export const tournamentLive = (id) => sockets.get(id)?.ws?.readyState === 1;

function entryOf(id) {
  if (!sockets.has(id)) sockets.set(id, { ws: null, watchers: new Set(), retry: 0, timer: null, last: null, page: undefined });
  return sockets.get(id);
}

const wanted = (id) => joinedTournaments().includes(id) || (sockets.get(id)?.watchers.size ?? 0) > 0;

/** Opens (or closes) the sockets this page and the joined tournaments need (main.js calls it on
 * every page). */
export function followTournaments() {
  for (const id of joinedTournaments()) entryOf(id);
  for (const [id, entry] of sockets) {
    if (!wanted(id)) {
      clearTimeout(entry.timer);
      const s = entry.ws;
      sockets.delete(id);
      if (s) {
        s.onclose = null;
        s.close();
      }
    } else if (!entry.ws && !entry.timer) open(id, entry);
  }
}

function open(id, entry) {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const s = new WebSocket(`${proto}://${location.host}/api/tournaments/${encodeURIComponent(id)}/ws`);
  entry.ws = s;
  s.onopen = () => {
    entry.retry = 0;
    if (entry.page !== undefined) s.send(JSON.stringify(pageMessage(entry.page)));
  };
  onMessages(s, (msg) => {
    if (msg.type === 'standings') {
      entry.last = msg;
      if (msg.tournament?.status === 'finished') forgetTournament(id);
    } else if (msg.type === 'game') paired(id, msg);
    else return;
    entry.watchers.forEach((fn) => fn(msg));
  });
  s.onclose = () => {
    if (entry.ws !== s) return;
    entry.ws = null;
    entry.watchers.forEach((fn) => fn({ type: 'closed' }));
    if (!wanted(id) || sockets.get(id) !== entry) return;
    entry.timer = setTimeout(() => {
      entry.timer = null;
      if (wanted(id) && sockets.get(id) === entry && !entry.ws) open(id, entry);
    }, Math.min(10000, 500 * 2 ** entry.retry++));
  };
}

/** "Your next game" in tournament `tid`: the seat is kept, and the player brought to it. */
function paired(tid, game) {
  if (typeof game.id !== 'string' || typeof game.token !== 'string') return;
  const seen = tournamentOfGame(game.id);
  saveToken(game.id, game.token, game.side);
  localStorage.setItem(`jiang.tournament.${game.id}`, tid);
  // Already brought there once: a page opened later (the standings during the game) stays.
  if (seen) return;
  const url = `/g/${game.id}`;
  const path = location.pathname;
  if (path === url) return;
  const other = path.match(/^\/g\/([A-Za-z0-9_-]+)/);
  const busy = /^\/(analysis|editor)(\/|$)/.test(path) || (other && !tournamentOfGame(other[1]));
  if (busy) showNotice(game, t('tournament.paired'));
  else navigate(url);
}
