// The table's reducer (src/uth/web/static/reducer.js), message by message of
// docs/protocol.md: each test states the whole new state (the previous one with the
// fields the message changes) and the effects, so that a field changed by mistake fails.
// Run: node --test tests/web/js/ (tests/web/test_reducer_node.py runs it under pytest).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  declinedReason,
  errorKey,
  initialState,
  lostMemo,
  MESSAGE_TYPES,
  others,
  reconnectNotices,
  reduce,
  shownBets,
  totalBet,
  voidedKey,
} from '../../../src/uth/web/static/reducer.js';

const GAME = '20261129-233015-0001';
const NEXT = '20261129-233057-0002';
const T0 = '2026-11-29T23:30:15+00:00';
const T10 = '2026-11-29T23:30:25+00:00';
const T20 = '2026-11-29T23:30:35+00:00';
const ms = (iso) => Date.parse(iso);

const INFO = {
  id: 'live-1',
  name: 'Live',
  limits: { ante: [5, 1000], trips: [5, 100], bad_beat: null },
  chips: [1, 5, 25, 100, 500],
  rule_set: { shared_hand: true, play_multiples: { pre_flop: [4, 3], flop: [2], river: [1] } },
};
const BETS0 = { ante: 0, blind: 0, trips: 0, bad_beat: 0, play: 0 };
const BETS = { ante: 10, blind: 10, trips: 5, bad_beat: 0, play: 0 };

function own(phase, extra = {}) {
  return {
    phase,
    balance: 975,
    bets: BETS,
    total_bet: 25,
    legal_actions: [],
    can_undo: false,
    can_double: false,
    can_repeat: false,
    decisions: [],
    ...extra,
  };
}

/** The state after `messages`, from a fresh one with the table loaded. */
function after(...messages) {
  let s = reduce(initialState(), { type: 'client/table', info: INFO });
  for (const m of messages) s = reduce(s, m);
  return s;
}

const SNAP_BETTING = {
  type: 'snapshot',
  player: { id: 1, name: 'alice', seat: null },
  game_number: GAME,
  phase: 'betting',
  light: 'green',
  now: T0,
  deadline: T10,
  seconds_left: 10.0,
  hole_cards: [],
  player_hand: [],
  board: [],
  state: own('betting', { balance: 1000, bets: BETS0, total_bet: 0, can_repeat: true }),
  table_bets: { players: 0, total: 0, listed: [] },
  last_result: null,
  paused: null,
  last_bets: null,
};

/** A player seated in the betting window with an Ante of 10 and Trips of 5. */
function betting() {
  return after(SNAP_BETTING, { type: 'state', state: own('betting', { can_undo: true, can_double: true }) });
}

/** The same player after the deal, the pre-flop decision open. */
function deciding() {
  return reduce(
    reduce(reduce(betting(), { type: 'light', light: 'red', now: T10, deadline: null, seconds_left: null }), {
      type: 'betting_closed',
      hands: 1,
      in_round: true,
      game_number: GAME,
    }),
    { type: 'player_hand_dealt', cards: ['8s', 'Qs'] },
  );
}

const REQUIRED = {
  type: 'decision_required',
  street: 'pre_flop',
  game_number: GAME,
  legal_actions: ['play_4x', 'play_3x', 'check'],
  hand: { category: 'high_card', cards: ['Qs', '8s'] },
  now: T10,
  deadline: T20,
  seconds_left: 10.0,
};

const SETTLEMENT = {
  type: 'settlement',
  game_number: GAME,
  outcome: 'win',
  category: 'straight',
  best_five: ['Qs', 'Jh', 'Tc', '9c', '8s'],
  wagers: {
    ante: { stake: 10, result: 'win', net: 10 },
    blind: { stake: 10, result: 'win', net: 10 },
    play: { stake: 40, result: 'win', net: 40 },
    trips: { stake: 5, result: 'win', net: 20 },
    bad_beat: { stake: 0, result: 'no_action', net: 0 },
  },
  net: 80,
  balance: 1080,
};

const DEALER = {
  type: 'dealer_revealed',
  cards: ['3c', 'Js'],
  category: 'pair',
  best_five: ['Js', 'Jh', 'Qc', 'Tc', '9c'],
  qualifies: true,
  announcement: 'Dealer has a pair, qualifies',
};

