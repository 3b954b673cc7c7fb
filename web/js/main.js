// Entry point: the page chrome (skip link, header, language picker, footer) and client-side
// routing on location.pathname: `/` home, `/g/<id>` game, `/rules/<variant>` rules,
// `/analysis/<variant>` the analysis board, `/editor/<variant>` the board editor,
// `/player/<name or id>` a player's page, `/puzzles/<variant>` the puzzle trainer,
// `/tournaments` the tournaments and `/tournament/<id>` one of them.
import { LANGS, initialLang, setLang, rememberLang, currentLang, t } from './i18n.js';
import { navigate, setRouter } from './navigation.js';
import { follow as followSeeks } from './seeks.js';
import { adoptCarriedKey } from './players.js';
import { watchTurns } from './turns.js';
import { followTournaments } from './tournamentsocket.js';

let page = null; // the current page: { destroy?(), rerender?() }
let routeSeq = 0;

function renderChrome() {
  document.querySelectorAll('[data-i18n]').forEach((el) => (el.textContent = t(el.dataset.i18n)));
  document.querySelector('.site-nav')?.setAttribute('aria-label', t('nav.label'));
  document.querySelector('meta[name=description]')?.setAttribute('content', t('meta.description'));
  const sel = document.getElementById('lang-select');
  if (sel && !sel.options.length) {
    for (const [code, name] of LANGS) sel.add(new Option(name, code));
    sel.addEventListener('change', async () => {
      rememberLang(sel.value);
      await setLang(sel.value);
      renderChrome();
      if (page?.rerender) page.rerender();
      else route();
    });
  }
  if (sel) sel.value = currentLang();
  // A page built from the raw template in development has no substituted build fields.
  const build = document.querySelector('.site-footer .build');
  if (build && build.textContent.includes('{{')) build.textContent = 'v0.0.0 · dev';
}

async function route() {
  const seq = ++routeSeq;
  page?.destroy?.();
  page = null;
  const main = document.getElementById('main');
  const path = location.pathname;
  let m;
  let mod;
  if ((m = path.match(/^\/g\/([A-Za-z0-9_-]+)\/?$/))) {
    mod = await import('./game.js');
    if (seq !== routeSeq) return;
    page = mod.gamePage(main, m[1]);
  } else if ((m = path.match(/^\/analysis\/([a-z]+)\/?$/))) {
    mod = await import('./analysis.js');
    if (seq !== routeSeq) return;
    page = mod.analysisPage(main, m[1]);
  } else if ((m = path.match(/^\/editor(?:\/([a-z]+))?\/?$/))) {
    mod = await import('./editor.js');
    if (seq !== routeSeq) return;
    page = mod.editorPage(main, m[1] || 'xiangqi');
  } else if ((m = path.match(/^\/puzzles(?:\/([a-z]+))?\/?$/))) {
    mod = await import('./puzzles.js');
    if (seq !== routeSeq) return;
    page = mod.puzzlesPage(main, m[1] || 'xiangqi');
  } else if ((m = path.match(/^\/player\/([^/]+)\/?$/))) {
    mod = await import('./players.js');
    if (seq !== routeSeq) return;
    page = mod.playerPage(main, decodeURIComponent(m[1]));
  } else if (/^\/tournaments\/?$/.test(path)) {
    mod = await import('./tournaments.js');
    if (seq !== routeSeq) return;
    page = mod.tournamentsPage(main);
  } else if ((m = path.match(/^\/tournament\/([A-Za-z0-9]+)\/?$/))) {
    mod = await import('./tournaments.js');
    if (seq !== routeSeq) return;
    page = mod.tournamentPage(main, m[1]);
  } else if ((m = path.match(/^\/rules(?:\/([a-z]+))?\/?$/))) {
    mod = await import('./rules.js');
    if (seq !== routeSeq) return;
    page = mod.rulesPage(main, m[1] || 'xiangqi');
  } else {
    mod = await import('./home.js');
    if (seq !== routeSeq) return;
    page = mod.homePage(main);
  }
  // This browser's waiting seeks are followed from every page (the home page's lobby does it
  // there): a taken seek brings its creator to the game.
  followSeeks();
  // So are the tournaments it joined: a pairing brings the player to the game.
  followTournaments();
  document.querySelectorAll('.site-nav a').forEach((a) => {
    // The same first path segment: `/rules/…`, `/editor/…`; `/` only at home; a tournament's
    // page is under Tournaments.
    const section = (p) => p.split('/')[1].replace(/^tournament$/, 'tournaments');
    const here = section(a.getAttribute('href')) === section(path);
    if (here) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
}

// In-app links: left clicks on same-origin page links route without a reload.
document.addEventListener('click', (e) => {
  const a = e.target.closest?.('a[href]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/static/')) return;
  if (url.pathname === location.pathname && url.hash) return;
  e.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});
setRouter(route);
window.addEventListener('popstate', route);

(async () => {
  await setLang(initialLang());
  renderChrome();
  await adoptCarriedKey();
  await route();
  // The tab title counts the games where it is this browser's move, on every page.
  watchTurns();
})();
