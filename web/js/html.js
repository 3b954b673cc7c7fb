// Text put into HTML written as a string: the one escaping every page uses.

/** `s` as HTML text or an attribute value (quoted with `"` or `'`). */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const drawn = new WeakMap();

/**
 * Puts `html` into `el` only when it differs from what was put there last: a redraw with
 * nothing new keeps the keyboard focus (a takeback's Accept button) and any selection.
 */
export function setHtml(el, html) {
  if (drawn.get(el) === html) return;
  el.innerHTML = html;
  drawn.set(el, html);
}
