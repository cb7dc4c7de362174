// The table drawn from its state: the felt, the chips, the decision, the result, the
// panels, the status line and the connection overlay.
//
// renderTable(view) draws everything; renderTimers(view) only the counts (five times a
// second). `view` is what the page knows now:
//   state         the reducer's state (reducer.js)
//   tableId       the table open, or null
//   selectedChip  the chip the player picked
//   conn          the connection overlay: null while connected (or before the first
//                 drop), else {memo, failures, reconnectAt, serverDown, offline}
//   offset        server clock minus local clock, ms
//   actions       {selectChip(value), decide(action), sit(seat), behind(seat)} for the
//                 buttons drawn here
// Nothing here changes the state or talks to the server.
import { cardRow, cardSvg } from './cards.js';
import { chipColour, h } from './dom.js';
import { handName } from './hands.js';
import { formatMoney, t, tableName, tm } from './i18n.js';
import {
  backLine,
  balance,
  belowMinimum,
  canBet,
  canSit,
  chipEnabled,
  chips,
  followedSeat,
  isPlayerDealer,
  limit,
  num,
  offerForm,
  others,
  SPOTS,
  seats,
  STREETS,
  shownBets,
  totalBet,
} from './reducer.js';
import { decorateDecision, renderTrainerPanel } from './trainer.js';

const $ = (id) => document.getElementById(id);

/** Seconds left until `deadline` (server ms) on the server's clock, or null with no timer. */
function secondsLeft(view, deadline) {
  if (deadline === null || deadline === undefined) return null;
  return Math.max(0, (deadline - (Date.now() + view.offset)) / 1000);
}

export function renderTable(view) {
  if (!view.tableId) return;
  const s = view.state;
  const root = $('view-table');
  root.dataset.phase = s.phase;
  root.dataset.light = s.light;
  root.dataset.connected = String(s.connected);
  root.dataset.decisions = s.decisions.join(' ');
  $('t-name').textContent = tableName(s.info ?? { id: view.tableId });
  $('t-game').textContent = s.gameNumber ?? '—';
  const bal = balance(s);
  $('t-balance').textContent = bal === null ? '—' : formatMoney(bal);
  renderLight(s);
  renderCards(s);
  renderSpots(s);
  renderChips(view);
  renderActions(s);
  renderDecision(view);
  renderResult(s);
  renderTrainer(s);
  renderLimits(s);
  renderOthers(s);
  renderFeltPays(s);
  renderStatus(s);
  renderCardRoom(view);
  renderConnection(view);
  renderTimers(view);
}

export function renderTimers(view) {
  const s = view.state;
  if (view.conn) $('conn-lost-retry').textContent = retryText(view.conn);
  const left = secondsLeft(view, s.deadline);
  const count = $('light-count');
  // The light's count while betting is open, during the pause and (card rooms) the
  // offer of the bank; never "0s" (a closed window has no time left to show).
  const running = (s.phase === 'betting' && s.light !== 'red') || s.phase === 'pause' || s.phase === 'offer';
  const n = left === null ? 0 : Math.ceil(left);
  count.textContent = running && n > 0 ? t('timer.seconds', { n }) : '';
  const dc = $('decision-count');
  if (s.decision) {
    const dl = secondsLeft(view, s.decision.deadline);
    dc.textContent = dl === null ? '' : t('timer.seconds', { n: Math.ceil(dl) });
    dc.classList.toggle('urgent', dl !== null && dl <= 3);
  } else {
    dc.textContent = '';
  }
  if (s.cardRoom) {
    // The offer's count and the count of the seat whose turn it is.
    const ol = s.offer ? secondsLeft(view, s.offer.deadline) : null;
    $('cr-offer-count').textContent = ol === null ? '' : t('timer.seconds', { n: Math.ceil(ol) });
    const tl = s.turn ? secondsLeft(view, s.turn.deadline) : null;
    for (const node of document.querySelectorAll('#seats .seat-count')) {
      node.textContent = tl !== null && Number(node.dataset.seat) === num(s.turn?.seat) ? t('timer.seconds', { n: Math.ceil(tl) }) : '';
    }
  }
}

