// The reducer at a California card-room table (issue 13; docs/protocol.md, "card room"):
// the offer of the player-dealer position, the banker, no banker, the seats, the turn,
// back-line bets and each wager's coverage. Each test states the whole new state.
// Run: node --test tests/web/js/ (tests/web/test_reducer_node.py runs it under pytest).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { canBet, canSit, initialState, isPlayerDealer, offerForm, reduce, seats } from '../../../src/uth/web/static/reducer.js';

const GAME = '20261130-180000-0001';
const T0 = '2026-11-30T18:00:00+00:00';
const T10 = '2026-11-30T18:00:10+00:00';
const T20 = '2026-11-30T18:00:20+00:00';
const ms = (iso) => Date.parse(iso);

const INFO = {
  id: 'california-1',
  name: 'California',
  seats: 7,
  limits: { ante: [5, 500], trips: [5, 100], bad_beat: null },
  chips: [5, 25, 100],
  rule_set: { banking: 'player_dealer', decision_order: 'in_turn', bank: [100, 5000], play_multiples: { pre_flop: [4, 3], flop: [2], river: [1] } },
};
const BETS0 = { ante: 0, blind: 0, trips: 0, bad_beat: 0, play: 0 };

function own(phase, extra = {}) {
  return {
    phase,
    balance: 1000,
    bets: BETS0,
    total_bet: 0,
    legal_actions: [],
    can_undo: false,
    can_double: false,
    can_repeat: false,
    decisions: [],
    ...extra,
  };
}

const SNAP_PAUSE = {
  type: 'snapshot',
  player: { id: 2, name: 'bob', seat: 3 },
  game_number: GAME,
  phase: 'pause',
  light: 'red',
  now: T0,
  deadline: T10,
  hole_cards: [],
  player_hand: [],
  board: [],
  state: own('pause'),
  table_bets: { players: 0, total: 0, listed: [] },
  last_result: null,
  paused: null,
  player_dealer: null,
  turn: null,
};

const OFFER_ANN = {
  type: 'offer',
  player_id: 1,
  name: 'ann',
  seat: 1,
  deadline: T10,
  min_bank: 100,
  max_bank: 5000,
  to_you: false,
};
const OFFER_BOB = { ...OFFER_ANN, player_id: 2, name: 'bob', seat: 3, deadline: T20, to_you: true };

function after(...messages) {
  let s = reduce(initialState(), { type: 'client/table', info: INFO });
  for (const m of messages) s = reduce(s, m);
  return s;
}