describe('initial state and the page events', () => {
  it('starts idle, red, with nothing known', () => {
    const s = initialState();
    assert.equal(s.phase, 'idle');
    assert.equal(s.light, 'red');
    assert.equal(s.connected, false);
    assert.deepEqual(s.cards, []);
    assert.deepEqual(s.pending, {});
    assert.deepEqual(s.effects, []);
  });

  it('client/table keeps the table and whether its hand is shared', () => {
    const s0 = initialState();
    const s = reduce(s0, { type: 'client/table', info: INFO });
    assert.deepEqual(s, { ...s0, info: INFO, sharedHand: true, effects: [] });
  });

  it('client/sent, client/connecting and client/disconnected', () => {
    const s0 = deciding();
    const sent = reduce(s0, { type: 'client/sent', id: 'x-1', command: { type: 'decide', action: 'check' } });
    assert.deepEqual(sent, { ...s0, pending: { 'x-1': { type: 'decide', action: 'check' } }, effects: [] });
    assert.deepEqual(reduce(sent, { type: 'client/connecting' }), { ...s0, pending: {}, effects: [] });
    const s1 = reduce(s0, REQUIRED);
    const down = reduce(s1, { type: 'client/disconnected' });
    assert.deepEqual(down, { ...s1, connected: false, decision: null, effects: [] });
  });
});

describe('snapshot', () => {
  it('in the betting window: the table, the player, the timer, the own state', () => {
    const s0 = after();
    const s = reduce(s0, SNAP_BETTING);
    assert.deepEqual(s, {
      ...s0,
      connected: true,
      player: { id: 1, name: 'alice', seat: null },
      gameNumber: GAME,
      phase: 'betting',
      light: 'green',
      deadline: ms(T10),
      own: SNAP_BETTING.state,
      tableBets: { players: 0, total: 0, listed: [] },
      effects: [
        { type: 'balance', balance: 1000 },
        { type: 'snapshot', snapshot: SNAP_BETTING },
      ],
    });
  });

  it('mid-round: the cards, the board, the decisions and the open decision', () => {
    const snap = {
      ...SNAP_BETTING,
      phase: 'flop',
      light: 'red',
      now: T10,
      deadline: T20,
      player_hand: ['8s', 'Qs'],
      board: ['Jh', 'Qc', '7h'],
      state: own('flop', { legal_actions: ['play_2x', 'check'], decisions: ['check'], hand: { category: 'pair', cards: ['Qs', 'Qc'] } }),
      table: { players: 2, phase: 'flop' },
      trainer: { on: true, session_cost: 0.5, rounds: 1, advice: null },
    };
    const s0 = after();
    const s = reduce(s0, snap);
    assert.deepEqual(s, {
      ...s0,
      connected: true,
      info: { ...INFO, players: 2, phase: 'flop' },
      player: snap.player,
      gameNumber: GAME,
      phase: 'flop',
      light: 'red',
      deadline: ms(T20),
      own: snap.state,
      roundBets: BETS,
      inRound: true,
      dealt: true,
      cards: ['8s', 'Qs'],
      board: ['Jh', 'Qc', '7h'],
      decisions: ['check'],
      decision: { street: 'flop', legal: ['play_2x', 'check'], deadline: ms(T20), hand: { category: 'pair', cards: ['Qs', 'Qc'] } },
      trainer: { on: true, session_cost: 0.5, rounds: 1, advice: null, review: null },
      tableBets: snap.table_bets,
      effects: [
        { type: 'balance', balance: 975 },
        { type: 'snapshot', snapshot: snap },
      ],
    });
  });

  it('at the showdown: the last result, and the dealer face up when the snapshot carries it', () => {
    const { type: _t, ...dealer } = DEALER;
    const snap = {
      ...SNAP_BETTING,
      phase: 'pause',
      light: 'red',
      player_hand: ['8s', 'Qs'],
      board: ['Jh', 'Qc', '7h', '9c', 'Tc'],
      state: own('pause', { balance: 1080, bets: { ...BETS, play: 40 }, total_bet: 65 }),
      last_result: SETTLEMENT,
      dealer,
    };
    const s0 = after();
    const s = reduce(s0, snap);
    assert.deepEqual(s, {
      ...s0,
      connected: true,
      player: snap.player,
      gameNumber: GAME,
      phase: 'pause',
      light: 'red',
      deadline: ms(T10),
      own: snap.state,
      cards: ['8s', 'Qs'],
      board: snap.board,
      dealt: true,
      inRound: true,
      dealer,
      settlement: SETTLEMENT,
      mine: { category: 'straight', best_five: SETTLEMENT.best_five, outcome: 'win' },
      roundBets: { ante: 10, blind: 10, play: 40, trips: 5, bad_beat: 0 },
      tableBets: snap.table_bets,
      effects: [
        { type: 'balance', balance: 1080 },
        { type: 'balance', balance: 1080 },
        { type: 'snapshot', snapshot: snap },
      ],
    });
    // Without the field (a server that does not send it yet) the dealer stays face down.
    const { dealer: _d, ...older } = snap;
    assert.equal(reduce(s0, older).dealer, null);
  });

  it('after a voided round: the banner from the last result', () => {
    const last = { type: 'round_voided', game_number: GAME, reason: 'card exposed', balance: 1000 };
    const snap = { ...SNAP_BETTING, phase: 'pause', light: 'red', state: own('pause'), last_result: last };
    const s = after(snap);
    assert.deepEqual(s.banner, { key: 'banner.voided', kind: 'info', vars: { game: GAME }, game: GAME });
    assert.equal(s.settlement, null);
  });

  it('a snapshot in a new window takes down an old banner; in the same window keeps it', () => {
    const declined = reduce(betting(), { type: 'bets_declined', game_number: GAME, code: 'hidden', reason: 'hidden: ...' });
    assert.equal(reduce(declined, SNAP_BETTING).banner.key, 'banner.declined_hidden');
    assert.equal(reduce(declined, { ...SNAP_BETTING, game_number: NEXT }).banner, null);
  });
});

