// Tournaments in the browser (issue 25): the list and the create form `/tournaments`, and a
// tournament's page `/tournament/<id>` with its countdown, standings, games, join, withdraw and
// berserk. Everything shown comes from the server (`GET /api/tournaments…` and the tournament
// socket, shared with every page through tournamentsocket.js, which also brings a player to
// each new game). Joining and creating need a player: a visitor without one becomes one on the
// spot (players.js `ensurePlayer`), never asked to register.
import { t, currentLang } from './i18n.js';
import { api, tokenFor } from './api.js';
import { failureText } from './errors.js';
import { esc, setHtml } from './html.js';
import { navigate } from './navigation.js';
import { clockLabel } from './clock.js';
import { clockPickerHtml, clockChoices, readClock } from './clockpicker.js';
import { familyOf } from './position.js';
import { ensurePlayer, me, playerLink, rememberedPlayer } from './players.js';
import { mayBerserk } from './gamepanel.js';
import { watchTournament, rememberTournament, forgetTournament, joinedTournaments, tournamentLive, followPage } from './tournamentsocket.js';

const VARIANTS = ['xiangqi', 'jieqi', 'shogi', 'minishogi'];
const STATUSES = ['running', 'upcoming', 'finished'];

/** An RFC 3339 time in the reader's language and time zone. */
const when = (iso) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(currentLang(), { dateStyle: 'medium', timeStyle: 'short' });
};

/** A countdown: `m:ss`, `h:mm:ss`. */
function countdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A tournament's length: `60 minutes`, `5 rounds`. */
const lengthOf = (s) => (s.kind === 'arena' ? t('tournament.minutes', { n: s.minutes }) : t('tournament.rounds', { n: s.rounds }));

/** The name a tournament goes by: its kind and game (`Arena · Xiangqi`). */
const nameOf = (s) => `${t('tournament.kind.' + s.kind)} · ${t('variant.' + s.variant)}`;

/** The player this browser has just become (on the list page or a tournament's), until a page
 * has said where its key is. */
let newPlayer = null;

/** This browser's player, made on the spot when it has none (then remembered in `newPlayer`). */
async function asPlayer() {
  const { player, created } = await ensurePlayer();
  if (created) newPlayer = player;
  return player;
}

/** Joins tournament `id`, becoming a player first when this browser is none. */
async function joinTournament(id) {
  await asPlayer();
  await api(`/api/tournaments/${encodeURIComponent(id)}/join`, { method: 'POST', body: {} });
  rememberTournament(id);
}

/** The line that tells a visitor who just became a player where their key is. */
const newPlayerNote = (player) =>
  player ? `<p class="new-player" role="status">${t('tournaments.newPlayer')} <a href="/player/${esc(encodeURIComponent(player.id))}">${t('tournaments.playerPage')}</a></p>` : '';

