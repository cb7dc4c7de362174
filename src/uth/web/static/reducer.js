// The table's state, from the server's messages: reduce(state, message) -> new state.
//
// Pure: no DOM, no socket, no clock, no i18n. The state is a plain object that is never
// changed in place: every message gives a new one. What a message asks the page to do
// beside drawing (a passing message, a command to send, the lobby's balance) is listed
// in the new state's `effects`, for the socket glue (table.js) to carry out; the next
// message starts a fresh list. The renderer (render.js) draws the state.
//
// Messages are those of docs/protocol.md ("Server messages" and "Replies"), plus the
// page's own events, named `client/...`:
//   client/table {info}          the table's lobby entry and rule set (GET /api/tables/{id})
//   client/connecting            a new WebSocket: replies to the old one's commands never come
//   client/sent {id, command}    a command went out with that request id
//   client/disconnected          the WebSocket closed (the page reconnects)
//   client/behind {seat}         the seat picked to bet behind (a back-line bet), null: own spot
// A card-room table (rule set `banking: "player_dealer"`, issue 13) adds `offer`,
// `banker`, `no_banker`, `seats`, `bank_left`, the snapshot's and `state`'s
// `player_dealer` and `turn`, the snapshot's `seats` and `offer`, and the settlement's
// per-wager `bank_left` and `coverage`, and a seated player's back-line hand:
// `state.back_line`, the settlement with `behind`, the snapshot's
// `last_back_line_result` (docs/protocol.md).
// Any other type is unknown: the state is kept and an `unknown` effect says so (the glue
// logs it with console.warn).

export const STREETS = ['pre_flop', 'flop', 'river'];
export const SPOTS = ['ante', 'trips', 'bad_beat'];
export const ZERO_BETS = Object.freeze({ ante: 0, blind: 0, trips: 0, bad_beat: 0, play: 0 });

/** `error` codes worded by the page (docs/protocol.md, "Replies"); others read as "refused". */
export const ERROR_CODES = new Set([
  'malformed',
  'unknown_command',
  'wrong_phase',
  'over_limit',
  'insufficient_funds',
  'invalid_amount',
  'illegal_action',
  'not_seated',
  'too_many_requests',
  'round_paused',
  'trainer_not_allowed',
  'unauthorized',
  'not_found',
  'table_full',
  'seat_taken',
  'not_offered',
]);
/** `bets_declined` codes with their own wording; `outside_limits` is worded from the limits. */
export const DECLINE_CODES = new Set(['hidden', 'closed', 'left', 'insufficient_funds']);
/** `round_voided` codes with their own wording; without one (an operator, a malfunction) the plain "voided". */
export const VOID_KEYS = Object.freeze({ server_restarted: 'banner.voided_restart' });

/** The i18n key of an `error` code (`error.<code>`, or `error.generic` for a code the page does not know). */
export function errorKey(code) {
  return ERROR_CODES.has(code) ? `error.${code}` : 'error.generic';
}

/** The i18n key of a voided round's banner, from its `code`. */
export function voidedKey(code) {
  return Object.hasOwn(VOID_KEYS, code ?? '') ? VOID_KEYS[code] : 'banner.voided';
}

export const num = (v) => (v === null || v === undefined ? 0 : Number(v));

/**
 * The state before anything is known. `keep` carries fields over (the glue keeps the
 * last decline note when the table is opened again).
 */
