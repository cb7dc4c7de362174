"""A host for the table machine in tests: plain calls, no event loop, no database.

:class:`Host` plays the server's part: it delivers the machine's messages into one
inbox per player (a broadcast to every player seated at that moment), runs its
calls on an in-memory ledger (:class:`Books`) and moves a clock that only tests
advance. Failures are injected per call type (:meth:`Host.fail_next`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from uth.cards import PreparedDeck, parse_cards
from uth.engine import Round, history
from uth.engine import events as ev
from uth.engine.table import Command, TableMachine, TableSettings
from uth.engine.table import effects as fx
from uth.engine.table.policy import Banking, PlayerDealerBank
from uth.engine.table.seats import account_of, second_hand
from uth.engine.views import visible_events
from uth.errors import UthError
from uth.money import ZERO
from uth.rules import preset

START = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
#: 10 s betting (the last 3 yellow), 10 s per decision, a 2 s pause.
SETTINGS = TableSettings(
    id="t1",
    betting_seconds=10,
    yellow_seconds=3,
    decision_seconds=10,
    pause_seconds=2,
    listed_bets=20,
)
TABLE_INFO = {"id": "t1"}


class ShortError(UthError):
    """The ledger's answer when a balance does not cover a debit."""

    code = "insufficient_funds"

    def __init__(self, message: str, player_id: int) -> None:
        super().__init__(message)
        self.player_id = player_id


class NotOpenError(UthError):
    """The ledger's answer to voiding a settled or voided round."""

    code = "round_not_open"


class StorageDown(Exception):
    """A storage failure (not one of the store's own answers)."""


@dataclass
class Purse:
    """The reservation cache (the machine's ``Funds``)."""

    balances: dict[int, Decimal]
    reserved: dict[int, Decimal] = field(default_factory=dict)

    def available(self, player_id: int) -> Decimal:
        return self.balances.get(player_id, ZERO) - self.reserved.get(player_id, ZERO)

    def reserve(self, player_id: int, amount: Decimal, *, field: str = "amount") -> None:
        if amount > self.available(player_id):
            raise ShortError(f"{field}: {amount} needs funds", player_id)
        self.reserved[player_id] = self.reserved.get(player_id, ZERO) + amount

    def release(self, player_id: int, amount: Decimal) -> None:
        left = self.reserved.get(player_id, ZERO) - amount
        assert left >= 0, (player_id, amount, self.reserved)
        self.reserved[player_id] = left

    def set_balance(self, player_id: int, balance: Decimal) -> None:
        self.balances[player_id] = balance


@dataclass
class Books:
    """The ledger: balances and every entry ``(kind, round, player, wager, amount)``
    with ``kind`` ``debit`` (amount < 0), ``credit`` or ``refund``; an entry of a
    player's second hand (a seated player's back-line hand) has its hand id last:
    ``(kind, round, player, wager, amount, hand)``.
    """

    balances: dict[int, Decimal]
    entries: list[tuple[Any, ...]] = field(default_factory=list)
    status: dict[int, str] = field(default_factory=dict)
    records: dict[int, fx.RoundRecord] = field(default_factory=dict)
    audits: list[tuple[str, str, str]] = field(default_factory=list)
    #: Each round's record for replay, kept as canonical JSON (engine.history).
    kept: dict[int, str] = field(default_factory=dict)

    def open(self, game_number: str) -> int:
        round_id = len(self.status) + 1
        self.status[round_id] = "open"
        return round_id

    def debit(self, call: fx.DebitWagers) -> dict[int, Decimal]:
        need: dict[int, Decimal] = {}
        for d in call.debits:
            need[d.player_id] = need.get(d.player_id, ZERO) + d.amount
        for pid, amount in need.items():
            if amount > self.balances[pid]:
                raise ShortError(f"balance: {amount} needs funds", pid)
        for d in call.debits:
            self.balances[d.player_id] -= d.amount
            hand = (d.hand,) if d.hand is not None else ()
            self.entries.append(("debit", call.round_id, d.player_id, d.kind, -d.amount, *hand))
        return {pid: self.balances[pid] for pid in need}

    def settle(self, call: fx.SettleRound) -> dict[int, Decimal]:
        self._check_open(call.round_id)
        self.kept[call.round_id] = history.encode(call.history)
        for pid, kinds in call.credits.items():
            for kind, amount in kinds.items():
                self.balances[pid] += amount
                self.entries.append(("credit", call.round_id, pid, kind, amount))
        for (pid, hand), kinds in call.hand_credits.items():
            for kind, amount in kinds.items():
                self.balances[pid] += amount
                self.entries.append(("credit", call.round_id, pid, kind, amount, hand))
        self.status[call.round_id] = "settled"
        self.records[call.round_id] = call.record
        paid = {*call.credits, *(pid for pid, _ in call.hand_credits)}
        return {pid: self.balances[pid] for pid in paid}

    def void(self, call: fx.VoidRound) -> dict[int, Decimal]:
        self._check_open(call.round_id)
        if call.history is not None:
            self.kept[call.round_id] = history.encode(call.history)
        refunded: dict[int, Decimal] = {}
        for kind, rid, pid, wager, amount, *hand in list(self.entries):
            if rid == call.round_id and kind == "debit":
                self.balances[pid] -= amount
                self.entries.append(("refund", rid, pid, wager, -amount, *hand))
                refunded[pid] = self.balances[pid]
        self.status[call.round_id] = "voided"
        return refunded

    def _check_open(self, round_id: int) -> None:
        if self.status[round_id] != "open":
            raise NotOpenError(f"round: {round_id} is {self.status[round_id]}")

    def net(self, round_id: int) -> dict[int, Decimal]:
        """Per player, what the round's entries moved."""
        out: dict[int, Decimal] = {}
        for _, rid, pid, _, amount, *_hand in self.entries:
            if rid == round_id:
                out[pid] = out.get(pid, ZERO) + amount
        return out


