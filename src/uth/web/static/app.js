// The page: lobby and table views, routing (#/table/<id>), language, keyboard, dialogs.
import * as api from './api.js';
import { h } from './dom.js';
import { formatMoney, getLang, onLangChange, setLang, t, tableName, tm, translateTree } from './i18n.js';
import { openHistory, openKeys, openRules } from './panels.js';
import { TableView } from './table.js';

const $ = (id) => document.getElementById(id);

const app = {
  me: null, // {id, name, balance}
  tables: [],
  view: null, // "lobby" | "table"
  lobbyTimer: null,
  table: null,
};

// ---------------------------------------------------------------- toasts
// Passing messages: bottom right beside the felt on wide screens, over the top bar on
// narrow ones (style.css), never over the game number and the light.
function toast(key, kind = 'info', vars = {}, ms = 3500) {
  const box = $('toasts');
  placeToasts(); // the bar differs between the lobby and the table, and by language
  const node = h(
    'div',
    { class: `toast toast-${kind}`, 'data-key': key, 'data-vars': JSON.stringify(vars), role: kind === 'error' ? 'alert' : 'status' },
    tm(key, vars),
  );
  box.append(node);
  while (box.children.length > 3) box.firstElementChild.remove();
  setTimeout(() => node.remove(), ms);
}

/** Take down the messages of one kind (an error once a later command succeeded). */
function clearToasts(kind) {
  for (const node of document.querySelectorAll(`#toasts .toast-${kind}`)) node.remove();
}

/**
 * On narrow screens the toasts sit over the top bar, between the logo and the
 * language switch (--toast-left, --toast-right), never over the game number and the
 * light. Where the bar leaves too little room between them: in the lobby (whose bar
 * shows the whole name on a phone) at the bottom of the window, clear of the logo; at
 * the table over the bar from its left edge (the Lobby button and the suits give way:
 * the bottom of a phone's window holds the chips and the decision buttons).
 */
function placeToasts() {
  const lang = document.querySelector('.topbar .lang');
  if (!lang) return;
  const right = Math.max(0, window.innerWidth - lang.getBoundingClientRect().left + 6);
  const brand = document.querySelector('.topbar .brand');
  let left = 6;
  if (brand) {
    // The logo's drawn parts (the box itself stretches to fill the bar).
    const edge = brand.getBoundingClientRect().right;
    for (const part of brand.children) {
      if (part.getClientRects().length) left = Math.max(left, Math.min(edge, part.getBoundingClientRect().right) + 6);
    }
  }
  const room = window.innerWidth - right - left >= MIN_TOAST_WIDTH;
  const root = document.documentElement.style;
  root.setProperty('--toast-right', `${Math.round(right)}px`);
  root.setProperty('--toast-left', `${room ? Math.round(left) : 6}px`);
  $('toasts').classList.toggle('toasts-bottom', !room && app.view !== 'table');
}

/** The narrowest toast that fits over the top bar (px). */
const MIN_TOAST_WIDTH = 150;

// ------------------------------------------------------------- signed in
async function loadMe() {
  if (!api.getToken()) {
    app.me = null;
    return;
  }
  try {
    app.me = await api.me();
  } catch (err) {
    if (err.status === 401) api.setToken(null);
    app.me = null;
  }
}

function renderWho() {
  $('who').hidden = !app.me;
  $('who-name').textContent = app.me ? app.me.name : '';
}

// ----------------------------------------------------------------- lobby
function renderLobby() {
  const signedIn = Boolean(app.me);
  $('signin-form').hidden = signedIn;
  $('signed-in').hidden = !signedIn;
  $('lobby-pick').textContent = t(signedIn ? 'lobby.pick_table_signed_in' : 'lobby.pick_table');
  if (signedIn) {
    $('me-name').textContent = app.me.name;
    $('me-balance').textContent = formatMoney(app.me.balance);
  }
  const list = $('table-list');
  list.replaceChildren();
  if (!app.tables.length) list.append(h('p', { class: 'muted' }, t('lobby.no_tables')));
  for (const tb of app.tables) {
    const limits = [];
    const range = (l) => `${formatMoney(l[0])} – ${formatMoney(l[1])}`;
    if (tb.limits?.ante) limits.push([t('spot.ante'), range(tb.limits.ante)]);
    if (tb.limits?.trips) limits.push([t('spot.trips'), range(tb.limits.trips)]);
    if (tb.limits?.bad_beat) limits.push([t('spot.bad_beat'), range(tb.limits.bad_beat)]);
    const join = h('button', { type: 'button', class: 'btn btn-gold', 'data-join': tb.id }, t('lobby.join'));
    join.disabled = !signedIn;
    join.addEventListener('click', () => go(`#/table/${tb.id}`));
    const seats = tb.seats ? t('lobby.players_of', { n: tb.players, seats: tb.seats }) : t('lobby.players', { n: tb.players });
    list.append(
      h(
        'article',
        { class: 'table-card', 'data-table': tb.id },
        h('div', { class: 'table-card-felt' }, h('span', { class: 'mini-suits', 'aria-hidden': 'true' }, '♠ ♥ ♣ ♦')),
        h(
          'div',
          { class: 'table-card-body' },
          h('h3', { translate: 'no' }, tableName(tb)),
          h('p', { class: 'preset' }, presetTitle(tb.rules)),
          h('dl', { class: 'table-facts' }, ...limits.flatMap(([k, v]) => [h('dt', {}, k), h('dd', { class: 'money' }, v)])),
          h(
            'p',
            { class: 'table-meta' },
            h('span', { class: 'players' }, seats),
            h('span', { class: `phase phase-${tb.phase}` }, t(`phase.${tb.phase}`)),
          ),
          join,
        ),
      ),
    );
  }
}

