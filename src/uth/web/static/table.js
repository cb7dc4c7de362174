// The table view's glue: one WebSocket to /ws/tables/{id}, the page's clicks and keys,
// the reconnection, and the local clock.
//
// The server is the only authority: every bet, decision and balance shown comes from
// its messages (docs/protocol.md). Each message goes through the reducer
// (reducer.js: reduce(state, message) -> new state, pure), its effects are carried out
// here (passing messages, commands to send), and the renderer (render.js) draws the
// new state. A reconnect asks for a snapshot and draws that.
import * as api from './api.js';
import { NO_PACE, nextStepAt, PACE_RESETS, paceBank, shownState, stepBank } from './bankpace.js';
import { hasKey, t } from './i18n.js';
import {
  backLine,
  canBet,
  chipEnabled,
  chips,
  defaultChip,
  initialState,
  limit,
  lostMemo,
  num,
  reconnectNotices,
  reduce,
} from './reducer.js';
import { bringCardsIntoView, renderTable, renderTimers } from './render.js';

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
// Commands that answer a window of the round: they name the round shown, so that one
// arriving after its window closed is refused, never applied to the next (protocol.md).
const WINDOW_COMMANDS = new Set(['place_bet', 'undo', 'double', 'repeat', 'decide', 'leave']);
// The server is asked whether it answers at all (to word the overlay) within this time.
const PROBE_MS = 4000;

