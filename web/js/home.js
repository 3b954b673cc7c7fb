// Home page: pick a game, a clock, a side (and a shogi handicap), create it (or play the
// computer at a level), go to its page.
import { t } from './i18n.js';
import { createGame, ApiError } from './api.js';
import { errorText } from './errors.js';
import { pieceSvg } from './board.js';
import { familyOf, sidesOf } from './position.js';
import { navigate } from './navigation.js';
import { mountLobby } from './lobby.js';
import { clockLabel } from './clock.js';
import { PRESETS, CORRESPONDENCE_DAYS, clockChoices, clockPickerHtml, readClock } from './clockpicker.js';
import { rememberSeek } from './seeks.js';
import { playerBox, me } from './players.js';

const VARIANTS = ['xiangqi', 'jieqi', 'shogi', 'minishogi'];
// The clock presets live with the clock picker (the tournament form's too).
export { PRESETS };
export const HANDICAPS = {
  shogi: ['lance', 'bishop', 'rook', 'rook-lance', '2-piece', '4-piece', '6-piece', '8-piece', '10-piece'],
  minishogi: ['bishop', 'rook'],
};

/** A small picture for a variant's card. */
function picture(variant) {
  const at = (x, y, v, p, s = 1) => `<g transform="translate(${x} ${y})">${pieceSvg(v, p, 'traditional', s)}</g>`;
  const body = {
    xiangqi: `<path class="pic-lines" d="M10 30H190M10 80H190M10 130H190M60 10V150M140 10V150M60 30L140 130M140 30L60 130"/>` + at(70, 80, 'xiangqi', 'K', 0.72) + at(130, 80, 'xiangqi', 'k', 0.72),
    jieqi: `<path class="pic-lines" d="M10 30H190M10 80H190M10 130H190M60 10V150M140 10V150"/>` + at(60, 80, 'jieqi', 'X', 0.72) + at(100, 80, 'jieqi', 'x', 0.72) + at(140, 80, 'jieqi', 'C', 0.72),
    shogi: `<path class="pic-lines" d="M20 10V150M70 10V150M120 10V150M170 10V150M5 55H195M5 105H195"/>` + at(70, 58, 'shogi', 'k', 0.78) + at(130, 104, 'shogi', 'K', 0.78),
    minishogi: `<path class="pic-lines" d="M30 10V150M70 10V150M110 10V150M150 10V150M10 50H190M10 90H190M10 130H190"/>` + at(90, 50, 'minishogi', 'r', 0.62) + at(130, 110, 'minishogi', '+P', 0.62),
  }[variant];
  return `<svg class="variant-pic ${familyOf(variant)}" viewBox="0 0 200 160" aria-hidden="true"><rect class="pic-wood" width="200" height="160" rx="14"/>${body}</svg>`;
}

