// The clock picker of the home page's form and the tournament form: a family's presets as
// chips, "no clock" (where a game may have none), "custom" with its fields; and the clock the
// picker's form says.
import { t } from './i18n.js';
import { clockLabel } from './clock.js';

/** Clock presets per family: label and API clock (seconds). */
export const PRESETS = {
  xiangqi: [
    ['5+3', { main: 300, increment: 3 }],
    ['10+5', { main: 600, increment: 5 }],
    ['15+10', { main: 900, increment: 10 }],
  ],
  shogi: [
    ['10|30', { main: 600, byoyomi: 30, periods: 1 }],
    ['3|0+10', { main: 180, byoyomi: 10, periods: 1 }],
    ['30|60', { main: 1800, byoyomi: 60, periods: 1 }],
  ],
};

/** A correspondence clock's choices: days per move. */
export const CORRESPONDENCE_DAYS = [1, 2, 3, 5, 7, 10, 14];

/** The choices the picker offers: a preset's index, `custom`, `none` when `untimed`, and
 * `days` (correspondence) when `correspondence`. */
export const clockChoices = (untimed = true, correspondence = false) => [
  '0',
  '1',
  '2',
  'custom',
  ...(untimed ? ['none'] : []),
  ...(correspondence ? ['days'] : []),
];

/** The picker's fieldset for family `fam` with `choice` checked (the radio group `clock`);
 * `untimed` offers "no clock"; `days` (a number of days per move, or null) offers
 * correspondence with that many days selected. */
export function clockPickerHtml(fam, choice, untimed = true, days = null) {
  const presets = PRESETS[fam];
  return `<fieldset class="clock-choice">
        <legend>${t('home.clock')}</legend>
        <div class="chips">
          ${presets.map(([, clock], i) => `<label class="chip"><input type="radio" name="clock" value="${i}"${choice === String(i) ? ' checked' : ''}><span>${clockLabel(clock)}</span></label>`).join('')}
          ${untimed ? `<label class="chip"><input type="radio" name="clock" value="none"${choice === 'none' ? ' checked' : ''}><span>${t('home.noClock')}</span></label>` : ''}
          <label class="chip"><input type="radio" name="clock" value="custom"${choice === 'custom' ? ' checked' : ''}><span>${t('home.custom')}</span></label>
          ${days !== null ? `<label class="chip"><input type="radio" name="clock" value="days"${choice === 'days' ? ' checked' : ''}><span>${t('home.correspondence')}</span></label>` : ''}
        </div>
        <p class="hint">${t(fam === 'shogi' ? 'home.clockHint.shogi' : 'home.clockHint.xiangqi')}</p>
        <div class="custom-clock"${choice === 'custom' ? '' : ' hidden'}>
          <label>${t('clock.main')} <input name="main" type="number" min="0" max="600" step="1" value="10"> <span>${t('unit.min')}</span></label>
          <label>${t('clock.increment')} <input name="increment" type="number" min="0" max="600" value="${fam === 'shogi' ? 0 : 5}"> <span>${t('unit.s')}</span></label>
          <label>${t('clock.byoyomi')} <input name="byoyomi" type="number" min="0" max="600" value="${fam === 'shogi' ? 30 : 0}"> <span>${t('unit.s')}</span></label>
          <label>${t('clock.periods')} <input name="periods" type="number" min="0" max="10" value="${fam === 'shogi' ? 1 : 0}"></label>
          <label>${t('clock.moveLimit')} <input name="move_limit" type="number" min="0" max="3600" value="0"> <span>${t('unit.s')}</span></label>
        </div>
        ${days !== null ? `<div class="days-clock"${choice === 'days' ? '' : ' hidden'}>
          <label>${t('clock.daysPerMove')} <select name="days">
            ${CORRESPONDENCE_DAYS.map((n) => `<option value="${n}"${n === days ? ' selected' : ''}>${clockLabel({ days: n })}</option>`).join('')}
          </select></label>
          <p class="hint">${t('home.correspondenceHint')}</p>
        </div>` : ''}
      </fieldset>`;
}

/**
 * The clock the picker's `form` says for family `fam` and `choice`: `{clock}` (`null`: no
 * clock) or `{error}` (a custom clock with no time at all).
 */
export function readClock(form, fam, choice) {
  if (choice === 'none') return { clock: null };
  if (choice === 'days') return { clock: { days: Number(new FormData(form).get('days')) || 3 } };
  if (choice !== 'custom') return { clock: PRESETS[fam][Number(choice)][1] };
  const data = new FormData(form);
  const n = (k) => Math.max(0, Number(data.get(k)) || 0);
  const c = { main: Math.round(n('main') * 60) };
  if (n('increment')) c.increment = n('increment');
  if (n('byoyomi')) {
    c.byoyomi = n('byoyomi');
    c.periods = Math.max(1, n('periods'));
  }
  if (n('move_limit')) c.move_limit = n('move_limit');
  if (!c.main && !c.byoyomi && !c.increment) return { error: t('home.badClock') };
  return { clock: c };
}