describe('a card-room table', () => {
  it('client/table: banking "player_dealer" makes it a card room; a house table is not', () => {
    const s0 = initialState();
    assert.deepEqual(reduce(s0, { type: 'client/table', info: INFO }), { ...s0, info: INFO, sharedHand: false, cardRoom: true, effects: [] });
    const house = { ...INFO, rule_set: { banking: 'house', shared_hand: true } };
    assert.deepEqual(reduce(s0, { type: 'client/table', info: house }), { ...s0, info: house, sharedHand: true, cardRoom: false, effects: [] });
  });

  it('snapshot with player_dealer and turn', () => {
    const s0 = after();
    const snap = {
      ...SNAP_PAUSE,
      phase: 'flop',
      deadline: T20,
      player_hand: ['8s', 'Qs'],
      board: ['Jh', 'Qc', '7h'],
      state: own('flop', { bets: { ...BETS0, ante: 10, blind: 10 }, total_bet: 20, decisions: ['check'], balance: 980 }),
      player_dealer: { player_id: 1, name: 'ann', seat: 1, bank: 1000, bank_left: 1000 },
      turn: { seat: 2, player_id: 5, deadline: T20 },
    };
    const s = reduce(s0, snap);
    assert.deepEqual(s, {
      ...s0,
      connected: true,
      player: { id: 2, name: 'bob', seat: 3 },
      gameNumber: GAME,
      phase: 'flop',
      light: 'red',
      deadline: ms(T20),
      own: snap.state,
      roundBets: { ...BETS0, ante: 10, blind: 10 },
      inRound: true,
      dealt: true,
      decisions: ['check'],
      cards: ['8s', 'Qs'],
      board: ['Jh', 'Qc', '7h'],
      tableBets: { players: 0, total: 0, listed: [] },
      playerDealer: { player_id: 1, name: 'ann', seat: 1, bank: 1000, bank_left: 1000 },
      turn: { seat: 2, player_id: 5, deadline: ms(T20) },
      effects: [
        { type: 'balance', balance: 980 },
        { type: 'snapshot', snapshot: snap },
      ],
    });
  });

  it('the next round\'s offer clears the last round\'s number and cards; its result stays', () => {
    const settled = { type: 'settlement', game_number: GAME, outcome: 'lose', category: 'pair', best_five: [], wagers: {}, net: -20, balance: 980 };
    const dealer = { cards: ['3c', 'Js'], category: 'pair', best_five: [], qualifies: true };
    const snap = { ...SNAP_PAUSE, hole_cards: ['8s', 'Qs'], board: ['Jh', 'Qc', '7h', '9c', '2d'], dealer, last_result: settled };
    const s0 = after(snap);
    assert.deepEqual([s0.gameNumber, s0.cards.length, s0.board.length, s0.dealer.cards], [GAME, 2, 5, ['3c', 'Js']]);
    const s = reduce(s0, OFFER_ANN);
    assert.deepEqual([s.gameNumber, s.cards, s.board, s.dealer, s.mine], [null, [], [], null, null]);
    assert.equal(s.settlement, s0.settlement);
    assert.equal(s.settlement.net, -20);
  });

  it('offer to another player: everyone sees it, no form; the light says so, with its countdown', () => {
    const s0 = after(SNAP_PAUSE);
    const s = reduce(s0, OFFER_ANN);
    assert.deepEqual(s, {
      ...s0,
      phase: 'offer',
      light: 'red',
      deadline: ms(T10),
      gameNumber: null,
      offer: { player_id: 1, name: 'ann', seat: 1, deadline: ms(T10), min_bank: 100, max_bank: 5000, to_you: false, answered: false },
      effects: [],
    });
    assert.equal(offerForm(s), null);
    assert.equal(canSit(s), false);
  });

  it('the next offer: the one before declined; to this player, the form with the limits', () => {
    const s0 = after(SNAP_PAUSE, OFFER_ANN);
    const s = reduce(s0, OFFER_BOB);
    assert.deepEqual(s, {
      ...s0,
      deadline: ms(T20), // Bob's own time to answer
      offer: { player_id: 2, name: 'bob', seat: 3, deadline: ms(T20), min_bank: 100, max_bank: 5000, to_you: true, answered: false },
      declined: ['ann'],
      effects: [],
    });
    assert.deepEqual(offerForm(s), { min: 100, max: 5000 });
    assert.deepEqual(offerForm(reduce(s0, { ...OFFER_BOB, max_bank: null })), { min: 100, max: null });
  });

  it('answer_offer accepted: the form goes, the offer stays until the banker', () => {
    const s0 = reduce(after(SNAP_PAUSE, OFFER_ANN, OFFER_BOB), {
      type: 'client/sent',
      id: 'r-1',
      command: { type: 'answer_offer', accept: true, bank: 400 },
    });
    const s = reduce(s0, { type: 'accepted', id: 'r-1', state: own('pause', { balance: 600 }) });
    assert.deepEqual(s, {
      ...s0,
      pending: {},
      own: own('pause', { balance: 600 }),
      offer: { ...s0.offer, answered: true },
      effects: [
        { type: 'balance', balance: 600 },
        { type: 'clear_toasts', kind: 'error' },
      ],
    });
    assert.equal(offerForm(s), null);
  });

  it('answer_offer refused: the form stays, the error is shown', () => {
    const s0 = reduce(after(SNAP_PAUSE, OFFER_BOB), { type: 'client/sent', id: 'r-2', command: { type: 'answer_offer', accept: true, bank: 50 } });
    const s = reduce(s0, { type: 'error', id: 'r-2', code: 'invalid_amount', field: 'bank', reason: 'bank: below 100' });
    assert.deepEqual(s, { ...s0, pending: {}, effects: [{ type: 'toast', key: 'error.invalid_amount', kind: 'error' }] });
    assert.deepEqual(offerForm(s), { min: 100, max: 5000 });
  });

  it('banker: who banks, the bank, who declined; the offer ends, and its countdown', () => {
    const s0 = after(SNAP_PAUSE, OFFER_ANN, OFFER_BOB);
    const s = reduce(s0, { type: 'banker', player_id: 2, name: 'bob', seat: 3, bank: 400, declined: ['ann'] });
    assert.deepEqual(s, {
      ...s0,
      deadline: null,
      offer: null,
      playerDealer: { player_id: 2, name: 'bob', seat: 3, bank: 400, bank_left: 400 },
      declined: ['ann'],
      effects: [],
    });
  });

  it('the player-dealer bets nothing: betting is closed to them alone', () => {
    const open = { type: 'betting_open', game_number: GAME, now: T0, deadline: T10, light: 'green' };
    const banker = (id) => ({ type: 'banker', player_id: id, name: 'x', seat: 1, bank: 400, declined: [] });
    const me = after(SNAP_PAUSE, banker(2), open);
    assert.equal(isPlayerDealer(me), true);
    assert.equal(canBet(me), false);
    const other = after(SNAP_PAUSE, banker(1), open);
    assert.equal(isPlayerDealer(other), false);
    assert.equal(canBet(other), true);
  });

  it('no_banker: no round, the code kept for the words, the table paused; a new offer clears it', () => {
    const s0 = after(SNAP_PAUSE, OFFER_ANN, OFFER_BOB);
    assert.equal(s0.phase, 'offer');
    assert.deepEqual(s0.declined, ['ann']);
    const nobody = { type: 'no_banker', code: 'all_declined', message: 'nobody accepted the bank', declined: ['ann', 'bob'] };
    const s = reduce(s0, nobody);
    // Everyone asked is named, the last one too (no next offer says that bob declined).
    assert.deepEqual(s, { ...s0, phase: 'pause', deadline: null, offer: null, playerDealer: null, noBanker: 'all_declined', declined: ['ann', 'bob'], effects: [] });
    const again = reduce(s, OFFER_ANN);
    assert.deepEqual(again, {
      ...s,
      phase: 'offer',
      deadline: ms(T10),
      offer: { player_id: 1, name: 'ann', seat: 1, deadline: ms(T10), min_bank: 100, max_bank: 5000, to_you: false, answered: false },
      noBanker: null,
      declined: [],
      effects: [],
    });
  });

  it('a reload after nobody banked: the snapshot\'s no_banker and declined', () => {
    const snap = { ...SNAP_PAUSE, seats: [], offer: null, declined: ['ann', 'bob'], no_banker: 'all_declined' };
    const s = after(snap);
    assert.deepEqual([s.noBanker, s.declined, s.offer, s.playerDealer], ['all_declined', ['ann', 'bob'], null, null]);
    // A reload during an offer: who declined so far, nobody banks not (yet) said.
    const open = after({ ...SNAP_PAUSE, phase: 'offer', seats: [], offer: { ...OFFER_BOB, type: undefined }, declined: ['ann'], no_banker: null });
    assert.deepEqual([open.noBanker, open.declined, open.offer.name], [null, ['ann'], 'bob']);
  });

  it('state: the bank going down and the turn moving seat to seat', () => {
    const s0 = after(SNAP_PAUSE, { type: 'banker', player_id: 1, name: 'ann', seat: 1, bank: 1000, declined: [] });
    const msg = {
      type: 'state',
      state: own('river', { balance: 980 }),
      player_dealer: { player_id: 1, name: 'ann', seat: 1, bank: 1000, bank_left: 940 },
      turn: { seat: 3, player_id: 2, deadline: T20 },
    };
    const s = reduce(s0, msg);
    assert.deepEqual(s, {
      ...s0,
      own: msg.state,
      playerDealer: { player_id: 1, name: 'ann', seat: 1, bank: 1000, bank_left: 940 },
      turn: { seat: 3, player_id: 2, deadline: ms(T20) },
      effects: [{ type: 'balance', balance: 980 }],
    });
    // Fields inside the own state are read too; absent fields keep what is known.
    const inner = reduce(s, { type: 'state', state: { ...own('river'), turn: null } });
    assert.deepEqual(inner, { ...s, own: { ...own('river'), turn: null }, turn: null, effects: [{ type: 'balance', balance: 1000 }] });
  });

  it('settlement keeps each wager\'s bank_left and coverage', () => {
    const s0 = after(SNAP_PAUSE);
    const settlement = {
      type: 'settlement',
      game_number: GAME,
      outcome: 'fold',
      category: null,
      best_five: [],
      wagers: {
        ante: { stake: 10, result: 'lose', net: -10, bank_left: 1010, coverage: 'collected_at_fold' },
        blind: { stake: 10, result: 'lose', net: -10, bank_left: 1020, coverage: 'collected_at_fold' },
        play: { stake: 0, result: 'no_action', net: 0, bank_left: null, coverage: 'action' },
        trips: { stake: 5, result: 'win', net: 0, bank_left: 1020, coverage: 'returned_uncovered' },
        bad_beat: { stake: 0, result: 'no_action', net: 0, bank_left: null, coverage: 'action' },
      },
      net: -20,
      balance: 980,
    };
    const s = reduce(s0, settlement);
    assert.deepEqual(s, {
      ...s0,
      phase: 'settled',
      deadline: null,
      settlement,
      mine: { category: null, best_five: [], outcome: 'fold' },
      roundBets: { ante: 10, blind: 10, play: 0, trips: 5, bad_beat: 0 },
      own: { ...s0.own, balance: 980 },
      effects: [{ type: 'balance', balance: 980 }],
    });
  });
});

