// Text put into HTML written as a string: the one escaping every page uses.

/** `s` as HTML text or an attribute value (quoted with `"` or `'`). */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