function presetTitle(name) {
  const key = `preset.${name}`;
  return t(key, {}, null) ?? t('preset.other', { name });
}

async function refreshTables() {
  try {
    app.tables = await api.tables();
  } catch {
    /* keep the last list */
  }
  if (app.view === 'lobby') renderLobby();
}

async function onSignIn(ev) {
  ev.preventDefault();
  const name = $('signin-name').value.trim();
  if (!name) return;
  $('signin-btn').disabled = true;
  try {
    const reply = await api.signIn(name);
    api.setToken(reply.token);
    api.rememberAccount(reply.player.name, reply.token);
    app.me = reply.player;
    renderWho();
    renderLobby();
    toast('lobby.welcome', 'info', { name: reply.player.name });
  } catch (err) {
    let key = 'error.network';
    if (err.code === 'name_taken') key = 'error.name_taken';
    else if (err.status === 422) key = 'error.bad_name';
    toast(key, 'error');
  } finally {
    $('signin-btn').disabled = false;
  }
}

function signOut() {
  api.setToken(null);
  app.me = null;
  renderWho();
  go('#/');
}

// ---------------------------------------------------------------- routing
function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

async function route() {
  const m = /^#\/table\/([a-z0-9-]+)$/.exec(location.hash);
  if (m && app.me) {
    showTable(m[1]);
  } else {
    if (m) history.replaceState(null, '', '#/');
    showLobby();
  }
}

function showLobby() {
  if (app.view === 'table') {
    // Leaving a table says what became of the bets (declined while betting is open,
    // playing on after the red light).
    app.table.leave().then((notice) => {
      if (notice) toast(notice.key, 'info', notice.vars, 8000);
    });
  } else if (app.table) app.table.close();
  app.view = 'lobby';
  $('view-table').hidden = true;
  $('view-lobby').hidden = false;
  $('btn-lobby').hidden = true;
  document.body.dataset.view = 'lobby';
  renderLobby();
  refreshTables();
  loadMe().then(() => {
    renderWho();
    if (app.view === 'lobby') renderLobby();
  });
  clearInterval(app.lobbyTimer);
  app.lobbyTimer = setInterval(refreshTables, 5000);
}

function showTable(id) {
  clearInterval(app.lobbyTimer);
  app.view = 'table';
  $('view-lobby').hidden = true;
  $('view-table').hidden = false;
  $('btn-lobby').hidden = false;
  document.body.dataset.view = 'table';
  window.scrollTo(0, 0); // the table from its top (the light), not the lobby's scroll position
  app.table.open(id);
}

// --------------------------------------------------------------- keyboard
function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const target = ev.target;
  if (target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
  if (document.querySelector('dialog[open]')) return; // Esc closes it (the browser does that)
  if (app.view !== 'table') return;
  if (ev.code === 'KeyH' && !ev.shiftKey) return void (ev.preventDefault(), openHistory(app.table));
  if (ev.code === 'KeyI' && !ev.shiftKey) return void (ev.preventDefault(), openRules(app.table));
  if (ev.key === '?' || (ev.code === 'Slash' && ev.shiftKey)) return void (ev.preventDefault(), openKeys());
  if (app.table.onKey(ev)) ev.preventDefault();
}

// ---------------------------------------------------------------- language
function applyLanguage() {
  document.documentElement.lang = getLang();
  translateTree(document);
  for (const btn of document.querySelectorAll('.lang-btn')) {
    btn.setAttribute('aria-pressed', String(btn.dataset.lang === getLang()));
  }
  renderWho();
  placeToasts();
  for (const node of document.querySelectorAll('.toast')) node.textContent = tm(node.dataset.key, JSON.parse(node.dataset.vars));
  if (app.view === 'lobby') renderLobby();
  if (app.view === 'table') app.table.render();
  for (const dlg of document.querySelectorAll('dialog[open]')) dlg.dispatchEvent(new Event('rerender'));
}

// ------------------------------------------------------------------- start
async function start() {
  app.table = new TableView({
    toast,
    clearToasts,
    onLeave(reasonKey) {
      if (reasonKey === 'error.unauthorized') {
        api.setToken(null);
        app.me = null;
        renderWho();
      }
      toast(reasonKey, 'error');
      go('#/');
    },
    onBalance(balance) {
      if (app.me) app.me.balance = balance;
    },
  });
  $('signin-form').addEventListener('submit', onSignIn);
  $('sign-out').addEventListener('click', signOut);
  $('btn-lobby').addEventListener('click', () => go('#/'));
  $('btn-history').addEventListener('click', () => openHistory(app.table));
  $('btn-rules').addEventListener('click', () => openRules(app.table));
  $('btn-keys').addEventListener('click', () => openKeys());
  for (const dlg of document.querySelectorAll('dialog')) {
    dlg.querySelector('.dialog-close').addEventListener('click', () => dlg.close());
    dlg.addEventListener('click', (ev) => {
      if (ev.target === dlg) dlg.close(); // a click on the backdrop
    });
  }
  for (const btn of document.querySelectorAll('.lang-btn')) {
    btn.addEventListener('click', () => setLang(btn.dataset.lang));
  }
  onLangChange(applyLanguage);
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', route);
  window.addEventListener('resize', placeToasts);
  applyLanguage();
  await loadMe();
  renderWho();
  await route();
  document.body.classList.remove('loading');
  document.body.dataset.ready = 'true';
}

start();
