"""The live table's shell: runs a :class:`~uth.engine.table.TableMachine` on the
server's clock, WebSockets and store.

The machine decides everything (docs/architecture.md); this shell only executes
what it asks: it sends each :class:`~uth.engine.table.effects.Send` to the
player's open connections, runs each call (storage through the storage worker
thread, the shuffle, the trainer's reviews) and hands the result back, and wakes
the machine when its time comes. Commands
(:meth:`LiveTable.handle`) are synchronous and never await, so each one is
applied whole before another starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal
from typing import Any, Protocol

from uth.cards import SecureShuffler, Shuffler, SingleDeck
from uth.engine import history
from uth.engine.table import (
    REQUEST_IDS_PER_ROUND,
    CommandError,
    GameNumbers,
    TableMachine,
    TableSettings,
)
from uth.engine.table import commands as mc
from uth.engine.table import effects as fx
from uth.engine.table.cardroom import RoomResume, resumed
from uth.engine.table.policy import PlayerDealerBank
from uth.engine.table.seats import SPOTS
from uth.errors import UthError
from uth.money import money_json
from uth.rules import RuleSet
from uth.server import protocol as wire
from uth.server import round_books
from uth.server.clock import Clock
from uth.server.config import TableConfig
from uth.server.ports import Ledger, PlayerRecord, RoundLog
from uth.server.reservations import Reservations
from uth.server.storage.worker import StorageWorker
from uth.server.trainer import Spot, TableTrainer

__all__ = ["REQUEST_IDS_PER_ROUND", "CommandError", "Connection", "GameNumbers", "LiveTable"]


class Connection(Protocol):
    """A player's open connection; ``send`` queues a message and never blocks."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message for the client."""
        ...


#: Wire commands to the machine's commands (same fields, less ``type``).
_COMMANDS: dict[type[Any], type[Any]] = {
    wire.PlaceBet: mc.PlaceBet,
    wire.Undo: mc.Undo,
    wire.Double: mc.Double,
    wire.Repeat: mc.Repeat,
    wire.Decide: mc.Decide,
    wire.Leave: mc.Leave,
    wire.Snapshot: mc.Snapshot,
    wire.Trainer: mc.Trainer,
    wire.Sit: mc.Sit,
    wire.AnswerOffer: mc.AnswerOffer,
}


def machine_command(command: wire.Command) -> mc.Command:
    """The machine's command for a parsed wire command."""
    kind = _COMMANDS[type(command)]
    made: mc.Command = kind(**{k: getattr(command, k) for k in kind.__slots__})
    return made


