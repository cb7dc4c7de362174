"""Trainer mode at a live table (issue 11): advice to one player, scored after the round.

A player switches the trainer on or off for themselves (the ``trainer`` command);
it is allowed only at play-money tables (``TableConfig.play_money``). For a player
with the trainer on, and only for them:

- when a decision is asked, once the cards it depends on are dealt (the hole cards
  pre-flop, the flop, the turn and river), a ``trainer_advice`` message gives the
  exact EV of each action the player may take (:func:`uth.analysis.advisor.advise`,
  limited to the multiples the balance covers) and the best;
- after the showdown, a ``trainer_review`` message gives each decision of the round
  with what it cost against the best action (0 when it was the best), the round's
  cost and the running total of the session (every round reviewed at this table
  since the server started).

A player with the trainer off is sent nothing of it. EVs and costs are in Antes
(Ante, Blind and Play; side bets excluded). Actions are named as in the protocol
(``play_4x``, ``check``, ``fold``). The advice of a spot is computed once per round
for every player who shares it (one shared hand at a live table), in a worker
thread (the advisor's kernels release the GIL).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from uth.analysis.advisor import Advice, PreFlopSource, analysis_pre_flop
from uth.analysis.trainer import Review, TrainerSession
from uth.cards import Card
from uth.rules import RuleSet

_log = logging.getLogger(__name__)

#: The streets in the order decisions are taken (one decision per street).
STREETS = ("pre_flop", "flop", "river")


def protocol_action(name: str) -> str:
    """The protocol's name of an advisor action: ``raise_4x`` -> ``play_4x``."""
    return "play_" + name[len("raise_") :] if name.startswith("raise_") else name


def advisor_action(name: str) -> str:
    """The advisor's name of a protocol action: ``play_4x`` or ``auto:check`` -> ``raise_4x``, ``check``."""
    name = name.removeprefix("auto:")
    return "raise_" + name[len("play_") :] if name.startswith("play_") else name


def _ev(x: Fraction) -> float:
    return float(x)


@dataclass(frozen=True)
class Spot:
    """One player's decision to advise: their cards seen and the actions they may take.

    Attributes:
        player_id: the player.
        hole: the player's two hole cards (the shared hand at a live table).
        board: the community cards dealt so far (0, 3 or 5).
        legal: the legal actions, protocol names (``play_4x``, ``check``...).

    """

    player_id: int
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    legal: tuple[str, ...]