export function initialState(keep = {}) {
  return {
    info: null, // GET /api/tables/{id}: rule set, limits, chips (merged with the snapshot's `table`)
    sharedHand: false, // one player hand for everybody (the `live` preset)
    player: null, // {id, name, seat}
    gameNumber: null,
    phase: 'idle', // the table phase (protocol.md), 'idle' before the first snapshot
    light: 'red',
    deadline: null, // server time (ms since the epoch) of the running timer, or null
    own: null, // the player's `state` as the server last sent it
    roundBets: null, // own bets of the round in play (Play included)
    inRound: false, // the player has a hand in the round shown
    dealt: false, // the round shown is dealt (cards face down until turned)
    cards: [], // own hole cards, or the shared player hand
    board: [],
    dealer: null, // {cards, category, best_five, qualifies}: only after the reveal
    mine: null, // the player's hand at the showdown (hand_shown), or {folded: true}
    settlement: null, // the round's result (settlement, or the snapshot's last_result)
    decision: null, // {street, legal, deadline, hand}: the decision open now
    decisions: [], // the player's decisions this round ("auto:check" for the timer's)
    autoNotice: null, // "auto_check" | "auto_fold": the timer's last word
    confirmed: null, // {street, action}: the player's own decision, until the next street
    tableBets: { players: 0, total: 0, listed: [] },
    banner: null, // {key, kind, vars, game}: vars are numbers, shown as money
    declinedNote: null, // why the last bets were declined, until the next Ante
    antesReturned: false,
    connected: false, // a snapshot came on the current connection
    paused: null, // {since} while the round is paused by a malfunction
    trainer: null, // {on, session_cost, rounds, advice, review} with the trainer on
    pending: {}, // request id -> the command sent, until its reply
    // A card-room table (issue 13); all stay null/empty at a live table.
    cardRoom: false, // the rule set's banking is "player_dealer"
    offer: null, // {player_id, name, seat, deadline, min_bank, max_bank, to_you, answered}: the open offer
    playerDealer: null, // {player_id, name, seat, bank, bank_left}: who banks the round
    declined: [], // names that declined or were passed over, in offer order
    noBanker: null, // "all_declined" | "no_players": no round dealt for want of a banker
    turn: null, // {seat, player_id, deadline}: whose decision it is
    seatList: null, // [{seat, player_id, name}]: the seats taken (null: not told yet)
    bankStep: null, // {seat, player_id}: the hand the bank last settled (bank_left)
    behind: null, // the seat picked to bet behind (a back-line bet), or null for the own spot
    lineSettlement: null, // a seated player's back-line hand's result (settlement with `behind`)
    effects: [],
    ...keep,
  };
}

/** What a new round starts from: the round's fields cleared, the table's kept. */
function newRound(s) {
  return {
    ...s,
    roundBets: null,
    inRound: false,
    dealt: false,
    cards: [],
    board: [],
    dealer: null,
    mine: null,
    settlement: null,
    lineSettlement: null,
    decision: null,
    decisions: [],
    autoNotice: null,
    confirmed: null,
    banner: null,
    antesReturned: false,
    turn: null,
    bankStep: null,
    trainer: s.trainer ? { ...s.trainer, advice: null } : null,
  };
}

/** The message's timer (`deadline`: an ISO time, or null with no timer running). */
function withClock(s, msg) {
  if (!('deadline' in msg)) return s;
  return { ...s, deadline: msg.deadline ? Date.parse(msg.deadline) : null };
}

const isMe = (s, player) => !player || player === String(s.player?.id);

/**
 * The hand a message names is this player's to draw as their own: theirs, or (a
 * back-line bettor without a seat) the seat their hand follows, once in the round.
 */
const isMine = (s, player) => isMe(s, player) || (s.inRound && player === followedPlayer(s));

/** An `offer` message's fields (or a snapshot's `offer`) as the state keeps them. */
function offerOf(msg, prev) {
  const { type: _type, ...offer } = msg;
  const deadline = msg.deadline ? Date.parse(msg.deadline) : null;
  // The same offer again (a snapshot asked for after answering it): still answered.
  const same = prev && prev.player_id === offer.player_id && prev.deadline === deadline;
  return { ...offer, deadline, answered: Boolean(same && prev.answered) };
}

/**
 * The card room's fields of a snapshot or `state` message (`player_dealer`, `turn`;
 * the snapshot's `seats`, `offer`, `declined` and `no_banker`), where present: a
 * banker known ends the offer; a snapshot taken during the offer brings its form
 * back, and one taken after nobody banked says so with who declined (a reload).
 */
function applyCardRoom(s, msg) {
  let n = s;
  if (msg && 'player_dealer' in msg) {
    const pd = msg.player_dealer ? { ...msg.player_dealer } : null;
    n = { ...n, playerDealer: pd, offer: pd ? null : n.offer, noBanker: pd ? null : n.noBanker };
  }
  if (msg && 'seats' in msg) n = { ...n, seatList: msg.seats ? msg.seats.map((r) => ({ ...r })) : null };
  if (msg && 'offer' in msg) n = { ...n, offer: msg.offer ? offerOf(msg.offer, s.offer) : null };
  if (msg && 'declined' in msg) n = { ...n, declined: [...(msg.declined ?? [])] };
  if (msg && 'no_banker' in msg) n = { ...n, noBanker: msg.no_banker ?? null };
  if (msg && 'turn' in msg) {
    n = { ...n, turn: msg.turn ? { ...msg.turn, deadline: msg.turn.deadline ? Date.parse(msg.turn.deadline) : null } : null };
  }
  return n;
}

