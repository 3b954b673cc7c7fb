// What the game page and the analysis board both say about sides and results, and the step
// buttons under their move lists.
import { t } from './i18n.js';
import { familyOf, sidesOf } from './position.js';

/** The first/back/forward/last buttons under a move list; `steps` are their `data-step` values. */
export function stepButtons([first, back, forward, last]) {
  return `<div class="step">
        <button type="button" data-step="${first}" aria-label="${t('game.first')}">«</button>
        <button type="button" data-step="${back}" aria-label="${t('game.back')}">‹</button>
        <button type="button" data-step="${forward}" aria-label="${t('game.forward')}">›</button>
        <button type="button" data-step="${last}" aria-label="${t('game.last')}">»</button>
      </div>`;
}

/** A side's name; in shogi handicap games the roles 上手/下手 replace 先手/後手 (shogi.md). */
export function sideName(side, handicap) {
  if (handicap && (side === 'sente' || side === 'gote')) return t(side === 'gote' ? 'side.uwate' : 'side.shitate');
  return t('side.' + side);
}

/** Words for one result: {headline, reason, text}. Exported for tests and the dev preview. */
export function describeResult(variant, result, status, handicap = null, you = null) {
  if (status === 'aborted' || result?.reason === 'aborted') {
    const reason = t('reason.aborted');
    return { headline: t('result.aborted'), reason, text: t('result.line', { headline: t('result.aborted'), reason }) };
  }
  // An untimed game nobody moved in for 30 days: over, with no winner and no result.
  // A draw claimed against an absent player has nobody who "left" to name in the reason.
  if (result?.reason === 'disconnection' && !result.winner) {
    const reason = t('reason.disconnectionDraw');
    return { headline: t('result.draw'), reason, text: t('result.line', { headline: t('result.draw'), reason }) };
  }
  if (result?.reason === 'abandoned') {
    const reason = t('reason.abandoned');
    return { headline: t('result.abandoned'), reason, text: t('result.line', { headline: t('result.abandoned'), reason }) };
  }
  const sides = sidesOf(variant);
  const winner = result.winner;
  const loser = winner ? sides.find((s) => s !== winner) : null;
  // A seated player reads about themselves: "You won", "You lost".
  const headline = winner ? (you ? t(winner === you ? 'result.youWon' : 'result.youLost') : t('result.wins', { side: sideName(winner, handicap) })) : t('result.draw');
  const fam = familyOf(variant);
  const keys = [`reason.${result.reason}.${variant}`, `reason.${result.reason}.${fam}`, `reason.${result.reason}`];
  const key = keys.find((k) => t(k) !== k) || keys[2];
  const reason = t(key, { winner: winner ? sideName(winner, handicap) : '', loser: loser ? sideName(loser, handicap) : '' });
  return { headline, reason, text: t('result.line', { headline, reason }) };
}