/**
 * The next try, counted down: "Reconnecting in 2s…" until a try has failed, then with
 * the attempt's number ("Attempt 3 failed. Next attempt in 4s…"); "Attempt 4…" while
 * a try is under way.
 */
function retryText(conn) {
  const wait = conn.reconnectAt === null ? 0 : Math.ceil((conn.reconnectAt - Date.now()) / 1000);
  if (!conn.failures) return wait > 0 ? t('conn.retry_in', { n: wait }) : t('conn.retrying');
  if (wait > 0) return t('conn.attempt_failed', { k: conn.failures, n: wait });
  return t('conn.attempt', { k: conn.failures + 1 });
}

/**
 * The overlay while the connection is down: what is true now (the table's connection
 * dropped; the browser is offline; the server does not answer), what it means for the
 * player's bets and hand, and the next try.
 */
function renderConnection(view) {
  const box = $('conn-lost');
  const conn = view.conn;
  box.hidden = !conn;
  if (!conn) return;
  const l = conn.memo;
  let title = 'conn.lost_title';
  let key = 'conn.lost_watching';
  if (conn.offline) title = 'conn.offline_title';
  else if (conn.serverDown) title = 'conn.unreachable_title';
  if (l.betsOn) key = 'conn.lost_betting';
  else if (l.inRound) key = conn.serverDown ? 'conn.unreachable_round' : 'conn.lost_round';
  const head = $('conn-lost-title');
  head.textContent = t(title);
  head.dataset.key = title;
  $('conn-lost-what').textContent = t(key);
  $('conn-lost-what').dataset.key = key;
}

function renderLight(s) {
  const box = $('light-box');
  box.dataset.light = s.light;
  let key;
  if (s.phase === 'betting') key = s.light === 'yellow' ? 'light.yellow' : 'light.green';
  else if (s.phase === 'pause') key = 'light.next_round';
  else if (s.phase === 'idle') key = 'light.waiting';
  else if (s.phase === 'offer') key = 'light.offer';
  else key = 'light.red';
  $('light-status').textContent = t(key);
  // An overlay under the light (beside it on phones): it takes no room, so nothing
  // moves when it shows.
  const auto = $('auto-notice');
  auto.hidden = !s.autoNotice;
  auto.textContent = s.autoNotice ? t(`auto.${s.autoNotice}`) : '';
}

function renderCards(s) {
  // Dealer: face down once dealt, face up at the showdown.
  const dealerCards = $('dealer-cards');
  dealerCards.replaceChildren();
  const dealerBest = s.dealer ? new Set(s.dealer.best_five) : null;
  if (s.dealer) dealerCards.append(cardRow(s.dealer.cards, { highlight: dealerBest, dimOthers: true, bestClass: 'best-dealer' }));
  else if (s.dealt) dealerCards.append(cardRow([null, null]));
  else dealerCards.append(placeholders(2));
  const ann = $('announcement');
  ann.hidden = !s.dealer;
  ann.textContent = s.dealer ? announcement(s.dealer) : '';
  ann.classList.toggle('qualifies', Boolean(s.dealer?.qualifies));

  // Board: five slots, turned as the streets come.
  const mineBest = s.mine?.best_five ? new Set(s.mine.best_five) : null;
  const board = $('board');
  board.replaceChildren();
  for (let i = 0; i < 5; i += 1) {
    const code = s.board[i];
    if (code) {
      const svg = cardSvg(code);
      if (mineBest && mineBest.has(code)) svg.classList.add('best');
      if (dealerBest && dealerBest.has(code)) svg.classList.add('best-dealer');
      if (mineBest && !mineBest.has(code) && !(dealerBest && dealerBest.has(code))) svg.classList.add('dim');
      board.append(svg);
    } else if (s.dealt) board.append(cardSvg(null));
    else board.append(placeholders(1));
  }

  // The player's hand: own hole cards, or the one shared hand of a live table.
  // A back-line bettor without a seat: their hand is the seat's they bet behind.
  const behindSeat = s.inRound ? followedSeat(s) : null;
  $('player-label').textContent = s.sharedHand ? t('table.player_hand_shared') : behindSeat ? t('table.hand_behind', { n: behindSeat }) : t('table.your_hand');
  const pc = $('player-cards');
  pc.replaceChildren();
  if (s.cards.length) {
    pc.append(cardRow(s.cards, { highlight: mineBest, dimOthers: Boolean(mineBest) }));
    pc.classList.toggle('folded', Boolean(s.mine?.folded));
  } else if (s.dealt && !s.sharedHand && s.inRound) pc.append(cardRow([null, null]));
  else pc.append(placeholders(2));
  const hn = $('player-hand-name');
  if (s.mine?.folded) {
    hn.hidden = false;
    hn.textContent = t('hand.folded');
  } else if (s.mine?.category) {
    hn.hidden = false;
    hn.textContent = handName(s.mine, { capital: true }); // "Pair of sixes"
  } else if (s.decision?.hand) {
    // While deciding: the hand so far, from the server ("Pair of sixes").
    hn.hidden = false;
    hn.textContent = handName(s.decision.hand, { capital: true });
  } else {
    hn.hidden = true;
    hn.textContent = '';
  }
}