describe('replies', () => {
  it('accepted: the own state, the stale errors cleared, the maximum notice', () => {
    const s0 = reduce(betting(), { type: 'client/sent', id: 'a-1', command: { type: 'place_bet', spot: 'trips', amount: 100 } });
    const state = own('betting', { bets: { ...BETS, trips: 100 }, total_bet: 120, balance: 880 });
    const s = reduce(s0, { type: 'accepted', id: 'a-1', state, notice: 'maximum' });
    assert.deepEqual(s, {
      ...s0,
      own: state,
      pending: {},
      effects: [
        { type: 'balance', balance: 880 },
        { type: 'clear_toasts', kind: 'error' },
        { type: 'toast', key: 'notice.maximum', kind: 'info' },
      ],
    });
  });

  it('accepted for a decision: the panel closes and the decision is confirmed', () => {
    const s0 = reduce(reduce(deciding(), REQUIRED), { type: 'client/sent', id: 'd-1', command: { type: 'decide', action: 'check', street: 'pre_flop' } });
    const state = own('pre_flop', { decisions: ['check'] });
    const s = reduce(s0, { type: 'accepted', id: 'd-1', state });
    assert.deepEqual(s, {
      ...s0,
      own: state,
      pending: {},
      decision: null,
      autoNotice: null,
      confirmed: { street: 'pre_flop', action: 'check' },
      effects: [
        { type: 'balance', balance: 975 },
        { type: 'clear_toasts', kind: 'error' },
      ],
    });
  });

  it('accepted with a snapshot is the snapshot', () => {
    const s0 = reduce(after(), { type: 'client/sent', id: 's-1', command: { type: 'snapshot' } });
    const s = reduce(s0, { type: 'accepted', id: 's-1', state: SNAP_BETTING.state, snapshot: SNAP_BETTING });
    assert.deepEqual(s, { ...reduce(after(), SNAP_BETTING) });
  });

  it('error: the code worded (an unknown code as "refused"), a refused decision asks for a snapshot', () => {
    const s0 = reduce(betting(), { type: 'client/sent', id: 'b-2', command: { type: 'place_bet', spot: 'ante', amount: 5000 } });
    const s = reduce(s0, { type: 'error', id: 'b-2', code: 'insufficient_funds', message: 'amount: ...' });
    assert.deepEqual(s, { ...s0, pending: {}, effects: [{ type: 'toast', key: 'error.insufficient_funds', kind: 'error' }] });
    const odd = reduce(betting(), { type: 'error', id: 'zz', code: 'brand_new_code', message: 'English text' });
    assert.deepEqual(odd.effects, [{ type: 'toast', key: 'error.generic', kind: 'error' }]);
    const d0 = reduce(reduce(deciding(), REQUIRED), { type: 'client/sent', id: 'd-2', command: { type: 'decide', action: 'play_4x' } });
    const d = reduce(d0, { type: 'error', id: 'd-2', code: 'wrong_phase', message: 'decide: ...' });
    assert.deepEqual(d.effects, [
      { type: 'toast', key: 'error.wrong_phase', kind: 'error' },
      { type: 'send', command: { type: 'snapshot' } },
    ]);
  });

  it('error before the snapshot (the handshake) leaves the table with the reason', () => {
    const s0 = after();
    const s = reduce(s0, { type: 'error', id: null, code: 'table_full', message: 'table: every seat is taken' });
    assert.deepEqual(s, { ...s0, effects: [{ type: 'leave', key: 'error.table_full' }] });
  });
});

