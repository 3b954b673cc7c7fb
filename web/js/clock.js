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
  // Correspondence: days per move.
  if (clock.days) return clock.days === 1 ? t('clock.label.oneDay') : t('clock.label.days', { n: clock.days });
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

/** A clock's remaining time: tenths under ten seconds, else `m:ss` or `h:mm:ss`. */
export function fmtMs(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Time left on a correspondence clock: `2 d 5 h` from a day on, else as `fmtMs`. */
export function fmtLong(ms) {
  ms = Math.max(0, ms);
  if (ms < 86400000) return fmtMs(ms);
  const h = Math.floor(ms / 3600000);
  return t('clock.dayHours', { d: Math.floor(h / 24), h: h % 24 });
}

/** A side's clock as it should read `elapsedMs` after the view's figures arrived (the running
 * side counted down, into its byo-yomi periods), or `null` without a clock. */
export function clockFigures(view, side, elapsedMs) {
  const c = view.clock?.[side];
  if (!c) return null;
  let ms = c.ms;
  let periods = c.periods ?? 0;
  let inByoyomi = !!c.byoyomi;
  if (view.clock.running === side && view.status === 'playing') {
    ms -= elapsedMs;
    const byo = (view.clock_settings?.byoyomi || 0) * 1000;
    if (ms < 0 && periods > 0 && byo > 0) {
      // Main time (or a countdown) ran out locally: the next countdown starts.
      const over = -ms;
      periods -= Math.floor(over / byo) + (inByoyomi ? 1 : 0);
      ms = byo - (over % byo);
      inByoyomi = true;
      if (periods <= 0) ms = 0;
    }
  }
  return { ms, periods, inByoyomi };
}
