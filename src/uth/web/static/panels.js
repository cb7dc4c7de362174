// Dialogs: history (GET /api/history, /api/history/{game_number}), rules and pay
// tables (GET /api/tables/{id}), keyboard shortcuts.
import * as api from './api.js';
import { cardRow } from './cards.js';
import { h } from './dom.js';
import { formatDateTime, formatMoney, t } from './i18n.js';

const $ = (id) => document.getElementById(id);
const num = (v) => (v === null || v === undefined ? 0 : Number(v));

function show(dialogId, render) {
  const dlg = $(dialogId);
  // Re-drawn when the language changes while it is open.
  if (dlg.uthRerender) dlg.removeEventListener('rerender', dlg.uthRerender);
  dlg.uthRerender = () => render();
  dlg.addEventListener('rerender', dlg.uthRerender);
  render();
  if (!dlg.open) dlg.showModal();
}

function signed(n) {
  if (n > 0) return `+${formatMoney(n)}`;
  if (n < 0) return `−${formatMoney(-n)}`;
  return formatMoney(0);
}

// ----------------------------------------------------------------- history
export function openHistory() {
  const state = { rows: null, detail: null, error: null };
  const render = () => renderHistory(state, render);
  show('dlg-history', render);
  api
    .history(20)
    .then((rows) => {
      state.rows = rows;
      render();
    })
    .catch(() => {
      state.error = 'error.network';
      render();
    });
}

function renderHistory(state, rerender) {
  const body = $('history-body');
  body.replaceChildren();
  if (state.error) return body.append(h('p', { class: 'muted' }, t(state.error)));
  if (state.detail) return body.append(renderRound(state, rerender));
  if (state.rows === null) return body.append(h('p', { class: 'muted' }, t('history.loading')));
  if (!state.rows.length) return body.append(h('p', { class: 'muted' }, t('history.empty')));
  const rows = state.rows.map((r) => {
    const open = h('button', { type: 'button', class: 'btn btn-ghost btn-small', 'data-game': r.game_number }, t('history.open'));
    open.addEventListener('click', async () => {
      try {
        state.detail = await api.round(r.game_number);
      } catch {
        state.error = 'error.network';
      }
      rerender();
    });
    const net = num(r.net);
    // On phones the row stacks (style.css): number and Open, then the time, then
    // the amounts with their labels (data-label), as the column heads are hidden.
    return h(
      'tr',
      { 'data-game': r.game_number },
      h('td', { translate: 'no', class: 'mono col-game' }, r.game_number),
      h('td', { class: 'col-started' }, formatDateTime(r.started_at)),
      h('td', { class: 'money col-stake', 'data-label': t('history.stake') }, formatMoney(r.total_stake)),
      h('td', { class: `money col-net ${net > 0 ? 'pos' : net < 0 ? 'neg' : ''}`, 'data-label': t('history.net') }, signed(net)),
      h('td', { class: 'col-status' }, t(`status.round_${r.status}`)),
      h('td', { class: 'col-open' }, open),
    );
  });
  body.append(
    h(
      'div',
      { class: 'scroll-x' },
      h(
        'table',
        { class: 'data-table history-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, t('history.game_number')),
            h('th', {}, t('history.started')),
            h('th', {}, t('history.stake')),
            h('th', {}, t('history.net')),
            h('th', {}, t('history.status')),
            h('th', {}, ''),
          ),
        ),
        h('tbody', {}, ...rows),
      ),
    ),
  );
}

function decisionLabel(d) {
  if (d === 'auto:check') return t('auto.auto_check');
  if (d === 'auto:fold') return t('auto.auto_fold');
  return t(`action.${d.replace(/^auto:/, '')}`);
}

