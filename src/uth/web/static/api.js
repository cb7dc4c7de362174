// HTTP API of the server and the player's token (kept in sessionStorage: one tab, one player).

const TOKEN_KEY = 'uth.token';

export function getToken() {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(token) {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** An HTTP error with the server's error code when it sent one. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const headers = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, 'network', String(err));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const code = data?.error?.code ?? (response.status === 401 ? 'unauthorized' : `http_${response.status}`);
    throw new ApiError(response.status, code, data?.error?.message ?? data?.detail ?? response.statusText);
  }
  return data;
}

export const signIn = (name) => request('POST', '/api/players', { name });
export const me = () => request('GET', '/api/me');
export const tables = () => request('GET', '/api/tables');
export const table = (id) => request('GET', `/api/tables/${encodeURIComponent(id)}`);
export const history = (limit = 20) => request('GET', `/api/history?limit=${limit}`);
export const round = (gameNumber) => request('GET', `/api/history/${encodeURIComponent(gameNumber)}`);

/** The WebSocket URL of a table, on the page's own host. */
export function tableSocketUrl(tableId) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}