describe('the betting window', () => {
  it('betting_open: a new round, the timer, a fresh snapshot asked for', () => {
    const s0 = reduce(after(SNAP_BETTING), { type: 'settlement', ...SETTLEMENT });
    const msg = { type: 'betting_open', game_number: NEXT, light: 'green', now: T0, deadline: T10, seconds_left: 15.0 };
    const s = reduce(s0, msg);
    assert.deepEqual(s, {
      ...s0,
      gameNumber: NEXT,
      phase: 'betting',
      light: 'green',
      deadline: ms(T10),
      settlement: null,
      mine: null,
      roundBets: null,
      effects: [{ type: 'send', command: { type: 'snapshot' } }],
    });
  });

  it('light: yellow keeps betting open, red closes it', () => {
    const s0 = betting();
    const yellow = reduce(s0, { type: 'light', light: 'yellow', now: T0, deadline: T10, seconds_left: 3.0 });
    assert.deepEqual(yellow, { ...s0, light: 'yellow', effects: [] });
    const red = reduce(yellow, { type: 'light', light: 'red', now: T10, deadline: null, seconds_left: null });
    assert.deepEqual(red, { ...yellow, light: 'red', phase: 'closed', deadline: null, effects: [] });
  });

  it('table_bets: the whole table; others() leaves this player out', () => {
    const msg = {
      type: 'table_bets',
      players: 2,
      total: 75,
      listed: [
        { id: 2, name: 'bob', seat: null, ante: 25, trips: 0, bad_beat: 0, total: 50 },
        { id: 1, name: 'alice', seat: null, ante: 10, trips: 5, bad_beat: 0, total: 25 },
      ],
    };
    const s0 = betting();
    const s = reduce(s0, msg);
    const { type: _t, ...bets } = msg;
    assert.deepEqual(s, { ...s0, tableBets: bets, effects: [] });
    assert.deepEqual(others(s), { players: 1, total: 50, listed: [msg.listed[0]] });
  });

  it('state (another tab): the own state and the balance', () => {
    const s0 = after(SNAP_BETTING);
    const state = own('betting');
    assert.deepEqual(reduce(s0, { type: 'state', state }), { ...s0, own: state, effects: [{ type: 'balance', balance: 975 }] });
  });

  it('bets_declined: the reason from the code and the limits, never from the English text', () => {
    const s0 = after(SNAP_BETTING, { type: 'state', state: own('betting', { bets: { ...BETS, ante: 1, blind: 1 } }) });
    const msg = { type: 'bets_declined', game_number: GAME, code: 'outside_limits', field: 'wagers.ante', reason: 'wagers.ante: the Ante must be between 5.00 and 1000.00, got 1.00' };
    const s = reduce(s0, msg);
    const banner = { key: 'banner.declined_min_ante', vars: { min: 5 }, kind: 'warn', game: GAME };
    assert.deepEqual(s, {
      ...s0,
      banner,
      declinedNote: banner,
      inRound: false,
      roundBets: null,
      effects: [{ type: 'send', command: { type: 'snapshot' } }],
    });
    for (const code of ['hidden', 'closed', 'left', 'insufficient_funds']) {
      assert.deepEqual(declinedReason(s0, { code, reason: 'whatever English' }), { key: `banner.declined_${code}` });
    }
    assert.deepEqual(declinedReason(s0, { code: 'brand_new', reason: 'hidden' }), { key: 'banner.declined' });
    // The next Ante takes the note down.
    const again = reduce(s, { type: 'state', state: own('betting') });
    assert.equal(again.declinedNote, null);
    assert.equal(again.banner, null);
  });
});