function renderSpots(s) {
  const bets = shownBets(s);
  const betting = canBet(s);
  const results = s.settlement?.wagers ?? null;
  const hasBadBeat = Boolean(s.info?.limits?.bad_beat);
  $('spot-bad_beat').hidden = !hasBadBeat;
  for (const spot of ['ante', 'blind', 'trips', 'bad_beat', 'play']) {
    const node = $(`spot-${spot}`);
    if (!node) continue;
    const amount = num(bets[spot]);
    const lim = limit(s, spot === 'blind' ? 'ante' : spot);
    const atMax = betting && lim && amount > 0 && amount >= lim.max && spot !== 'play';
    const res = results?.[spot];
    node.replaceChildren();
    node.append(h('span', { class: 'spot-label' }, t(`spot.${spot}`)));
    if (spot === 'trips' && !amount && !results) node.append(h('span', { class: 'spot-sub' }, t('spot.optional')));
    if (amount > 0) node.append(chipStack(amount));
    if (atMax) node.append(h('span', { class: 'spot-max' }, t('notice.max_tag')));
    if (res && res.result !== 'no_action' && num(res.stake) > 0) {
      const kind = res.result;
      const net = num(res.net);
      const label = h('span', { class: `spot-result res-${kind}`, 'data-result': kind }, h('span', { class: 'res-word' }, t(`result.${kind}`)));
      if (kind !== 'push') {
        label.dataset.net = String(net);
        label.append(' ', h('span', { class: 'res-net' }, formatSigned(net)));
      }
      node.append(label);
    }
    node.classList.toggle('has-bet', amount > 0);
    node.classList.toggle('blink', spot === 'trips' && betting && amount === 0 && num(bets.ante) > 0);
    if (node.tagName === 'BUTTON') {
      const open = betting && (spot === 'ante' || num(s.own?.bets?.ante) > 0);
      node.disabled = !open;
      node.classList.toggle('open', open);
      // The key hint only while the spot takes chips: at the showdown the spot
      // shows its result label there instead.
      if (open) node.append(h('kbd', {}, t(`key.spot_${spot}`)));
      node.setAttribute('aria-label', `${t(`spot.${spot}`)}: ${formatMoney(amount)}`);
    }
  }
}

function renderChips(view) {
  const s = view.state;
  const tray = $('chips');
  tray.setAttribute('aria-label', t('chips.title'));
  tray.replaceChildren();
  chips(s).forEach((value, i) => {
    const picked = value === view.selectedChip;
    const btn = h(
      'button',
      {
        type: 'button',
        class: `chip chip-${chipColour(value)}${picked ? ' selected' : ''}`,
        'data-chip': String(value),
        'aria-pressed': String(picked),
        'aria-label': t('chips.chip', { value: formatMoney(value) }),
      },
      chipFace(value),
      h('kbd', {}, `⇧${i + 1}`),
    );
    btn.disabled = !chipEnabled(s, value);
    btn.addEventListener('click', () => view.actions.selectChip(value));
    tray.append(btn);
  });
  $('betting-controls').classList.toggle('lit', canBet(s));
}

