// The table view: one WebSocket to /ws/tables/{id}, the felt, the chips, the decisions.
//
// The server is the only authority: every bet, decision and balance shown here comes
// from its messages (docs/protocol.md). The client only keeps what it was told and
// draws it; a reconnect asks for a snapshot and draws that.
import * as api from './api.js';
import { cardRow, cardSvg } from './cards.js';
import { chipColour, h } from './dom.js';
import { handName } from './hands.js';
import { formatMoney, hasKey, t, tableName, tm } from './i18n.js';
import { decorateDecision, renderTrainerPanel } from './trainer.js';

const STREETS = ['pre_flop', 'flop', 'river'];
const SPOTS = ['ante', 'trips', 'bad_beat'];
const SPOT_KEYS = { ante: 'KeyA', trips: 'KeyT', bad_beat: 'KeyB' };
const ACTION_KEYS = {
  play_4x: ['Digit4', 'Numpad4'],
  play_3x: ['Digit3', 'Numpad3'],
  play_2x: ['Digit2', 'Numpad2'],
  play_1x: ['Digit1', 'Numpad1'],
  check: ['KeyC'],
  fold: ['KeyF'],
};
const ZERO_BETS = { ante: 0, blind: 0, trips: 0, bad_beat: 0, play: 0 };
// Commands that answer a window of the round: they name the round shown, so that one
// arriving after its window closed is refused, never applied to the next (protocol.md).
const WINDOW_COMMANDS = new Set(['place_bet', 'undo', 'double', 'repeat', 'decide', 'leave']);
const DECLINE_CODES = new Set(['hidden', 'closed', 'left', 'insufficient_funds']);

const SESSION_ID = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const num = (v) => (v === null || v === undefined ? 0 : Number(v));

