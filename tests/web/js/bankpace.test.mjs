// The bank going down seat by seat (issue 13): bankpace.js steps through the
// showdown's burst of bank_left messages at BANK_STEP_MS each; a snapshot shows
// the final state at once. Run by tests/web/test_reducer_node.py.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BANK_STEP_MS, NO_PACE, nextStepAt, PACE_RESETS, paceBank, shownState, stepBank } from '../../../src/uth/web/static/bankpace.js';
import { initialState, reduce, seats } from '../../../src/uth/web/static/reducer.js';

const GAME = '20261130-180000-0001';
const note = (player_id, seat, bank_left) => ({ type: 'bank_left', game_number: GAME, player_id, seat, bank_left });
const BURST = [note(3, 4, 520), note(2, 3, 480), note(2, 5, 450), note(6, 6, 440)];
const INFO = {
  id: 'california-1',
  name: 'California',
  seats: 7,
  limits: { ante: [5, 500], trips: [5, 100], bad_beat: null },
  chips: [5, 25, 100],
  rule_set: { banking: 'player_dealer', decision_order: 'in_turn', bank: [100, 5000], play_multiples: { pre_flop: [4, 3], flop: [2], river: [1] } },
};
const start = () => reduce(initialState(), { type: 'client/table', info: INFO });
const SNAP = {
  type: 'snapshot',
  player: { id: 2, name: 'bob', seat: 3 },
  game_number: GAME,
  phase: 'showdown',
  light: 'red',
  now: '2026-11-30T18:00:00+00:00',
  deadline: null,
  hole_cards: [],
  player_hand: [],
  board: [],
  state: { phase: 'showdown', balance: 1000, bets: { ante: 0, blind: 0, trips: 0, bad_beat: 0, play: 0 }, total_bet: 0, legal_actions: [], can_undo: false, can_double: false, can_repeat: false, decisions: [] },
  table_bets: { players: 0, total: 0, listed: [] },
  last_result: null,
  paused: null,
  player_dealer: { player_id: 1, name: 'ann', seat: 1, bank: 500, bank_left: 500 },
  turn: null,
  seats: [
    { seat: 1, player_id: 1, name: 'ann' },
    { seat: 3, player_id: 2, name: 'bob' },
    { seat: 4, player_id: 3, name: 'cy' },
    { seat: 6, player_id: 6, name: 'di' },
  ],
};

describe('the bank left, one hand at a time', () => {
  it('a burst is drawn step by step, BANK_STEP_MS apart, in the order sent', () => {
    let s = reduce(start(), SNAP);
    let pace = NO_PACE;
    const t0 = 1_000_000;
    for (const m of BURST) {
      pace = paceBank(pace, m, t0); // all four arrive at once
      s = reduce(s, m);
    }
    // The reducer has the last (the truth); the page shows the first only.
    assert.equal(s.playerDealer.bank_left, 440);
    const drawn = [];
    const marked = [];
    let now = t0;
    for (;;) {
      const v = shownState(s, pace);
      drawn.push(v.playerDealer.bank_left);
      marked.push(seats(v).filter((r) => r.settled).map((r) => r.seat));
      const at = nextStepAt(pace);
      if (at === null) break;
      assert.equal(at - now, BANK_STEP_MS);
      assert.equal(stepBank(pace, at - 1), pace); // not before its time
      now = at;
      pace = stepBank(pace, now);
    }
    assert.deepEqual(drawn, [520, 480, 450, 440]);
    assert.deepEqual(marked, [[4], [3], [5], [6]]);
    assert.ok(BANK_STEP_MS >= 400 && BANK_STEP_MS <= 600);
  });

  it('the state message after the settlement does not jump to the end', () => {
    let s = reduce(start(), SNAP);
    let pace = NO_PACE;
    for (const m of BURST) {
      pace = paceBank(pace, m, 0);
      s = reduce(s, m);
    }
    s = reduce(s, { type: 'state', state: SNAP.state, player_dealer: { ...SNAP.player_dealer, bank_left: 440 }, turn: null });
    assert.equal(shownState(s, pace).playerDealer.bank_left, 520);
  });

  it('a snapshot or a new round shows the state as it is, at once', () => {
    for (const type of ['snapshot', 'offer', 'banker', 'no_banker', 'betting_open']) assert.ok(PACE_RESETS.has(type));
    const s = reduce(start(), { ...SNAP, player_dealer: { ...SNAP.player_dealer, bank_left: 440 } });
    assert.equal(shownState(s, NO_PACE), s);
    assert.equal(shownState(s, NO_PACE).playerDealer.bank_left, 440);
  });
});