describe('the round', () => {
  it('betting_closed: dealt, in the round, the round bets from the own state', () => {
    const s0 = reduce(betting(), { type: 'light', light: 'red', now: T10, deadline: null });
    const s = reduce(s0, { type: 'betting_closed', hands: 2, in_round: true, game_number: GAME });
    assert.deepEqual(s, { ...s0, phase: 'closed', light: 'red', dealt: true, inRound: true, roundBets: BETS, effects: [] });
    const watching = reduce(s0, { type: 'betting_closed', hands: 2, in_round: false, game_number: GAME });
    assert.equal(watching.inRound, false);
    assert.equal(watching.roundBets, null);
  });

  it('player_hand_dealt and hole_cards_dealt (own cards only)', () => {
    const s0 = betting();
    assert.deepEqual(reduce(s0, { type: 'player_hand_dealt', cards: ['8s', 'Qs'] }), { ...s0, cards: ['8s', 'Qs'], effects: [] });
    assert.deepEqual(reduce(s0, { type: 'hole_cards_dealt', player: '1', cards: ['Ah', 'Kd'] }), { ...s0, cards: ['Ah', 'Kd'], effects: [] });
    assert.deepEqual(reduce(s0, { type: 'hole_cards_dealt', player: '2', cards: ['2c', '3c'] }), { ...s0, effects: [] });
  });

  it('decision_required: the panel, its timer, the cards brought into view', () => {
    const s0 = deciding();
    const s = reduce(s0, REQUIRED);
    assert.deepEqual(s, {
      ...s0,
      phase: 'pre_flop',
      deadline: ms(T20),
      confirmed: null,
      decision: { street: 'pre_flop', legal: ['play_4x', 'play_3x', 'check'], deadline: ms(T20), hand: REQUIRED.hand },
      effects: [{ type: 'reveal_hand' }],
    });
  });

  it('decision: the player’s own, the timer’s (AUTO), and another player’s ignored', () => {
    const s0 = reduce(deciding(), REQUIRED);
    const mine = reduce(s0, { type: 'decision', player: '1', street: 'pre_flop', action: 'play_4x', multiple: 4, play: 40, auto: false });
    assert.deepEqual(mine, {
      ...s0,
      decision: null,
      decisions: ['play_4x'],
      confirmed: { street: 'pre_flop', action: 'play_4x' },
      roundBets: { ...BETS, play: 40 },
      effects: [],
    });
    const auto = reduce(s0, { type: 'decision', player: '1', street: 'pre_flop', action: 'check', multiple: 0, play: 0, auto: true });
    assert.deepEqual(auto, { ...s0, decision: null, decisions: ['auto:check'], autoNotice: 'auto_check', effects: [] });
    assert.deepEqual(reduce(s0, { type: 'decision', player: '2', action: 'fold', auto: true }), { ...s0, effects: [] });
    assert.equal(totalBet(mine), 65);
    assert.deepEqual(shownBets(mine), { ...BETS, play: 40 });
  });

  it('flop_turned and turn_and_river_turned', () => {
    const s0 = reduce(reduce(deciding(), REQUIRED), { type: 'decision', player: '1', street: 'pre_flop', action: 'check', play: 0, auto: false });
    const flop = reduce(s0, { type: 'flop_turned', cards: ['Jh', 'Qc', '7h'] });
    assert.deepEqual(flop, { ...s0, phase: 'flop', confirmed: null, board: ['Jh', 'Qc', '7h'], effects: [] });
    const river = reduce(flop, { type: 'turn_and_river_turned', cards: ['9c', 'Tc'] });
    assert.deepEqual(river, { ...flop, phase: 'river', board: ['Jh', 'Qc', '7h', '9c', 'Tc'], effects: [] });
  });

  it('dealer_revealed, antes_returned, hand_shown, hand_folded', () => {
    const s0 = reduce(deciding(), { type: 'turn_and_river_turned', cards: ['9c', 'Tc'] });
    const { type: _t, ...dealer } = DEALER;
    const revealed = reduce(s0, DEALER);
    assert.deepEqual(revealed, { ...s0, phase: 'settled', decision: null, confirmed: null, dealer, effects: [] });
    assert.deepEqual(reduce(revealed, { type: 'antes_returned', hands: 2 }), { ...revealed, antesReturned: true, effects: [] });
    const shownMsg = { type: 'hand_shown', player: '1', cards: ['8s', 'Qs'], category: 'straight', best_five: SETTLEMENT.best_five, outcome: 'win' };
    const { type: _u, ...mine } = shownMsg;
    assert.deepEqual(reduce(revealed, shownMsg), { ...revealed, mine, effects: [] });
    assert.deepEqual(reduce(revealed, { ...shownMsg, player: '2' }), { ...revealed, effects: [] });
    assert.deepEqual(reduce(s0, { type: 'hand_folded', player: '1' }), { ...s0, mine: { folded: true }, effects: [] });
    assert.deepEqual(reduce(s0, { type: 'hand_folded', player: '2' }), { ...s0, effects: [] });
  });

  it('settlement: the result, the stakes, the balance', () => {
    const s0 = reduce(deciding(), DEALER);
    const s = reduce(s0, SETTLEMENT);
    assert.deepEqual(s, {
      ...s0,
      phase: 'settled',
      deadline: null,
      settlement: SETTLEMENT,
      mine: { category: 'straight', best_five: SETTLEMENT.best_five, outcome: 'win' },
      roundBets: { ante: 10, blind: 10, play: 40, trips: 5, bad_beat: 0 },
      own: { ...s0.own, balance: 1080 },
      effects: [{ type: 'balance', balance: 1080 }],
    });
  });

  it('round_voided: the round on the table ends, the banner from the code, the balance', () => {
    const s0 = reduce(deciding(), REQUIRED);
    const msg = { type: 'round_voided', game_number: GAME, reason: 'card exposed by the shuffler', balance: 1000 };
    const s = reduce(s0, msg);
    assert.deepEqual(s, {
      ...s0,
      phase: 'voided',
      decision: null,
      deadline: null,
      paused: null,
      banner: { key: 'banner.voided', kind: 'info', vars: { game: GAME }, game: GAME },
      own: { ...s0.own, balance: 1000 },
      effects: [{ type: 'balance', balance: 1000 }],
    });
    // A restart's void (after the snapshot) is not the round on the table now.
    const restart = reduce(s0, { ...msg, code: 'server_restarted', reason: 'server restarted during the round' });
    assert.equal(restart.phase, 'pre_flop');
    assert.equal(restart.banner.key, 'banner.voided_restart');
    assert.equal(voidedKey('brand_new'), 'banner.voided');
  });

  it('round_paused and round_resumed: every timer stops, then starts again', () => {
    const s0 = reduce(deciding(), REQUIRED);
    const paused = reduce(s0, { type: 'round_paused', game_number: GAME, reason: 'deck', message: 'The round is paused' });
    assert.deepEqual(paused, { ...s0, paused: { since: null }, deadline: null, decision: { ...s0.decision, deadline: null }, effects: [] });
    const resumed = reduce(paused, { type: 'round_resumed', game_number: GAME, now: T10, deadline: T20, seconds_left: 10.0 });
    assert.deepEqual(resumed, { ...s0, effects: [] });
  });

  it('pause: the next window at the deadline, the light red', () => {
    const s0 = reduce(deciding(), SETTLEMENT);
    assert.deepEqual(reduce(s0, { type: 'pause', now: T10, deadline: T20, seconds_left: 2.0 }), {
      ...s0,
      phase: 'pause',
      light: 'red',
      deadline: ms(T20),
      effects: [],
    });
  });
});