// -------------------------------------------------------------- handlers
// Each takes (state, message, effects) and returns the new state; `effects` is the new
// state's list, appended to.

/** The player's own state (an `accepted` reply's or a `state` message's). */
function applyOwn(s, own, fx) {
  if (!own) return s;
  let next = { ...s, own };
  if (own.phase === 'betting' && num(own.bets?.ante) > 0) {
    next.declinedNote = null; // bets again: the last decline is history
    if (next.banner?.kind === 'warn') next.banner = null;
  }
  if (STREETS.includes(own.phase) && num(own.bets?.ante) > 0) {
    next = { ...next, roundBets: { ...ZERO_BETS, ...own.bets }, inRound: true };
  }
  fx.push({ type: 'balance', balance: own.balance });
  return next;
}

/** The round's result (a `settlement` message, or the snapshot's `last_result`). */
function applySettlement(s, msg, fx) {
  const stakes = {};
  for (const [k, w] of Object.entries(msg.wagers ?? {})) stakes[k] = num(w.stake);
  fx.push({ type: 'balance', balance: msg.balance });
  return {
    ...s,
    settlement: msg,
    // The player-dealer's own settlement (one `bank` line) has the dealer's hand: not theirs to show as a hand.
    mine: s.mine ?? (msg.wagers?.bank ? null : { category: msg.category, best_five: msg.best_five, outcome: msg.outcome }),
    roundBets: { ...ZERO_BETS, ...stakes },
    own: s.own ? { ...s.own, balance: msg.balance } : s.own,
  };
}

function voidedBanner(s, msg) {
  return { key: voidedKey(msg.code), kind: 'info', vars: { game: msg.game_number ?? s.gameNumber ?? '' }, game: s.gameNumber };
}

/**
 * Why the bets were declined, from the message's `code` (the server's `reason` is
 * English, for people reading logs): the page was hidden or closed, the player left,
 * the balance fell short, or a bet outside the limits (its `field`), worded with the
 * bets on the spots and the table's limits. Falls back to a plain "declined".
 */
export function declinedReason(s, msg) {
  if (DECLINE_CODES.has(msg.code)) return { key: `banner.declined_${msg.code}` };
  if (msg.code !== 'outside_limits') return { key: 'banner.declined' };
  const bets = s.own?.bets ?? {};
  const named = SPOTS.find((spot) => msg.field === `wagers.${spot}`);
  for (const spot of named ? [named] : SPOTS) {
    const lim = limit(s, spot);
    const amount = num(bets[spot]);
    if (!lim || amount <= 0) continue;
    if (amount < lim.min) return { key: `banner.declined_min_${spot}`, vars: { min: lim.min } };
    if (amount > lim.max) return { key: `banner.declined_max_${spot}`, vars: { max: lim.max } };
  }
  return { key: 'banner.declined' };
}

function onSnapshot(s, msg, fx) {
  // A banner (bets declined, round voided) stays up until the next betting window:
  // the snapshot asked for after a decline must not take it down.
  const banner = msg.phase !== 'betting' || s.banner?.game === msg.game_number ? s.banner : null;
  let n = withClock(newRound(s), msg);
  n = {
    ...n,
    connected: true,
    banner,
    paused: msg.paused ?? null,
    player: msg.player,
    gameNumber: msg.phase === 'offer' ? null : msg.game_number, // the offer: no round yet
    phase: msg.phase,
    light: msg.light,
    info: msg.table ? { ...(s.info ?? {}), ...msg.table } : s.info,
    tableBets: msg.table_bets ?? s.tableBets,
    trainer: msg.trainer ? { ...msg.trainer, review: s.trainer?.review ?? null } : null,
    cards: msg.hole_cards?.length ? msg.hole_cards : (msg.player_hand ?? []),
    board: msg.board ?? [],
  };
  n = applyCardRoom(applyOwn(n, msg.state, fx), msg);
  const street = STREETS.indexOf(n.phase);
  if (street >= 0) {
    const own = msg.state ?? {};
    n = { ...n, dealt: true, inRound: num(own.bets?.ante) > 0, decisions: own.decisions ?? [] };
    if (n.inRound && own.legal_actions?.length && n.decisions.length === street) {
      n.decision = { street: n.phase, legal: own.legal_actions, deadline: n.deadline, hand: own.hand ?? null };
    }
  }
  // The dealer's hand once revealed (a reload at the showdown draws it face up).
  if (msg.dealer?.cards?.length) n = { ...n, dealer: msg.dealer, dealt: true };
  // The round just played, until the next window opens: a reload at the showdown
  // still shows its result (or that it was voided).
  const last = msg.phase !== 'betting' ? msg.last_result : null;
  const line = msg.phase !== 'betting' ? msg.last_back_line_result : null;
  if (line?.type === 'settlement') n = { ...n, lineSettlement: line };
  if (last?.type === 'settlement') {
    n = applySettlement({ ...n, dealt: true, inRound: true }, last, fx);
  } else if (last?.type === 'round_voided') {
    n = { ...n, banner: n.banner ?? voidedBanner(n, last) };
  }
  fx.push({ type: 'snapshot', snapshot: msg });
  return n;
}

