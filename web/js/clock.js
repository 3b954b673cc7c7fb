// One clock label for every page (the home form, quick pairing, the lobby, Watch, the game
// page, the editor): a time control as the API gives it in seconds ({main, increment,
// byoyomi, periods, move_limit}) written in the reader's language, the byo-yomi period's
// length always shown. `clockLabel(null)` is a game without a clock.
import { t } from './i18n.js';

/** Seconds as the label writes them: whole minutes `10 min`, under a minute `30 s`, else
 * `1:30 min`. */
export function clockDuration(seconds) {
  const s = Math.max(0, Number(seconds) || 0);
  if (s >= 60 && s % 60 === 0) return t('clock.label.minutes', { n: s / 60 });
  if (s < 60) return t('clock.label.seconds', { n: s });
  const whole = Math.floor(s);
  return t('clock.label.minutes', { n: `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}` });
}

/** The label of a time control: `5 min + 3 s`, `10 min + 30 s byo-yomi`, `3 min + 3 × 10 s
 * byo-yomi`, `No clock`. */
export function clockLabel(clock) {
  if (!clock) return t('clock.label.none');
  const main = clockDuration(clock.main || 0);
  const byoyomi = Number(clock.byoyomi) || 0;
  const increment = Number(clock.increment) || 0;
  const periods = clock.periods ?? (byoyomi ? 1 : 0);
  let text;
  if (byoyomi && periods > 1) text = t('clock.label.periods', { main, periods, period: clockDuration(byoyomi) });
  else if (byoyomi) text = t('clock.label.byoyomi', { main, period: clockDuration(byoyomi) });
  else if (increment) text = t('clock.label.increment', { main, increment: clockDuration(increment) });
  else text = main;
  if (clock.move_limit) text = t('clock.label.moveLimit', { clock: text, limit: clockDuration(clock.move_limit) });
  return text;
}
