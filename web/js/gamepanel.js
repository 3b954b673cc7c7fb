// The game page's side panel, drawn from the server's view: the result banner, a draw offer,
// shogi's impasse figures, the action buttons and Jieqi's captured pieces and pool. Pure
// functions of the view returning HTML; the page puts them in place and wires the buttons.
import { t } from './i18n.js';
import { pieceSvg } from './board.js';
import { familyOf, sidesOf, parse } from './position.js';
import { describeResult, stepButtons } from './results.js';

/** The result banner's words and data attributes, or `null` while the game goes on. */
export function resultBanner(view) {
  if (view.status !== 'ended' && view.status !== 'aborted') return null;
  const you = view.you;
  const r = describeResult(view.variant, view.result || { winner: null, reason: 'aborted' }, view.status, view.handicap, you);
  return {
    html: `<strong>${r.headline}</strong><span>${r.reason}</span>`,
    label: r.text,
    reason: view.result?.reason || 'aborted',
    outcome: !view.result?.winner || view.status === 'aborted' ? 'none' : !you ? 'other' : view.result.winner === you ? 'won' : 'lost',
  };
}

/** The draw offer box's content (`sn` names a side). */
export function drawOfferHtml(view, sn) {
  if (view.draw_offer === view.you) return `<p>${t('draw.offered')}</p>`;
  return `<p>${t('draw.offeredBy', { side: sn(view.draw_offer) })}</p>` +
    (view.you ? `<div class="row"><button type="button" data-action="draw-accept" class="primary">${t('draw.accept')}</button><button type="button" data-action="draw-decline">${t('draw.decline')}</button></div>` : '');
}

/** Shogi's impasse figures per side (the server counts them, handicap credit included). */
const impasseFigures = (view) => (view.impasse ? sidesOf(view.variant).map((side) => ({ side, ...view.impasse[side] })) : []);

/** The impasse box once a king has entered its zone, else `''`. */
export function impasseHtml(view, sn) {
  const figs = impasseFigures(view);
  if (!figs.some((f) => f.king_in_zone)) return '';
  return `<h2>${t('impasse.title')}</h2><ul>` + figs.map((f) => `<li>${t('impasse.line', { side: sn(f.side), points: f.declaration, needed: f.needed, pieces: f.pieces_in_zone, total: f.total })}${f.king_in_zone ? '' : ' · ' + t('impasse.notEntered')}</li>`).join('') + '</ul>';
}

/** The moves the viewer's seat has played. */
function movesBy(view, you) {
  const first = sidesOf(view.variant)[0];
  const seat = you === first ? 'first' : 'second';
  const firstToMove = seat === parse(view.variant, view.initial_fen).toMove;
  return view.moves.filter((_, i) => (i % 2 === 0) === firstToMove).length;
}

/** Whether the viewer may still berserk (halve their own clock) in an arena's game: seated,
 * before their first move, not berserked yet (the view's `tournament.berserk`), on a clock with
 * main time. */
export function mayBerserk(view) {
  const you = view.you;
  return !!you && view.status === 'playing' && view.tournament?.kind !== 'swiss' && movesBy(view, you) === 0 && (view.clock_settings?.main || 0) > 0 && !(view.tournament?.berserk || []).includes(you);
}

/** A tournament game's box (tournament `tid`): the way back to the tournament (a button once
 * the game is over) and, when the view says the game is a tournament's, the berserk button. */
export function tournamentBoxHtml(view, tid) {
  const over = view.status === 'ended' || view.status === 'aborted';
  const link = `<a class="${over ? 'button primary ' : ''}to-tournament" href="/tournament/${encodeURIComponent(tid)}">${t(over ? 'tournament.back' : 'tournament.link')}</a>`;
  const berserk = view.tournament && mayBerserk(view) ? ` <button type="button" data-action="berserk" class="berserk" title="${t('tournament.berserkHint')}">${t('tournament.berserk')}</button>` : '';
  const next = over && view.you ? `<p class="hint">${t('tournament.nextGameHint')}</p>` : '';
  return link + berserk + next;
}

/** The action buttons (and links) that apply to the viewer now (no rematch in a tournament's
 * game: the tournament pairs the next one). */
