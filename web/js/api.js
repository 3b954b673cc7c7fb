// HTTP API client: JSON in and out, the seat token kept per game in local storage.

/** An error answer from the server: its code, sentence, status and (rules refusals) reason. */
export class ApiError extends Error {
  constructor(status, code, message, reason) {
    super(message);
    this.status = status;
    this.code = code;
    this.reason = reason;
  }
}

export const tokenFor = (id) => localStorage.getItem(`jiang.token.${id}`);
export const saveToken = (id, token) => localStorage.setItem(`jiang.token.${id}`, token);

/** Call the API. Throws ApiError with the server's message on a non-2xx answer. */
export async function api(path, { method = 'GET', body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
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
    );
  return data;
}

/** Create a game (`POST /api/games`) and keep its seat token and variant; returns its id. */
export async function createGame(body) {
  const res = await api('/api/games', { method: 'POST', body });
  saveToken(res.id, res.token);
  localStorage.setItem(`jiang.variant.${res.id}`, body.variant);
  return res.id;
}