function renderActions(s) {
  // A seated player betting behind another seat: the buttons act on that hand.
  const own = backLine(s) ?? s.own ?? {};
  const betting = canBet(s);
  $('btn-undo').disabled = !(betting && own.can_undo);
  $('btn-double').disabled = !(betting && own.can_double);
  $('btn-repeat').disabled = !(betting && own.can_repeat);
  const warn = $('warning');
  const low = betting && own.warning === 'balance_low_for_play';
  warn.hidden = !low;
  // With the numbers: the balance left and the 1x Play it would not cover.
  const river = s.info?.rule_set?.play_multiples?.river ?? [1];
  const play = num(own.bets?.ante) * Math.min(...river);
  warn.textContent = low ? tm('warn.balance_low_for_play', { balance: num(own.balance), play }) : '';
  $('t-total').textContent = formatMoney(totalBet(s));
}

function renderDecision(view) {
  const s = view.state;
  const panel = $('decision');
  const d = s.decision;
  panel.hidden = !d;
  // Below the felt: the decision, or the chips. The result panel sits beside the
  // felt on wide screens; on narrower ones (under the felt) the chips give way to it.
  const resultShown = Boolean(s.settlement || s.banner);
  $('controls').classList.toggle('showing-result', resultShown && !d && !canBet(s));
  $('betting-controls').hidden = Boolean(d);
  const box = $('decision-buttons');
  box.replaceChildren();
  if (!d) return;
  $('decision-street').textContent = t(`street.${d.street}`);
  const why = $('decision-why');
  const short = shortPlays(s, d);
  why.hidden = !short;
  why.textContent = short ?? '';
  for (const action of d.legal) {
    const btn = h(
      'button',
      { type: 'button', class: `btn btn-decide decide-${action}`, 'data-action': action },
      h('span', {}, t(`action.${action}`)),
      h('kbd', {}, t(`key.${action}`)),
    );
    btn.disabled = Boolean(s.paused) || !s.connected;
    btn.addEventListener('click', () => view.actions.decide(action));
    box.append(btn);
  }
  const advice = s.trainer?.advice;
  if (advice?.street === d.street && advice.game_number === s.gameNumber) decorateDecision(box, advice);
}

/**
 * Why a Play the street offers is missing (the balance does not cover it), with the
 * numbers, or null: "Not enough for PLAY 4x (800): your balance is 600."
 */
function shortPlays(s, d) {
  const multiples = s.info?.rule_set?.play_multiples?.[d.street] ?? [];
  const ante = num(s.roundBets?.ante ?? s.own?.bets?.ante);
  const bal = balance(s) ?? 0;
  const missing = multiples.filter((m) => !d.legal.includes(`play_${m}x`) && ante * m > bal);
  if (!missing.length || ante <= 0) return null;
  const plays = missing.map((m) => `${t(`action.play_${m}x`)} (${formatMoney(ante * m)})`).join(t('decision.or'));
  const key = d.legal.some((a) => a.startsWith('play_')) ? 'decision.short' : `decision.short_${d.street === 'river' ? 'fold' : 'check'}`;
  return t(key, { plays, balance: formatMoney(bal) });
}

/** A seated player's back-line hand's result, one line (null: none). */
function lineResult(st) {
  const l = st.lineSettlement;
  if (!l) return null;
  const net = num(l.net);
  const key = net > 0 ? 'result.behind_win' : net < 0 ? 'result.behind_lose' : 'result.behind_even';
  return h('div', { class: 'result-behind', id: 'result-behind', 'data-net': String(net) }, t(key, { n: l.behind, amount: formatMoney(Math.abs(net)) }));
}