const SESSION_ID = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

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
    this.waiters = new Map(); // request id -> resolve(reply) of request()
    this.retry = 0;
    this.conn = null; // the overlay while the connection is down (render.js), until the next snapshot
    this.reconnectTimer = null;
    this.state = initialState();
    this.offset = 0; // server clock minus local clock, ms
    this.selectedChip = null;
    this.timerHandle = null;
    this.revealHand = false; // scroll the cards into view after the next render
    this.pace = NO_PACE; // the showdown's bank_left shown one hand at a time (bankpace.js)
    this.paceTimer = null;
    this.unloading = false; // the page is being closed or reloaded
    this.bindDom();
  }

  /** The table's lobby entry and rule set (the Rules dialog). */
  get info() {
    return this.state.info;
  }

  /** Run one message (a server message or a client/... event) through the reducer. */
  dispatch(msg) {
    this.state = reduce(this.state, msg);
    for (const fx of this.state.effects) this.effect(fx);
  }

  /** Carry out one effect of the reducer (reducer.js lists them). */
  effect(fx) {
    switch (fx.type) {
      case 'toast':
        this.hooks.toast(hasKey(fx.key) ? fx.key : 'error.generic', fx.kind, fx.vars ?? {});
        break;
      case 'clear_toasts':
        this.hooks.clearToasts?.(fx.kind);
        break;
      case 'send':
        this.command(fx.command);
        break;
      case 'balance':
        this.hooks.onBalance?.(fx.balance);
        break;
      case 'leave':
        this.hooks.onLeave(hasKey(fx.key) ? fx.key : 'error.generic');
        break;
      case 'reveal_hand':
        this.revealHand = true;
        break;
      case 'snapshot':
        this.onSnapshot(fx.snapshot);
        break;
      case 'unknown':
        // Never dropped silently: a message this page does not know (a newer server?).
        console.warn(`uth: unknown message type ${JSON.stringify(fx.messageType)}; ignored`);
        break;
      default:
        console.warn(`uth: unknown effect ${JSON.stringify(fx.type)}; ignored`);
    }
  }

  /** A snapshot arrived: the connection is up; after a drop, say what happened meanwhile. */
  onSnapshot(snap) {
    this.pace = NO_PACE; // a reload or reconnect: the bank as it is now, at once
    this.retry = 0;
    const conn = this.conn;
    this.conn = null;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    if (!conn) return;
    reconnectNotices(conn.memo, snap).forEach(({ key, vars }) => this.hooks.toast(key, 'info', vars, 8000));
  }

  // ---------------------------------------------------------------- DOM
  bindDom() {
    this.$ = (id) => document.getElementById(id);
    for (const spot of SPOTS) {
      this.$(`spot-${spot}`).addEventListener('click', () => this.placeBet(spot));
    }
    for (const id of ['btn-undo', 'btn-double', 'btn-repeat']) {
      const btn = this.$(id);
      btn.addEventListener('click', () => this.slipCommand(btn.dataset.cmd));
    }
    this.$('btn-reconnect').addEventListener('click', () => this.reconnectNow());
    // A card-room table (issue 13): the answer to the offer of the bank.
    this.$('offer-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const raw = this.$('offer-bank').value.trim();
      const bank = raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
      this.command({ type: 'answer_offer', accept: true, bank });
    });
    this.$('btn-decline').addEventListener('click', () => this.command({ type: 'answer_offer', accept: false }));
    this.$('btn-trainer').addEventListener('click', () => this.command({ type: 'trainer', on: !this.state.trainer?.on }));
    // The browser knows first when the network goes: drop the socket (it may take a
    // long time to notice) and try again as soon as the network is back.
    window.addEventListener('offline', () => {
      if (this.ws && this.state.connected) this.ws.close(4000);
      if (this.conn) this.updateConn({ offline: true });
    });
    window.addEventListener('online', () => {
      if (this.conn) {
        this.updateConn({ offline: false });
        this.reconnectNow();
      }
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
      if (canBet(this.state) && num(this.state.own?.total_bet) > 0) this.command({ type: 'leave', reason: 'hidden' });
    });
  }

  // ------------------------------------------------------------ lifecycle
  async open(tableId) {
    this.close();
    // A fresh table; why the last bets were declined stays until the next Ante.
    this.state = initialState({ declinedNote: this.state.declinedNote });
    this.offset = 0;
    this.selectedChip = null;
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
    this.dispatch({ type: 'client/table', info });
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
    this.conn = null;
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
    this.waiters.clear();
    this.dispatch({ type: 'client/connecting' }); // replies to a dropped connection's commands never come
    // A handshake that hangs (no answer, no error) counts as a failed try.
    setTimeout(() => {
      if (ws === this.ws && !this.state.connected && ws.readyState !== WebSocket.CLOSED) ws.close();
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
        console.warn('uth: a message that is not JSON; ignored');
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener('close', (ev) => {
      if (ws !== this.ws || this.closing) return;
      const memo = this.conn?.memo ?? lostMemo(this.state);
      this.dispatch({ type: 'client/disconnected' });
      if (ev.code === 4401) return this.hooks.onLeave('error.unauthorized');
      if (ev.code === 4404) return this.hooks.onLeave('error.table_not_found');
      if (ev.code === 4409) return this.hooks.onLeave('error.table_full');
      // A try after the drop that closes failed (a snapshot would have ended the
      // overlay): count it, and ask whether the server answers at all (the overlay
      // then says the server is unreachable rather than the connection lost).
      const failures = this.conn ? this.conn.failures + 1 : 0;
      this.conn = { memo, failures, reconnectAt: null, serverDown: this.conn?.serverDown ?? false, offline: navigator.onLine === false };
      if (failures > 0) this.probe();
      this.scheduleReconnect();
      this.render();
    });
  }

  /** Does the server answer HTTP? Sets the overlay's `serverDown` from the answer. */
  async probe() {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), PROBE_MS);
    let down = false;
    try {
      await fetch('/healthz', { cache: 'no-store', signal: ctl.signal });
    } catch {
      down = true; // refused, reset, or no answer in time
    } finally {
      clearTimeout(timer);
    }
    if (this.conn) this.updateConn({ serverDown: down });
  }

  updateConn(fields) {
    this.conn = { ...this.conn, ...fields };
    this.render();
  }

  /** The next automatic try: 1, 2, 4, 8, then every 15 seconds. */
  scheduleReconnect() {
    const delay = Math.min(15000, 1000 * 2 ** this.retry);
    this.retry += 1;
    clearTimeout(this.reconnectTimer);
    this.conn = { ...this.conn, reconnectAt: Date.now() + delay };
    this.reconnectTimer = setTimeout(() => this.reconnectNow(), delay);
  }

  reconnectNow() {
    if (this.closing || !this.tableId) return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN && this.state.connected) return;
    // A try still under way is dropped (its events are ignored from now on).
    const old = this.ws;
    this.ws = null;
    if (old && old.readyState !== WebSocket.CLOSED) old.close();
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    if (this.conn) this.conn = { ...this.conn, reconnectAt: null };
    this.connect();
    this.render();
  }

  /** Send a command with a fresh request id; the reply comes as accepted/error. */
  command(cmd) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || (!this.state.connected && cmd.type !== 'snapshot')) return false;
    // Unique across reloads too: the server answers a repeated id with its first
    // reply and does not apply the command again.
    const id = `${SESSION_ID}-${++this.seq}`;
    const body = { ...cmd, id };
    if (WINDOW_COMMANDS.has(cmd.type) && this.state.gameNumber) body.game_number = this.state.gameNumber;
    this.dispatch({ type: 'client/sent', id, command: cmd });
    this.ws.send(JSON.stringify(body));
    return id;
  }

  /** A command whose reply is awaited: the reply, or null when none came in `ms`. */
  request(cmd, ms = 2000) {
    const id = this.command(cmd);
    if (!id) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        resolve(null);
      }, ms);
      this.waiters.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
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
    const s = this.state;
    const total = num(s.own?.total_bet);
    if (s.connected && canBet(s) && total > 0) {
      const reply = await this.request({ type: 'leave', reason: 'closed' });
      if (reply?.declined) notice = { key: 'leave.declined', vars: { amount: total } };
    } else if (s.connected && lostMemo(s).inRound) {
      notice = { key: 'leave.hand_plays_on', vars: { game: s.gameNumber } };
    }
    if (this.ws === ws) this.close(); // unless the player sat down again meanwhile
    return notice;
  }

  placeBet(spot) {
    const s = this.state;
    if (!canBet(s)) return;
    if (this.selectedChip === null) {
      this.hooks.toast('refuse.no_chip', 'error');
      return;
    }
    if (spot !== 'ante' && num(s.own?.bets?.ante) === 0) {
      this.hooks.toast('notice.ante_first', 'info');
      return;
    }
    const refusal = this.chipRefusal(spot, this.selectedChip);
    if (refusal) {
      this.hooks.toast(refusal.key, 'error', refusal.vars);
      return;
    }
    const bet = { type: 'place_bet', spot, amount: this.selectedChip };
    if (s.behind) bet.behind = s.behind; // a back-line bet behind that seat (card room)
    this.command(bet);
  }

  /**
   * Why the chip cannot go on the spot now, with the numbers ({key, vars}), or null.
   * The selected chip is the player's choice: it is never swapped for a smaller one,
   * the click is refused instead. The server places a chip up to the spot's maximum,
   * so the cost is that of the part placed; an Ante takes its Blind too (004).
   */
  chipRefusal(spot, chip) {
    const s = this.state;
    const lim = limit(s, spot);
    // Bets sent and not yet answered count as placed: a second click before the
    // first reply is checked against what the first will take.
    const sent = Object.values(s.pending).filter((c) => c.type === 'place_bet');
    const current = num(s.own?.bets?.[spot]) + sent.filter((c) => c.spot === spot).reduce((a, c) => a + num(c.amount), 0);
    const held = sent.reduce((a, c) => a + (c.spot === 'ante' ? 2 : 1) * num(c.amount), 0);
    const vars = { chip, spot: t(`spot.${spot}`), balance: s.own ? num(s.own.balance) - held : 0 };
    if (lim && current >= lim.max) return { key: 'refuse.at_max', vars: { ...vars, max: lim.max } };
    const placed = lim ? Math.min(chip, lim.max - current) : chip;
    const cost = spot === 'ante' ? 2 * placed : placed;
    if (cost <= vars.balance) return null;
    return { key: spot === 'ante' ? 'refuse.chip_ante' : 'refuse.chip_side', vars: { ...vars, cost } };
  }

  /** Undo, Double or Repeat: on a seated player's back-line hand when they bet behind a seat. */
  slipCommand(type) {
    const line = backLine(this.state);
    this.command(line ? { type, behind: line.behind } : { type });
  }

  decide(action) {
    const s = this.state;
    if (!s.connected || s.paused || !s.decision || !s.decision.legal.includes(action)) return;
    this.command({ type: 'decide', action, street: s.decision.street });
  }

  selectChip(value) {
    this.selectedChip = value;
    this.render();
  }

  selectChipIndex(i) {
    const s = this.state;
    const value = chips(s)[i];
    if (value === undefined || !canBet(s)) return;
    if (!chipEnabled(s, value)) {
      // A chip the balance cannot cover is not picked: say why, keep the current one.
      const balance = num(s.own?.balance);
      if (num(s.own?.bets?.ante) > 0) this.hooks.toast('refuse.chip_over_balance', 'error', { chip: value, balance });
      else this.hooks.toast('refuse.chip_ante', 'error', { chip: value, cost: 2 * value, balance });
      return;
    }
    this.selectChip(value);
  }

  // ------------------------------------------------------------- messages
  onMessage(msg) {
    // The server owns time: its `now` against the local clock gives the offset.
    const now = msg.now ?? msg.snapshot?.now;
    if (now) this.offset = Date.parse(now) - Date.now();
    const waiter = msg.id ? this.waiters.get(msg.id) : null;
    if (msg.type === 'bank_left') this.pace = paceBank(this.pace, msg, Date.now());
    else if (PACE_RESETS.has(msg.type)) this.pace = NO_PACE;
    this.dispatch(msg);
    if (waiter && (msg.type === 'accepted' || msg.type === 'error')) {
      this.waiters.delete(msg.id);
      waiter(msg);
    }
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
    const d = this.state.decision;
    if (d) {
      for (const action of d.legal) {
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
      if (!btn.disabled) this.slipCommand(cmd);
      return true;
    }
    return false;
  }

  // -------------------------------------------------------------- render
  view() {
    return {
      state: shownState(this.state, this.pace),
      tableId: this.tableId,
      selectedChip: this.selectedChip,
      conn: this.conn,
      offset: this.offset,
      actions: {
        selectChip: (v) => this.selectChip(v),
        decide: (a) => this.decide(a),
        sit: (seat) => this.command({ type: 'sit', seat }),
        behind: (seat) => {
          this.dispatch({ type: 'client/behind', seat });
          this.render();
        },
      },
    };
  }

  tick() {
    renderTimers(this.view());
  }

  /** Draw the next queued bank_left when its time comes (bankpace.js). */
  schedulePace() {
    const at = nextStepAt(this.pace);
    if (at === null || this.paceTimer) return;
    this.paceTimer = setTimeout(
      () => {
        this.paceTimer = null;
        this.pace = stepBank(this.pace, Date.now());
        this.render();
      },
      Math.max(0, at - Date.now()),
    );
  }

  render() {
    if (!this.tableId) return;
    // The first chip is picked for the player once (the second smallest the balance
    // covers); after that the choice is theirs alone, even when the balance no longer
    // covers it (a click on a spot then says why it is refused).
    this.selectedChip ??= defaultChip(this.state);
    renderTable(this.view());
    this.schedulePace();
    if (this.revealHand) {
      this.revealHand = false;
      bringCardsIntoView();
    }
  }
}