/** The list page `/tournaments`: running, upcoming, finished, and the create form. */
export function tournamentsPage(main) {
  let lists = null;
  let error = '';
  let kind = localStorage.getItem('jiang.tournament.kind') === 'swiss' ? 'swiss' : 'arena';
  let variant = localStorage.getItem('jiang.tournament.variant') || 'xiangqi';
  if (!VARIANTS.includes(variant)) variant = 'xiangqi';
  let clockChoice = localStorage.getItem('jiang.tournament.clock') || '1';
  let start = 'now';
  let busy = false;
  let destroyed = false;

  async function load() {
    try {
      lists = await api('/api/tournaments');
      error = '';
    } catch (ex) {
      error = failureText(ex);
    }
    if (!destroyed) renderLists();
  }

  function row(s) {
    const joined = joinedTournaments().includes(s.id);
    const action =
      s.status === 'finished' ? '' : joined ? `<span class="joined">${t('tournament.joined')}</span>` : `<button type="button" class="primary" data-join="${esc(s.id)}">${t('tournament.join')}</button>`;
    return `<tr data-id="${esc(s.id)}" data-kind="${esc(s.kind)}">
      <td><a href="/tournament/${esc(s.id)}">${esc(nameOf(s))}</a>${s.rated ? ` <span class="rated-mark">${t('lobby.ratedMark')}</span>` : ''}</td>
      <td>${clockLabel(s.clock)}</td><td>${lengthOf(s)}</td>
      <td>${esc(when(s.status === 'finished' && s.finished_at ? s.finished_at : s.starts_at))}</td>
      <td class="players">${s.players}</td><td>${action}</td></tr>`;
  }

  function renderLists() {
    const root = main.querySelector('.t-lists');
    if (!root) return;
    setHtml(main.querySelector('.t-error'), esc(error));
    main.querySelector('.t-error').hidden = !error;
    if (!lists) return;
    setHtml(
      root,
      STATUSES.map((status) => {
        const items = lists[status] || [];
        const when = t(status === 'finished' ? 'tournaments.col.finished' : 'tournaments.col.starts');
        return `<section class="t-list" data-status="${status}" aria-labelledby="t-${status}">
  <h2 id="t-${status}">${t('tournament.status.' + status)}</h2>
  ${items.length
    ? `<div class="table-scroll"><table class="t-table"><thead><tr><th>${t('tournaments.col.tournament')}</th><th>${t('lobby.col.clock')}</th><th>${t('tournaments.col.length')}</th><th>${when}</th><th>${t('tournaments.col.players')}</th><th><span class="visually-hidden">${t('tournament.join')}</span></th></tr></thead>
  <tbody>${items.map(row).join('')}</tbody></table></div>`
    : `<p class="muted">${t('tournaments.none')}</p>`}
</section>`;
      }).join(''),
    );
  }

  function formHtml() {
    const fam = familyOf(variant);
    if (!clockChoices(false).includes(clockChoice)) clockChoice = '1';
    return `<form class="tournament-create play-card" novalidate aria-labelledby="t-create-title">
  <h2 id="t-create-title">${t('tournaments.create')}</h2>
  <fieldset class="kind-choice">
    <legend>${t('tournaments.kind')}</legend>
    <div class="chips">${['arena', 'swiss'].map((k) => `<label class="chip"><input type="radio" name="kind" value="${k}"${k === kind ? ' checked' : ''}><span>${t('tournament.kind.' + k)}</span></label>`).join('')}</div>
    <p class="hint">${t(kind === 'arena' ? 'tournaments.arenaHint' : 'tournaments.swissHint')}</p>
  </fieldset>
  <fieldset class="variants">
    <legend>${t('home.game')}</legend>
    <div class="chips">${VARIANTS.map((v) => `<label class="chip"><input type="radio" name="variant" value="${v}"${v === variant ? ' checked' : ''}><span>${t('variant.' + v)}</span></label>`).join('')}</div>
  </fieldset>
  ${clockPickerHtml(fam, clockChoice, false)}
  <fieldset class="length-choice">
    <legend>${t('tournaments.length')}</legend>
    ${kind === 'arena'
      ? `<label>${t('tournaments.minutes')} <input name="minutes" type="number" min="1" max="1440" value="30" required></label>`
      : `<label>${t('tournaments.roundsLabel')} <input name="rounds" type="number" min="1" max="50" value="5" required></label>`}
  </fieldset>
  <fieldset class="start-choice">
    <legend>${t('tournaments.start')}</legend>
    <div class="chips">${['now', 'at'].map((s) => `<label class="chip"><input type="radio" name="start" value="${s}"${s === start ? ' checked' : ''}><span>${t(s === 'now' ? 'tournaments.startNow' : 'tournaments.startAt')}</span></label>`).join('')}</div>
    <label class="start-at"${start === 'at' ? '' : ' hidden'}>${t('tournaments.startWhen')} <input name="starts_at" type="datetime-local"></label>
  </fieldset>
  <label class="check"><input type="checkbox" name="rated"> ${t('tournaments.rated')}</label>
  <p class="hint">${t('tournaments.playerHint')}</p>
  <button type="submit" class="primary">${t('tournaments.createButton')}</button>
  <p class="error form-error" role="alert" hidden></p>
</form>`;
  }

  function renderForm() {
    const slot = main.querySelector('.t-form');
    if (!slot) return;
    slot.innerHTML = formHtml();
    const form = slot.querySelector('form');
    form.addEventListener('change', (e) => {
      const { name, value } = e.target;
      if (name === 'kind' || name === 'variant') {
        if (name === 'kind') kind = value;
        else variant = value;
        localStorage.setItem(`jiang.tournament.${name}`, value);
        renderForm();
        main.querySelector(`.t-form input[name=${name}][value=${value}]`)?.focus();
      } else if (name === 'clock') {
        clockChoice = value;
        localStorage.setItem('jiang.tournament.clock', value);
        form.querySelector('.custom-clock').hidden = value !== 'custom';
      } else if (name === 'start') {
        start = value;
        form.querySelector('.start-at').hidden = value !== 'at';
        if (value === 'at') form.querySelector('input[name=starts_at]').focus();
      }
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      create(form);
    });
  }

  async function create(form) {
    if (busy) return;
    const err = form.querySelector('.form-error');
    const fail = (text) => {
      err.textContent = text;
      err.hidden = false;
    };
    err.hidden = true;
    const picked = readClock(form, familyOf(variant), clockChoice);
    if (picked.error) return fail(picked.error);
    const data = new FormData(form);
    const body = { kind, variant, clock: picked.clock, rated: !!data.get('rated') };
    if (kind === 'arena') body.minutes = Number(data.get('minutes')) || 0;
    else body.rounds = Number(data.get('rounds')) || 0;
    if (start === 'at') {
      const at = new Date(String(data.get('starts_at') || ''));
      if (Number.isNaN(at.getTime())) return fail(t('tournaments.badStart'));
      body.starts_at = at.toISOString();
    }
    const button = form.querySelector('button[type=submit]');
    busy = true;
    button.disabled = true;
    try {
      await asPlayer();
      const res = await api('/api/tournaments', { method: 'POST', body });
      navigate(`/tournament/${encodeURIComponent(res.id)}`);
    } catch (ex) {
      fail(failureText(ex));
      renderNote();
    } finally {
      busy = false;
      button.disabled = false;
    }
  }

  const renderNote = () => setHtml(main.querySelector('.t-note'), newPlayerNote(newPlayer));

  async function join(id, button) {
    if (busy) return;
    busy = true;
    button.disabled = true;
    try {
      await joinTournament(id);
      navigate(`/tournament/${encodeURIComponent(id)}`);
    } catch (ex) {
      error = failureText(ex);
      renderLists();
      button.disabled = false;
    } finally {
      busy = false;
    }
  }

  function render() {
    main.innerHTML = `<section class="tournaments" aria-labelledby="tournaments-title">
  <h1 id="tournaments-title">${t('tournaments.title')}</h1>
  <p class="lead">${t('tournaments.lead')}</p>
  <div class="t-note"></div>
  <p class="error t-error" role="alert" hidden></p>
  <div class="t-lists" aria-busy="${lists ? 'false' : 'true'}"></div>
  <div class="t-form"></div>
</section>`;
    document.title = `Jiang — ${t('tournaments.title')}`;
    renderNote();
    renderLists();
    renderForm();
  }

  main.addEventListener('click', onClick);
  function onClick(e) {
    const b = e.target.closest?.('button[data-join]');
    if (b) join(b.dataset.join, b);
  }

  render();
  load();
  // The lists stay fresh while the page is open (players join, tournaments start and end).
  const timer = setInterval(() => document.visibilityState === 'visible' && load(), 15000);
  return {
    rerender: render,
    destroy() {
      destroyed = true;
      clearInterval(timer);
      main.removeEventListener('click', onClick);
    },
  };
}