function renderResult(st) {
  const box = $('result');
  box.replaceChildren();
  const s = st.settlement ?? (st.lineSettlement ? { ...st.lineSettlement, wagers: {}, net: 0, line: true } : null);
  if (st.banner && !s) {
    box.hidden = false;
    box.className = `result outcome-${st.banner.kind}`;
    box.dataset.banner = st.banner.key;
    box.append(h('div', { class: 'result-head result-banner' }, tm(st.banner.key, st.banner.vars)));
    return;
  }
  delete box.dataset.banner;
  if (!s) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const net = num(s.net);
  const kind = net > 0 ? 'win' : net < 0 ? 'lose' : 'push';
  box.className = `result outcome-${kind}`;
  box.dataset.net = String(net);
  const head =
    net > 0 ? t('result.you_win', { amount: formatMoney(net) }) : net < 0 ? t('result.you_lose', { amount: formatMoney(-net) }) : t('result.even');
  const main = h('div', { class: 'result-main' });
  const side = h('div', { class: 'result-side' });
  box.append(main, side);
  const behindLine = lineResult(st);
  if (s.line) {
    // Only a back-line hand this round (the seat itself was not played).
    main.append(behindLine);
    side.append(h('div', { class: 'result-balance' }, h('span', {}, t('table.balance')), ' ', h('b', { class: 'money', id: 'result-balance' }, formatMoney(s.balance))));
    return;
  }
  main.append(h('div', { class: 'result-head' }, head));
  // The player-dealer's own result is the bank's (one `bank` line): no hand of theirs.
  const sub = s.wagers?.bank ? t('cr.bank_result') : s.outcome === 'fold' ? t('hand.folded') : t(`outcome.${s.outcome}`);
  main.append(h('div', { class: 'result-sub' }, sub));
  // At a card-room table: each wager's coverage by the bank (action, collected at the
  // fold, returned uncovered, partly covered).
  const covered = Object.values(s.wagers ?? {}).some((w) => w?.coverage);
  const rows = [];
  // `bank`: the player-dealer's own line (the bank put up, and its result).
  for (const wager of ['ante', 'blind', 'play', 'trips', 'bad_beat', 'bank']) {
    const w = s.wagers?.[wager];
    if (!w || num(w.stake) === 0) continue;
    rows.push(
      h(
        'tr',
        { 'data-wager': wager },
        h('th', {}, t(wager === 'bank' ? 'cr.bank' : `spot.${wager}`)),
        h('td', { class: 'money' }, formatMoney(w.stake)),
        h('td', { class: `res-${w.result}` }, t(`result.${w.result}`)),
        h('td', { class: 'money' }, formatSigned(num(w.net))),
      ),
    );
    if (covered && w.coverage) rows.at(-1).append(h('td', { class: 'coverage', 'data-coverage': w.coverage }, t(`coverage.${w.coverage}`)));
  }
  const heads = [t('result.wager'), t('result.stake'), t('result.result'), t('result.net')];
  if (covered) heads.push(t('coverage.title'));
  main.append(
    h(
      'table',
      { class: 'result-table' },
      h('thead', {}, h('tr', {}, ...heads.map((text) => h('th', {}, text)))),
      h('tbody', {}, ...rows),
    ),
  );
  if (behindLine) main.append(behindLine);
  if (st.dealer) {
    const line = h('div', { class: 'best-line' }, h('span', {}, t('result.dealer_best')));
    line.append(cardRow(st.dealer.best_five, { small: true }));
    side.append(line);
  }
  if (st.mine?.best_five?.length) {
    const line = h('div', { class: 'best-line' }, h('span', {}, t('result.your_best')));
    line.append(cardRow(st.mine.best_five, { small: true }));
    side.append(line);
  }
  side.append(h('div', { class: 'result-balance' }, h('span', {}, t('table.balance')), ' ', h('b', { class: 'money', id: 'result-balance' }, formatMoney(s.balance))));
}

/** The trainer toggle (play-money tables only) and panel. */
function renderTrainer(s) {
  const btn = $('btn-trainer');
  btn.hidden = !s.info?.trainer;
  btn.setAttribute('aria-pressed', String(Boolean(s.trainer?.on)));
  btn.disabled = !s.connected;
  renderTrainerPanel($('trainer-panel'), s.trainer);
}