describe('trainer', () => {
  const on = { type: 'accepted', id: null, state: own('betting'), trainer: { on: true, session_cost: 0, rounds: 0, advice: null } };

  it('trainer_advice and trainer_review go to the trainer panel; nothing with the trainer off', () => {
    const s0 = reduce(betting(), on);
    const advice = { type: 'trainer_advice', game_number: GAME, street: 'flop', actions: { play_2x: -0.3, check: -0.4 }, best: 'play_2x' };
    const a = reduce(s0, advice);
    assert.deepEqual(a, { ...s0, trainer: { ...s0.trainer, advice }, effects: [] });
    const review = { type: 'trainer_review', game_number: GAME, decisions: [], round_cost: 0.5, session_cost: 1.2, rounds: 3 };
    const r = reduce(a, review);
    assert.deepEqual(r, { ...a, trainer: { ...a.trainer, review, session_cost: 1.2, rounds: 3 }, effects: [] });
    const off = betting();
    assert.deepEqual(reduce(off, advice), { ...off, effects: [] });
  });
});

describe('unknown messages', () => {
  it('keep the state and are reported (never dropped silently)', () => {
    const s0 = betting();
    const s = reduce(s0, { type: 'mystery_message', x: 1 });
    assert.deepEqual(s, { ...s0, effects: [{ type: 'unknown', messageType: 'mystery_message' }] });
    assert.deepEqual(reduce(s0, {}).effects, [{ type: 'unknown', messageType: null }]);
    // A name that is a property of every object is no handler either.
    assert.deepEqual(reduce(s0, { type: 'toString' }).effects, [{ type: 'unknown', messageType: 'toString' }]);
  });

  it('every server message of docs/protocol.md has a handler', () => {
    const server = [
      'accepted', 'error', 'snapshot', 'betting_open', 'table_bets', 'light', 'bets_declined', 'betting_closed',
      'player_hand_dealt', 'hole_cards_dealt', 'decision_required', 'decision', 'flop_turned',
      'turn_and_river_turned', 'dealer_revealed', 'antes_returned', 'hand_shown', 'hand_folded', 'settlement',
      'round_voided', 'round_paused', 'round_resumed', 'state', 'pause', 'trainer_advice', 'trainer_review',
      'offer', 'banker', 'no_banker', 'seats', 'bank_left',
    ];
    assert.deepEqual(MESSAGE_TYPES.filter((t) => !t.startsWith('client/')).sort(), server.sort());
  });
});

