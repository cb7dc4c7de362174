// A seated player who also bets behind another seat (issue 13, item 4): the
// reducer keeps the back-line hand's result beside the seat's, the spots and the
// bet-slip buttons follow the hand picked. Run by tests/web/test_reducer_node.py.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { backLine, initialState, others, reduce, shownBets } from '../../../src/uth/web/static/reducer.js';

const GAME = '20261130-180000-0001';
const BETS0 = { ante: 0, blind: 0, trips: 0, bad_beat: 0, play: 0 };
const LINE = { behind: 4, bets: { ...BETS0, ante: 5, blind: 5 }, total_bet: 10, can_undo: true, can_double: true, can_repeat: false };
const OWN = { phase: 'betting', balance: 950, bets: { ...BETS0, ante: 10, blind: 10 }, total_bet: 20, legal_actions: [], can_undo: true, can_double: true, can_repeat: false, decisions: [], back_line: LINE };
const SNAP = {
  type: 'snapshot',
  player: { id: 2, name: 'bob', seat: 3 },
  game_number: GAME,
  phase: 'betting',
  light: 'green',
  now: '2026-11-30T18:00:00+00:00',
  deadline: '2026-11-30T18:00:10+00:00',
  hole_cards: [],
  player_hand: [],
  board: [],
  state: OWN,
  table_bets: { players: 0, total: 0, listed: [] },
  last_result: null,
  paused: null,
  player_dealer: { player_id: 1, name: 'ann', seat: 1, bank: 500, bank_left: 500 },
  turn: null,
  seats: [],
};
const wager = (stake, result, net) => ({ stake, result, net, bank_left: 470, coverage: 'action' });
const SETTLED_OWN = { type: 'settlement', game_number: GAME, outcome: 'win', category: 'pair', best_five: [], wagers: { ante: wager(10, 'win', 10) }, net: 30, balance: 1010 };
const SETTLED_LINE = { ...SETTLED_OWN, wagers: { ante: wager(5, 'lose', -5) }, net: -10, balance: 1000, behind: 4 };

describe('a seated player behind another seat', () => {
  it('the spots and buttons follow the hand picked: the seat, or behind seat 4', () => {
    const s = reduce(initialState(), SNAP);
    assert.equal(backLine(s), null);
    assert.deepEqual(shownBets(s), OWN.bets);
    const behind = reduce(s, { type: 'client/behind', seat: 4 });
    assert.deepEqual(backLine(behind), LINE);
    assert.deepEqual(shownBets(behind), LINE.bets);
    // Behind a seat with no bets of theirs yet: empty spots, Repeat when they had some.
    const other = reduce(s, { type: 'client/behind', seat: 6 });
    assert.deepEqual(backLine(other), { behind: 6, bets: BETS0, total_bet: 0, can_undo: false, can_double: false, can_repeat: true });
  });

  it('two settlements: the seat\'s result and the back-line hand\'s, kept apart', () => {
    let s = reduce(initialState(), { ...SNAP, phase: 'showdown', state: { ...OWN, phase: 'showdown' } });
    s = reduce(s, SETTLED_LINE);
    assert.deepEqual([s.lineSettlement, s.settlement, s.phase], [SETTLED_LINE, null, 'settled']);
    assert.deepEqual(s.effects, [{ type: 'balance', balance: 1000 }]);
    s = reduce(s, SETTLED_OWN);
    assert.deepEqual([s.lineSettlement, s.settlement, s.own.balance], [SETTLED_LINE, SETTLED_OWN, 1010]);
    // A new round clears both; a reload at the showdown brings both back.
    assert.equal(reduce(s, { type: 'betting_open', game_number: GAME, now: SNAP.now, deadline: SNAP.deadline, light: 'green' }).lineSettlement, null);
    const again = reduce(initialState(), { ...SNAP, phase: 'pause', last_result: SETTLED_OWN, last_back_line_result: SETTLED_LINE });
    assert.deepEqual([again.settlement, again.lineSettlement], [SETTLED_OWN, SETTLED_LINE]);
  });

  it('other players\' bets leave out both of this player\'s rows (seat and behind seat 4)', () => {
    const rows = [
      { id: 2, name: 'bob', seat: 3, ante: 10, trips: 0, bad_beat: 0, total: 20 },
      { id: 5, name: 'eve', seat: 4, ante: 10, trips: 0, bad_beat: 0, total: 20 },
      { id: 2, name: 'bob', seat: null, ante: 5, trips: 0, bad_beat: 0, total: 10, behind: 4 },
    ];
    const s = reduce(reduce(initialState(), SNAP), { type: 'table_bets', players: 2, total: 50, listed: rows });
    assert.deepEqual(others(s), { players: 1, total: 20, listed: [rows[1]] });
    // Only the seat's row listed (the table lists the largest hands): the back-line bets come from the state.
    const cut = reduce(s, { type: 'table_bets', players: 2, total: 50, listed: rows.slice(0, 2) });
    assert.deepEqual(others(cut), { players: 1, total: 20, listed: [rows[1]] });
  });
});