function renderRound(state, rerender) {
  const d = state.detail;
  const back = h('button', { type: 'button', class: 'btn btn-ghost btn-small', id: 'history-back' }, t('history.back'));
  back.addEventListener('click', () => {
    state.detail = null;
    rerender();
  });
  const best = new Set(d.best_five ?? []);
  const section = (labelKey, cards, extra = null) =>
    h(
      'div',
      { class: 'detail-cards' },
      h('div', { class: 'detail-label' }, t(labelKey)),
      h('div', { class: 'cards cards-small' }, cards.length ? cardRow(cards, { small: true, highlight: best }) : h('span', { class: 'muted' }, '—')),
      extra,
    );
  const wagerRows = [];
  for (const kind of ['ante', 'blind', 'play', 'trips', 'bad_beat']) {
    const w = d.wagers?.[kind];
    if (!w || num(w.stake) === 0) continue;
    wagerRows.push(
      h(
        'tr',
        { 'data-wager': kind },
        h('th', {}, t(`spot.${kind}`)),
        h('td', { class: 'money' }, formatMoney(w.stake)),
        h('td', { class: `res-${w.result}` }, t(`result.${w.result}`)),
        h('td', { class: 'money' }, signed(num(w.net))),
      ),
    );
  }
  const dealerExtra =
    d.dealer_category !== null && d.dealer_category !== undefined
      ? h('div', { class: 'detail-note' }, t(`cat.${d.dealer_category}`), ' · ', t(d.dealer_qualifies ? 'announce.qualifies' : 'announce.not_qualifies'))
      : null;
  const playerExtra = d.category ? h('div', { class: 'detail-note' }, t(`cat.${d.category}`), d.outcome ? ` · ${t(`outcome.${d.outcome}`)}` : '') : null;
  return h(
    'div',
    { class: 'round-detail', 'data-game': d.game_number },
    h('div', { class: 'detail-head' }, back, h('span', {}, t('history.game_number'), ' ', h('b', { translate: 'no', class: 'mono' }, d.game_number))),
    h('p', { class: 'muted' }, formatDateTime(d.started_at), ' · ', t(`status.round_${d.status}`)),
    section('history.your_cards', d.hole ?? [], playerExtra),
    section('history.board', d.board ?? []),
    section('history.dealer', d.dealer ?? [], dealerExtra),
    h(
      'div',
      { class: 'detail-decisions' },
      h('span', { class: 'detail-label' }, t('history.decisions')),
      ' ',
      (d.decisions ?? []).length ? d.decisions.map(decisionLabel).join(' → ') : '—',
    ),
    h(
      'table',
      { class: 'data-table' },
      h('thead', {}, h('tr', {}, h('th', {}, t('result.wager')), h('th', {}, t('result.stake')), h('th', {}, t('result.result')), h('th', {}, t('result.net')))),
      h('tbody', {}, ...wagerRows),
    ),
    h(
      'p',
      { class: 'detail-balance' },
      t('history.balance_change', { before: formatMoney(d.balance_before), after: formatMoney(d.balance_after) }),
    ),
    d.void_reason ? h('p', { class: 'muted' }, t('banner.voided')) : null,
  );
}

// ------------------------------------------------------------------- rules
export function openRules(tableView) {
  show('dlg-rules', () => renderRules(tableView?.info));
}

function payTable(titleKey, pays, id) {
  const entries = Object.entries(pays ?? {});
  if (!entries.length) return null;
  return h(
    'div',
    { class: 'pay-table', id },
    h('h3', {}, t(titleKey)),
    h(
      'table',
      { class: 'data-table' },
      h('thead', {}, h('tr', {}, h('th', {}, t('rules.hand')), h('th', {}, t('rules.pays')))),
      h('tbody', {}, ...entries.map(([cat, odds]) => h('tr', { 'data-cat': cat }, h('th', {}, t(`cat.${cat}`)), h('td', { class: 'money' }, t('odds', { odds })))),
        entries.length && titleKey === 'pays.blind' ? [h('tr', {}, h('th', {}, t('rules.blind_less')), h('td', {}, t('result.push')))] : []),
    ),
  );
}