describe('the player-dealer\'s settlement', () => {
  it('one bank line: the bank\'s result, no hand of their own', () => {
    const s0 = after(SNAP_PAUSE);
    const settlement = {
      type: 'settlement',
      game_number: GAME,
      outcome: 'lose',
      category: 'pair',
      best_five: ['4s', '4h', 'Qc', '9s', '6s'],
      wagers: { bank: { stake: 500, result: 'lose', net: -125, bank_left: 375, coverage: 'action' } },
      net: -125,
      balance: 875,
    };
    const s = reduce(s0, settlement);
    assert.deepEqual(s, {
      ...s0,
      phase: 'settled',
      deadline: null,
      settlement,
      mine: null,
      roundBets: { ...BETS0, bank: 500 },
      own: { ...s0.own, balance: 875 },
      effects: [{ type: 'balance', balance: 875 }],
    });
  });
});

describe('seats, sitting and back-line bets', () => {
  it('seats: 1 to 7 from the own seat, the banker, the turn and the bets listed', () => {
    const s = after(
      SNAP_PAUSE,
      { type: 'banker', player_id: 1, name: 'ann', seat: 1, bank: 1000, declined: [] },
      { type: 'table_bets', players: 2, total: 40, listed: [{ id: 5, name: 'cy', seat: 5, total: 20 }, { id: 9, name: 'dee', seat: null, total: 20 }] },
      { type: 'state', state: own('pause'), turn: { seat: 5, player_id: 5, deadline: T20 } },
    );
    const empty = (seat) => ({ seat, name: null, playerId: null, me: false, dealer: false, turn: false, settled: false });
    assert.deepEqual(seats(s), [
      { seat: 1, name: 'ann', playerId: '1', me: false, dealer: true, turn: false, settled: false },
      empty(2),
      { seat: 3, name: 'bob', playerId: '2', me: true, dealer: false, turn: false, settled: false },
      empty(4),
      { seat: 5, name: 'cy', playerId: '5', me: false, dealer: false, turn: true, settled: false },
      empty(6),
      empty(7),
    ]);
    assert.deepEqual(seats(after(SNAP_PAUSE, { type: 'client/table', info: { ...INFO, rule_set: { banking: 'house' } } })), []);
  });

  it('sit: accepted between rounds gives the seat and drops the seat picked to bet behind', () => {
    const standing = { ...SNAP_PAUSE, player: { id: 2, name: 'bob', seat: null } };
    const s0 = reduce(after(standing, { type: 'client/behind', seat: 4 }), { type: 'client/sent', id: 's-1', command: { type: 'sit', seat: 6 } });
    assert.equal(s0.behind, 4);
    assert.equal(canSit(s0), true);
    const s = reduce(s0, { type: 'accepted', id: 's-1', state: own('pause') });
    assert.deepEqual(s, {
      ...s0,
      pending: {},
      own: own('pause'),
      player: { id: 2, name: 'bob', seat: 6 },
      behind: null,
      effects: [
        { type: 'balance', balance: 1000 },
        { type: 'clear_toasts', kind: 'error' },
      ],
    });
    assert.equal(canSit(s), true); // to move to another free seat
    // Not while a round is under way, nor during the offer.
    assert.equal(canSit(reduce(s, { type: 'offer', ...{ player_id: 2, name: 'bob', seat: 6, deadline: T10, min_bank: 100, max_bank: null, to_you: true } })), false);
    assert.equal(canSit(reduce(after(standing), { type: 'betting_open', game_number: GAME, deadline: T10, now: T0 })), false);
  });

  it('client/behind: the seat picked for a back-line bet, and back to the own spot', () => {
    const s0 = after(SNAP_PAUSE);
    const s = reduce(s0, { type: 'client/behind', seat: 5 });
    assert.deepEqual(s, { ...s0, behind: 5, effects: [] });
    assert.deepEqual(reduce(s, { type: 'client/behind', seat: null }), { ...s0, behind: null, effects: [] });
  });

  it('place_bet behind a seat: accepted like any bet, the seat picked kept', () => {
    const open = reduce(after({ ...SNAP_PAUSE, player: { id: 9, name: 'dee', seat: null } }, { type: 'client/behind', seat: 5 }), {
      type: 'client/sent',
      id: 'b-1',
      command: { type: 'place_bet', spot: 'ante', amount: 10, behind: 5 },
    });
    const st = own('betting', { balance: 980, bets: { ...BETS0, ante: 10, blind: 10 }, total_bet: 20, can_undo: true });
    const s = reduce(open, { type: 'accepted', id: 'b-1', state: st });
    assert.deepEqual(s, {
      ...open,
      pending: {},
      own: st,
      declinedNote: null,
      effects: [
        { type: 'balance', balance: 980 },
        { type: 'clear_toasts', kind: 'error' },
      ],
    });
    assert.equal(s.behind, 5);
  });

  it('a new round clears the turn, keeps the banker', () => {
    const s0 = after(
      SNAP_PAUSE,
      { type: 'banker', player_id: 1, name: 'ann', seat: 1, bank: 1000, declined: [] },
      { type: 'state', state: own('pause'), turn: { seat: 3, player_id: 2, deadline: T20 } },
    );
    const s = reduce(s0, { type: 'betting_open', game_number: GAME, now: T0, deadline: T10, light: 'green' });
    assert.deepEqual(s.playerDealer, { player_id: 1, name: 'ann', seat: 1, bank: 1000, bank_left: 1000 });
    assert.equal(s.turn, null);
  });

  it('seats: the snapshot\'s list and the seats message show who sits where, bets or not', () => {
    const list = [
      { seat: 1, player_id: 1, name: 'ann' },
      { seat: 3, player_id: 2, name: 'bob' },
      { seat: 6, player_id: 7, name: 'eve' },
    ];
    const s0 = after();
    const snap = { ...SNAP_PAUSE, seats: list, offer: null };
    const s = reduce(s0, snap);
    assert.deepEqual(s, {
      ...s0,
      connected: true,
      player: { id: 2, name: 'bob', seat: 3 },
      gameNumber: GAME,
      phase: 'pause',
      light: 'red',
      deadline: ms(T10),
      own: own('pause'),
      tableBets: { players: 0, total: 0, listed: [] },
      seatList: list,
      effects: [
        { type: 'balance', balance: 1000 },
        { type: 'snapshot', snapshot: snap },
      ],
    });
    const row = (seat, name, playerId, me = false) => ({ seat, name, playerId, me, dealer: false, turn: false, settled: false });
    const empty = (seat) => row(seat, null, null);
    assert.deepEqual(seats(s), [row(1, 'ann', '1'), empty(2), row(3, 'bob', '2', true), empty(4), empty(5), row(6, 'eve', '7'), empty(7)]);
    // eve leaves, cy sits at 5: everyone is told.
    const moved = [list[0], list[1], { seat: 5, player_id: 5, name: 'cy' }];
    const s2 = reduce(s, { type: 'seats', seats: moved });
    assert.deepEqual(s2, { ...s, seatList: moved, effects: [] });
    assert.deepEqual(seats(s2), [row(1, 'ann', '1'), empty(2), row(3, 'bob', '2', true), empty(4), row(5, 'cy', '5'), empty(6), empty(7)]);
  });

  it('bank_left: the bank goes down hand by hand, the seat just settled marked', () => {
    const s0 = after(SNAP_PAUSE, { type: 'banker', player_id: 1, name: 'ann', seat: 1, bank: 500, declined: [] });
    const note = (player_id, seat, bank_left) => ({ type: 'bank_left', game_number: GAME, player_id, seat, bank_left });
    const s1 = reduce(s0, note(3, 4, 520));
    assert.deepEqual(s1, {
      ...s0,
      playerDealer: { player_id: 1, name: 'ann', seat: 1, bank: 500, bank_left: 520 },
      bankStep: { seat: 4, player_id: 3 },
      effects: [],
    });
    assert.deepEqual(
      seats(s1).filter((r) => r.settled).map((r) => r.seat),
      [4],
    );
    let s = s1;
    const left = [];
    for (const m of [note(2, 3, 480), note(6, 6, 440), note(9, null, 430)]) {
      s = reduce(s, m);
      left.push(s.playerDealer.bank_left);
    }
    assert.deepEqual(left, [480, 440, 430]);
    assert.deepEqual(s.bankStep, { seat: null, player_id: 9 });
    // A new round clears the mark.
    assert.equal(reduce(s, { type: 'betting_open', game_number: GAME, now: T0, deadline: T10, light: 'green' }).bankStep, null);
  });

  it('a reload during the offer: the snapshot\'s offer brings the form back', () => {
    const s0 = after();
    const offer = { player_id: 2, name: 'bob', seat: 3, deadline: T20, min_bank: 100, max_bank: 5000, to_you: true };
    const snap = { ...SNAP_PAUSE, phase: 'offer', deadline: T20, seats: [], offer };
    const s = reduce(s0, snap);
    assert.deepEqual(s, {
      ...s0,
      connected: true,
      player: { id: 2, name: 'bob', seat: 3 },
      gameNumber: null, // the offer: no round yet (the snapshot's number is the last round's)
      phase: 'offer',
      light: 'red',
      deadline: ms(T20),
      own: own('pause'),
      tableBets: { players: 0, total: 0, listed: [] },
      seatList: [],
      offer: { ...offer, deadline: ms(T20), answered: false },
      effects: [
        { type: 'balance', balance: 1000 },
        { type: 'snapshot', snapshot: snap },
      ],
    });
    assert.deepEqual(offerForm(s), { min: 100, max: 5000 });
    // Answered, then a snapshot of the same offer: the form stays gone.
    const sent = reduce(s, { type: 'client/sent', id: 'r-9', command: { type: 'answer_offer', accept: false } });
    const answered = reduce(sent, { type: 'accepted', id: 'r-9', state: own('pause') });
    assert.equal(offerForm(reduce(answered, snap)), null);
    // The offer is over: the snapshot's null offer clears it.
    assert.equal(reduce(s, { ...snap, phase: 'pause', offer: null }).offer, null);
  });
});