/**
 * A decision of the seat a back-line bettor's hand follows: theirs too (its Play is
 * the same multiple of their own Ante), but not their own choice nor their timer.
 */
function followDecision(s, msg) {
  const n = { ...s, decisions: [...s.decisions, (msg.auto ? 'auto:' : '') + msg.action] };
  const multiple = /^play_(\d+)x$/.exec(msg.action ?? '');
  if (multiple && s.roundBets) n.roundBets = { ...s.roundBets, play: Number(multiple[1]) * num(s.roundBets.ante) };
  return n;
}

/** The pending command a reply answers, and the state without it. */
function answered(s, msg) {
  if (!msg.id || !Object.hasOwn(s.pending, msg.id)) return [s, null];
  const pending = { ...s.pending };
  const cmd = pending[msg.id];
  delete pending[msg.id];
  return [{ ...s, pending }, cmd];
}

const HANDLERS = {
  snapshot: onSnapshot,

  accepted(s0, msg, fx) {
    const [s, cmd] = answered(s0, msg);
    if (msg.snapshot) return onSnapshot(s, msg.snapshot, fx);
    let n = applyOwn(s, msg.state, fx);
    if ('trainer' in msg) n = { ...n, trainer: msg.trainer ? { ...msg.trainer, review: n.trainer?.review ?? null } : null };
    if (cmd && cmd.type !== 'snapshot') fx.push({ type: 'clear_toasts', kind: 'error' }); // it worked: the last refusal is stale
    if (cmd?.type === 'decide') {
      // The timer's last word stays up until the player's own.
      n = { ...n, decision: null, autoNotice: null, confirmed: { street: n.phase, action: cmd.action } };
    }
    if (msg.notice === 'maximum') fx.push({ type: 'toast', key: 'notice.maximum', kind: 'info' });
    if (cmd?.type === 'answer_offer' && n.offer) n = { ...n, offer: { ...n.offer, answered: true } };
    if (cmd?.type === 'sit') n = { ...n, player: { ...n.player, seat: cmd.seat }, behind: null };
    return n;
  },

  error(s0, msg, fx) {
    const [s, cmd] = answered(s0, msg);
    const key = errorKey(msg.code);
    if (msg.id === null && !s.connected) {
      // Refused before a snapshot: the server closes the connection.
      fx.push({ type: 'leave', key });
      return s;
    }
    fx.push({ type: 'toast', key, kind: 'error' });
    if (cmd?.type === 'decide') fx.push({ type: 'send', command: { type: 'snapshot' } });
    return s;
  },

  /** Another tab of the same player changed the state (a bet, a decision). */
  state(s, msg, fx) {
    return applyCardRoom(applyCardRoom(applyOwn(s, msg.state, fx), msg.state), msg);
  },

  /** The player-dealer position is offered to a player (seat null: the backer). */
  offer(s, msg) {
    // The one asked before and not taking it: declined (the `banker` message gives the full list).
    const declined = s.offer ? [...s.declined, s.offer.name] : [];
    // A new round's offer: the last round's number and cards leave the header and
    // the felt (its result stays in the results area until betting opens). The light
    // says the bank is offered, with the offer's countdown (as a snapshot's phase `offer`).
    return {
      ...withClock(s, msg),
      phase: 'offer',
      light: 'red',
      offer: offerOf(msg, null),
      playerDealer: null,
      declined,
      noBanker: null,
      gameNumber: null,
      cards: [],
      board: [],
      dealer: null,
      mine: null,
    };
  },

  /** The position is taken: the round's player-dealer and bank. */
  banker(s, msg) {
    const { player_id, name, seat, bank } = msg;
    return {
      ...s,
      deadline: null, // the offer's countdown is over: betting opens next
      offer: null,
      noBanker: null,
      playerDealer: { player_id, name, seat, bank, bank_left: bank },
      declined: [...(msg.declined ?? [])],
    };
  },

  /** Who sits where: a seat was taken or freed. */
  seats(s, msg) {
    return { ...s, seatList: (msg.seats ?? []).map((r) => ({ ...r })) };
  },

  /** A hand was settled against the bank: what is left of it now (one per hand, in order). */
  bank_left(s, msg) {
    const pd = s.playerDealer ? { ...s.playerDealer, bank_left: msg.bank_left } : null;
    return { ...s, playerDealer: pd, bankStep: { seat: msg.seat ?? null, player_id: msg.player_id } };
  },

  /** Nobody banks: no round is dealt (`code` says why; `declined`: everyone asked, the last one included). */
  no_banker(s, msg) {
    // No round: the table pauses until the next offer (the `pause` message gives its time).
    return { ...s, phase: 'pause', deadline: null, offer: null, playerDealer: null, noBanker: msg.code, turn: null, declined: [...(msg.declined ?? [])] };
  },

  trainer_advice(s, msg) {
    return s.trainer ? { ...s, trainer: { ...s.trainer, advice: msg } } : s;
  },

  trainer_review(s, msg) {
    return s.trainer ? { ...s, trainer: { ...s.trainer, review: msg, session_cost: msg.session_cost, rounds: msg.rounds } } : s;
  },

  betting_open(s, msg, fx) {
    fx.push({ type: 'send', command: { type: 'snapshot' } }); // fresh state: can_repeat, balance, bets
    return { ...withClock(newRound(s), msg), gameNumber: msg.game_number, phase: 'betting', light: msg.light ?? 'green' };
  },

  light(s, msg) {
    const n = { ...withClock(s, msg), light: msg.light };
    if (msg.light === 'red' && s.phase === 'betting') n.phase = 'closed';
    return n;
  },

  table_bets(s, msg) {
    const { type: _type, ...bets } = msg;
    return { ...s, tableBets: bets };
  },

  bets_declined(s, msg, fx) {
    const banner = { ...declinedReason(s, msg), kind: 'warn', game: msg.game_number ?? s.gameNumber };
    fx.push({ type: 'send', command: { type: 'snapshot' } });
    return { ...s, banner, declinedNote: banner, inRound: false, roundBets: null };
  },

  betting_closed(s, msg) {
    const inRound = Boolean(msg.in_round);
    return {
      ...s,
      phase: 'closed',
      light: 'red',
      gameNumber: msg.game_number || s.gameNumber,
      dealt: true,
      inRound,
      roundBets: inRound && s.own ? { ...ZERO_BETS, ...s.own.bets } : s.roundBets,
    };
  },

  player_hand_dealt(s, msg) {
    return { ...s, cards: msg.cards };
  },

  hole_cards_dealt(s, msg) {
    return isMine(s, msg.player) ? { ...s, cards: msg.cards } : s;
  },

  decision_required(s0, msg, fx) {
    const s = withClock(s0, msg);
    fx.push({ type: 'reveal_hand' }); // after the render: bring the cards into view if scrolled off
    return {
      ...s,
      phase: msg.street,
      confirmed: null,
      decision: { street: msg.street, legal: msg.legal_actions, deadline: s.deadline, hand: msg.hand ?? null },
    };
  },

  decision(s, msg) {
    if (!isMe(s, msg.player)) return isMine(s, msg.player) ? followDecision(s, msg) : s;
    const n = { ...s, decision: null, decisions: [...s.decisions, (msg.auto ? 'auto:' : '') + msg.action] };
    if (msg.auto) n.autoNotice = msg.action === 'fold' ? 'auto_fold' : 'auto_check';
    else n.confirmed = { street: msg.street ?? s.phase, action: msg.action };
    if (num(msg.play) > 0 && s.roundBets) n.roundBets = { ...s.roundBets, play: num(msg.play) };
    return n;
  },

  flop_turned(s, msg) {
    return { ...s, phase: 'flop', confirmed: null, board: [...msg.cards] };
  },

  turn_and_river_turned(s, msg) {
    return { ...s, phase: 'river', confirmed: null, board: [...s.board.slice(0, 3), ...msg.cards] };
  },

  dealer_revealed(s, msg) {
    const { type: _type, ...dealer } = msg;
    return { ...s, decision: null, confirmed: null, phase: 'settled', dealer };
  },

  antes_returned(s) {
    return { ...s, antesReturned: true };
  },

  hand_shown(s, msg) {
    if (!isMine(s, msg.player)) return s;
    const { type: _type, ...mine } = msg;
    return { ...s, mine };
  },

  hand_folded(s, msg) {
    return isMine(s, msg.player) ? { ...s, mine: { folded: true } } : s;
  },

  settlement(s, msg, fx) {
    if (msg.behind !== undefined && msg.behind !== null) {
      // A seated player's back-line hand: its own result, beside the seat's.
      fx.push({ type: 'balance', balance: msg.balance });
      const own = s.own ? { ...s.own, balance: msg.balance } : s.own;
      return { ...s, phase: 'settled', deadline: null, lineSettlement: msg, own };
    }
    return applySettlement({ ...s, phase: 'settled', deadline: null }, msg, fx);
  },

  round_voided(s, msg, fx) {
    // A round voided by a server restart is told after the snapshot: it is not the
    // round on the table now (even when the new server's first window shows the
    // same provisional number).
    const current = msg.code !== 'server_restarted' && (!msg.game_number || msg.game_number === s.gameNumber);
    let n = current ? { ...s, phase: 'voided', decision: null, deadline: null, paused: null } : s;
    n = { ...n, banner: voidedBanner(s, msg), own: s.own ? { ...s.own, balance: msg.balance } : s.own };
    fx.push({ type: 'balance', balance: msg.balance });
    return n;
  },

  round_paused(s, msg) {
    // Every timer stops.
    return { ...s, paused: { since: msg.since ?? null }, deadline: null, decision: s.decision ? { ...s.decision, deadline: null } : null };
  },

  round_resumed(s0, msg) {
    const s = withClock(s0, msg);
    return { ...s, paused: null, decision: s.decision ? { ...s.decision, deadline: s.deadline } : null };
  },

  pause(s, msg) {
    return { ...withClock(s, msg), phase: 'pause', light: 'red' };
  },

  'client/table': (s, msg) => ({
    ...s,
    info: msg.info,
    sharedHand: Boolean(msg.info?.rule_set?.shared_hand),
    cardRoom: msg.info?.rule_set?.banking === 'player_dealer',
  }),

  'client/connecting': (s) => ({ ...s, pending: {} }),

  'client/sent': (s, msg) => ({ ...s, pending: { ...s.pending, [msg.id]: msg.command } }),

  'client/behind': (s, msg) => ({ ...s, behind: msg.seat ?? null }),

  // No decision can be sent: the panel goes until the snapshot.
  'client/disconnected': (s) => ({ ...s, connected: false, decision: null }),
};