def deck(text: str) -> PreparedDeck:
    """A deck whose first cards are ``text`` (space-separated), the rest in order."""
    first = parse_cards(text.split())
    rest = [c for c in parse_cards(_ALL.split()) if c not in first]
    return PreparedDeck(tuple(first) + tuple(rest))


_ALL = " ".join(r + s for s in "cdhs" for r in "23456789TJQKA")


class Host:
    """Drives one :class:`TableMachine` (rule set ``rules``) with players' balances."""

    def __init__(
        self,
        rules: str = "live",
        balances: dict[int, Decimal] | None = None,
        decks: list[PreparedDeck | Exception] | None = None,
        settings: TableSettings = SETTINGS,
        banking: Banking | None = None,
        first_colour: str | None = None,
    ) -> None:
        start = dict(balances or {1: Decimal(1000), 2: Decimal(1000), 3: Decimal(1000)})
        self.initial = dict(start)
        self.now = START
        self.purse = Purse(dict(start))
        self.books = Books(dict(start))
        self.decks: list[PreparedDeck | Exception] = list(decks or [])
        self.inbox: dict[int, list[dict[str, Any]]] = {pid: [] for pid in start}
        self.advice: list[fx.Advise] = []
        self.calls: list[fx.Call] = []
        self._failures: dict[type[Any], list[Exception]] = {}
        self.machine = TableMachine(
            settings,
            preset(rules),
            self.purse,
            self.now,
            table_info=lambda: TABLE_INFO,
            banking=banking,
            first_colour=first_colour,
        )
        self.run()

    # --------------------------------------------------------------- driving
    def fail_next(self, call_type: type[Any], error: Exception) -> None:
        """The next call of ``call_type`` raises ``error``."""
        self._failures.setdefault(call_type, []).append(error)

    def run(self) -> None:
        """Deliver the machine's messages and run its calls until it waits."""
        machine = self.machine
        while True:
            self.deliver()
            call = machine.call
            if call is None:
                if machine.woken:
                    machine.tick(self.now)
                    continue
                return
            self.calls.append(call)
            try:
                result = self._execute(call)
            except Exception as exc:
                machine.fail(exc, self.now)
            else:
                machine.resolve(result, self.now)

    def deliver(self) -> None:
        for effect in self.machine.take():
            if isinstance(effect, fx.Send):
                targets = list(self.machine.seats) if effect.to is None else [effect.to]
                for pid in targets:
                    self.inbox.setdefault(pid, []).append(effect.message)
            else:
                self.advice.append(effect)

    def _execute(self, call: fx.Call) -> Any:
        queued = self._failures.get(type(call))
        if queued:
            raise queued.pop(0)
        books = self.books
        if isinstance(call, fx.Shuffle):
            item = self.decks.pop(0)
            if isinstance(item, Exception):
                raise item
            return item
        if isinstance(call, fx.OpenRound):
            return books.open(call.game_number)
        if isinstance(call, fx.DebitWagers):
            return books.debit(call)
        if isinstance(call, fx.SettleRound):
            return books.settle(call)
        if isinstance(call, fx.VoidRound):
            return books.void(call)
        if isinstance(call, fx.Audit):
            books.audits.append((call.action, call.actor, call.reason))
            return None
        if isinstance(call, fx.ReloadBalance):
            return books.balances[call.player_id]
        return None  # Review: no trainer here

    def join(self, player_id: int, name: str | None = None) -> dict[str, Any]:
        snapshot = self.machine.join(player_id, name or f"p{player_id}", self.now)
        self.run()
        return snapshot

    def disconnect(self, player_id: int) -> None:
        self.machine.disconnect(player_id, self.now)
        self.run()

    def send(self, player_id: int, command: Command) -> dict[str, Any]:
        """A player's command: the reply, then what it caused (as the server does)."""
        reply = self.machine.handle(player_id, command, self.now)
        self.machine.publish()
        self.run()
        return reply

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        self.machine.tick(self.now)
        self.run()

    def advance_until(self, phase: str, *, limit: int = 100) -> None:
        """Advance to each time the machine waits for until its phase is ``phase``."""
        for _ in range(limit):
            if self.machine.phase == phase:
                return
            wake = self.machine.wake_at
            assert wake is not None, f"the machine waits for no time in {self.machine.phase}"
            self.advance(max(0.0, (wake - self.now).total_seconds()))
        raise AssertionError(f"phase {phase!r} not reached; at {self.machine.phase}")

    def take(self, player_id: int) -> list[dict[str, Any]]:
        """The player's messages since the last take."""
        out, self.inbox[player_id] = self.inbox.get(player_id, []), []
        return out

    def types(self, player_id: int) -> list[str]:
        return [m["type"] for m in self.take(player_id)]

    # ------------------------------------------------------------- checks
    def check_money(self) -> None:
        """Money is conserved: each ledger balance is the start plus its entries; the
        reservation cache agrees with the ledger; nothing is reserved for nobody;
        a settled round moved exactly each hand's net, the player-dealer's account
        exactly the banker's result, all accounts together nothing at a card room
        (minus the house's result at a house-banked table), a voided one nothing.
        """
        for pid, start in self.initial.items():
            moved = sum((e[4] for e in self.books.entries if e[2] == pid), ZERO)
            assert self.books.balances[pid] == start + moved, pid
            assert self.purse.balances[pid] == self.books.balances[pid], pid
            assert self.purse.available(pid) >= 0, pid
            hands = [h for h in (self.machine.seats.get(pid), self.machine.lines.get(pid)) if h]
            held = sum((h.staked + h.pending_play + h.play_hold for h in hands), ZERO)
            room = self.machine.banking
            if isinstance(room, PlayerDealerBank) and room.banker and room.banker.player_id == pid:
                held += room.reserved  # the bank, reserved until the round opens
            assert self.purse.reserved.get(pid, ZERO) == held, (pid, held, self.purse.reserved)
        for rid, status in self.books.status.items():
            net = self.books.net(rid)
            if status == "voided":
                assert set(net.values()) <= {ZERO}, (rid, net)
            elif status == "settled":
                record = self.books.records[rid]
                kept = history.decode(self.books.kept[rid])
                for p in record.players:  # every hand of the player: own and back-line
                    total = sum(
                        (r.net for h, r in kept.result.items() if account_of(h) == p.player_id),
                        ZERO,
                    )
                    assert net.get(p.player_id, ZERO) == total, (rid, p.player_id)
                # Conserved across all accounts: what the players won, the banker lost.
                # A player-dealer's account moved by their result; the house has none.
                if kept.player_dealer is not None:
                    assert net.get(int(kept.player_dealer), ZERO) == kept.banker_net, rid
                    assert sum(net.values(), ZERO) == ZERO, (rid, net)
                else:
                    assert sum(net.values(), ZERO) == -kept.banker_net, (rid, net)

    def check_replays(self) -> None:
        """Every kept round replays through the engine to its stored result, and its
        ledger entries are the ones the record expects.
        """
        for rid, text in self.books.kept.items():
            record = history.decode(text)
            report = history.replay(record)
            assert report.ok, (rid, report)
            status = self.books.status[rid]
            # A round voided after the engine's showdown (its settlement not stored)
            # keeps the engine's settled record, as uth.server.replay checks it.
            assert record.status in (status, "settled"), rid
            kinds = {"wager": "debit", "payout": "credit", "refund": "refund"}
            implied = history.expected_ledger(record)
            if status == "voided":  # the debits the record implies, all refunded
                implied = tuple(m for m in implied if m.kind == "wager")
            expected = sorted(
                (kinds[m.kind], rid, account_of(m.player), m.wager, m.amount)
                + ((m.player,) if second_hand(m.player) else ())
                for m in implied
            )
            kept = [e for e in self.books.entries if e[1] == rid]
            if status == "voided":
                kept = [e for e in kept if e[0] == "debit"]
                # A debit never stored (the failure that voided the round) has no
                # entry at all, as uth.server.replay allows.
                stored = {e[:4] + e[5:] for e in kept}
                expected = [e for e in expected if e[:4] + e[5:] in stored]
            assert sorted(kept) == expected, rid

    def allowed_cards(self, player_id: int) -> set[str]:
        """The cards the player's view allows now (RULES.md, "Online table"): each of
        their hands' (a back-line hand: the seat's it rides on).
        """
        m = self.machine
        rnd = m.round
        if rnd is None or rnd.phase == "voided" or not rnd.deck_order:
            return set()
        cards = {str(c) for c in rnd.board[: m._board_shown]}
        cards |= {str(c) for c in rnd.shared_hand}
        for hand in rnd.players:
            if account_of(hand) == player_id:
                cards |= {str(c) for c in rnd.hole_cards(hand)}
        if rnd.phase == "settled" and m.phase in ("settled", "pause"):  # settlement stored
            cards |= {str(c) for c in rnd.dealer_hole}
        return cards


