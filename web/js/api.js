// HTTP API client: JSON in and out, the seat token kept per game in local storage.

/** An error answer from the server: its code, sentence, status, (rules refusals) reason and
 * (imports) the values its sentence is written from. */
export class ApiError extends Error {
  constructor(status, code, message, reason, params) {
    super(message);
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.params = params;
  }
}

export const tokenFor = (id) => localStorage.getItem(`jiang.token.${id}`);
/** Keeps a seat: its token, and (for "My games") its side and when it was taken. */
export const saveToken = (id, token, side) => {
  localStorage.setItem(`jiang.token.${id}`, token);
  if (side) localStorage.setItem(`jiang.side.${id}`, side);
  if (!localStorage.getItem(`jiang.at.${id}`)) localStorage.setItem(`jiang.at.${id}`, String(Date.now()));
};
/** The side this browser holds in game `id`, if it knows it. */
export const sideFor = (id) => localStorage.getItem(`jiang.side.${id}`);
/** The ids of the games this browser holds a seat in, the most recently taken first (at most n). */
export function myGames(n) {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith('jiang.token.')) ids.push(key.slice('jiang.token.'.length));
  }
  const at = (id) => Number(localStorage.getItem(`jiang.at.${id}`)) || 0;
  return ids.sort((a, b) => at(b) - at(a)).slice(0, n);
}

/** Call the API. Throws ApiError with the server's message on a non-2xx answer. */
export async function api(path, { method = 'GET', body, token, playerKey } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  // Only a carry link's key is ever sent this way: the browser's own key is its cookie.
  if (playerKey) headers.Authorization = `Player ${playerKey}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, 'network', e.message);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok)
    throw new ApiError(
      res.status,
      data?.error?.code || 'http_' + res.status,
      data?.error?.message || res.statusText,
      data?.error?.reason,
      data?.error?.params,
    );
  return data;
}

/** Create a game (`POST /api/games`) and keep its seat token and variant; returns its id. */
export async function createGame(body) {
  const res = await api('/api/games', { method: 'POST', body });
  saveToken(res.id, res.token, res.side);
  localStorage.setItem(`jiang.variant.${res.id}`, body.variant);
  return res.id;
}

/** Hands each JSON message of `socket` to `handle`; a message that is not JSON is skipped. */
export function onMessages(socket, handle) {
  socket.onmessage = (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    handle(msg);
  };
}