export function homePage(main) {
  let variant = localStorage.getItem('jiang.home.variant') || 'xiangqi';
  if (!VARIANTS.includes(variant)) variant = 'xiangqi';
  let clockChoice = localStorage.getItem('jiang.home.clock') || '1';
  let days = Number(localStorage.getItem('jiang.home.days')) || 3;
  if (!CORRESPONDENCE_DAYS.includes(days)) days = 3;
  // The lobby keeps its socket and lists across the form's redraws.
  const lobbyRoot = document.createElement('div');
  const quickRoot = document.createElement('div');
  const lobby = mountLobby(lobbyRoot, quickRoot);
  // "Become a player", or who this browser plays as: kept across the form's redraws too.
  const playerRoot = document.createElement('div');
  playerRoot.className = 'player-box';
  const player = playerBox(playerRoot);
  let level = Number(localStorage.getItem('jiang.home.level')) || 3;
  // The side: the first player's by default (against the computer the newcomer moves first).
  let role = localStorage.getItem('jiang.home.side') || 'first';
  if (!['first', 'second', 'random'].includes(role)) role = 'first';

  function render() {
    const fam = familyOf(variant);
    const sides = sidesOf(variant);
    const handicaps = HANDICAPS[variant] || [];
    const side = role === 'random' ? 'random' : sides[role === 'first' ? 0 : 1];
    if (!clockChoices(true, true).includes(clockChoice)) clockChoice = '1';
    main.innerHTML = `
<section class="home">
  <div class="hero">
    <h1>${t('home.title')}</h1>
    <p class="lead">${t('home.lead')}</p>
    <div class="player-slot"></div>
  </div>
  <form class="create play-now" novalidate>
    <section class="play-card computer-card" aria-labelledby="computer-title">
      <h2 id="computer-title">${t('home.computerTitle')}</h2>
      <fieldset class="variants">
        <legend>${t('home.game')}</legend>
        <div class="chips">
          ${VARIANTS.map((v) => `<label class="chip"><input type="radio" name="variant" value="${v}"${v === variant ? ' checked' : ''}><span>${t('variant.' + v)}</span></label>`).join('')}
        </div>
      </fieldset>
      ${clockPickerHtml(fam, clockChoice, true, days)}
      <fieldset class="side-choice">
        <legend>${t('home.side')}</legend>
        <div class="chips">
          ${[...sides, 'random'].map((s) => `<label class="chip"><input type="radio" name="side" value="${s}"${s === side ? ' checked' : ''}><span>${t('side.' + s)}</span></label>`).join('')}
        </div>
      </fieldset>
      ${handicaps.length ? `
      <fieldset class="handicap-choice">
        <legend>${t('home.handicap')}</legend>
        <label><span class="visually-hidden">${t('home.handicap')}</span>
        <select name="handicap">
          <option value="">${t('handicap.none')}</option>
          ${handicaps.map((h) => `<option value="${h}">${t('handicap.' + h)}</option>`).join('')}
        </select></label>
        <p class="hint">${t('home.handicapHint')}</p>
      </fieldset>` : ''}
      <div class="computer-choice">
        <label>${t('home.level')}
        <select name="level" aria-describedby="level-hint">
          ${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="${n}"${n === level ? ' selected' : ''}>${n}</option>`).join('')}
        </select></label>
        <button class="primary big play-computer" type="button">${t('home.playComputer')}</button>
        <p class="hint" id="level-hint">${t('home.levelHint')}</p>
      </div>
      <p class="error" role="alert" hidden></p>
    </section>
    <div class="play-others">
      <section class="play-card stranger-card" aria-labelledby="stranger-title">
        <h2 id="stranger-title">${t('home.strangerTitle')}</h2>
        <div class="quick-slot"></div>
      </section>
      <section class="play-card friend-card" aria-labelledby="friend-title">
        <h2 id="friend-title">${t('home.friendTitle')}</h2>
        <p class="hint">${t('home.friendHint')}</p>
        <button class="friend-create" type="submit">${t('home.create')}</button>
        <fieldset class="listing-choice">
          <legend class="visually-hidden">${t('home.listing')}</legend>
          <label class="check"><input type="checkbox" name="open"> ${t('home.open')}</label>
          <label class="check"><input type="checkbox" name="unlisted"> ${t('home.unlisted')}</label>
          <label class="check"><input type="checkbox" name="rated"> ${t('home.rated')}</label>
          <label>${t('home.range')} <select name="range">
            <option value="">${t('home.rangeAny')}</option>
            ${[100, 200, 300].map((n) => `<option value="${n}">${t('home.rangeWithin', { n })}</option>`).join('')}
          </select></label>
        </fieldset>
      </section>
    </div>
  </form>
  <div class="lobby-slot"></div>
  <section class="daily-puzzles" aria-labelledby="daily-title" hidden>
    <h2 id="daily-title">${t('puzzle.daily')}</h2>
    <ul class="daily-list"></ul>
  </section>
  <section class="games-gallery" aria-labelledby="games-title">
    <h2 id="games-title">${t('home.gamesTitle')}</h2>
    <div class="variant-grid">
    ${VARIANTS.map((v) => `
      <div class="variant-card">
        ${picture(v)}
        <span class="variant-name">${t('variant.' + v)}</span>
        <span class="variant-line">${t('variant.' + v + '.line')}</span>
        <a class="rules-link" href="/rules/${v}">${t('rules.title.' + v)}</a>
        <a class="editor-link" href="/editor/${v}">${t('editor.link')}</a>
      </div>`).join('')}
    </div>
  </section>
