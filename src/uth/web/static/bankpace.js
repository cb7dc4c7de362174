// The bank going down "as it happens" (issue 13): the pace at which the page shows
// the showdown's `bank_left` messages.
//
// The server sends them in one burst, once per hand in the settlement order; the
// reducer (reducer.js) keeps the last one as the truth. The page shows them one at a
// time, BANK_STEP_MS apart, so each seat's settlement against the bank can be read:
// the glue (table.js) queues each `bank_left` here, steps at the times nextStepAt()
// gives, and draws shownState(): the state with the bank left and the seat just
// settled as shown so far. A snapshot (a reload, a reconnect) or a new round starts
// afresh: the final state at once.
//
// Pure: the times are given by the caller (ms); no DOM, no timer.

/** How long each hand's bank left stays on screen before the next, ms. */
export const BANK_STEP_MS = 500;

/** Nothing queued, nothing shown: the state is drawn as it is. */
export const NO_PACE = Object.freeze({ queue: Object.freeze([]), shown: null, at: 0 });

/** Messages after which the bank is drawn as the state has it (a new round, a snapshot). */
export const PACE_RESETS = new Set(['snapshot', 'offer', 'banker', 'no_banker', 'betting_open']);

/**
 * A `bank_left` message arrived at `now`: queued; shown at once when nothing is
 * waiting and the last step has been on screen long enough.
 */
export function paceBank(pace, msg, now) {
  const step = { bank_left: msg.bank_left, seat: msg.seat ?? null, player_id: msg.player_id };
  return stepBank({ ...pace, queue: [...pace.queue, step] }, now);
}

/** The next queued step, when its time has come (`now` >= nextStepAt). */
export function stepBank(pace, now) {
  if (!pace.queue.length || now < pace.at) return pace;
  const [shown, ...queue] = pace.queue;
  return { queue, shown, at: now + BANK_STEP_MS };
}

/** When the next queued step is due (ms), or null when none is queued. */
export function nextStepAt(pace) {
  return pace.queue.length ? pace.at : null;
}

/**
 * The state as drawn: while steps are queued or shown, the player-dealer's bank left
 * and the seat just settled (bankStep) are the step shown, not the last the server sent.
 */
export function shownState(s, pace) {
  const step = pace.shown;
  if (!step || !s.playerDealer) return s;
  return {
    ...s,
    playerDealer: { ...s.playerDealer, bank_left: step.bank_left },
    bankStep: { seat: step.seat, player_id: step.player_id },
  };
}