class LiveTable:
    """One live table: its machine, its players' connections and its task.

    Args:
        config: the table's configuration (timers, chips, rule set source).
        rules: the validated rule set.
        ledger: the accounts and their money.
        rounds: the round log (rounds, history, audit).
        reservations: the server's shared balances and reservations.
        worker: the server's storage worker (every storage call goes through it).
        clock: the server's clock (a manual clock in tests).
        shuffler: the shuffler; a cryptographically secure one by default.
        game_numbers: the server's game-number allocator (shared by its tables).
        backer: a card room's third-party backer (account id, name), or None.
        resume: a card room's rotation and first deck colour restored from its kept
            rounds when the server starts (:func:`room_resume`); None: afresh.

    A rule set banked by a player-dealer makes the table a California card room
    (issue 13): the same machine with :class:`PlayerDealerBank` (the offer of the
    position) and decisions in turn; a rule set with two alternating decks is dealt
    from the machine's :class:`~uth.engine.decks.TwoDecks` and discard rack.
    """

    def __init__(
        self,
        config: TableConfig,
        rules: RuleSet,
        ledger: Ledger,
        rounds: RoundLog,
        reservations: Reservations,
        worker: StorageWorker,
        clock: Clock,
        shuffler: Shuffler | None = None,
        game_numbers: GameNumbers | None = None,
        backer: tuple[int, str] | None = None,
        resume: RoomResume | None = None,
    ) -> None:
        self.config = config
        self.rules = rules
        self.ledger = ledger
        self.rounds = rounds
        self.reservations = reservations
        self.worker = worker
        self.clock = clock
        # The shuffling machine: a freshly shuffled deck for each ``Shuffle`` call; a
        # two-deck table's machine loads them into its TwoDecks (000, 002).
        self.decks = SingleDeck(shuffler or SecureShuffler())
        # Trainer mode (issue 11): advice and reviews for the players who switch it on.
        self.trainer = TableTrainer(rules, allowed=config.play_money)
        self.connections: dict[int, list[Connection]] = {}
        self._wake = asyncio.Event()
        settings = TableSettings(
            id=config.id,
            betting_seconds=config.betting_seconds,
            yellow_seconds=config.yellow_seconds,
            decision_seconds=config.decision_seconds,
            pause_seconds=config.pause_seconds,
            listed_bets=config.listed_bets,
        )
        self.machine = TableMachine(
            settings,
            rules,
            reservations,
            clock.now(),
            coach=self.trainer,
            game_numbers=game_numbers,
            table_info=self.info,
            banking=PlayerDealerBank(
                rules,
                backer=backer,
                offer_seconds=config.offer_seconds,
                rotation=None if resume is None else resume.rotation,
            )
            if rules.banking == "player_dealer"
            else None,
            first_colour=None if resume is None else resume.first_colour,
        )
        self._deliver()  # the first betting window opened: nobody is seated yet

    @property
    def phase(self) -> str:
        """The table's phase: ``betting``, ``closed``, a street, ``settled``, ``voided``, ``pause``."""
        return self.machine.phase

    def info(self) -> dict[str, Any]:
        """The table for the lobby: id, name, rule set, limits, players and phase."""
        rules = self.rules
        return {
            "id": self.config.id,
            "name": self.config.name or self.config.id,
            "names": dict(self.config.names),
            "rules": rules.name,
            "limits": {
                "ante": [money_json(rules.ante.min), money_json(rules.ante.max)],
                "trips": _limit_json(rules.trips),
                "bad_beat": _limit_json(rules.bad_beat),
            },
            "seats": rules.seats,
            "players": len(self.machine.seats),
            "phase": self.machine.phase,
            "chips": [money_json(c) for c in self.config.chips],
            "trainer": self.trainer.allowed,
        }

    # ------------------------------------------------------------ membership
    async def load_player(self, player_id: int) -> None:
        """Before a player joins: recall the bets Repeat would place from the
        player's last round at this table in storage, unless already known (so
        Repeat survives a server restart).
        """
        if self.machine.knows_last_bets(player_id):
            return
        rows = await self.worker.call(self.rounds.history, player_id, 50)
        last = next((r for r in rows if r.table_id == self.config.id and r.status != "open"), None)
        if last is None or self.machine.knows_last_bets(player_id):
            return
        detail = await self.worker.call(self.rounds.round_detail, player_id, last.game_number)
        # A voided round lists only the wagers it debited.
        bets = {spot: Decimal(detail.wagers.get(spot, {}).get("stake", 0)) for spot in SPOTS}
        self.machine.recall_last_bets(player_id, bets)

    def join(self, player: PlayerRecord, conn: Connection) -> dict[str, Any]:
        """Seat a player (or add a connection of a seated player); returns the
        snapshot. What the player missed while away comes from :meth:`notices`.

        Raises:
            CommandError: ``table_full`` when every seat is taken.
        """
        snapshot = self.machine.join(player.id, player.name, self.clock.now())
        self.connections.setdefault(player.id, []).append(conn)
        self._deliver()
        return snapshot

    def push_state(self, player_id: int) -> None:
        """Send a seated player's state: their balance changed at another table."""
        self.machine.push_state(player_id)
        self._deliver()

    def notices(self, player_id: int) -> list[dict[str, Any]]:
        """The messages the player missed while away (taken: each is given once)."""
        return self.machine.notices(player_id)

    def disconnect(self, player_id: int, conn: Connection) -> None:
        """A connection closed (the machine decides what happens to the seat)."""
        conns = self.connections.get(player_id)
        if conns is None or conn not in conns:
            return
        conns.remove(conn)
        if not conns:
            del self.connections[player_id]
        self.machine.disconnect(player_id, self.clock.now())
        self._deliver()

    # ------------------------------------------------------------- commands
    def handle(
        self, player_id: int, command: wire.Command, origin: Connection | None = None
    ) -> dict[str, Any]:
        """Apply one command of a seated player and return its reply
        (:meth:`TableMachine.handle`). An accepted command's new state is sent as
        a ``state`` message to the player's other connections than ``origin``.
        """
        reply = self.machine.handle(player_id, machine_command(command), self.clock.now())
        if reply["type"] == "accepted" and not isinstance(command, wire.Snapshot):
            others = [c for c in self.connections.get(player_id, ()) if c is not origin]
            if others:
                update = {"type": "state", "state": reply["state"], **self.machine.room_fields()}
                for conn in others:
                    conn.send(update)
        if self.machine.woken:
            self._wake.set()
        return reply

    def publish(self) -> None:
        """Send what the last command caused (after its reply)."""
        self.machine.publish()
        self._deliver()

    def request_pause(self, game_number: str, reason: str, actor: str) -> str | None:
        """Pause this table's round in play (operator): see the machine."""
        return self._operator(self.machine.request_pause(game_number, reason, actor))

    def request_resume(self, game_number: str) -> str | None:
        """Resume this table's paused round (operator): see the machine."""
        return self._operator(self.machine.request_resume(game_number))

    def request_void(self, game_number: str, reason: str, actor: str) -> str | None:
        """Void this table's round in play (operator): see the machine."""
        return self._operator(self.machine.request_void(game_number, reason, actor))

    def _operator(self, answer: str | None) -> str | None:
        self._deliver()
        if self.machine.woken:
            self._wake.set()
        return answer

    # ------------------------------------------------------------- effects
    def _deliver(self) -> None:
        for effect in self.machine.take():
            if isinstance(effect, fx.Send):
                if effect.to is None:
                    for conns in self.connections.values():
                        for conn in conns:
                            conn.send(effect.message)
                else:
                    self._send(effect.to, effect.message)
            else:
                spots = [Spot(s.player_id, s.hole, s.board, s.legal) for s in effect.spots]
                self.trainer.ask(effect.game_number, spots, self._send)

    def _send(self, player_id: int, message: dict[str, Any]) -> None:
        for conn in self.connections.get(player_id, ()):
            conn.send(message)

    async def run(self) -> None:
        """Run the machine for ever: deliver its messages, run its calls, wake it
        at its time or when a command asks.
        """
        machine = self.machine
        while True:
            self._deliver()
            call = machine.call
            if call is not None:
                try:
                    result = await self._execute(call)
                except Exception as exc:
                    machine.fail(exc, self.clock.now())
                else:
                    machine.resolve(result, self.clock.now())
                continue
            if not machine.woken:
                until = machine.wake_at or self.clock.now() + timedelta(days=1)
                await self.clock.wait_until(until, self._wake)
            self._wake.clear()
            machine.tick(self.clock.now())

    async def _execute(self, call: fx.Call) -> Any:
        """Run one call of the machine and return its result."""
        ledger, rounds, worker = self.ledger, self.rounds, self.worker
        if isinstance(call, fx.Shuffle):
            return self.decks.next_deck()
        if isinstance(call, fx.OpenRound):
            return await worker.call(
                rounds.open_round, call.table_id, call.game_number, call.rules, call.started_at
            )
        if isinstance(call, fx.DebitWagers):
            return await worker.call(ledger.debit, call.round_id, call.debits, call.at)
        if isinstance(call, fx.SettleRound):
            return await worker.call(_settle, ledger, rounds, call)
        if isinstance(call, fx.VoidRound):
            return await worker.call(_void, ledger, rounds, call)
        if isinstance(call, fx.Audit):
            return await worker.call(
                rounds.audit, call.actor, call.action, call.reason, call.details, call.at
            )
        if isinstance(call, fx.ReloadBalance):
            return (await worker.call(ledger.player, call.player_id)).balance
        await self.trainer.flush()
        for player_id, decisions in call.decisions:
            review = self.trainer.review(player_id, call.game_number, list(decisions))
            if review is not None:
                self._send(player_id, review)
        return None