/** The message types this reducer knows (server messages and the page's own events). */
export const MESSAGE_TYPES = Object.freeze(Object.keys(HANDLERS));

/**
 * The state after `message`, with `effects` listing what the page must do beside
 * drawing it: {type: 'toast', key, kind, vars?}, {type: 'clear_toasts', kind},
 * {type: 'send', command}, {type: 'balance', balance}, {type: 'leave', key},
 * {type: 'reveal_hand'}, {type: 'snapshot', snapshot}, {type: 'unknown', messageType}.
 * Never throws for a well-formed object; an unknown `type` keeps the state.
 */
export function reduce(state, message) {
  const fx = [];
  const handler = Object.hasOwn(HANDLERS, message?.type) ? HANDLERS[message.type] : null;
  if (!handler) {
    fx.push({ type: 'unknown', messageType: message?.type ?? null });
    return { ...state, effects: fx };
  }
  const next = handler({ ...state, effects: [] }, message, fx);
  return { ...next, effects: fx };
}

// ------------------------------------------------------------- selectors
// Pure functions of the state, for the renderer and the glue.

/** Betting is open to this page: the window is open, the light not red, connected (and not the player-dealer). */
export function canBet(s) {
  return s.phase === 'betting' && s.light !== 'red' && s.connected && !isPlayerDealer(s);
}

