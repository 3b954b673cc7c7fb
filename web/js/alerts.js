// Turn alerts: the tab title says when it is your move and shows the last move, a chime
// (made with WebAudio, no sound file) when the move becomes yours, and a system notification
// then if the tab is hidden and the user turned notifications on (and the browser allows them).
import { t } from './i18n.js';

const SOUND_KEY = 'jiang.turnSound'; // '0' off; anything else (never set included) on
const NOTIFY_KEY = 'jiang.turnNotify'; // '1' on

/** Whether the turn chime is on: on until the user turns it off. */
export const turnSoundOn = () => localStorage.getItem(SOUND_KEY) !== '0';
export const setTurnSound = (on) => localStorage.setItem(SOUND_KEY, on ? '1' : '0');

const canNotify = () => typeof Notification !== 'undefined';

/** Whether turn notifications are on: asked for, and allowed by the browser. */
export const turnNotifyOn = () => localStorage.getItem(NOTIFY_KEY) === '1' && canNotify() && Notification.permission === 'granted';

/** Turn notifications on (asking the browser's permission) or off; resolves to whether on. */
export async function setTurnNotify(on) {
  if (!on || !canNotify()) {
    localStorage.setItem(NOTIFY_KEY, '0');
    return false;
  }
  const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  const granted = permission === 'granted';
  localStorage.setItem(NOTIFY_KEY, granted ? '1' : '0');
  return granted;
}

/** The tab title: "Your move · <last move> — Jiang — <variant>", or without the first part. */
export function turnTitle({ variantName, myTurn, lastMove }) {
  const lead = [myTurn ? t('game.yourTurn') : '', lastMove || ''].filter(Boolean).join(' · ');
  return `${lead ? lead + ' — ' : ''}Jiang — ${variantName}`;
}

let audio = null;
/** Two rising tones (660 Hz, then 990 Hz): unlike the single beeps of moves and low time. */
export function chime() {
  try {
    audio ||= new AudioContext();
    const now = audio.currentTime;
    for (const [freq, at] of [[660, 0], [990, 0.13]]) {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.type = 'sine';
      o.frequency.value = freq;
      g.gain.setValueAtTime(0.0001, now + at);
      g.gain.exponentialRampToValueAtTime(0.18, now + at + 0.015);
      g.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.22);
      o.connect(g).connect(audio.destination);
      o.start(now + at);
      o.stop(now + at + 0.24);
    }
  } catch {
    /* no audio: silent */
  }
}

/** One short tone: a move played (520 Hz) or the player's low time (880 Hz; 1200 Hz in the
 * last three seconds). */
export function beep(freq = 880, dur = 0.08) {
  try {
    audio ||= new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = freq;
    g.gain.setValueAtTime(0.15, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + dur);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + dur);
  } catch {
    /* no audio: silent */
  }
}

/**
 * The alerts of one game page. `update` is called with every new view; it sets the title and,
 * when the move has just become the player's (not on the first view of the page), chimes and
 * notifies. Returns whether it alerted (so the caller can skip its own move sound).
 */
export function turnAlerts(gameId) {
  let wasMyTurn = null;
  let notification = null;
  const clear = () => {
    notification?.close();
    notification = null;
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') clear();
  });
  return {
    update({ variantName, myTurn, lastMove }) {
      document.title = turnTitle({ variantName, myTurn, lastMove });
      const becameMine = myTurn && wasMyTurn === false;
      wasMyTurn = !!myTurn;
      if (!myTurn) clear();
      if (!becameMine) return false;
      if (turnSoundOn()) chime();
      if (document.visibilityState === 'hidden' && turnNotifyOn()) {
        try {
          clear();
          notification = new Notification(t('game.yourTurn'), { body: lastMove ? `${variantName}: ${lastMove}` : variantName, tag: `jiang-${gameId}` });
          notification.onclick = () => {
            window.focus();
            clear();
          };
        } catch {
          /* notifications unavailable here (e.g. some mobile browsers): the title still says it */
        }
      }
      return turnSoundOn();
    },
  };
}