@dataclass
class TableTrainer:
    """The trainer of one table: who has it on, this round's advice, the sessions.

    Args:
        rules: the table's rule set.
        allowed: whether the table allows the trainer (play-money tables only).
        pre_flop: the source of pre-flop EVs (the exact analysis' table); a street
            whose advice it cannot give is neither advised nor scored.

    """

    rules: RuleSet
    allowed: bool
    pre_flop: PreFlopSource = analysis_pre_flop
    _sessions: dict[int, TrainerSession] = field(default_factory=dict)
    _on: set[int] = field(default_factory=set)
    # This round's advice: (player id, street) -> advice.
    _advice: dict[tuple[int, str], Advice] = field(default_factory=dict)
    # Advice being computed (worker threads), awaited before a review.
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def is_on(self, player_id: int) -> bool:
        """Whether the player has the trainer on."""
        return player_id in self._on

    def switch(self, player_id: int, on: bool) -> None:
        """Switch the player's trainer on or off (the session total is kept).

        Raises:
            PermissionError: switching on at a table that does not allow it.

        """
        if on and not self.allowed:
            raise PermissionError("trainer: trainer mode is only for play-money tables")
        if on:
            self._on.add(player_id)
            self._sessions.setdefault(player_id, TrainerSession(self.rules, self.pre_flop))
        else:
            self._on.discard(player_id)

    def new_round(self) -> None:
        """Forget the last round's advice (a new betting window)."""
        self._advice.clear()

    def _compute(self, spots: Sequence[Spot]) -> dict[int, Advice]:
        """The advice of each spot, each distinct spot once (runs in a worker thread)."""
        done: dict[tuple[Any, ...], Advice | None] = {}
        out: dict[int, Advice] = {}
        for spot in spots:
            key = (spot.hole, spot.board, spot.legal)
            if key not in done:
                session = self._sessions[spot.player_id]
                legal = [advisor_action(a) for a in spot.legal]
                done[key] = session.advice(spot.hole, spot.board, legal)
            advice = done[key]
            if advice is not None:
                out[spot.player_id] = advice
        return out

    async def advise(
        self, game_number: str | None, spots: Sequence[Spot]
    ) -> dict[int, dict[str, Any]]:
        """The ``trainer_advice`` message of each spot whose player has the trainer on.

        The advice is kept for the round's review. Spots of players with the trainer
        off are skipped (nothing is computed or sent for them).
        """
        wanted = [s for s in spots if s.player_id in self._on]
        if not wanted:
            return {}
        advice = await asyncio.to_thread(self._compute, wanted)
        messages = {}
        for pid, a in advice.items():
            self._advice[(pid, a.street)] = a
            messages[pid] = self.advice_message(game_number, a)
        return messages

    def ask(
        self,
        game_number: str | None,
        spots: Sequence[Spot],
        send: Callable[[int, dict[str, Any]], None],
    ) -> None:
        """Start computing the advice of ``spots`` (players with the trainer on only)
        and ``send(player_id, message)`` each ``trainer_advice`` when it is ready.

        Runs as a task on the running loop, so the caller (the table asking for
        decisions) does not wait; :meth:`flush` waits for it.
        """
        if not any(s.player_id in self._on for s in spots):
            return

        async def run() -> None:
            try:
                messages = await self.advise(game_number, spots)
            except Exception:  # a bug must not stop the table: the round goes on unadvised
                _log.exception("trainer: advice for round %s failed", game_number)
                return
            for pid, message in messages.items():
                if pid in self._on:
                    send(pid, message)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        """Wait for the advice still being computed (before the round's reviews)."""
        if self._tasks:
            await asyncio.gather(*self._tasks)

    @staticmethod
    def advice_message(game_number: str | None, advice: Advice) -> dict[str, Any]:
        """The ``trainer_advice`` message of one advice."""
        return {
            "type": "trainer_advice",
            "game_number": game_number,
            "street": advice.street,
            "actions": {protocol_action(n): _ev(ev) for n, ev in advice.actions.items()},
            "best": protocol_action(advice.best),
        }

    def review(
        self, player_id: int, game_number: str | None, decisions: Sequence[str]
    ) -> dict[str, Any] | None:
        """The ``trainer_review`` of the player's round, or None with the trainer off.

        Args:
            player_id: the player.
            game_number: the round's game number.
            decisions: the player's decisions in street order, protocol names, an
                automatic one prefixed ``auto:`` (the table's record).

        """
        if player_id not in self._on:
            return None
        session = self._sessions[player_id]
        for street, decision in zip(STREETS, decisions, strict=False):
            advice = self._advice.get((player_id, street))
            action = advisor_action(decision)
            if advice is not None and action in advice.actions:
                session.record(advice, action, auto=decision.startswith("auto:"))
        reviews = session.end_round()
        return {
            "type": "trainer_review",
            "game_number": game_number,
            "decisions": [_review_json(r) for r in reviews],
            "round_cost": _ev(sum((r.cost for r in reviews), Fraction(0))),
            "session_cost": _ev(session.total),
            "rounds": session.rounds,
        }

    def snapshot(
        self, player_id: int, street: str | None, game_number: str | None
    ) -> dict[str, Any] | None:
        """The ``trainer`` field of the player's snapshot, or None with the trainer off:
        on, the session so far and the advice of the decision open now (if any).
        """
        if player_id not in self._on:
            return None
        session = self._sessions[player_id]
        advice = self._advice.get((player_id, street)) if street else None
        return {
            "on": True,
            "session_cost": _ev(session.total),
            "rounds": session.rounds,
            "advice": None if advice is None else self.advice_message(game_number, advice),
        }


def _review_json(r: Review) -> dict[str, Any]:
    return {
        "street": r.street,
        "action": protocol_action(r.action),
        "best": protocol_action(r.best),
        "cost": _ev(r.cost),
        "auto": r.auto,
    }