/** This player banks the round (a card-room table's player-dealer: no hand of their own). */
export function isPlayerDealer(s) {
  return s.playerDealer !== null && String(s.playerDealer.player_id) === String(s.player?.id);
}

/** A spot's table limits as numbers ({min, max}), or null when the spot is not offered. */
export function limit(s, spot) {
  const l = s.info?.limits?.[spot];
  return l ? { min: num(l[0]), max: num(l[1]) } : null;
}

/** The bets shown on the spots: the open bets while betting, the round's after. */
export function shownBets(s) {
  // A seated player betting behind another seat: the spots show that back-line hand.
  const line = backLine(s);
  if (line && s.phase === 'betting') return { ...ZERO_BETS, ...line.bets };
  if (s.phase === 'betting' || s.phase === 'idle') return { ...ZERO_BETS, ...(s.own?.bets ?? {}) };
  if (s.roundBets) return s.roundBets;
  if (s.phase === 'closed' && s.own) return { ...ZERO_BETS, ...s.own.bets };
  return ZERO_BETS;
}

/**
 * The back-line hand a seated player is betting on now (their `state.back_line`,
 * when the seat picked to bet behind is the one it is behind), or null: their seat.
 */
export function backLine(s) {
  const line = s.own?.back_line;
  if (!s.player?.seat || !s.behind) return null;
  return line && line.behind === s.behind ? line : { behind: s.behind, bets: { ...ZERO_BETS }, total_bet: 0, can_undo: false, can_double: false, can_repeat: Boolean(line) };
}

