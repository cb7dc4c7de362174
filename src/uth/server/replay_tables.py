"""Card-room rounds checked against the rounds before them at their table.

For ``uth replay`` (:mod:`uth.server.replay`; issue 13, items 5 and 7; RULES.md,
"Who banks", "Decks and shuffling"): a record altered consistently with itself
(its deck colour, its player-dealer and offer) replays alone, but not in sequence.
The rounds are taken in game-number order and cut into server runs (a table's decks and rotation start afresh when the server starts: its game
numbers start again at 0001, so a run ends where the number after the date and
time goes down; a wrap after 9999 ends one too). Within a run, per table:

- **Deck colours alternate**: the rounds dealt (settled, or voided after the deal:
  a deck was taken either way) take the blue deck, then red, then blue
  (:data:`uth.engine.decks.COLOURS`), the first round dealt in a run the blue one.
  ``deck_colour: stored blue, expected red (game G before it took the blue deck)``.
- **Nobody banks more than two rounds dealt in a row**: the rounds that count are
  the settled ones, as the engine counts them (``Rotation.end_round(dealt=...)``,
  ``settled()`` in :mod:`uth.engine.table.cardroom`): a voided round neither counts
  nor breaks a streak. A seated player who banked the last two is passed over:
  ``player_dealer: stored player 7 banking 3 rounds in a row (games A, B and this
  one), expected another player: at most 2 in a row``; an offer step ``declined``
  where ``passed_over`` was due, or ``passed_over`` where it was not, is named too.
  The third-party banker has no such limit.
- **The offer starts where the rotation says and goes clockwise**: after each
  round the next offer's first seat is :func:`uth.engine.banking.next_offer_start`;
  the offer steps must name, in clockwise order from it, every seat known to be
  occupied (a seat in the offer or one a hand was bet at) up to the player-dealer's
  (all of them before the third-party banker). ``offers[0]: stored seat 1 (player
  7), expected seat 3 first: the offer starts at seat 2 after game G``. A betting
  window nobody bet in stores no round but still ends the rotation's round (the
  next offer's start moves), so the start is checked only when every game number
  of the run between the table's two rounds is another table's stored round; the
  clockwise order is checked from the first step either way.

A round without a record (or whose record does not decode, or still open) tells
nothing of its deck or offer: the colour and the start after it are taken as they
are found.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from uth.engine import history
from uth.engine.banking import next_offer_start
from uth.engine.decks import COLOURS
from uth.errors import UthError
from uth.server.ports import StoredRound


class StoredRounds(Protocol):
    """What the check reads of the round log (a :class:`~uth.server.ports.RoundLog`)."""

    def game_numbers(self) -> list[str]:
        """The game number of every round, oldest first."""
        ...

    def stored_round(self, game_number: str) -> StoredRound:
        """The round as the log keeps it."""
        ...


def table_differences(rounds: StoredRounds) -> dict[str, tuple[str, ...]]:
    """Each card-room round's differences from the rounds before it at its table
    (the module's docstring: deck colours, streaks, the offer's start and order),
    by game number; a round without any is absent.
    """
    stored = sorted(
        (rounds.stored_round(g) for g in rounds.game_numbers()), key=lambda r: r.game_number
    )
    out: dict[str, tuple[str, ...]] = {}
    for run in _runs(stored):
        numbers = {_sequence(r.game_number) for r in run}
        tables: dict[str, _TableRun] = {}
        for stored_round in run:
            table = tables.setdefault(stored_round.table_id, _TableRun(stored_round.table_id))
            found = table.check(stored_round, numbers)
            if found:
                out[stored_round.game_number] = found
    return out


def _sequence(game_number: str) -> int | None:
    """The server's sequence number at the end of a game number (``...-0007``: 7)."""
    tail = game_number.rpartition("-")[2]
    return int(tail) if tail.isdigit() else None


def _runs(stored: Sequence[StoredRound]) -> Iterator[list[StoredRound]]:
    """The rounds cut into server runs, in game-number order: a run ends where the
    sequence number does not go up (the server started again at 0001, or wrapped
    after 9999), or cannot be read.
    """
    run: list[StoredRound] = []
    last: int | None = None
    for r in stored:
        number = _sequence(r.game_number)
        if run and (number is None or last is None or number <= last):
            yield run
            run = []
        run.append(r)
        last = number
    if run:
        yield run


def _other(colour: str) -> str | None:
    """The other deck's colour (None for a colour not a card room's)."""
    if colour not in COLOURS:
        return None
    return COLOURS[1 - COLOURS.index(colour)]


def _clockwise(origin: int, seats: int) -> list[int]:
    return [(origin - 1 + k) % seats + 1 for k in range(seats)]