export function actionsHtml(view, id, myTurn, inTournament = false) {
  const you = view.you;
  const playing = view.status === 'playing';
  const over = view.status === 'ended' || view.status === 'aborted';
  const shogiFamily = familyOf(view.variant) === 'shogi';
  const acts = [];
  const btn = (action, text, enabled = true, cls = '') => acts.push(`<button type="button" data-action="${action}" class="${cls}"${enabled ? '' : ' disabled'}>${text}</button>`);
  // Only what applies: before a player's first move, Abort alone (rules: abort before each
  // side's first move; the first move of each side is never taken back).
  const myMoves = you ? movesBy(view, you) : 0;
  if (you && playing && myMoves > 0) btn('resign', t('action.resign'), true, 'danger');
  // The computer declines every draw offer (docs/api.md): no button for it.
  if (you && playing && myMoves > 0 && !shogiFamily && !view.draw_offer && !view.computer) btn('draw-offer', t('action.offerDraw'));
  if (you && playing && myMoves > 1 && !view.takeback) btn('takeback-request', t('takeback.request'));
  if (you && playing && view.premove) btn('premove-cancel', t('premove.cancel'));
  if (you && (view.status === 'waiting' || (playing && myMoves === 0))) btn('abort', t('action.abort'));
  if (view.variant === 'shogi') {
    // Declaring impasse applies once the player's king has entered the zone: the button is
    // shown from then on (enabled when the server says the declaration holds).
    const canDeclare = myTurn && view.hints?.can_declare_impasse === true;
    const mine = impasseFigures(view).find((f) => f.side === you);
    if (you && playing && (canDeclare || mine?.king_in_zone)) btn('impasse', t('action.impasse'), canDeclare);
  }
  const rm = view.rematch || {};
  const asked = rm.requested || [];
  if (you && over && !rm.id && !inTournament) {
    if (asked.includes(you)) btn('rematch', t('action.rematchSent'), false);
    else btn('rematch', asked.length ? t('action.acceptRematch') : t('action.rematch'), true, 'primary');
  }
  // Analysis only once the game is over, for everyone (never while it is played).
  if (over) acts.push(`<a class="button analyse" href="/analysis/${view.variant}?game=${id}">${t('action.analyse')}</a>`);
  btn('flip', t('action.flip'));
  btn('copy-fen', t(shogiFamily ? 'action.copySfen' : 'action.copyFen'));
  // [query, label]: the record formats of docs/api.md (PGN also with WXF moves, not for Jieqi).
  const formats = shogiFamily
    ? [['kif', 'KIF'], ['ki2', 'KI2'], ['csa', 'CSA'], ['sfen', 'SFEN']]
    : [['pgn', 'PGN'], ...(view.variant === 'jieqi' ? [] : [['pgn&moves=wxf', 'PGN (WXF)']]), ['fen', 'FEN']];
  acts.push(`<span class="downloads">${t('action.download')} ${formats.map(([f, label]) => `<a href="/api/games/${id}/record?format=${f}" download>${label}</a>`).join(' ')}</span>`);
  if (rm.id) acts.unshift(`<a class="button primary to-rematch" href="/g/${rm.id}">${t('action.toRematch')}</a>`);
  return acts.join('');
}

/** Jieqi's box: captured pieces grouped by who took them (a covered piece this viewer may not
 * know shown face down), the pieces still hidden per side, the deal's commitment. */
export function jieqiInfoHtml(view, sn, pieceStyle) {
  const [red, black] = sidesOf(view.variant);
  const name = (p) => t(p === 'X' || p === 'x' ? 'piece.xiangqi.X' : 'piece.xiangqi.' + p.toUpperCase());
  const glyph = (p) => `<svg class="mini" viewBox="-50 -50 100 100" role="img" aria-label="${name(p)}">${pieceSvg('jieqi', p, pieceStyle)}</svg>`;
  const caseFor = (letter, side) => (side === red ? letter.toUpperCase() : letter.toLowerCase());
  const taken = { [red]: [], [black]: [] };
  for (const [key, list] of Object.entries(view.captured || {})) {
    for (const c of Array.isArray(list) ? list : []) {
      const owner = c.side || (key === red ? black : red);
      const letter = c.piece ? caseFor(c.piece, owner) : owner === red ? 'X' : 'x';
      taken[owner === red ? black : red].push(letter);
    }
  }
  let html = `<h2>${t('jieqi.captured')}</h2>`;
  for (const side of [red, black])
    html += `<p class="captures" data-side="${side}"><span>${t('jieqi.capturedBy', { side: sn(side) })}</span> ${taken[side].map(glyph).join('') || '—'}</p>`;
  html += `<h2>${t('jieqi.pool')}</h2>`;
  for (const side of [red, black]) {
    const text = typeof view.pool === 'object' && view.pool ? view.pool[side] : '';
    const items = [...String(text || '').matchAll(/([A-Za-z])(\d+)/g)].map((m) => [caseFor(m[1], side), Number(m[2])]).filter(([, n]) => n > 0);
    html += `<p class="pool" data-side="${side}"><span>${t('jieqi.stillHidden', { side: sn(side) })}</span> ${items.map(([p, n]) => `<span class="pool-item">${glyph(p)}×${n}</span>`).join('') || '—'}</p>`;
  }
  if (view.commitment) html += `<p class="commitment"><span>${t('jieqi.commitment')}</span> <code>${view.commitment}</code></p>`;
  if (view.deal) html += `<p class="commitment"><span>${t('jieqi.deal')}</span> <code>${view.deal}</code> <code>${view.salt || ''}</code></p>`;
  if (Object.keys(view.covered_pieces || {}).length)
    html += `<p class="end-reveal-legend"><svg class="mini end-revealed" viewBox="-50 -50 100 100" aria-hidden="true">${pieceSvg('jieqi', 'R', pieceStyle)}</svg> ${t('jieqi.endRevealedLegend')}</p>`;
  return html;
}