describe('codes and reconnection', () => {
  it('errorKey: the protocol codes, else generic', () => {
    assert.equal(errorKey('round_paused'), 'error.round_paused');
    assert.equal(errorKey('unknown_command'), 'error.unknown_command');
    assert.equal(errorKey('nope'), 'error.generic');
  });

  it('reconnectNotices: the timer’s decisions, a settled or voided round, a round over', () => {
    const lost = lostMemo(reduce(deciding(), REQUIRED));
    assert.deepEqual(lost, { gameNumber: GAME, phase: 'pre_flop', inRound: true, decisions: [], betsOn: false });
    const flop = { game_number: GAME, phase: 'flop', state: { decisions: ['auto:check'] } };
    assert.deepEqual(reconnectNotices(lost, flop), [
      { key: 'conn.restored', vars: {} },
      { key: 'conn.check_while_away', vars: {} },
    ]);
    const settled = { game_number: GAME, phase: 'pause', last_result: { ...SETTLEMENT, type: 'settlement', net: -50 } };
    assert.deepEqual(reconnectNotices(lost, settled)[1], { key: 'conn.settled_lose', vars: { game: GAME, amount: 50 } });
    const voided = { game_number: GAME, phase: 'pause', last_result: { type: 'round_voided', game_number: GAME } };
    assert.deepEqual(reconnectNotices(lost, voided)[1], { key: 'conn.voided_while_away', vars: { game: GAME } });
    const later = { game_number: NEXT, phase: 'betting', last_result: null };
    assert.deepEqual(reconnectNotices(lost, later)[1], { key: 'conn.round_over', vars: { game: GAME } });
    assert.deepEqual(reconnectNotices(lostMemo(betting()), later), [{ key: 'conn.restored', vars: {} }]);
  });
});
