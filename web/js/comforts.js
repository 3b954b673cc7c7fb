// The comforts of live play on the game page: the chat panel (players' and spectators'
// channels), and the small boxes for takebacks and claims against an absent opponent. The
// server decides everything; this module draws what it says. Chat text is always put in the
// page as text nodes (never as markup), so links and tags show as they were typed.
import { t } from './i18n.js';

/** The web client's "chat in games" setting (all games): on unless turned off. */
export const chatSettingOn = () => localStorage.getItem('jiang.chat') !== '0';
export const setChatSetting = (on) => localStorage.setItem('jiang.chat', on ? '1' : '0');

/**
 * The chat panel in `box`. `send(message)` sends a WebSocket message; `sideName(side)` names a
 * side. Returns {history(msg), line(msg), render(view)}.
 */
export function chatPanel(box, { send, sideName, moveStyle = () => null }) {
  let lines = [];
  let takebacks = [];
  let muted = null; // a player's own settings; null for a spectator
  let you = null;
  box.innerHTML = `
<h2 id="chat-title">${t('chat.title')}</h2>
<div class="chat-options" hidden>
  <label class="check"><input type="checkbox" name="chat-players"> ${t('chat.withOpponent')}</label>
  <label class="check"><input type="checkbox" name="chat-spectators"> ${t('chat.showSpectators')}</label>
</div>
<ol class="chat-log" aria-live="polite" aria-label="${t('chat.title')}" tabindex="0"></ol>
<p class="hint chat-off" hidden>${t('chat.off')}</p>
<form class="chat-form">
  <label for="chat-input" class="visually-hidden">${t('chat.message')}</label>
  <div class="copy-row"><input id="chat-input" maxlength="200" autocomplete="off" placeholder="${t('chat.message')}"><button type="submit">${t('chat.send')}</button></div>
</form>`;
  const log = box.querySelector('.chat-log');
  const form = box.querySelector('.chat-form');
  const input = box.querySelector('#chat-input');
  const options = box.querySelector('.chat-options');

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value;
    if (!text.trim()) return;
    send({ type: 'chat', channel: you ? 'players' : 'spectators', text });
    input.value = '';
  });
  options.addEventListener('change', (e) => {
    const el = e.target;
    const channel = el.name === 'chat-players' ? 'players' : 'spectators';
    send({ type: 'chat_mute', channel, muted: !el.checked });
  });

  let drawnStyle = null; // the notation style the notes were written in
  function draw() {
    drawnStyle = moveStyle();
    const items = [...lines.map((l) => ({ ...l, kind: 'chat' })), ...takebacks.map((n) => ({ ...n, kind: 'takeback' }))].sort((a, b) => a.seq - b.seq);
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    log.replaceChildren(
      ...items.map((item) => {
        const li = document.createElement('li');
        if (item.kind === 'takeback') {
          li.className = 'note';
          // The moves in the reader's notation, as the server named them (the recorded
          // moves only for a takeback stored before it did).
          const moves = item.names?.[drawnStyle] || item.moves;
          li.textContent = t('chat.tookBack', { side: sideName(item.by), moves: moves.join(' ') });
          return li;
        }
        li.className = item.channel;
        const who = document.createElement('span');
        who.className = 'who';
        who.textContent = item.from ? sideName(item.from) : t('chat.spectator');
        const text = document.createElement('span');
        text.className = 'text';
        text.textContent = item.text; // text only: never parsed as HTML
        li.append(who, ': ', text);
        return li;
      }),
    );
    if (atBottom) log.scrollTop = log.scrollHeight;
    const off = !!muted?.players;
    box.querySelector('.chat-off').hidden = !off;
    form.hidden = off;
    options.hidden = !you;
    if (muted) {
      options.querySelector('[name=chat-players]').checked = !muted.players;
      options.querySelector('[name=chat-spectators]').checked = !muted.spectators;
    }
  }

  return {
    /** A `chat_history` message. */
    history(msg) {
      lines = msg.lines || [];
      takebacks = msg.takebacks || [];
      muted = msg.muted ?? null;
      // The "chat in games" setting off: a player turns both channels off in this game.
      if (muted && !chatSettingOn() && (!muted.players || !muted.spectators)) {
        if (!muted.players) send({ type: 'chat_mute', channel: 'players', muted: true });
        if (!muted.spectators) send({ type: 'chat_mute', channel: 'spectators', muted: true });
      }
      draw();
    },
    /** A `chat` message. */
    line(msg) {
      const { type: _type, ply: _ply, ...line } = msg;
      void _type;
      void _ply;
      lines.push(line);
      draw();
    },
    /** The view changed (who the viewer is). */
    render(view) {
      if (you !== (view.you || null) || drawnStyle !== moveStyle()) {
        you = view.you || null;
        draw();
      }
    },
  };
}

/**
 * The takeback box's HTML for `view` (players only): the standing request and its buttons.
 */
export function takebackBox(view, sideName) {
  const you = view.you;
  if (!you || view.status !== 'playing' || !view.takeback) return '';
  if (view.takeback === you)
    return `<p>${t('takeback.requested')}</p><div class="row"><button type="button" data-action="takeback-cancel">${t('takeback.cancel')}</button></div>` +
      `<p class="hint">${t('takeback.rule')}</p>`;
  return `<p>${t('takeback.requestedBy', { side: sideName(view.takeback) })}</p>` +
    `<div class="row"><button type="button" data-action="takeback-accept" class="primary">${t('takeback.accept')}</button><button type="button" data-action="takeback-decline">${t('takeback.decline')}</button></div>` +
    `<p class="hint">${t('takeback.rule')}</p>`;
}

/**
 * The claim box's HTML for a player whose opponent is away: a countdown to the claim, then
 * the claims (a draw only in the xiangqi family) and "wait". `leftMs`: until the claim;
 * `waiting`: the player chose to wait.
 */
export function claimBox(opponent, leftMs, family, waiting) {
  if (leftMs > 0) return `<p>${t('claim.countdown', { side: opponent, s: Math.ceil(leftMs / 1000) })}</p>`;
  if (waiting) return `<p>${t('claim.waiting', { side: opponent })}</p><div class="row"><button type="button" data-action="claim-win">${t('claim.win')}</button></div>`;
  return `<p>${t('claim.ready', { side: opponent })}</p><div class="row">` +
    `<button type="button" data-action="claim-win" class="primary">${t('claim.win')}</button>` +
    (family === 'xiangqi' ? `<button type="button" data-action="claim-draw">${t('claim.draw')}</button>` : '') +
    `<button type="button" data-action="claim-wait">${t('claim.keepWaiting')}</button></div>`;
}
