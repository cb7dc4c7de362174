// A back-line bettor without a seat (issue 13, item 4): the server sends them the
// hole cards, the decisions and the showdown of the seat their bets are behind, with
// `player` that seat's hand id (docs/protocol.md, `hole_cards_dealt`); the reducer
// draws them as the bettor's own hand, and nobody else's. Run by
// tests/web/test_reducer_node.py.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { followedPlayer, followedSeat, initialState, others, reduce } from '../../../src/uth/web/static/reducer.js';

const GAME = '20261130-180000-0001';
const T0 = '2026-11-30T18:00:00+00:00';
const T10 = '2026-11-30T18:00:10+00:00';
const BETS0 = { ante: 0, blind: 0, trips: 0, bad_beat: 0, play: 0 };
const INFO = { id: 'california-1', seats: 7, limits: { ante: [5, 500] }, chips: [5, 25], rule_set: { banking: 'player_dealer' } };
// Ann banks at seat 1, Bob plays seat 2, Dee seat 4; Cy (id 3) has no seat.
const SEATS = [
  { seat: 1, player_id: 1, name: 'ann' },
  { seat: 2, player_id: 2, name: 'bob' },
  { seat: 4, player_id: 4, name: 'dee' },
];
const OWN = {
  phase: 'betting',
  balance: 940,
  bets: { ...BETS0, ante: 10, blind: 10 },
  total_bet: 20,
  legal_actions: [],
  can_undo: true,
  can_double: true,
  can_repeat: false,
  decisions: [],
  hand: null,
  behind: 2,
};
const SNAP = {
  type: 'snapshot',
  player: { id: 3, name: 'cy', seat: null },
  game_number: GAME,
  phase: 'betting',
  light: 'green',
  now: T0,
  deadline: T10,
  hole_cards: [],
  player_hand: [],
  board: [],
  state: OWN,
  table_bets: { players: 0, total: 0, listed: [] },
  last_result: null,
  paused: null,
  player_dealer: { player_id: 1, name: 'ann', seat: 1, bank: 500, bank_left: 500 },
  turn: null,
  seats: SEATS,
};
const CLOSED = { type: 'betting_closed', game_number: GAME, in_round: true };

function after(snapshot, ...messages) {
  let s = reduce(initialState(), { type: 'client/table', info: INFO });
  s = reduce(s, snapshot);
  for (const m of messages) s = reduce(s, m);
  return s;
}

describe('a back-line bettor without a seat', () => {
  it('follows seat 2 (state.behind, the seats taken): its player is bob', () => {
    const s = after(SNAP);
    assert.deepEqual([followedSeat(s), followedPlayer(s)], [2, '2']);
    // Before the server's state says (an older snapshot): the seat picked on the page.
    const picked = after({ ...SNAP, state: { ...OWN, behind: undefined } }, { type: 'client/behind', seat: 4 });
    assert.deepEqual([followedSeat(picked), followedPlayer(picked)], [4, '4']);
    // A seated player's hand is their seat's; a live table has no seats to follow.
    const seated = after({ ...SNAP, player: { id: 3, name: 'cy', seat: 5 } });
    assert.deepEqual([followedSeat(seated), followedPlayer(seated)], [null, null]);
    const live = reduce(reduce(initialState(), { type: 'client/table', info: { ...INFO, rule_set: { banking: 'house' } } }), SNAP);
    assert.equal(followedPlayer(live), null);
  });

  it('the seat\'s hole cards, decision and showdown are drawn as the bettor\'s hand', () => {
    let s = after(SNAP, CLOSED, { type: 'hole_cards_dealt', player: '4', cards: ['2c', '3d'] });
    assert.deepEqual(s.cards, []); // Dee's seat: not followed
    s = reduce(s, { type: 'hole_cards_dealt', player: '2', cards: ['As', 'Kd'] });
    assert.deepEqual([s.cards, s.inRound, s.roundBets], [['As', 'Kd'], true, { ...BETS0, ante: 10, blind: 10 }]);
    // Bob raises 4x: Cy's hand raises 4x her own Ante (40), and it is not her choice nor her timer.
    s = reduce(s, { type: 'decision', player: '2', street: 'pre_flop', action: 'play_4x', play: 100, auto: false });
    assert.deepEqual([s.decisions, s.roundBets.play, s.confirmed, s.autoNotice], [['play_4x'], 40, null, null]);
    // Dee's decision is not hers.
    s = reduce(s, { type: 'decision', player: '4', street: 'pre_flop', action: 'check', auto: false });
    assert.deepEqual(s.decisions, ['play_4x']);
    const shown = { type: 'hand_shown', player: '2', cards: ['As', 'Kd'], category: 'pair', best_five: ['As', 'Ad', 'Kd', 'Qs', '9c'] };
    assert.equal(reduce(s, { ...shown, player: '4' }).mine, null);
    const { type: _type, ...mine } = shown;
    assert.deepEqual(reduce(s, shown).mine, mine);
  });

  it('the seat folding is the bettor\'s hand folding; the timer\'s check is marked auto', () => {
    let s = after(SNAP, CLOSED, { type: 'hole_cards_dealt', player: '2', cards: ['7c', '2d'] });
    s = reduce(s, { type: 'decision', player: '2', street: 'pre_flop', action: 'check', auto: true });
    assert.deepEqual([s.decisions, s.autoNotice, s.roundBets.play], [['auto:check'], null, 0]);
    s = reduce(s, { type: 'hand_folded', player: '4' });
    assert.equal(s.mine, null);
    s = reduce(s, { type: 'hand_folded', player: '2' });
    assert.deepEqual(s.mine, { folded: true });
  });

  it('without a hand in the round (no bets), seat 2\'s public decisions are not theirs', () => {
    const idle = { ...OWN, bets: BETS0, total_bet: 0 };
    let s = after({ ...SNAP, state: idle }, { ...CLOSED, in_round: false });
    s = reduce(s, { type: 'decision', player: '2', street: 'pre_flop', action: 'play_3x', auto: false });
    s = reduce(s, { type: 'hand_folded', player: '2' });
    assert.deepEqual([s.inRound, s.decisions, s.mine, s.roundBets], [false, [], null, null]);
  });
});

describe('other players\' bets, seen by a back-line bettor without a seat', () => {
  it('her one hand (listed behind seat 2) is left out once: Bob\'s 50 remain', () => {
    const rows = [
      { id: 2, name: 'bob', seat: 2, ante: 25, trips: 0, bad_beat: 0, total: 50 },
      { id: 3, name: 'cy', seat: null, ante: 10, trips: 0, bad_beat: 0, total: 20, behind: 2 },
    ];
    const s = after(SNAP, { type: 'table_bets', players: 2, total: 70, listed: rows });
    assert.deepEqual(others(s), { players: 1, total: 50, listed: [rows[0]] });
    // Her row not listed (the table lists the largest hands): her bets from her state.
    const cut = reduce(s, { type: 'table_bets', players: 2, total: 70, listed: rows.slice(0, 1) });
    assert.deepEqual(others(cut), { players: 1, total: 50, listed: [rows[0]] });
  });
});