/**
 * A back-line bettor without a seat at a card room: the player id (a string) of the
 * seat their bets are behind (their `state`'s `behind`, else the seat picked on this
 * page; its player from the seats taken), whose hole cards, decisions and showdown
 * are their hand's; null otherwise.
 */
export function followedPlayer(s) {
  const seat = followedSeat(s);
  const row = seat ? (s.seatList ?? []).find((r) => num(r.seat) === seat) : null;
  return row ? String(row.player_id) : null;
}

/** The seat number a back-line bettor without a seat bets behind (see followedPlayer), or null. */
export function followedSeat(s) {
  if (!s.cardRoom || s.player?.seat) return null;
  return num(s.own?.behind ?? s.behind) || null;
}

/** The balance to show (available to bet), or null before the server said. */
export function balance(s) {
  return s.own ? num(s.own.balance) : null;
}

/** The total bet indicator: the open bets while betting, the round's (Play included) after. */
export function totalBet(s) {
  const line = backLine(s); // a seated player betting behind another seat: that hand's
  if (line && s.phase === 'betting') return num(line.total_bet);
  if (s.phase === 'betting' || !s.roundBets) return num(s.own?.total_bet);
  const b = s.roundBets;
  return num(b.ante) + num(b.blind) + num(b.trips) + num(b.bad_beat) + num(b.play);
}

/** The table's chip denominations, as numbers. */
export function chips(s) {
  return (s.info?.chips ?? []).map(num);
}

/** A chip is enabled when the balance covers it: twice over for the Ante (and its Blind). */
export function chipEnabled(s, value) {
  const bal = balance(s);
  if (!canBet(s) || bal === null) return false;
  const needed = num(s.own?.bets?.ante) > 0 ? value : 2 * value;
  return bal >= needed;
}

/** The chip picked for the player when none is picked yet: the second smallest enabled one, or null. */
export function defaultChip(s) {
  const enabled = chips(s).filter((c) => chipEnabled(s, c));
  return enabled.length ? enabled[Math.min(1, enabled.length - 1)] : null;
}

/** The first spot holding a bet below its table minimum while betting, or null. */
export function belowMinimum(s) {
  const bets = s.own?.bets ?? {};
  for (const spot of SPOTS) {
    const lim = limit(s, spot);
    const amount = num(bets[spot]);
    if (lim && amount > 0 && amount < lim.min) return { spot, min: lim.min };
  }
  return null;
}

/**
 * Other players' bets: the table's list without this player's rows (their seat's and,
 * at a card room, the hand behind another seat: `behind`), their amounts and themselves.
 */
export function others(s) {
  const all = s.tableBets ?? { players: 0, total: 0, listed: [] };
  const me = String(s.player?.id);
  const mine = (all.listed ?? []).filter((p) => String(p.id) === me);
  const sum = (b) => num(b?.ante) + num(b?.blind) + num(b?.trips) + num(b?.bad_beat);
  // Each hand: its listed row's total, else its bets from this player's own state. A
  // card-room player without a seat has one hand, listed with `behind` (the seat it is behind).
  const seatless = s.cardRoom && !s.player?.seat;
  const seatRow = mine.find((p) => seatless || p.behind == null);
  const lineRow = seatless ? null : mine.find((p) => p.behind != null);
  const line = s.own?.back_line;
  const own = (seatRow ? num(seatRow.total) : sum(s.own?.bets)) + (lineRow ? num(lineRow.total) : line ? sum(line.bets) : 0);
  const betting = mine.length > 0 || own > 0;
  return {
    players: Math.max(0, num(all.players) - (betting ? 1 : 0)),
    total: Math.max(0, num(all.total) - own),
    listed: (all.listed ?? []).filter((p) => String(p.id) !== me),
  };
}