</section>`;
    main.querySelector('.lobby-slot').replaceWith(lobbyRoot);
    main.querySelector('.quick-slot').replaceWith(quickRoot);
    main.querySelector('.player-slot').replaceWith(playerRoot);
    lobby.rerender();
    player.rerender();
    // The daily puzzles: the trainer's module, loaded when the home page is drawn.
    const daily = main.querySelector('.daily-puzzles');
    import('./puzzles.js').then((m) => m.dailyPuzzles(daily)).catch(() => {});
    const form = main.querySelector('form.create');
    // "Play with the computer" submits the same form with an opponent.
    let vsComputer = false;
    form.querySelector('.play-computer').addEventListener('click', () => {
      vsComputer = true;
      form.requestSubmit();
    });
    form.addEventListener('change', (e) => {
      if (e.target.name === 'variant') {
        variant = e.target.value;
        localStorage.setItem('jiang.home.variant', variant);
        render();
        main.querySelector(`input[name=variant][value=${variant}]`)?.focus();
      } else if (e.target.name === 'side') {
        const picked = e.target.value;
        role = picked === 'random' ? 'random' : picked === sidesOf(variant)[0] ? 'first' : 'second';
        localStorage.setItem('jiang.home.side', role);
      } else if (e.target.name === 'level') {
        level = Number(e.target.value);
        localStorage.setItem('jiang.home.level', String(level));
      } else if (e.target.name === 'clock') {
        clockChoice = e.target.value;
        localStorage.setItem('jiang.home.clock', clockChoice);
        form.querySelector('.custom-clock').hidden = clockChoice !== 'custom';
        form.querySelector('.days-clock').hidden = clockChoice !== 'days';
      } else if (e.target.name === 'days') {
        days = Number(e.target.value) || 3;
        localStorage.setItem('jiang.home.days', String(days));
      }
    });
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const computer = vsComputer;
      vsComputer = false;
      const err = form.querySelector('.error');
      err.hidden = true;
      const body = { variant };
      const data = new FormData(form);
      const picked = readClock(form, fam, clockChoice);
      if (picked.error) {
        err.textContent = picked.error;
        err.hidden = false;
        return;
      }
      if (picked.clock) body.clock = picked.clock;
      body.side = data.get('side') || 'random';
      if (data.get('handicap')) body.handicap = data.get('handicap');
      // The computer takes the other seat at once: such a game is never an open seek.
      if (data.get('open') && !computer) body.open = true;
      if (data.get('unlisted')) body.unlisted = true;
      if (data.get('rated') && !computer) body.rated = true;
      // "Within n of mine": the range around this player's rating in the game's variant.
      if (data.get('range') && !computer) {
        const mine = await me();
        // Live clocks have the real-time rating; correspondence and untimed games the other.
        const rating = (body.clock && !body.clock.days ? mine?.ratings : mine?.correspondence)?.[variant]?.rating ?? 1500;
        const n = Number(data.get('range'));
        body.rating_range = [rating - n, rating + n];
      }
      const button = computer ? form.querySelector('.play-computer') : form.querySelector('button[type=submit]');
      err.hidden = true;
      if (computer) body.opponent = { computer: Number(data.get('level')) || level };
      button.disabled = true;
      try {
        const id = await createGame(body);
        if (body.open) rememberSeek(id);
        navigate(`/g/${id}`);
      } catch (ex) {
        err.textContent = ex instanceof ApiError && ex.status ? errorText(ex) : t('error.network');
        err.hidden = false;
        button.disabled = false;
      }
    });
  }
  render();
  document.title = `Jiang — ${t('home.title')}`;
  return { rerender: render, destroy: lobby.destroy };
}

// The one clock label (web/js/clock.js), under the name this page used to give it.
export { clockLabel as fmtClock };