/** A tournament's page `/tournament/<id>`. */
export function tournamentPage(main, id) {
  // The socket's page of the standings (`standings`: one page, its players' games, `page`,
  // `pages`), or before it comes the whole state from `GET /api/tournaments/{id}`.
  let state = null;
  let paged = false; // a page came: the whole state no longer replaces it
  let myLine = null; // this player's line, from the last page (or state) that held it
  let myId = rememberedPlayer()?.id ?? null;
  let myGame = null; // {id, side, token}: this player's game in progress
  let gameView = null; // that game's view, to know whether berserk is still possible
  let berserked = false;
  let error = '';
  let notFound = false;
  let busy = false;
  let destroyed = false;
  const path = encodeURIComponent(id);

  async function load() {
    try {
      const view = await api(`/api/tournaments/${path}`);
      const { my_game: mine, ...rest } = view;
      apply(rest, false);
      if (mine) setMyGame(mine);
    } catch (ex) {
      if (ex.status === 404) notFound = true;
      else error = failureText(ex);
      render();
    }
  }

  function apply(next, fromSocket) {
    const line = next.standings.find((s) => s.id === myId);
    if (line) myLine = line;
    if (fromSocket) paged = true;
    if (fromSocket || !paged) state = next;
    // Joined in another browser with the same key: followed here too.
    if (line && !line.withdrawn && next.tournament.status !== 'finished') rememberTournament(id);
    // The game is over when it is listed so, or missing from a list that holds all of this
    // player's games (a page they stand on, or the whole state).
    if (myGame) {
      const g = next.games.find((x) => x.id === myGame.id);
      if (g ? g.result !== 'playing' : !!line) {
        myGame = null;
        gameView = null;
      }
    }
    render();
  }

  async function setMyGame(game) {
    if (myGame?.id !== game.id) berserked = false;
    myGame = game;
    gameView = null;
    render();
    try {
      gameView = await api(`/api/games/${encodeURIComponent(game.id)}`, { token: game.token || tokenFor(game.id) });
    } catch {
      gameView = null;
    }
    render();
  }

  const onMessage = (msg) => {
    if (destroyed) return;
    if (msg.type === 'standings') {
      const { type: _type, ...rest } = msg;
      void _type;
      apply(rest, true);
    } else if (msg.type === 'game') setMyGame(msg);
    else if (msg.type === 'closed') renderLive();
  };

  async function act(fn) {
    if (busy) return;
    busy = true;
    error = '';
    render();
    try {
      await fn();
    } catch (ex) {
      error = failureText(ex);
    } finally {
      busy = false;
      render();
    }
  }

  const join = () =>
    act(async () => {
      await joinTournament(id);
      myId = (await me())?.id ?? myId;
      await load();
    });

  const withdraw = () =>
    act(async () => {
      await api(`/api/tournaments/${path}/withdraw`, { method: 'POST', body: {} });
      forgetTournament(id);
      await load();
    });

  const berserk = () =>
    act(async () => {
      await api(`/api/tournaments/${path}/berserk`, { method: 'POST', body: {} });
      berserked = true;
      if (myGame) await setMyGame(myGame);
    });

  /** The countdown's words `now`: to the start, to the end of an arena, or the Swiss's round. */
  function countdownText(now = Date.now()) {
    const s = state.tournament;
    if (s.status === 'finished') return s.finished_at ? t('tournament.finishedAt', { when: when(s.finished_at) }) : '';
    if (s.status === 'upcoming') {
      const left = Date.parse(s.starts_at) - now;
      return left > 24 * 3600 * 1000 ? t('tournament.startsAt', { when: when(s.starts_at) }) : t('tournament.startsIn', { time: countdown(left) });
    }
    if (s.kind === 'swiss') return state.round ? t('tournament.round', { n: state.round, total: s.rounds }) : t('tournament.pairing');
    const left = Date.parse(s.ends_at) - now;
    return left > 0 ? t('tournament.endsIn', { time: countdown(left) }) : t('tournament.lastGames');
  }

  /** The players the page names: its lines, and the others its games mention. */
  const nameById = () =>
    new Map([...Object.entries(state.names || {}).map(([pid, name]) => [pid, { id: pid, name }]), ...state.standings.map((p) => [p.id, p])]);

  /** The pager under a standings table of several pages (`page`, `pages` from the socket). */
  function pagerHtml() {
    const { page, pages } = state;
    if (!pages || pages < 2) return '';
    const button = (n, label, text) => `<button type="button" data-page="${n}" aria-label="${esc(label)}"${n < 1 || n > pages || n === page ? ' disabled' : ''}>${text}</button>`;
    const mine = myLine && !state.standings.some((p) => p.id === myId);
    return `<nav class="t-pager" aria-label="${esc(t('tournament.pages'))}">
  ${button(1, t('tournament.firstPage'), '«')}${button(page - 1, t('tournament.prevPage'), '‹')}
  <span class="t-page" aria-live="polite">${t('tournament.pageOf', { page, pages })}</span>
  ${button(page + 1, t('tournament.nextPage'), '›')}${button(pages, t('tournament.lastPage'), '»')}
  ${mine ? `<button type="button" data-page="me" class="t-my-page">${t('tournament.myPage')}</button>` : ''}
</nav>`;
  }

  /** Under a page of a large tournament: its games are those of the page's players. */
  function pageGamesNote() {
    if (!state.pages || state.pages < 2) return '';
    return `<p class="muted t-page-games">${t('tournament.pageGames', { playing: state.playing, played: state.played })}</p>`;
  }

  function sheetHtml(p) {
    const arena = state.tournament.kind === 'arena';
    return p.sheet
      .map((m) => {
        const text = arena ? String(m.points) : m.outcome === 'bye' ? t('tournament.byeMark') : m.points === 2 ? '1' : m.points === 1 ? '½' : '0';
        const cls = `mark ${m.outcome}${m.on_fire ? ' fire' : ''}`;
        const title = t('tournament.outcome.' + m.outcome);
        return m.game ? `<a class="${cls}" href="/g/${esc(m.game)}" title="${esc(title)}">${text}</a>` : `<span class="${cls}" title="${esc(title)}">${text}</span>`;
      })
      .join('');
  }

  const score = (n) => (Number.isInteger(n) ? String(n) : `${Math.floor(n) || ''}½`);

  function standingsHtml() {
    const arena = state.tournament.kind === 'arena';
    if (!state.standings.length) return `<p class="muted">${t('tournament.noPlayers')}</p>`;
    const rows = state.standings.map((p) => `<tr data-player="${esc(p.id)}"${p.id === myId ? ' class="me"' : ''}${p.withdrawn ? ' data-withdrawn="1"' : ''}>
      <td class="rank">${p.rank}</td>
      <td class="name">${playerLink(p)}${arena && p.on_fire ? ` <span class="fire-mark" title="${esc(t('tournament.onFire'))}" aria-label="${esc(t('tournament.onFire'))}">🔥</span>` : ''}${p.withdrawn ? ` <span class="muted">${t('tournament.withdrawn')}</span>` : ''}</td>
      <td class="score">${score(p.score)}</td><td class="games">${p.games}</td>
      <td class="wdl">${p.wins}/${p.draws}/${p.losses}</td>
      ${arena ? '' : `<td class="buchholz">${score(p.buchholz ?? 0)}</td><td class="sb">${score(p.sonneborn_berger ?? 0)}</td>`}
      <td class="sheet"><div class="sheet-marks">${sheetHtml(p)}</div></td></tr>`);
    return `<div class="table-scroll"><table class="t-table standings">
  <thead><tr><th>${t('tournament.col.rank')}</th><th>${t('lobby.col.player')}</th><th>${t('tournament.col.score')}</th><th>${t('tournament.col.games')}</th><th><abbr title="${esc(t('tournament.col.wdlLong'))}">${t('tournament.col.wdl')}</abbr></th>
  ${arena ? '' : `<th><abbr title="Buchholz">${t('tournament.col.buchholz')}</abbr></th><th><abbr title="Sonneborn–Berger">${t('tournament.col.sb')}</abbr></th>`}<th>${t('tournament.col.sheet')}</th></tr></thead>
  <tbody>${rows.join('')}</tbody></table></div>${pagerHtml()}`;
  }

  function gamesHtml(live) {
    const names = nameById();
    const who = (pid) => (names.has(pid) ? playerLink(names.get(pid)) : esc(pid));
    const games = state.games.filter((g) => (g.result === 'playing') === live);
    if (!games.length) return `<p class="muted">${t(live ? 'tournament.noLiveGames' : 'tournament.noGames')}</p>`;
    const resultText = (g) => (g.result === 'first' ? '1–0' : g.result === 'second' ? '0–1' : g.result === 'draw' ? '½–½' : g.result === 'aborted' ? t('result.aborted') : t('mygames.playing'));
    const list = live ? games : [...games].reverse();
    return `<ul class="t-games">${list.map((g) => `<li data-game="${esc(g.id)}" data-result="${esc(g.result)}">${g.round ? `<span class="muted">${t('tournament.roundShort', { n: g.round })}</span> ` : ''}${who(g.first)} – ${who(g.second)} <a class="t-game-link" href="/g/${esc(g.id)}">${esc(resultText(g))}</a></li>`).join('')}</ul>`;
  }

  function byesHtml() {
    if (state.tournament.kind !== 'swiss' || !state.byes?.length) return '';
    const names = nameById();
    return `<p class="byes">${t('tournament.byes')} ${state.byes.map((b) => `<span class="bye" data-round="${b.round}" data-player="${esc(b.player)}">${t('tournament.roundShort', { n: b.round })}: ${names.has(b.player) ? playerLink(names.get(b.player)) : esc(b.player)}</span>`).join(' · ')}</p>`;
  }

  function meHtml() {
    const s = state.tournament;
    const mine = state.standings.find((p) => p.id === myId) || myLine;
    const joined = !!mine && !mine.withdrawn;
    const parts = [];
    if (s.status !== 'finished') {
      if (joined) parts.push(`<button type="button" class="withdraw" data-t="withdraw"${busy ? ' disabled' : ''}>${t('tournament.withdraw')}</button>`);
      else parts.push(`<button type="button" class="primary join" data-t="join"${busy ? ' disabled' : ''}>${t(mine ? 'tournament.rejoin' : 'tournament.join')}</button>`);
    }
    if (myGame) {
      parts.push(`<a class="button primary my-game-link" href="/g/${esc(myGame.id)}">${t('tournament.yourGame')}</a>`);
      if (s.kind === 'arena' && gameView && !berserked && mayBerserk(gameView))
        parts.push(`<button type="button" class="berserk" data-t="berserk"${busy ? ' disabled' : ''} title="${esc(t('tournament.berserkHint'))}">${t('tournament.berserk')}</button>`);
    } else if (joined && s.status === 'running') parts.push(`<span class="muted waiting-note">${t(s.kind === 'arena' ? 'tournament.waitingArena' : 'tournament.waitingSwiss')}</span>`);
    else if (joined && s.status === 'upcoming') parts.push(`<span class="muted waiting-note">${t('tournament.waitingStart')}</span>`);
    return parts.join(' ');
  }

  function renderLive() {
    const el = main.querySelector('.t-offline');
    if (el) el.hidden = tournamentLive(id) || !state;
  }

  function render() {
    if (destroyed) return;
    if (notFound) {
      main.innerHTML = `<section class="tournament"><h1>${t('tournament.notFound')}</h1><p><a href="/tournaments">${t('tournaments.title')}</a></p></section>`;
      return;
    }
    if (!main.querySelector('.tournament[data-built]')) {
      main.innerHTML = `<section class="tournament" data-built aria-labelledby="t-title">
  <p class="crumbs"><a href="/tournaments">${t('tournaments.title')}</a></p>
  <h1 id="t-title"></h1>
  <p class="t-facts"></p>
  <p class="t-countdown"></p>
  <div class="t-note"></div>
  <p class="error t-error" role="alert" hidden></p>
  <p class="t-offline muted" role="status" hidden>${t('tournament.offline')}</p>
  <div class="t-me"></div>
  <h2>${t('tournament.standings')}</h2>
  <div class="t-standings" aria-busy="true"></div>
  <div class="t-byes"></div>
  <h2>${t('tournament.liveGames')}</h2>
  <div class="t-page-note"></div>
  <div class="t-live"></div>
  <h2>${t('tournament.finishedGames')}</h2>
  <div class="t-finished"></div>
</section>`;
    }
    const q = (s) => main.querySelector(s);
    q('.t-error').textContent = error;
    q('.t-error').hidden = !error;
    setHtml(q('.t-note'), newPlayerNote(newPlayer));
    renderLive();
    if (!state) return;
    const s = state.tournament;
    const section = q('.tournament');
    section.dataset.status = s.status;
    section.dataset.kind = s.kind;
    q('#t-title').textContent = nameOf(s);
    document.title = `Jiang — ${nameOf(s)}`;
    setHtml(q('.t-facts'), `${clockLabel(s.clock)} · ${lengthOf(s)} · ${t(s.rated ? 'game.rated' : 'tournament.casual')} · <span class="t-status">${t('tournament.status.' + s.status)}</span> · ${t('tournament.players', { n: s.players })}`);
    q('.t-countdown').textContent = countdownText();
    setHtml(q('.t-me'), meHtml());
    q('.t-standings').removeAttribute('aria-busy');
    setHtml(q('.t-standings'), standingsHtml());
    setHtml(q('.t-byes'), byesHtml());
    setHtml(q('.t-page-note'), pageGamesNote());
    setHtml(q('.t-live'), gamesHtml(true));
    setHtml(q('.t-finished'), gamesHtml(false));
  }

  const onClick = (e) => {
    const pageButton = e.target.closest?.('button[data-page]');
    if (pageButton) {
      const n = pageButton.dataset.page;
      followPage(id, n === 'me' ? null : Number(n));
      return;
    }
    const b = e.target.closest?.('button[data-t]');
    if (!b) return;
    ({ join, withdraw, berserk })[b.dataset.t]?.();
  };
  main.addEventListener('click', onClick);
  const ticker = setInterval(() => {
    const el = main.querySelector('.t-countdown');
    if (state && el) el.textContent = countdownText();
  }, 1000);

  render();
  me().then((p) => {
    myId = p?.id ?? null;
    render();
  });
  load();
  const unwatch = watchTournament(id, onMessage);
  return {
    rerender: () => {
      main.innerHTML = '';
      render();
    },
    destroy() {
      destroyed = true;
      // Said once: the next page no longer repeats where the key is.
      newPlayer = null;
      clearInterval(ticker);
      unwatch();
      main.removeEventListener('click', onClick);
    },
  };
}