function renderLimits(s) {
  const tbl = $('limits');
  tbl.replaceChildren();
  const limits = s.info?.limits ?? {};
  const row = (label, text) => h('tr', {}, h('th', {}, label), h('td', { class: 'money' }, text));
  const range = (l) => `${formatMoney(l[0])} – ${formatMoney(l[1])}`;
  if (limits.ante) {
    tbl.append(row(t('spot.ante'), range(limits.ante)));
    tbl.append(row(t('spot.blind'), t('limits.blind_equal')));
  }
  if (limits.trips) tbl.append(row(t('spot.trips'), range(limits.trips)));
  if (limits.bad_beat) tbl.append(row(t('spot.bad_beat'), range(limits.bad_beat)));
  tbl.append(row(t('spot.play'), t('limits.play')));
}

function renderOthers(s) {
  const box = $('others');
  box.replaceChildren();
  const o = others(s);
  if (!o.players) {
    box.append(h('p', { class: 'muted' }, t('others.none')));
    return;
  }
  box.append(h('p', { class: 'others-total' }, t('others.summary', { n: o.players, total: formatMoney(o.total) })));
  const list = h('ul', { class: 'others-list' });
  for (const p of o.listed ?? []) {
    const bets = [];
    for (const spot of SPOTS) {
      if (num(p[spot]) > 0) bets.push(h('span', { class: 'other-bet', 'data-spot': spot }, `${t(`spot.${spot}`)} `, h('b', { class: 'money' }, formatMoney(p[spot]))));
    }
    const who = h('span', { class: 'other-name' }, h('span', { translate: 'no' }, p.name));
    if (p.seat) who.append(' ', h('span', { class: 'seat-no' }, t('others.seat', { n: p.seat })));
    // A back-line bet (card rooms): the seat it is behind, so a seated player's two rows tell apart.
    if (p.behind) who.append(' ', h('span', { class: 'seat-no other-behind' }, t('others.behind', { n: p.behind })));
    list.append(h('li', { class: 'other', 'data-name': p.name }, who, h('span', { class: 'other-bets' }, ...bets)));
  }
  box.append(list);
}

function renderFeltPays(s) {
  const rs = s.info?.rule_set;
  $('felt-rule').textContent = t('felt.qualifies', { hand: t(`announce.${rs?.dealer_qualifier ?? 'pair'}`) });
  const box = $('felt-pays');
  box.replaceChildren();
  if (!rs) return;
  const table = (titleKey, pays) => {
    const entries = Object.entries(pays ?? {});
    if (!entries.length) return null;
    const rows = entries.map(([cat, odds]) => h('tr', {}, h('th', {}, t(`cat.${cat}`)), h('td', {}, t('odds', { odds: String(odds) }))));
    return h('div', { class: 'felt-paytable' }, h('div', { class: 'felt-paytitle' }, t(titleKey)), h('table', {}, h('tbody', {}, ...rows)));
  };
  const blind = table('pays.blind', rs.blind_pays);
  const trips = table('pays.trips', rs.trips_pays);
  if (blind) box.append(blind);
  if (trips) box.append(trips);
}

function renderStatus(s) {
  const line = $('status-line');
  let key = null;
  let vars = {};
  let kind = '';
  const low = s.phase === 'betting' ? belowMinimum(s) : null;
  if (!s.connected) key = 'status.connecting';
  else if (s.paused) {
    key = 'status.paused'; // 004: the round is paused, every player told it is investigated
    kind = 'warn';
  } else if (low) {
    // Chips may add up to the minimum; below it the bets are declined at the red light.
    key = `status.min_${low.spot}`;
    vars = { min: low.min };
    kind = 'warn';
  } else if (isPlayerDealer(s) && !s.settlement) key = 'cr.status_banking';
  else if (s.phase === 'betting' && num(s.own?.bets?.ante) > 0) key = 'status.bets_placed';
  else if (s.phase === 'betting' && s.declinedNote) {
    key = s.declinedNote.key;
    vars = s.declinedNote.vars ?? {};
    kind = 'warn';
  } else if (s.phase === 'betting') key = 'status.place_bets';
  else if (s.decision) key = null;
  else if (s.confirmed && STREETS.includes(s.phase)) {
    key = `confirm.${s.confirmed.action}`; // "You checked", until the next street
    kind = 'confirm';
  } else if (STREETS.includes(s.phase) || s.phase === 'closed') key = s.inRound ? 'status.waiting_others' : 'status.watching';
  else if (s.phase === 'pause' || s.phase === 'settled') key = 'status.next_round';
  line.textContent = key ? tm(key, vars) : '';
  line.dataset.status = key ?? '';
  line.className = `status-line${kind ? ` status-${kind}` : ''}`;
}

