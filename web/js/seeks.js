// The seeks this browser opened, followed from every page of the site (issue 22): while one
// waits, a lobby socket `hold`s it (so it stays listed wherever its creator is), and when it
// leaves the lobby the server is asked what became of its game. Taken: the creator is taken
// to the game at once from the home and rules pages, and shown a notice with a one-click link
// elsewhere (a game in play, the analysis board, the editor: work a jump would lose). The home
// page's lobby keeps its own socket and reports its seeks through `seekLeft`.
import { t } from './i18n.js';
import { api, tokenFor, onMessages } from './api.js';
import { navigate } from './navigation.js';
import { esc } from './html.js';

const KEY = 'jiang.seeks';

/** The ids of this browser's seeks that may still be waiting (those it holds a seat of). */
export function pendingSeeks() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list.filter((id) => typeof id === 'string' && tokenFor(id)).slice(-32) : [];
  } catch {
    return [];
  }
}

function store(list) {
  localStorage.setItem(KEY, JSON.stringify(list));
}

/** Remembers seek `id` (just opened by this browser) and starts following it. */
export function rememberSeek(id) {
  const list = pendingSeeks().filter((s) => s !== id);
  list.push(id);
  store(list);
  follow();
}

/** Stops following seek `id`. */
export function forgetSeek(id) {
  store(pendingSeeks().filter((s) => s !== id));
}

const asking = new Set();
/** Listeners told when one of this browser's seeks was taken (the home page's "My games"). */
const takenListeners = new Set();
export function onSeekTaken(fn) {
  takenListeners.add(fn);
  return () => takenListeners.delete(fn);
}

/** Seek `id` of this browser left the lobby: what became of its game? */
export async function seekLeft(id) {
  if (asking.has(id) || !pendingSeeks().includes(id)) return;
  asking.add(id);
  try {
    const res = await api('/api/summaries', { method: 'POST', body: { ids: [id] } });
    const game = res.games?.find((g) => g.id === id);
    // Still waiting (it left the lobby for its creator's absence, or not yet listed): keep it.
    if (game?.status === 'waiting') return;
    forgetSeek(id);
    if (game?.status === 'playing') taken(game);
  } catch {
    /* the server is unreachable: asked again on the next snapshot */
  } finally {
    asking.delete(id);
    // Nothing left to follow: the site-wide socket closes.
    follow();
  }
}

function taken(game) {
  takenListeners.forEach((fn) => fn(game));
  const url = `/g/${game.id}`;
  const path = location.pathname;
  if (path === url) return;
  if (path === '/' || path.startsWith('/rules')) return navigate(url);
  showNotice(game);
}

/** A notice with a one-click link to `game` (a tournament's pairing says `text`). */
export function showNotice(game, text = t('seek.taken')) {
  document.querySelector(`.seek-notice[data-id="${CSS.escape(game.id)}"]`)?.remove();
  const box = document.createElement('div');
  box.className = 'seek-notice';
  box.dataset.id = game.id;
  box.setAttribute('role', 'alert');
  box.innerHTML = `<span>${esc(text)}</span>
    <a class="button primary" href="/g/${esc(game.id)}">${esc(t('seek.toGame'))}</a>
    <button type="button" class="link" aria-label="${esc(t('seek.dismiss'))}">×</button>`;
  box.querySelector('a').addEventListener('click', () => box.remove());
  box.querySelector('button').addEventListener('click', () => box.remove());
  document.body.append(box);
}

// ----- the site-wide socket (every page but home, whose lobby has its own) -----

let sock = null;
let retry = 0;
let timer = null;

/** Opens (or closes) the site-wide lobby socket as this page and the pending seeks need. */
export function follow() {
  const want = location.pathname !== '/' && pendingSeeks().length > 0;
  if (!want) {
    if (sock) {
      const s = sock;
      sock = null;
      s.onclose = null;
      s.close();
    }
    return;
  }
  if (sock) return hold();
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const s = new WebSocket(`${proto}://${location.host}/api/lobby/ws`);
  sock = s;
  s.onopen = () => {
    retry = 0;
    hold();
  };
  onMessages(s, (msg) => {
    const mine = pendingSeeks();
    if (msg.type === 'snapshot') {
      const listed = new Set((msg.seeks || []).map((x) => x.id));
      mine.filter((id) => !listed.has(id)).forEach(seekLeft);
    } else if (msg.type === 'update') {
      (msg.seeks_gone || []).filter((id) => mine.includes(id)).forEach(seekLeft);
    }
  });
  s.onclose = () => {
    if (sock !== s) return;
    sock = null;
    clearTimeout(timer);
    timer = setTimeout(follow, Math.min(10000, 500 * 2 ** retry++));
  };
}

function hold() {
  if (!sock || sock.readyState !== 1) return;
  const seats = pendingSeeks().map((id) => ({ id, token: tokenFor(id) }));
  sock.send(JSON.stringify({ type: 'hold', seats }));
  if (!seats.length) follow();
}