/** The seats of a card-room table (the lobby's `seats`, else 7). */
export const CARD_ROOM_SEATS = 7;

/**
 * The seats of a card-room table, 1 to 7: [{seat, name, playerId, me, dealer, turn, settled}]
 * (name null for an empty seat), from the seats taken (the snapshot's and the `seats`
 * message's list), this player's seat, the player-dealer's, the turn's and the seats
 * listed in the table's bets; `settled`: the seat the bank last settled. [] at a live table.
 */
export function seats(s) {
  if (!s.cardRoom) return [];
  const n = num(s.info?.seats) || CARD_ROOM_SEATS;
  const out = [];
  for (let seat = 1; seat <= n; seat += 1) out.push({ seat, name: null, playerId: null, me: false, dealer: false, turn: false, settled: false });
  const put = (seat, id, name) => {
    const row = out[num(seat) - 1];
    if (!row) return null;
    if (id !== null && id !== undefined) row.playerId = String(id);
    if (name) row.name = name;
    return row;
  };
  for (const p of s.seatList ?? []) put(p.seat, p.player_id, p.name);
  for (const p of s.tableBets?.listed ?? []) if (p.seat) put(p.seat, p.id, p.name);
  const pd = s.playerDealer;
  if (pd?.seat) put(pd.seat, pd.player_id, pd.name).dealer = true;
  if (s.player?.seat) put(s.player.seat, s.player.id, s.player.name).me = true;
  if (s.turn?.seat) {
    const row = out[num(s.turn.seat) - 1];
    if (row) row.turn = true;
  }
  if (s.bankStep?.seat) {
    const row = out[num(s.bankStep.seat) - 1];
    if (row) row.settled = true;
  }
  return out;
}

/**
 * A card-room player may take a free seat (or move to one) between rounds, not while a
 * round is under way: from the offer to the settlement (docs/protocol.md, `sit`).
 */
export function canSit(s) {
  return s.cardRoom && s.connected && !s.offer && ['idle', 'pause', 'settled', 'voided'].includes(s.phase);
}

/** The open offer's form for this player ({min, max}, max null: the balance), or null. */
export function offerForm(s) {
  const o = s.offer;
  if (!o || !o.to_you || o.answered) return null;
  return { min: num(o.min_bank), max: o.max_bank === null || o.max_bank === undefined ? null : num(o.max_bank) };
}

/** What the page showed when the connection dropped (to say what changed meanwhile). */
export function lostMemo(s) {
  return {
    gameNumber: s.gameNumber,
    phase: s.phase,
    // Bets stand from the red light on (004): the hand plays on without the page.
    inRound: (s.inRound || (s.phase === 'closed' && num(s.own?.total_bet) > 0)) && !s.settlement && s.phase !== 'voided',
    decisions: [...s.decisions],
    betsOn: s.phase === 'betting' && num(s.own?.total_bet) > 0,
  };
}

/**
 * Back after a dropped connection: the passing messages that say so, and what happened
 * meanwhile that the page could not show: the timer's decisions, or the end of the
 * round (its result from the snapshot's `last_result`). `lost` is lostMemo() at the
 * drop, `snap` the first snapshot after it. [{key, vars}], first "Connection restored".
 */
export function reconnectNotices(lost, snap) {
  const out = [{ key: 'conn.restored', vars: {} }];
  if (!lost.inRound || !lost.gameNumber) return out;
  const game = lost.gameNumber;
  if (snap.game_number === game && STREETS.includes(snap.phase)) {
    for (const d of (snap.state?.decisions ?? []).slice(lost.decisions.length)) {
      if (d === 'auto:check' || d === 'auto:fold') out.push({ key: `conn.${d.slice(5)}_while_away`, vars: {} });
    }
    return out;
  }
  const r = snap.last_result;
  if (r?.type === 'settlement' && r.game_number === game) {
    const net = num(r.net);
    const key = net > 0 ? 'conn.settled_win' : net < 0 ? 'conn.settled_lose' : 'conn.settled_even';
    out.push({ key, vars: { game, amount: Math.abs(net) } });
  } else if (r?.type === 'round_voided' && r.game_number === game) {
    out.push({ key: 'conn.voided_while_away', vars: { game } });
  } else if (!(snap.game_number === game && ['closed', 'settled'].includes(snap.phase))) {
    out.push({ key: 'conn.round_over', vars: { game } });
  }
  return out;
}