/**
 * A card-room table (issue 13): the seats (Sit between rounds, Bet behind while betting,
 * the player-dealer's seat and the seat deciding lit), and the panel with the offer
 * (the form when it is this player's), who banks, the bank and the bank left.
 */
function renderCardRoom(view) {
  const s = view.state;
  const panel = $('cardroom');
  const box = $('seats');
  panel.hidden = !s.cardRoom;
  box.hidden = !s.cardRoom;
  $('felt').classList.toggle('card-room', s.cardRoom);
  if (!s.cardRoom) return;
  box.replaceChildren();
  const sit = canSit(s);
  const betting = canBet(s);
  // A back-line bet behind an occupied seat other than the player-dealer's: a player
  // without a seat, or a seated player behind another seat than their own.
  const canBetBehind = betting;
  for (const row of seats(s)) {
    // settled: the seat the bank last settled (bank_left), as the bank goes down seat by seat.
    const cls = ['seat', row.me && 'me', row.dealer && 'dealer', row.turn && 'turn', row.settled && 'settled', s.behind === row.seat && 'behind']
      .filter(Boolean)
      .join(' ');
    const node = h(
      'div',
      { class: cls, 'data-seat': String(row.seat) },
      h('span', { class: 'seat-head' }, t('cr.seat', { n: row.seat })),
      row.name ? h('span', { class: 'seat-name', translate: 'no' }, row.name) : h('span', { class: 'seat-name seat-empty' }, t('cr.seat_empty')),
    );
    if (row.dealer) node.append(h('span', { class: 'seat-tag' }, t('cr.dealer_tag')));
    else if (row.me) node.append(h('span', { class: 'seat-tag' }, t('cr.you_tag')));
    if (row.turn) node.append(h('span', { class: 'seat-tag seat-turn' }, t('cr.turn_tag')));
    node.append(h('span', { class: 'seat-count', 'data-seat': String(row.seat) }));
    if (sit && !row.name) {
      const btn = h('button', { type: 'button', class: 'btn btn-small btn-sit', 'data-seat': String(row.seat) }, t('cr.sit'));
      btn.addEventListener('click', () => view.actions.sit(row.seat));
      node.append(btn);
    } else if (canBetBehind && row.name && !row.dealer && !row.me) {
      const on = s.behind === row.seat;
      const btn = h(
        'button',
        { type: 'button', class: 'btn btn-small btn-behind', 'data-seat': String(row.seat), 'aria-pressed': String(on) },
        t(on ? 'cr.behind_on' : 'cr.behind'),
      );
      btn.addEventListener('click', () => view.actions.behind(on ? null : row.seat));
      node.append(btn);
    }
    box.append(node);
  }

  const pd = s.playerDealer;
  const me = String(s.player?.id);
  const banker = $('cr-banker');
  const bankBox = $('cr-bank');
  bankBox.hidden = !pd;
  if (pd) {
    banker.textContent = String(pd.player_id) === me ? t('cr.banker_you', { bank: formatMoney(pd.bank) }) : t('cr.banker', { name: pd.name, bank: formatMoney(pd.bank) });
    banker.dataset.key = 'banker';
    $('cr-bank-total').textContent = formatMoney(pd.bank);
    $('cr-bank-left').textContent = formatMoney(pd.bank_left ?? pd.bank);
  } else if (s.noBanker) {
    banker.textContent = t(`cr.no_banker_${s.noBanker}`, {}, t('cr.no_banker_all_declined'));
    banker.dataset.key = `no_banker_${s.noBanker}`;
  } else {
    banker.textContent = s.offer ? '' : t('cr.waiting_offer');
    banker.dataset.key = '';
  }
  const declined = $('cr-declined');
  declined.hidden = !s.declined.length;
  declined.textContent = s.declined.length ? t('cr.declined', { names: s.declined.join(', ') }) : '';

  const o = s.offer;
  $('cr-offer').hidden = !o;
  let text = '';
  if (o?.to_you) text = t(o.answered ? 'cr.answered' : 'cr.offer_you');
  else if (o) text = o.seat === null ? t('cr.offer_to_backer', { name: o.name }) : t('cr.offer_to', { name: o.name, seat: o.seat });
  $('cr-offer-text').textContent = text;
  const form = offerForm(s);
  const f = $('offer-form');
  f.hidden = !form;
  panel.classList.toggle('offering', Boolean(form)); // on narrow screens: over the bottom of the window
  if (form) {
    const input = $('offer-bank');
    // A new offer starts at the table's minimum; the player's typing is kept across renders.
    const key = `${s.gameNumber}:${o.player_id}:${o.deadline}`;
    if (f.dataset.offer !== key) {
      f.dataset.offer = key;
      input.value = String(form.min);
    }
    input.min = String(form.min);
    if (form.max === null) input.removeAttribute('max');
    else input.max = String(form.max);
    $('offer-range').textContent =
      form.max === null ? t('cr.bank_min', { min: formatMoney(form.min) }) : t('cr.bank_range', { min: formatMoney(form.min), max: formatMoney(form.max) });
    for (const id of ['btn-accept', 'btn-decline']) $(id).disabled = !s.connected;
  }

  const turn = $('cr-turn');
  turn.hidden = !s.turn;
  if (s.turn) {
    const row = seats(s)[num(s.turn.seat) - 1];
    turn.textContent = String(s.turn.player_id) === me ? t('cr.turn_you') : t('cr.turn_other', { name: row?.name ?? '', n: s.turn.seat });
  }
  const behind = $('cr-behind');
  const line = s.own?.back_line;
  // A seated player's back-line hand: where the chips go, and its bets when not picked.
  const lineNote = s.player?.seat && line && num(line.total_bet) > 0 && s.behind !== line.behind;
  behind.hidden = !((s.behind && betting) || (lineNote && betting));
  behind.textContent = behind.hidden
    ? ''
    : s.behind
      ? t('cr.betting_behind', { n: s.behind })
      : t('cr.back_line_bets', { n: line.behind, total: formatMoney(line.total_bet) });
}