export class TableView {
  /**
   * @param {object} hooks onLeave(reasonKey) when the table is closed by the server;
   *   toast(textKey, kind, vars, ms) to show a message (numbers in vars are money);
   *   clearToasts(kind) to take down the messages of a kind (a stale error once a
   *   later command succeeds);
   *   onBalance(balance).
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.ws = null;
    this.tableId = null;
    this.closing = false;
    this.seq = 0;
    this.pending = new Map();
    this.retry = 0;
    this.lost = null; // what the page showed when the connection dropped, until the next snapshot
    this.reconnectTimer = null;
    this.reconnectAt = null; // local time (ms) of the next automatic try
    this.reset();
    this.timerHandle = null;
    this.declinedNote = null; // why the last bets were declined, until the next Ante
    this.revealHand = false; // scroll the cards into view after the next render
    this.unloading = false; // the page is being closed or reloaded
    this.bindDom();
  }

  reset() {
    this.info = null; // GET /api/tables/{id}: rule set, limits, chips
    this.player = null;
    this.gameNumber = null;
    this.phase = 'idle';
    this.light = 'red';
    this.offset = 0; // server clock minus local clock, ms
    this.deadline = null; // server time (ms) of the current phase's deadline
    this.state = null; // the last `state` the server sent
    this.roundBets = null; // own bets of the round in play (Play included)
    this.inRound = false;
    this.dealt = false;
    this.cards = [];
    this.sharedHand = false;
    this.board = [];
    this.dealer = null; // {cards, category, best_five, qualifies}
    this.mine = null; // hand_shown / hand_folded
    this.settlement = null;
    this.decision = null; // {street, legal, deadline}
    this.decisions = [];
    this.autoNotice = null; // "auto_check" | "auto_fold"
    this.confirmed = null; // {street, action}: the player's own decision, until the next street
    this.tableBets = { players: 0, total: 0, listed: [] };
    this.selectedChip = null;
    this.banner = null; // {key, kind, vars}: vars are numbers, formatted as money when shown
    this.antesReturned = false;
    this.connected = false;
    this.paused = null; // {since} while the round is paused by a malfunction
    this.trainer = null; // trainer mode, when on: {on, session_cost, rounds, advice, review}
  }

  // ---------------------------------------------------------------- DOM
  bindDom() {
    this.$ = (id) => document.getElementById(id);
    for (const spot of SPOTS) {
      this.$(`spot-${spot}`).addEventListener('click', () => this.placeBet(spot));
    }
    for (const id of ['btn-undo', 'btn-double', 'btn-repeat']) {
      const btn = this.$(id);
      btn.addEventListener('click', () => this.command({ type: btn.dataset.cmd }));
    }
    this.$('btn-reconnect').addEventListener('click', () => this.reconnectNow());
    this.$('btn-trainer').addEventListener('click', () => this.command({ type: 'trainer', on: !this.trainer?.on }));
    // The browser knows first when the network goes: drop the socket (it may take a
    // long time to notice) and try again as soon as the network is back.
    window.addEventListener('offline', () => {
      if (this.ws && this.connected) this.ws.close(4000);
    });
    window.addEventListener('online', () => {
      if (this.lost) this.reconnectNow();
    });
    // 004: minimising the browser or switching tab while betting time remains and
    // bets are on the table counts as leaving: tell the server (it declines the bets
    // and says why). A page being closed or reloaded is hidden too, but then the
    // closing connection is the leaving (told on the next connection).
    window.addEventListener('pagehide', () => {
      this.unloading = true;
    });
    window.addEventListener('pageshow', () => {
      this.unloading = false;
    });
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState !== 'hidden' || this.unloading) return;
      if (this.canBet() && num(this.state?.total_bet) > 0) this.command({ type: 'leave', reason: 'hidden' });
    });
  }

  // ------------------------------------------------------------ lifecycle
  async open(tableId) {
    this.close();
    this.reset();
    this.tableId = tableId;
    this.closing = false;
    this.render();
    let info;
    try {
      info = await api.table(tableId);
    } catch (err) {
      if (!this.closing) this.hooks.onLeave(err.status === 404 ? 'error.table_not_found' : 'error.network');
      return;
    }
    if (this.closing || this.tableId !== tableId) return; // left while loading
    this.info = info;
    this.sharedHand = Boolean(this.info.rule_set?.shared_hand);
    this.connect();
    this.timerHandle = setInterval(() => this.tick(), 200);
    this.render();
  }

  close() {
    this.closing = true;
    if (this.timerHandle) clearInterval(this.timerHandle);
    this.timerHandle = null;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.reconnectAt = null;
    this.lost = null;
    if (this.ws) {
      try {
        this.ws.close(1000);
      } catch {
        /* already closed */
      }
    }
    this.ws = null;
  }

  connect() {
    const ws = new WebSocket(api.tableSocketUrl(this.tableId));
    this.ws = ws;
    this.pending.clear(); // replies to a dropped connection's commands never come
    // A handshake that hangs (no answer, no error) counts as a failed try.
    setTimeout(() => {
      if (ws === this.ws && !this.connected && ws.readyState !== WebSocket.CLOSED) ws.close();
    }, 8000);
    ws.addEventListener('open', () => {
      ws.send(JSON.stringify({ type: 'auth', token: api.getToken() }));
    });
    ws.addEventListener('message', (ev) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener('close', (ev) => {
      if (ws !== this.ws || this.closing) return;
      this.connected = false;
      if (ev.code === 4401) return this.hooks.onLeave('error.unauthorized');
      if (ev.code === 4404) return this.hooks.onLeave('error.table_not_found');
      if (ev.code === 4409) return this.hooks.onLeave('error.table_full');
      this.lost ??= this.memo();
      this.decision = null; // no decision can be sent: the panel goes until the snapshot
      this.scheduleReconnect();
      this.render();
    });
  }

  /** What the page showed when the connection dropped (to say what changed meanwhile). */
  memo() {
    return {
      gameNumber: this.gameNumber,
      phase: this.phase,
      // Bets stand from the red light on (004): the hand plays on without the page.
      inRound: (this.inRound || (this.phase === 'closed' && num(this.state?.total_bet) > 0)) && !this.settlement && this.phase !== 'voided',
      decisions: [...this.decisions],
      betsOn: this.phase === 'betting' && num(this.state?.total_bet) > 0,
    };
  }

  /** The next automatic try: 1, 2, 4, 8, then every 15 seconds. */
  scheduleReconnect() {
    const delay = Math.min(15000, 1000 * 2 ** this.retry);
    this.retry += 1;
    clearTimeout(this.reconnectTimer);
    this.reconnectAt = Date.now() + delay;
    this.reconnectTimer = setTimeout(() => this.reconnectNow(), delay);
  }

  reconnectNow() {
    if (this.closing || !this.tableId) return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN && this.connected) return;
    // A try still under way is dropped (its events are ignored from now on).
    const old = this.ws;
    this.ws = null;
    if (old && old.readyState !== WebSocket.CLOSED) old.close();
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.reconnectAt = null;
    this.connect();
    this.render();
  }

  /**
   * Back after a dropped connection: say so, and what happened meanwhile that the page
   * could not show: the timer's decisions, or the end of the round (its result from
   * the snapshot's `last_result`). Bets declined while away come as `bets_declined`
   * right after the snapshot, and a round voided by a restart as `round_voided`.
   */
  announceReconnect(lost, snap) {
    this.hooks.toast('conn.restored', 'info', {}, 8000);
    if (!lost.inRound || !lost.gameNumber) return;
    const game = lost.gameNumber;
    if (snap.game_number === game && STREETS.includes(snap.phase)) {
      for (const d of (snap.state?.decisions ?? []).slice(lost.decisions.length)) {
        if (d === 'auto:check' || d === 'auto:fold') this.hooks.toast(`conn.${d.slice(5)}_while_away`, 'info', {}, 8000);
      }
      return;
    }
    const r = snap.last_result;
    if (r?.type === 'settlement' && r.game_number === game) {
      const net = num(r.net);
      const key = net > 0 ? 'conn.settled_win' : net < 0 ? 'conn.settled_lose' : 'conn.settled_even';
      this.hooks.toast(key, 'info', { game, amount: Math.abs(net) }, 8000);
    } else if (r?.type === 'round_voided' && r.game_number === game) {
      this.hooks.toast('conn.voided_while_away', 'info', { game }, 8000);
    } else if (!(snap.game_number === game && ['closed', 'settled'].includes(snap.phase))) {
      this.hooks.toast('conn.round_over', 'info', { game }, 8000);
    }
  }

  /** Send a command with a fresh request id; the reply comes as accepted/error. */
  command(cmd) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || (!this.connected && cmd.type !== 'snapshot')) return false;
    // Unique across reloads too: the server answers a repeated id with its first
    // reply and does not apply the command again.
    const id = `${SESSION_ID}-${++this.seq}`;
    const body = { ...cmd, id };
    if (WINDOW_COMMANDS.has(cmd.type) && this.gameNumber) body.game_number = this.gameNumber;
    this.pending.set(id, { cmd, resolve: null });
    this.ws.send(JSON.stringify(body));
    return id;
  }

  /** A command whose reply is awaited: the reply, or null when none came in `ms`. */
  request(cmd, ms = 2000) {
    const id = this.command(cmd);
    if (!id) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), ms);
      this.pending.get(id).resolve = (reply) => {
        clearTimeout(timer);
        resolve(reply);
      };
    });
  }

  /** The pending command a reply answers (taken off the list), its waiter told. */
  answered(msg) {
    const entry = msg.id ? this.pending.get(msg.id) : null;
    if (!entry) return null;
    this.pending.delete(msg.id);
    entry.resolve?.(msg);
    return entry.cmd;
  }

  /**
   * Leave the table (the lobby button, the browser's Back): bets on the table while
   * betting is open are declined by the server (`leave`, reason `closed`), and the
   * player is told what became of them; a hand in play plays on (the timer decides).
   * Closes the connection. Returns the notice for the lobby ({key, vars}) or null.
   */
  async leave() {
    const ws = this.ws;
    let notice = null;
    const total = num(this.state?.total_bet);
    if (this.connected && this.canBet() && total > 0) {
      const reply = await this.request({ type: 'leave', reason: 'closed' });
      if (reply?.declined) notice = { key: 'leave.declined', vars: { amount: total } };
    } else if (this.connected && this.memo().inRound) {
      notice = { key: 'leave.hand_plays_on', vars: { game: this.gameNumber } };
    }
    if (this.ws === ws) this.close(); // unless the player sat down again meanwhile
    return notice;
  }

  placeBet(spot) {
    if (!this.canBet()) return;
    if (this.selectedChip === null) {
      this.hooks.toast('refuse.no_chip', 'error');
      return;
    }
    if (spot !== 'ante' && num(this.state?.bets?.ante) === 0) {
      this.hooks.toast('notice.ante_first', 'info');
      return;
    }
    const refusal = this.chipRefusal(spot, this.selectedChip);
    if (refusal) {
      this.hooks.toast(refusal.key, 'error', refusal.vars);
      return;
    }
    this.command({ type: 'place_bet', spot, amount: this.selectedChip });
  }

  /**
   * Why the chip cannot go on the spot now, with the numbers ({key, vars}), or null.
   * The selected chip is the player's choice: it is never swapped for a smaller one,
   * the click is refused instead. The server places a chip up to the spot's maximum,
   * so the cost is that of the part placed; an Ante takes its Blind too (004).
   */
  chipRefusal(spot, chip) {
    const bets = this.state?.bets ?? {};
    const lim = this.limit(spot);
    const current = num(bets[spot]);
    const vars = { chip, spot: t(`spot.${spot}`), balance: this.balance() ?? 0 };
    if (lim && current >= lim.max) return { key: 'refuse.at_max', vars: { ...vars, max: lim.max } };
    const placed = lim ? Math.min(chip, lim.max - current) : chip;
    const cost = spot === 'ante' ? 2 * placed : placed;
    if (cost <= vars.balance) return null;
    return { key: spot === 'ante' ? 'refuse.chip_ante' : 'refuse.chip_side', vars: { ...vars, cost } };
  }

  decide(action) {
    if (!this.connected || this.paused || !this.decision || !this.decision.legal.includes(action)) return;
    this.command({ type: 'decide', action, street: this.decision.street });
  }

  // ------------------------------------------------------------- messages
  clock(msg) {
    if (msg.now) this.offset = Date.parse(msg.now) - Date.now();
    if ('deadline' in msg) this.deadline = msg.deadline ? Date.parse(msg.deadline) : null;
  }

  secondsLeft(deadline = this.deadline) {
    if (deadline === null || deadline === undefined) return null;
    return Math.max(0, (deadline - (Date.now() + this.offset)) / 1000);
  }

  newRound() {
    this.roundBets = null;
    this.inRound = false;
    this.dealt = false;
    this.cards = [];
    this.board = [];
    this.dealer = null;
    this.mine = null;
    this.settlement = null;
    this.decision = null;
    this.decisions = [];
    this.autoNotice = null;
    this.confirmed = null;
    this.banner = null;
    this.antesReturned = false;
    if (this.trainer) this.trainer.advice = null;
  }

  onMessage(msg) {
    const handler = this[`on_${msg.type}`];
    if (typeof handler === 'function') handler.call(this, msg);
    this.render();
  }

  on_snapshot(msg) {
    this.connected = true;
    this.retry = 0;
    const lost = this.lost;
    this.lost = null;
    clearTimeout(this.reconnectTimer);
    this.reconnectAt = null;
    // A banner (bets declined, round voided) stays up until the next betting window:
    // the snapshot asked for after a decline must not take it down.
    const banner = msg.phase !== 'betting' || this.banner?.game === msg.game_number ? this.banner : null;
    this.newRound();
    this.banner = banner;
    this.paused = msg.paused ?? null;
    this.clock(msg);
    this.player = msg.player;
    this.gameNumber = msg.game_number;
    this.phase = msg.phase;
    this.light = msg.light;
    if (msg.table) this.info = { ...(this.info ?? {}), ...msg.table };
    this.tableBets = msg.table_bets ?? this.tableBets;
    this.applyTrainer(msg.trainer ?? null);
    const own = msg.hole_cards?.length ? msg.hole_cards : msg.player_hand ?? [];
    this.cards = own;
    this.board = msg.board ?? [];
    this.applyState(msg.state);
    const street = STREETS.indexOf(this.phase);
    if (street >= 0) {
      this.dealt = true;
      const s = msg.state ?? {};
      this.inRound = num(s.bets?.ante) > 0;
      this.decisions = s.decisions ?? [];
      if (this.inRound && s.legal_actions?.length && this.decisions.length === street) {
        this.decision = { street: this.phase, legal: s.legal_actions, deadline: this.deadline, hand: s.hand ?? null };
      }
    }
    // The round just played, until the next window opens: a reload at the showdown
    // still shows its result (or that it was voided).
    const last = msg.phase !== 'betting' ? msg.last_result : null;
    if (last?.type === 'settlement') {
      this.dealt = true;
      this.inRound = true;
      this.applySettlement(last);
    } else if (last?.type === 'round_voided') {
      this.banner ??= this.voidedBanner(last);
    }
    if (lost) this.announceReconnect(lost, msg);
  }

  applyState(state) {
    if (!state) return;
    this.state = state;
    if (state.phase === 'betting' && num(state.bets?.ante) > 0) {
      this.declinedNote = null; // bets again: the last decline is history
      if (this.banner?.kind === 'warn') this.banner = null;
    }
    if (STREETS.includes(state.phase) && num(state.bets?.ante) > 0) {
      this.roundBets = { ...ZERO_BETS, ...state.bets };
      this.inRound = true;
    }
    this.hooks.onBalance?.(state.balance);
  }

  on_accepted(msg) {
    const cmd = this.answered(msg);
    if (msg.snapshot) {
      this.on_snapshot(msg.snapshot);
      return;
    }
    this.applyState(msg.state);
    if ('trainer' in msg) this.applyTrainer(msg.trainer);
    if (cmd && cmd.type !== 'snapshot') this.hooks.clearToasts?.('error'); // it worked: the last refusal is stale
    if (cmd?.type === 'decide') {
      this.decision = null;
      this.autoNotice = null; // the timer's last word stays up until the player's own
      this.confirmed = { street: this.phase, action: cmd.action };
    }
    if (msg.notice === 'maximum') this.hooks.toast('notice.maximum', 'info');
  }

  /** Trainer mode as the server says it is (null: off); the last review is kept. */
  applyTrainer(view) {
    this.trainer = view ? { ...view, review: this.trainer?.review ?? null } : null;
  }

  on_trainer_advice(msg) {
    if (this.trainer) this.trainer.advice = msg;
  }

  on_trainer_review(msg) {
    if (this.trainer) this.trainer = { ...this.trainer, review: msg, session_cost: msg.session_cost, rounds: msg.rounds };
  }

  /** Another tab of the same player changed the state (a bet, a decision): show it. */
  on_state(msg) {
    this.applyState(msg.state);
  }

  on_error(msg) {
    const cmd = this.answered(msg);
    if (msg.id === null && !this.connected) {
      // Refused before a snapshot: the connection is closed by the server.
      this.hooks.onLeave(hasKey(`error.${msg.code}`) ? `error.${msg.code}` : 'error.generic');
      return;
    }
    const key = hasKey(`error.${msg.code}`) ? `error.${msg.code}` : 'error.generic';
    this.hooks.toast(key, 'error');
    if (cmd?.type === 'decide') this.command({ type: 'snapshot' });
  }

  on_betting_open(msg) {
    this.newRound();
    this.clock(msg);
    this.gameNumber = msg.game_number;
    this.phase = 'betting';
    this.light = msg.light ?? 'green';
    this.command({ type: 'snapshot' }); // fresh state: can_repeat, balance, bets
  }

  on_light(msg) {
    this.clock(msg);
    this.light = msg.light;
    if (msg.light === 'red' && this.phase === 'betting') this.phase = 'closed';
  }

  on_table_bets(msg) {
    this.tableBets = msg;
  }

  /** Other players' bets: the table's list without this player's row and amount. */
  others() {
    const all = this.tableBets ?? { players: 0, total: 0, listed: [] };
    const me = String(this.player?.id);
    const row = (all.listed ?? []).find((p) => String(p.id) === me);
    const b = this.state?.bets ?? {};
    const own = row ? num(row.total) : num(b.ante) + num(b.blind) + num(b.trips) + num(b.bad_beat);
    const betting = row || own > 0;
    return {
      players: Math.max(0, num(all.players) - (betting ? 1 : 0)),
      total: Math.max(0, num(all.total) - own),
      listed: (all.listed ?? []).filter((p) => String(p.id) !== me),
    };
  }

  on_betting_closed(msg) {
    this.phase = 'closed';
    this.light = 'red';
    if (msg.game_number) this.gameNumber = msg.game_number;
    this.dealt = true;
    this.inRound = Boolean(msg.in_round);
    if (this.inRound && this.state) this.roundBets = { ...ZERO_BETS, ...this.state.bets };
  }

  on_player_hand_dealt(msg) {
    this.cards = msg.cards;
  }

  on_hole_cards_dealt(msg) {
    if (!msg.player || msg.player === String(this.player?.id)) this.cards = msg.cards;
  }

  on_decision_required(msg) {
    this.clock(msg);
    this.phase = msg.street;
    this.confirmed = null;
    this.decision = { street: msg.street, legal: msg.legal_actions, deadline: this.deadline, hand: msg.hand ?? null };
    this.revealHand = true; // after the render: bring the cards into view if scrolled off
  }

  on_decision(msg) {
    if (msg.player && msg.player !== String(this.player?.id)) return;
    this.decision = null;
    this.decisions.push((msg.auto ? 'auto:' : '') + msg.action);
    if (msg.auto) this.autoNotice = msg.action === 'fold' ? 'auto_fold' : 'auto_check';
    else this.confirmed = { street: msg.street ?? this.phase, action: msg.action };
    if (num(msg.play) > 0 && this.roundBets) this.roundBets = { ...this.roundBets, play: num(msg.play) };
  }

  on_flop_turned(msg) {
    this.phase = 'flop';
    this.confirmed = null;
    this.board = [...msg.cards];
  }

  on_turn_and_river_turned(msg) {
    this.phase = 'river';
    this.confirmed = null;
    this.board = [...this.board.slice(0, 3), ...msg.cards];
  }

  on_dealer_revealed(msg) {
    this.decision = null;
    this.confirmed = null;
    this.phase = 'settled';
    this.dealer = msg;
  }

  on_antes_returned() {
    this.antesReturned = true;
  }

  on_hand_shown(msg) {
    if (msg.player && msg.player !== String(this.player?.id)) return;
    this.mine = msg;
  }

  on_hand_folded(msg) {
    if (msg.player && msg.player !== String(this.player?.id)) return;
    this.mine = { folded: true };
  }

  on_settlement(msg) {
    this.phase = 'settled';
    this.deadline = null;
    this.applySettlement(msg);
  }

  /** The round's result (a `settlement` message, or the snapshot's `last_result`). */
  applySettlement(msg) {
    this.settlement = msg;
    if (!this.mine) this.mine = { category: msg.category, best_five: msg.best_five, outcome: msg.outcome };
    const stakes = {};
    for (const [k, w] of Object.entries(msg.wagers ?? {})) stakes[k] = num(w.stake);
    this.roundBets = { ...ZERO_BETS, ...stakes };
    if (this.state) this.state = { ...this.state, balance: msg.balance };
    this.hooks.onBalance?.(msg.balance);
  }

  on_round_voided(msg) {
    // A round voided by a server restart is told after the snapshot: it is not the
    // round on the table now (even when the new server's first window shows the
    // same provisional number).
    const current = msg.code !== 'server_restarted' && (!msg.game_number || msg.game_number === this.gameNumber);
    if (current) {
      this.phase = 'voided';
      this.decision = null;
      this.deadline = null;
      this.paused = null;
    }
    this.banner = this.voidedBanner(msg);
    if (this.state) this.state = { ...this.state, balance: msg.balance };
    this.hooks.onBalance?.(msg.balance);
  }

  voidedBanner(msg) {
    const key = msg.code === 'server_restarted' ? 'banner.voided_restart' : 'banner.voided';
    return { key, kind: 'info', vars: { game: msg.game_number ?? this.gameNumber ?? '' }, game: this.gameNumber };
  }

  on_round_paused(msg) {
    this.paused = { since: msg.since ?? null };
    this.deadline = null; // every timer stops
    if (this.decision) this.decision.deadline = null;
  }

  on_round_resumed(msg) {
    this.paused = null;
    this.clock(msg);
    if (this.decision) this.decision.deadline = this.deadline;
  }

  on_bets_declined(msg) {
    this.banner = { ...this.declinedReason(msg), kind: 'warn', game: msg.game_number ?? this.gameNumber };
    this.declinedNote = this.banner;
    this.inRound = false;
    this.roundBets = null;
    this.command({ type: 'snapshot' });
  }

  on_pause(msg) {
    this.clock(msg);
    this.phase = 'pause';
    this.light = 'red';
  }

  /**
   * Why the bets were declined, in the page's language, from the message's `code`
   * (the server's `reason` is English, for people reading logs): the page was hidden
   * or closed, the player left, the balance fell short, or a bet outside the limits
   * (its `field`), worded with the bets on the spots and the table's limits. Falls
   * back to a plain "declined and refunded".
   */
  declinedReason(msg) {
    if (DECLINE_CODES.has(msg.code)) return { key: `banner.declined_${msg.code}` };
    if (msg.code !== 'outside_limits') return { key: 'banner.declined' };
    const bets = this.state?.bets ?? {};
    const named = SPOTS.find((spot) => msg.field === `wagers.${spot}`);
    for (const spot of named ? [named] : SPOTS) {
      const lim = this.limit(spot);
      const amount = num(bets[spot]);
      if (!lim || amount <= 0) continue;
      if (amount < lim.min) return { key: `banner.declined_min_${spot}`, vars: { min: lim.min } };
      if (amount > lim.max) return { key: `banner.declined_max_${spot}`, vars: { max: lim.max } };
    }
    return { key: 'banner.declined' };
  }

  /** The first spot holding a bet below its table minimum while betting, or null. */
  belowMinimum() {
    const bets = this.state?.bets ?? {};
    for (const spot of SPOTS) {
      const lim = this.limit(spot);
      const amount = num(bets[spot]);
      if (lim && amount > 0 && amount < lim.min) return { spot, min: lim.min };
    }
    return null;
  }

  // ------------------------------------------------------------- derived
  canBet() {
    return this.phase === 'betting' && this.light !== 'red' && this.connected;
  }

  limit(spot) {
    const l = this.info?.limits?.[spot];
    return l ? { min: num(l[0]), max: num(l[1]) } : null;
  }

  /** The bets shown on the spots: the open bets while betting, the round's after. */
  shownBets() {
    if (this.phase === 'betting' || this.phase === 'idle') return { ...ZERO_BETS, ...(this.state?.bets ?? {}) };
    if (this.roundBets) return this.roundBets;
    if (this.phase === 'closed' && this.state) return { ...ZERO_BETS, ...this.state.bets };
    return ZERO_BETS;
  }

  balance() {
    return this.state ? num(this.state.balance) : null;
  }

  /** A chip is enabled when the balance covers it: twice over for the Ante (and its Blind). */
  chipEnabled(value) {
    const bal = this.balance();
    if (!this.canBet() || bal === null) return false;
    const needed = num(this.state?.bets?.ante) > 0 ? value : 2 * value;
    return bal >= needed;
  }

  chips() {
    return (this.info?.chips ?? []).map(num);
  }

  selectChipIndex(i) {
    const value = this.chips()[i];
    if (value === undefined || !this.canBet()) return;
    if (!this.chipEnabled(value)) {
      // A chip the balance cannot cover is not picked: say why, keep the current one.
      const balance = this.balance() ?? 0;
      if (num(this.state?.bets?.ante) > 0) this.hooks.toast('refuse.chip_over_balance', 'error', { chip: value, balance });
      else this.hooks.toast('refuse.chip_ante', 'error', { chip: value, cost: 2 * value, balance });
      return;
    }
    this.selectedChip = value;
    this.render();
  }

  // ------------------------------------------------------------ keyboard
  /** Handle a key press; true when it was used. */
  onKey(ev) {
    if (ev.shiftKey && /^Digit[1-9]$/.test(ev.code)) {
      this.selectChipIndex(Number(ev.code.slice(5)) - 1);
      return true;
    }
    if (ev.shiftKey) return false;
    if (this.decision) {
      for (const action of this.decision.legal) {
        if ((ACTION_KEYS[action] ?? []).includes(ev.code)) {
          this.decide(action);
          return true;
        }
      }
    }
    for (const [spot, code] of Object.entries(SPOT_KEYS)) {
      if (ev.code === code) {
        this.placeBet(spot);
        return true;
      }
    }
    const cmd = { KeyU: 'undo', KeyD: 'double', KeyR: 'repeat' }[ev.code];
    if (cmd) {
      const btn = this.$(`btn-${cmd}`);
      if (!btn.disabled) this.command({ type: cmd });
      return true;
    }
    return false;
  }

  // -------------------------------------------------------------- render
  tick() {
    this.renderTimers();
  }

  renderTimers() {
    if (this.lost) {
      const wait = this.reconnectAt === null ? 0 : Math.ceil((this.reconnectAt - Date.now()) / 1000);
      this.$('conn-lost-retry').textContent = wait > 0 ? t('conn.retry_in', { n: wait }) : t('conn.retrying');
    }
    const left = this.secondsLeft();
    const count = this.$('light-count');
    // The light's count while betting is open and during the pause; never "0s" (a
    // closed window has no time left to show).
    const running = (this.phase === 'betting' && this.light !== 'red') || this.phase === 'pause';
    const n = left === null ? 0 : Math.ceil(left);
    count.textContent = running && n > 0 ? t('timer.seconds', { n }) : '';
    const dc = this.$('decision-count');
    if (this.decision) {
      const dl = this.secondsLeft(this.decision.deadline);
      dc.textContent = dl === null ? '' : t('timer.seconds', { n: Math.ceil(dl) });
      dc.classList.toggle('urgent', dl !== null && dl <= 3);
    } else {
      dc.textContent = '';
    }
  }

  render() {
    if (!this.tableId) return;
    const $ = this.$;
    const view = $('view-table');
    view.dataset.phase = this.phase;
    view.dataset.light = this.light;
    view.dataset.connected = String(this.connected);
    view.dataset.decisions = this.decisions.join(' ');
    $('t-name').textContent = tableName(this.info ?? { id: this.tableId });
    $('t-game').textContent = this.gameNumber ?? '—';
    const bal = this.balance();
    $('t-balance').textContent = bal === null ? '—' : formatMoney(bal);
    this.renderLight();
    this.renderCards();
    this.renderSpots();
    this.renderChips();
    this.renderActions();
    this.renderDecision();
    this.renderResult();
    this.renderTrainer();
    this.renderLimits();
    this.renderOthers();
    this.renderFeltPays();
    this.renderStatus();
    this.renderConnection();
    this.renderTimers();
    if (this.revealHand) {
      this.revealHand = false;
      this.bringCardsIntoView();
    }
  }

  /** The trainer toggle (play-money tables only) and panel. */
  renderTrainer() {
    const btn = this.$('btn-trainer');
    btn.hidden = !this.info?.trainer;
    btn.setAttribute('aria-pressed', String(Boolean(this.trainer?.on)));
    btn.disabled = !this.connected;
    renderTrainerPanel(this.$('trainer-panel'), this.trainer);
  }

  /**
   * When a decision opens, the player's hand and the board must be on screen: the
   * decision panel sticks to the bottom of the window and may cover them, or the
   * page may be scrolled past them. Scroll only when they are not visible.
   */
  bringCardsIntoView() {
    const felt = this.$('felt');
    const top = this.$('dealer-cards').getBoundingClientRect().top;
    const bottom = this.$('player-cards').getBoundingClientRect().bottom;
    const cover = this.$('controls').getBoundingClientRect().top;
    const limit = Math.min(window.innerHeight, cover > top ? cover : window.innerHeight);
    if (top >= 0 && bottom <= limit) return;
    const y = window.scrollY + felt.getBoundingClientRect().top - 8;
    window.scrollTo({ top: Math.max(0, y), behavior: 'instant' });
  }

  /** The overlay while the connection is down: what it means now, and the next try. */
  renderConnection() {
    const box = this.$('conn-lost');
    box.hidden = !this.lost;
    if (!this.lost) return;
    const l = this.lost;
    let key = 'conn.lost_watching';
    if (l.betsOn) key = 'conn.lost_betting';
    else if (l.inRound) key = 'conn.lost_round';
    this.$('conn-lost-what').textContent = t(key);
    this.$('conn-lost-what').dataset.key = key;
  }

  renderLight() {
    const box = this.$('light-box');
    box.dataset.light = this.light;
    let key;
    if (this.phase === 'betting') key = this.light === 'yellow' ? 'light.yellow' : 'light.green';
    else if (this.phase === 'pause') key = 'light.next_round';
    else if (this.phase === 'idle') key = 'light.waiting';
    else key = 'light.red';
    this.$('light-status').textContent = t(key);
    // An overlay under the light (beside it on phones): it takes no room, so nothing
    // moves when it shows.
    const auto = this.$('auto-notice');
    auto.hidden = !this.autoNotice;
    auto.textContent = this.autoNotice ? t(`auto.${this.autoNotice}`) : '';
  }

  renderCards() {
    const $ = this.$;
    // Dealer: face down once dealt, face up at the showdown.
    const dealerCards = $('dealer-cards');
    dealerCards.replaceChildren();
    const dealerBest = this.dealer ? new Set(this.dealer.best_five) : null;
    if (this.dealer) dealerCards.append(cardRow(this.dealer.cards, { highlight: dealerBest, dimOthers: true, bestClass: 'best-dealer' }));
    else if (this.dealt) dealerCards.append(cardRow([null, null]));
    else dealerCards.append(placeholders(2));
    const ann = $('announcement');
    ann.hidden = !this.dealer;
    ann.textContent = this.dealer ? announcement(this.dealer) : '';
    ann.classList.toggle('qualifies', Boolean(this.dealer?.qualifies));

    // Board: five slots, turned as the streets come.
    const mineBest = this.mine?.best_five ? new Set(this.mine.best_five) : null;
    const board = $('board');
    board.replaceChildren();
    for (let i = 0; i < 5; i += 1) {
      const code = this.board[i];
      if (code) {
        const svg = cardSvg(code);
        if (mineBest && mineBest.has(code)) svg.classList.add('best');
        if (dealerBest && dealerBest.has(code)) svg.classList.add('best-dealer');
        if (mineBest && !mineBest.has(code) && !(dealerBest && dealerBest.has(code))) svg.classList.add('dim');
        board.append(svg);
      } else if (this.dealt) board.append(cardSvg(null));
      else board.append(placeholders(1));
    }

    // The player's hand: own hole cards, or the one shared hand of a live table.
    $('player-label').textContent = t(this.sharedHand ? 'table.player_hand_shared' : 'table.your_hand');
    const pc = $('player-cards');
    pc.replaceChildren();
    if (this.cards.length) {
      pc.append(cardRow(this.cards, { highlight: mineBest, dimOthers: Boolean(mineBest) }));
      pc.classList.toggle('folded', Boolean(this.mine?.folded));
    } else if (this.dealt && !this.sharedHand && this.inRound) pc.append(cardRow([null, null]));
    else pc.append(placeholders(2));
    const hn = $('player-hand-name');
    if (this.mine?.folded) {
      hn.hidden = false;
      hn.textContent = t('hand.folded');
    } else if (this.mine?.category) {
      hn.hidden = false;
      hn.textContent = handName(this.mine, { capital: true }); // "Pair of sixes"
    } else if (this.decision?.hand) {
      // While deciding: the hand so far, from the server ("Pair of sixes").
      hn.hidden = false;
      hn.textContent = handName(this.decision.hand, { capital: true });
    } else {
      hn.hidden = true;
      hn.textContent = '';
    }
  }

  renderSpots() {
    const bets = this.shownBets();
    const betting = this.canBet();
    const results = this.settlement?.wagers ?? null;
    const hasBadBeat = Boolean(this.info?.limits?.bad_beat);
    this.$('spot-bad_beat').hidden = !hasBadBeat;
    for (const spot of ['ante', 'blind', 'trips', 'bad_beat', 'play']) {
      const node = this.$(`spot-${spot}`);
      if (!node) continue;
      const amount = num(bets[spot]);
      const lim = this.limit(spot === 'blind' ? 'ante' : spot);
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
        const open = betting && (spot === 'ante' || num(this.state?.bets?.ante) > 0);
        node.disabled = !open;
        node.classList.toggle('open', open);
        // The key hint only while the spot takes chips: at the showdown the spot
        // shows its result label there instead.
        if (open) node.append(h('kbd', {}, t(`key.spot_${spot}`)));
        node.setAttribute('aria-label', `${t(`spot.${spot}`)}: ${formatMoney(amount)}`);
      }
    }
  }

  renderChips() {
    const tray = this.$('chips');
    tray.setAttribute('aria-label', t('chips.title'));
    const chips = this.chips();
    // The first chip is picked for the player once (the second smallest the balance
    // covers); after that the choice is theirs alone, even when the balance no longer
    // covers it (a click on a spot then says why it is refused).
    if (this.selectedChip === null) {
      const enabled = chips.filter((c) => this.chipEnabled(c));
      if (enabled.length) this.selectedChip = enabled[Math.min(1, enabled.length - 1)];
    }
    tray.replaceChildren();
    chips.forEach((value, i) => {
      const enabled = this.chipEnabled(value);
      const btn = h(
        'button',
        {
          type: 'button',
          class: `chip chip-${chipColour(value)}${value === this.selectedChip ? ' selected' : ''}`,
          'data-chip': String(value),
          'aria-pressed': String(value === this.selectedChip),
          'aria-label': t('chips.chip', { value: formatMoney(value) }),
        },
        chipFace(value),
        h('kbd', {}, `⇧${i + 1}`),
      );
      btn.disabled = !enabled;
      btn.addEventListener('click', () => {
        this.selectedChip = value;
        this.render();
      });
      tray.append(btn);
    });
    this.$('betting-controls').classList.toggle('lit', this.canBet());
  }

  renderActions() {
    const s = this.state ?? {};
    const betting = this.canBet();
    this.$('btn-undo').disabled = !(betting && s.can_undo);
    this.$('btn-double').disabled = !(betting && s.can_double);
    this.$('btn-repeat').disabled = !(betting && s.can_repeat);
    const warn = this.$('warning');
    const low = betting && s.warning === 'balance_low_for_play';
    warn.hidden = !low;
    // With the numbers: the balance left and the 1x Play it would not cover.
    const river = this.info?.rule_set?.play_multiples?.river ?? [1];
    const play = num(s.bets?.ante) * Math.min(...river);
    warn.textContent = low ? tm('warn.balance_low_for_play', { balance: num(s.balance), play }) : '';
    this.$('t-total').textContent = formatMoney(this.totalBet());
  }

  totalBet() {
    if (this.phase === 'betting' || !this.roundBets) return num(this.state?.total_bet);
    const b = this.roundBets;
    return num(b.ante) + num(b.blind) + num(b.trips) + num(b.bad_beat) + num(b.play);
  }

  renderDecision() {
    const panel = this.$('decision');
    const d = this.decision;
    panel.hidden = !d;
    // Below the felt: the decision, or the chips. The result panel sits beside the
    // felt on wide screens; on narrower ones (under the felt) the chips give way to it.
    const resultShown = Boolean(this.settlement || this.banner);
    this.$('controls').classList.toggle('showing-result', resultShown && !d && !this.canBet());
    this.$('betting-controls').hidden = Boolean(d);
    const box = this.$('decision-buttons');
    box.replaceChildren();
    if (!d) return;
    this.$('decision-street').textContent = t(`street.${d.street}`);
    const why = this.$('decision-why');
    const short = this.shortPlays(d);
    why.hidden = !short;
    why.textContent = short ?? '';
    for (const action of d.legal) {
      const btn = h(
        'button',
        { type: 'button', class: `btn btn-decide decide-${action}`, 'data-action': action },
        h('span', {}, t(`action.${action}`)),
        h('kbd', {}, t(`key.${action}`)),
      );
      btn.disabled = Boolean(this.paused) || !this.connected;
      btn.addEventListener('click', () => this.decide(action));
      box.append(btn);
    }
    const advice = this.trainer?.advice;
    if (advice?.street === d.street && advice.game_number === this.gameNumber) decorateDecision(box, advice);
  }

  /**
   * Why a Play the street offers is missing (the balance does not cover it), with the
   * numbers, or null: "Not enough for PLAY 4x (800): your balance is 600."
   */
  shortPlays(d) {
    const multiples = this.info?.rule_set?.play_multiples?.[d.street] ?? [];
    const ante = num(this.roundBets?.ante ?? this.state?.bets?.ante);
    const balance = this.balance() ?? 0;
    const missing = multiples.filter((m) => !d.legal.includes(`play_${m}x`) && ante * m > balance);
    if (!missing.length || ante <= 0) return null;
    const plays = missing.map((m) => `${t(`action.play_${m}x`)} (${formatMoney(ante * m)})`).join(t('decision.or'));
    const key = d.legal.some((a) => a.startsWith('play_')) ? 'decision.short' : `decision.short_${d.street === 'river' ? 'fold' : 'check'}`;
    return t(key, { plays, balance: formatMoney(balance) });
  }

  renderResult() {
    const box = this.$('result');
    box.replaceChildren();
    const s = this.settlement;
    if (this.banner && !s) {
      box.hidden = false;
      box.className = `result outcome-${this.banner.kind}`;
      box.dataset.banner = this.banner.key;
      box.append(h('div', { class: 'result-head result-banner' }, tm(this.banner.key, this.banner.vars)));
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
      net > 0
        ? t('result.you_win', { amount: formatMoney(net) })
        : net < 0
          ? t('result.you_lose', { amount: formatMoney(-net) })
          : t('result.even');
    const main = h('div', { class: 'result-main' });
    const side = h('div', { class: 'result-side' });
    box.append(main, side);
    main.append(h('div', { class: 'result-head' }, head));
    const sub = [];
    if (s.outcome === 'fold') sub.push(t('hand.folded'));
    else sub.push(t(`outcome.${s.outcome}`));
    main.append(h('div', { class: 'result-sub' }, sub.join(' · ')));
    const rows = [];
    for (const kind2 of ['ante', 'blind', 'play', 'trips', 'bad_beat']) {
      const w = s.wagers?.[kind2];
      if (!w || num(w.stake) === 0) continue;
      rows.push(
        h(
          'tr',
          { 'data-wager': kind2 },
          h('th', {}, t(`spot.${kind2}`)),
          h('td', { class: 'money' }, formatMoney(w.stake)),
          h('td', { class: `res-${w.result}` }, t(`result.${w.result}`)),
          h('td', { class: 'money' }, formatSigned(num(w.net))),
        ),
      );
    }
    main.append(
      h(
        'table',
        { class: 'result-table' },
        h('thead', {}, h('tr', {}, h('th', {}, t('result.wager')), h('th', {}, t('result.stake')), h('th', {}, t('result.result')), h('th', {}, t('result.net')))),
        h('tbody', {}, ...rows),
      ),
    );
    if (this.dealer) {
      const line = h('div', { class: 'best-line' }, h('span', {}, t('result.dealer_best')));
      line.append(cardRow(this.dealer.best_five, { small: true }));
      side.append(line);
    }
    if (this.mine?.best_five?.length) {
      const line = h('div', { class: 'best-line' }, h('span', {}, t('result.your_best')));
      line.append(cardRow(this.mine.best_five, { small: true }));
      side.append(line);
    }
    side.append(
      h('div', { class: 'result-balance' }, h('span', {}, t('table.balance')), ' ', h('b', { class: 'money', id: 'result-balance' }, formatMoney(s.balance))),
    );
  }

  renderLimits() {
    const tbl = this.$('limits');
    tbl.replaceChildren();
    const limits = this.info?.limits ?? {};
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

  renderOthers() {
    const box = this.$('others');
    box.replaceChildren();
    const o = this.others();
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
      list.append(h('li', { class: 'other', 'data-name': p.name }, who, h('span', { class: 'other-bets' }, ...bets)));
    }
    box.append(list);
  }

  renderFeltPays() {
    const rs = this.info?.rule_set;
    this.$('felt-rule').textContent = t('felt.qualifies', { hand: t(`announce.${rs?.dealer_qualifier ?? 'pair'}`) });
    const box = this.$('felt-pays');
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

  renderStatus() {
    const line = this.$('status-line');
    let key = null;
    let vars = {};
    let kind = '';
    const low = this.phase === 'betting' ? this.belowMinimum() : null;
    if (!this.connected) key = 'status.connecting';
    else if (this.paused) {
      key = 'status.paused'; // 004: the round is paused, every player told it is investigated
      kind = 'warn';
    } else if (low) {
      // Chips may add up to the minimum; below it the bets are declined at the red light.
      key = `status.min_${low.spot}`;
      vars = { min: low.min };
      kind = 'warn';
    } else if (this.phase === 'betting' && num(this.state?.bets?.ante) > 0) key = 'status.bets_placed';
    else if (this.phase === 'betting' && this.declinedNote) {
      key = this.declinedNote.key;
      vars = this.declinedNote.vars ?? {};
      kind = 'warn';
    } else if (this.phase === 'betting') key = 'status.place_bets';
    else if (this.decision) key = null;
    else if (this.confirmed && STREETS.includes(this.phase)) {
      key = `confirm.${this.confirmed.action}`; // "You checked", until the next street
      kind = 'confirm';
    } else if (STREETS.includes(this.phase) || this.phase === 'closed') key = this.inRound ? 'status.waiting_others' : 'status.watching';
    else if (this.phase === 'pause' || this.phase === 'settled') key = 'status.next_round';
    line.textContent = key ? tm(key, vars) : '';
    line.dataset.status = key ?? '';
    line.className = `status-line${kind ? ` status-${kind}` : ''}`;
  }
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