function renderRules(info) {
  const body = $('rules-body');
  body.replaceChildren();
  const rs = info?.rule_set;
  if (!rs) return body.append(h('p', { class: 'muted' }, t('history.loading')));
  const li = (text) => h('li', {}, text);
  const steps = [1, 2, 3, 4, 5, 6, 7].map((i) => li(t(`rules.step${i}`)));
  const notes = [];
  notes.push(li(t('rules.qualifier', { hand: t(`announce.${rs.dealer_qualifier}`) })));
  notes.push(li(t('rules.ante_pays')));
  notes.push(li(t('rules.play_pays')));
  notes.push(li(t('rules.blind_rule')));
  notes.push(li(t('rules.trips_rule')));
  // A fold comes only at the river, before any Play bet: it loses the Ante and the
  // Blind (and the Bad Beat bet where offered); the Trips bet still has action.
  const badBeat = Boolean(info.limits?.bad_beat) || Object.keys(rs.bad_beat_pays ?? {}).length > 0;
  const lost = t(badBeat ? 'rules.fold_lost_bad_beat' : 'rules.fold_lost');
  notes.push(li(t(rs.folded_trips === 'board_only' ? 'rules.folded_trips_board' : 'rules.folded_trips_player', { lost })));
  notes.push(li(t('rules.tie')));
  if (rs.shared_hand) notes.push(li(t('rules.shared_hand')));
  notes.push(li(rs.seats ? t('rules.seats', { n: rs.seats }) : t('rules.seats_unlimited')));
  notes.push(li(t(rs.deck_procedure === 'two_alternating_decks' ? 'rules.deck_two' : 'rules.deck_one')));
  if (info.cap !== null && info.cap !== undefined) notes.push(li(t('rules.cap', { amount: formatMoney(info.cap) })));
  if (rs.side_bets_not_above_ante) notes.push(li(t('rules.side_not_above_ante')));
  const pm = rs.play_multiples ?? {};
  const mult = (arr) => (arr ?? []).map((m) => t('rules.multiple', { m })).join(' / ');
  notes.push(li(t('rules.play_multiples', { pre: mult(pm.pre_flop), flop: mult(pm.flop), river: mult(pm.river) })));
  notes.push(li(t('rules.timers')));
  notes.push(li(t('rules.malfunction')));

  const limits = info.limits ?? {};
  const limitRows = [];
  const range = (l) => `${formatMoney(l[0])} – ${formatMoney(l[1])}`;
  if (limits.ante) limitRows.push(h('tr', {}, h('th', {}, t('spot.ante')), h('td', { class: 'money' }, range(limits.ante))));
  if (limits.ante) limitRows.push(h('tr', {}, h('th', {}, t('spot.blind')), h('td', {}, t('limits.blind_equal'))));
  if (limits.trips) limitRows.push(h('tr', {}, h('th', {}, t('spot.trips')), h('td', { class: 'money' }, range(limits.trips))));
  if (limits.bad_beat) limitRows.push(h('tr', {}, h('th', {}, t('spot.bad_beat')), h('td', { class: 'money' }, range(limits.bad_beat))));
  limitRows.push(h('tr', {}, h('th', {}, t('spot.play')), h('td', {}, t('limits.play'))));

  body.append(
    h('p', { class: 'rules-preset' }, t('rules.preset'), ' ', h('b', { translate: 'no' }, rs.name), rs.seed ? ` · ${t('rules.seed', { seed: rs.seed })}` : ''),
    h('h3', {}, t('rules.round_title')),
    h('ol', { class: 'rules-steps' }, ...steps),
    h('h3', {}, t('rules.settlement_title')),
    h('ul', { class: 'rules-notes' }, ...notes),
    h('div', { class: 'pay-tables' }, payTable('pays.blind', rs.blind_pays, 'pays-blind'), payTable('pays.trips', rs.trips_pays, 'pays-trips'), payTable('pays.bad_beat', rs.bad_beat_pays, 'pays-bad-beat')),
    h('h3', {}, t('limits.title')),
    h('table', { class: 'data-table' }, h('tbody', {}, ...limitRows)),
    h('h3', {}, t('rules.rtp_title')),
    rtpFigures(info.figures),
  );
}

// The return to player of the table's rule set, from the exact analysis
// (uth.analysis, via GET /api/tables/{id} "figures"); never typed here.
function rtpFigures(fig) {
  if (fig?.status !== 'ready') {
    const key = fig?.status === 'failed' ? 'rules.rtp_failed' : 'rules.rtp_pending';
    return h('p', { class: 'rtp rtp-pending', id: 'rtp', 'data-rtp': fig?.status ?? 'pending' }, t(key));
  }
  const pct = (x, digits = 2) => `${(x * 100).toFixed(digits)}%`;
  const lines = [t('rules.rtp_figures', { total: pct(fig.rtp_total_bet), initial: pct(fig.rtp_initial_bet), edge: pct(fig.house_edge, 3) })];
  if (fig.trips_rtp !== null && fig.trips_rtp !== undefined) lines.push(t('rules.rtp_trips', { rtp: pct(fig.trips_rtp) }));
  if (fig.bad_beat_rtp !== null && fig.bad_beat_rtp !== undefined) lines.push(t('rules.rtp_bad_beat', { rtp: pct(fig.bad_beat_rtp) }));
  return h('p', { class: 'rtp', id: 'rtp', 'data-rtp': 'ready' }, lines.join(' '));
}

// -------------------------------------------------------------------- keys
const KEYS = [
  ['keys.chips', '⇧1 … ⇧5'],
  ['keys.ante', 'key.spot_ante'],
  ['keys.trips', 'key.spot_trips'],
  ['keys.bad_beat', 'key.spot_bad_beat'],
  ['keys.undo', 'key.undo'],
  ['keys.double', 'key.double'],
  ['keys.repeat', 'key.repeat'],
  ['keys.play_4x', 'key.play_4x'],
  ['keys.play_3x', 'key.play_3x'],
  ['keys.play_2x', 'key.play_2x'],
  ['keys.play_1x', 'key.play_1x'],
  ['keys.check', 'key.check'],
  ['keys.fold', 'key.fold'],
  ['keys.history', 'key.history'],
  ['keys.rules', 'key.rules'],
  ['keys.help', '?'],
];

export function openKeys() {
  show('dlg-keys', () => {
    const body = $('keys-body');
    body.replaceChildren(
      h('p', { class: 'muted' }, t('keys.intro')),
      h(
        'table',
        { class: 'data-table keys-table' },
        h('tbody', {}, ...KEYS.map(([label, key]) => h('tr', {}, h('td', {}, h('kbd', {}, key.startsWith('key.') ? t(key) : key)), h('td', {}, t(label))))),
      ),
    );
  });
}
