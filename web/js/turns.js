// "Your turn" across the site (issue 25): while any page of the site is open, the games this
// browser holds a seat in are looked at every 30 s (one light `POST /api/summaries`; at once
// when the tab comes back, and when a game page sees the turn change); the tab title then starts with the
// number of games where it is this browser's move, `(2) …` (on a game's page, not counting
// that game, whose title says "Your move" already), whatever page sets the rest of it, and a system notification says so when such a game appears while the tab is hidden and
// the user turned notifications on (never asked for on load: see alerts.js).
import { t } from './i18n.js';
import { api, myGames, sideFor } from './api.js';
import { turnNotifyOn } from './alerts.js';

const EVERY_MS = 30000;
const PREFIX = /^\(\d+\) /;

/** Whether game summary `g` (from `/api/summaries`) is in play with this browser to move. */
export const isMyTurn = (g) => g.status === 'playing' && !!g.to_move && g.to_move === sideFor(g.id);

let mineToMove = null; // ids of the games where it is this browser's move (null: not known yet)
let timer = null;
let notification = null;

/** The games to move in that this page does not show: a game's own page says "Your move" in
 * its title and alerts by itself (alerts.js), so its game is not counted there. */
function elsewhere() {
  const here = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)/)?.[1];
  return (mineToMove || []).filter((id) => id !== here);
}

/** Writes the count in front of the page's title (keeping the page's own title). */
function applyTitle() {
  const bare = document.title.replace(PREFIX, '');
  const n = elsewhere().length;
  const want = n ? `(${n}) ${bare}` : bare;
  if (document.title !== want) document.title = want;
}

/** The games where it is this browser's move now are `ids` (from any page that asked). */
export function turnCount(ids) {
  const before = mineToMove;
  mineToMove = [...ids];
  applyTitle();
  const fresh = before ? elsewhere().filter((id) => !before.includes(id)) : [];
  if (fresh.length && document.visibilityState === 'hidden' && turnNotifyOn()) {
    try {
      notification?.close();
      notification = new Notification(t('game.yourTurn'), { body: `(${elsewhere().length}) Jiang`, tag: 'jiang-turns' });
      notification.onclick = () => {
        window.focus();
        notification?.close();
      };
    } catch {
      /* notifications unavailable here: the title still says it */
    }
  }
}

async function poll() {
  clearTimeout(timer);
  timer = setTimeout(poll, EVERY_MS);
  const ids = myGames(100);
  if (!ids.length) return turnCount([]);
  // A hidden tab still looks (that is when a notification helps), but not more often.
  try {
    const res = await api('/api/summaries', { method: 'POST', body: { ids } });
    turnCount((res.games || []).filter(isMyTurn).map((g) => g.id));
  } catch {
    /* the server is unreachable: asked again at the next tick */
  }
}

/** Starts watching (once per page load): the title keeps its count across the pages' own
 * title changes. */
export function watchTurns() {
  if (timer !== null) return;
  timer = 0;
  const title = document.querySelector('title');
  if (title) new MutationObserver(applyTitle).observe(title, { childList: true, characterData: true, subtree: true });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
      notification?.close();
      poll();
    }
  });
  poll();
}

/** Looks again now (after a move of one's own, say). */
export const refreshTurns = () => timer !== null && poll();