@dataclass
class _TableRun:
    """One table's card-room rounds along one server run, as the engine's
    :class:`~uth.engine.decks.TwoDecks` and :class:`~uth.engine.banking.Rotation`
    would have them.
    """

    table_id: str
    #: The sequence number of the table's last round seen in the run (0: none).
    last_sequence: int = 0
    #: The colour the next round dealt takes (None: unknown; the first is blue).
    next_colour: str | None = COLOURS[0]
    last_dealt: str | None = None
    #: The seat the next offer starts at (None: unknown).
    start: int | None = 1
    previous: str | None = None
    #: Who banked the last settled rounds in a row, and those rounds' game numbers.
    banker: str | None = None
    streak: list[str] = field(default_factory=list)

    def check(self, stored: StoredRound, numbers: set[int | None]) -> tuple[str, ...]:
        """The round's differences from the table's rounds before it; then the state
        moves past it.
        """
        number = _sequence(stored.game_number) or 0
        if any(n not in numbers for n in range(self.last_sequence + 1, number)):
            self.start = None  # a betting window nobody bet in may have moved it
        self.last_sequence = number
        record = _decoded(stored)
        if record is None:
            self.next_colour = self.start = None  # nothing known of its deck or offer
            return ()
        if record.player_dealer is None and not record.offers:
            return ()  # not a card-room round
        found = self._colour(stored.game_number, record)
        offers = record.offers
        if not offers or offers[-1].outcome != "accepted":
            self.start = None  # the round's own check names it
            return tuple(found)
        found += self._streak(record)
        found += self._order(record)
        self._end(stored, record)
        return tuple(found)

    def _colour(self, game_number: str, record: history.RoundRecord) -> list[str]:
        if not record.deck:
            return []  # not dealt: no deck taken
        colour = record.deck_colour or "none"
        expected, before = self.next_colour, self.last_dealt
        self.next_colour = _other(expected or colour)
        self.last_dealt = game_number
        if expected is None or colour == expected:
            return []
        why = (
            f"game {before} before it took the {_other(expected)} deck"
            if before is not None
            else f"the first round dealt at table {self.table_id} since the server started"
        )
        return [f"deck_colour: stored {colour}, expected {expected} ({why})"]

    def _streak(self, record: history.RoundRecord) -> list[str]:
        """A seated player who banked the last ``max_consecutive_banks`` settled
        rounds is passed over, and only they are.
        """
        most = record.rules().max_consecutive_banks
        in_a_row = len(self.streak)
        found = []
        for i, step in enumerate(record.offers):
            limited = step.seat is not None and step.player == self.banker and in_a_row >= most
            if limited and step.outcome == "accepted":
                games = ", ".join(self.streak)
                found.append(
                    f"player_dealer: stored player {step.player} banking {in_a_row + 1} "
                    f"rounds in a row (games {games} and this one), expected another "
                    f"player: at most {most} in a row"
                )
            elif limited and step.outcome == "declined":
                found.append(
                    f"offers[{i}]: stored declined by player {step.player}, expected "
                    f"passed_over: they banked games {', '.join(self.streak)} in a row"
                )
            elif not limited and step.outcome == "passed_over":
                banked = in_a_row if step.player == self.banker else 0
                found.append(
                    f"offers[{i}]: stored passed_over for player {step.player}, expected an "
                    f"offer: they banked {banked} of the rounds before it in a row "
                    f"(passed over after {most})"
                )
        return found

    def _order(self, record: history.RoundRecord) -> list[str]:
        """The offer's steps go clockwise from the rotation's start over every seat
        known to be occupied, the third-party banker last.
        """
        seats = record.rules().seats or 7
        occupied = {s.seat for s in record.offers if s.seat is not None}
        for action in record.actions:
            seat = action.payload.get("seat") if action.kind == "place_wagers" else None
            if isinstance(seat, int) and not isinstance(seat, bool):
                occupied.add(seat)
        seated = [(i, s) for i, s in enumerate(record.offers) if s.seat is not None]
        origin = self.start if self.start is not None else seated[0][1].seat if seated else None
        if origin is None:
            return []
        order = [seat for seat in _clockwise(origin, seats) if seat in occupied]
        for k, (i, step) in enumerate(seated):
            expected = order[k] if k < len(order) else None
            if step.seat == expected:
                continue
            stored = f"offers[{i}]: stored seat {step.seat} (player {step.player})"
            if k == 0 and self.start is not None:
                after = f" after game {self.previous}" if self.previous is not None else ""
                return [
                    f"{stored}, expected seat {expected} first: the offer starts at "
                    f"seat {self.start}{after}"
                ]
            return [f"{stored}, expected seat {expected}: the offer goes clockwise"]
        last = record.offers[-1]
        if last.seat is None and len(order) > len(seated):
            return [
                f"offers[{len(record.offers) - 1}]: stored the third-party banker (player "
                f"{last.player}), expected seat {order[len(seated)]} first: the banker is "
                "offered the position after every seated player"
            ]
        return []

    def _end(self, stored: StoredRound, record: history.RoundRecord) -> None:
        """The rotation after the round (``Rotation.end_round``): a settled round
        counts to its banker's streak; the next offer's start moves.
        """
        banker = record.offers[-1]
        if stored.status == "settled":
            if banker.player == self.banker:
                self.streak.append(stored.game_number)
            else:
                self.banker, self.streak = banker.player, [stored.game_number]
        in_a_row = len(self.streak) if banker.player == self.banker else 0
        if banker.seat is None and self.start is None:
            pass  # one seat on from an unknown start: still unknown
        else:
            self.start = next_offer_start(
                record.rules(), offer_start=self.start or 1, seat=banker.seat, in_a_row=in_a_row
            )
        self.previous = stored.game_number


def _decoded(stored: StoredRound) -> history.RoundRecord | None:
    """The round's record when it has one that decodes and is finished, else None."""
    if stored.record is None or stored.status == "open":
        return None
    try:
        return history.decode(stored.record)
    except UthError:
        return None


__all__ = ["StoredRounds", "table_differences"]