@dataclass(frozen=True)
class Mark:
    """Where a step starts (:meth:`Host.mark`): the round, how many of its events
    were published, and who was at the table.
    """

    round: Round | None
    published: int
    present: frozenset[int]


#: The messages of a hand's own events (engine.views: to its owner, the back-line
#: bets on it, or everyone where the rule set makes decisions public).
HAND_EVENTS = (ev.HoleCardsDealt, ev.HandShown, ev.HandFolded, ev.DecisionMade)


def mark(machine: TableMachine) -> Mark:
    """The start of a step, for :func:`check_hand_events`."""
    return Mark(machine.round, machine._published, frozenset(machine.seats))


def check_hand_events(
    machine: TableMachine, start: Mark, received: dict[int, list[dict[str, Any]]]
) -> None:
    """Each hand's event (cards, showdown, fold, decision) that reached anyone in
    the step reached exactly the players its view allows (engine.views.visible_events
    for each of their hands: the owner, the back-line bettors on it, everyone for a
    public decision), each once, and nobody else: a rider's missing message is caught.
    A step's messages are ``received`` (player id -> messages, in order); only players
    at the table for the whole step are held to it.
    """
    rounds = [(start.round, start.published)] if start.round is not None else []
    if machine.round is not None and machine.round is not start.round:
        rounds.append((machine.round, 0))
    present = start.present & set(machine.seats)
    for rnd, first in rounds:
        seen = {
            pid: {
                id(e)
                for hand in {str(pid), *(h for h in rnd.players if account_of(h) == pid)}
                for e in visible_events(rnd.events, hand, rules=rnd.rules)
            }
            for pid in present
        }
        for event in rnd.events[first:]:
            if not isinstance(event, HAND_EVENTS):
                continue
            message = event.to_dict()
            count = {pid: received.get(pid, []).count(message) for pid in present}
            if not any(count.values()):
                continue  # never sent (a void withholds the showdown from everyone)
            allowed = {pid: int(id(event) in seen[pid]) for pid in present}
            assert count == allowed, (message, count, allowed)


def cards_in(value: Any) -> Iterator[str]:
    """Every card string anywhere in a message."""
    if isinstance(value, str):
        if len(value) == 2 and value[0] in "23456789TJQKA" and value[1] in "cdhs":
            yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from cards_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from cards_in(v)