/** The page's structure, the board's box sized by the variant's aspect `ratio` (so nothing
 * moves when the board is drawn); the view fills it in. */
export function gamePageHtml(ratio) {
  return `
<section class="game" aria-labelledby="game-title">
  <h1 id="game-title" class="visually-hidden">${t('game.title')}</h1>
  <div class="board-col" style="--ratio:${ratio}">
    <div class="player top"></div>
    <div class="board-host" style="aspect-ratio:${ratio}"></div>
    <div class="player bottom"></div>
  </div>
  <aside class="panel">
    <p class="status" role="status" aria-live="polite"></p>
    <p class="time-control hint"></p>
    <p class="first-move" hidden></p>
    <p class="pending-note" role="alert" hidden></p>
    <div class="banner" role="alert" hidden></div>
    <div class="tournament-box" hidden></div>
    <div class="invite" hidden>
      <label for="invite-link">${t('game.invite')}</label>
      <div class="copy-row"><input id="invite-link" readonly><button type="button" class="copy-link">${t('game.copy')}</button></div>
    </div>
    <div class="join" hidden><p>${t('game.seatFree')}</p><button type="button" class="primary take-seat">${t('game.takeSeat')}</button></div>
    <div class="draw-offer" hidden></div>
    <div class="takeback-box" hidden></div>
    <div class="claim-box" role="alert" hidden></div>
    <div class="actions"></div>
    <div class="impasse-info" hidden></div>
    <div class="jieqi-info" hidden></div>
    <nav class="moves-wrap" aria-label="${t('game.moves')}">
      <h2>${t('game.moves')}</h2>
      <ol class="moves"></ol>
      ${stepButtons(['home', 'back', 'fwd', 'end'])}
    </nav>
    <form class="type-move" hidden>
      <label for="type-move-input">${t('game.typeMove')}</label>
      <div class="copy-row"><input id="type-move-input" autocomplete="off" spellcheck="false"><button type="submit">${t('game.play')}</button></div>
      <p class="error" role="alert" hidden></p>
    </form>
    <details class="settings">
      <summary>${t('game.settings')}</summary>
      <label>${t('game.pieces')} <select name="pieces"><option value="traditional">${t('pieces.traditional')}</option><option value="western">${t('pieces.western')}</option></select></label>
      <label>${t('game.notation')} <select name="notation"></select></label>
      <label class="check"><input type="checkbox" name="sound"> ${t('game.sound')}</label>
      <label class="check"><input type="checkbox" name="turnSound"> ${t('game.turnSound')}</label>
      <label class="check"><input type="checkbox" name="turnNotify"> ${t('game.turnNotify')}</label>
      <label class="check"><input type="checkbox" name="chat"> ${t('chat.setting')}</label>
      <p class="hint notify-denied" hidden>${t('game.notifyDenied')}</p>
    </details>
    <p class="spectators" aria-live="off"></p>
    <section class="chat" aria-labelledby="chat-title"></section>
  </aside>
</section>
${promoDialogHtml()}`;
}

/** The promotion dialog that [`askPromotion`] opens (the game page's and the trainer's). */
export function promoDialogHtml() {
  return `<dialog class="promo" aria-labelledby="promo-title">
  <form method="dialog">
    <h2 id="promo-title">${t('promo.title')}</h2>
    <div class="promo-choices">
      <button value="yes" class="promo-yes"></button>
      <button value="no" class="promo-no"></button>
    </div>
    <button value="cancel" class="link">${t('promo.cancel')}</button>
  </form>
</dialog>`;
}

/** The promotion dialog for `piece` (either side's letter): resolves to true (promote), false
 * (not) or null (cancelled). The choices are drawn pointing up, as the mover sees them. */
export function askPromotion(dlg, variant, piece, pieceStyle) {
  const base = piece.replace('+', '');
  const shown = base.toUpperCase();
  const svg = (p) => `<svg viewBox="-55 -60 110 120" aria-hidden="true">${pieceSvg(variant, p, pieceStyle)}</svg>`;
  dlg.querySelector('.promo-yes').innerHTML = svg('+' + shown) + `<span>${t('promo.yes')}</span>`;
  dlg.querySelector('.promo-no').innerHTML = svg(shown) + `<span>${t('promo.no')}</span>`;
  return new Promise((resolve) => {
    dlg.addEventListener('close', () => resolve(dlg.returnValue === 'yes' ? true : dlg.returnValue === 'no' ? false : null), { once: true });
    dlg.returnValue = '';
    dlg.showModal();
    dlg.querySelector('.promo-yes').focus();
  });
}