def room_resume(rounds: RoundLog, table_id: str, rules: RuleSet) -> RoomResume:
    """A card-room table's rotation and first deck colour, from its kept rounds
    (:func:`uth.engine.table.cardroom.resumed`, which reads them newest first only
    as far back as it needs), for the server's start (run in the storage worker,
    after the rounds a restart left open are voided). Rounds still open, without a
    record (voided at start-up: the record is kept at settlement) or whose record
    does not decode tell nothing and are skipped.
    """
    return resumed(rules, _kept_newest_first(rounds, table_id))


def _kept_newest_first(
    rounds: RoundLog, table_id: str
) -> Iterator[tuple[history.RoundRecord, bool]]:
    """The table's decoded records, newest first, with whether each was settled;
    read from storage a page at a time.
    """
    before: str | None = None
    while True:
        page = rounds.table_rounds(table_id, before=before)
        for stored in page:
            if stored.record is None or stored.status == "open":
                continue
            try:
                record = history.decode(stored.record)
            except UthError:
                continue
            yield record, stored.status == "settled"
        if not page:
            return
        before = page[-1].game_number


def _settle(ledger: Ledger, rounds: RoundLog, call: fx.SettleRound) -> dict[int, Decimal]:
    """The machine's settlement with its round's record, in the storage worker."""
    return round_books.settle_round(
        ledger, rounds, call.round_id, call.record, call.credits, call.history, call.hand_credits
    )


def _void(ledger: Ledger, rounds: RoundLog, call: fx.VoidRound) -> dict[int, Decimal]:
    """The machine's void with its round's record, in the storage worker."""
    return round_books.void_round(
        ledger, rounds, call.round_id, call.reason, call.actor, call.at, call.history
    )


def _limit_json(limit: Any) -> list[int | float] | None:
    if limit is None:
        return None
    return [money_json(limit.min), money_json(limit.max)]