/**
 * When a decision opens, the player's hand and the board must be on screen: the
 * decision panel sticks to the bottom of the window and may cover them, or the
 * page may be scrolled past them. Scroll only when they are not visible.
 */
export function bringCardsIntoView() {
  const felt = $('felt');
  const top = $('dealer-cards').getBoundingClientRect().top;
  const bottom = $('player-cards').getBoundingClientRect().bottom;
  const cover = $('controls').getBoundingClientRect().top;
  const lim = Math.min(window.innerHeight, cover > top ? cover : window.innerHeight);
  if (top >= 0 && bottom <= lim) return;
  const y = window.scrollY + felt.getBoundingClientRect().top - 8;
  window.scrollTo({ top: Math.max(0, y), behavior: 'instant' });
}

function placeholders(n) {
  const frag = document.createDocumentFragment();
  for (let i = 0; i < n; i += 1) frag.append(h('span', { class: 'card-slot', 'aria-hidden': 'true' }));
  return frag;
}

function chipStack(amount) {
  return h('span', { class: `chip chip-${chipColour(amount)} chip-on-spot` }, chipFace(amount));
}

function chipFace(amount) {
  const text = formatMoney(amount);
  return h('span', { class: 'chip-face money', 'data-len': String(Math.min(7, text.length)) }, text);
}

function formatSigned(n) {
  if (n > 0) return `+${formatMoney(n)}`;
  if (n < 0) return `−${formatMoney(-n)}`;
  return formatMoney(0);
}

/**
 * "Dealer has a pair of eights: qualifies", in the page's language, from the
 * `dealer_revealed` message (category, best five in naming order, qualifies).
 */
export function announcement(dealer) {
  return t('announce', {
    hand: handName(dealer, { article: true }),
    verdict: t(dealer.qualifies ? 'announce.qualifies' : 'announce.not_qualifies'),
  });
}
