// HTTP API of the server and the player's token. The token is kept in localStorage:
// closing the tab or the browser does not lose the account, and every tab of the
// browser plays as the same player. Signing out forgets the active token but keeps it
// by name, so that signing in again with that name resumes the same account (a name
// belongs to one account; docs/protocol.md, "Names").

const TOKEN_KEY = 'uth.token';
const ACCOUNTS_KEY = 'uth.accounts';

export function getToken() {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(token) {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** A name as the server compares it: Unicode NFKC, without surrounding white space. */
export function normaliseName(name) {
  return name.normalize('NFKC').trim();
}

function accounts() {
  try {
    const saved = JSON.parse(localStorage.getItem(ACCOUNTS_KEY) ?? '{}');
    return saved && typeof saved === 'object' ? saved : {};
  } catch {
    return {};
  }
}

/** Remember the token of the account signed in with `name` (after a sign-in). */
export function rememberAccount(name, token) {
  localStorage.setItem(ACCOUNTS_KEY, JSON.stringify({ ...accounts(), [normaliseName(name)]: token }));
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

/** Sign in: a new account for a free name, or this browser's account of that name. */
export function signIn(name) {
  const token = accounts()[normaliseName(name)];
  return request('POST', '/api/players', token ? { name, token } : { name });
}

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
