"""Card-room rounds checked against the rounds before them at their table.

For ``uth replay`` (:mod:`uth.server.replay`; issue 13, items 5 and 7; RULES.md,
"Who banks", "Decks and shuffling"): a record altered consistently with itself
(its deck colour, its player-dealer and offer) replays alone, but not in sequence.
The rotation and the deck colours go on across server restarts (a card-room table
restores them from its kept rounds when the server starts:
:func:`uth.engine.table.cardroom.resumed`), so the rounds are checked as one
sequence per table. Server runs are told apart by the audit line each start of a
server with card-room tables writes (``server_started``, with the newest round's id
then: :func:`uth.server.round_books.mark_start`), not by game numbers; the rounds
are taken run by run, in game-number order within a run. Per table:

- **Deck colours alternate**: the rounds dealt (settled, or voided after the deal:
  a deck was taken either way) take the blue deck, then red, then blue
  (:data:`uth.engine.decks.COLOURS`), the table's first round dealt the blue one;
  after a server start, the other colour than the last round dealt kept before it.
  ``deck_colour: stored blue, expected red (game G before it took the blue deck)``.
- **Nobody banks more than two rounds dealt in a row**, across restarts too: the
  rounds that count are the settled ones, as the engine counts them
  (:meth:`uth.engine.banking.RotationState.after`): a voided round neither counts
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
  next offer's start moves), so the start is checked only when the run's game
  numbers before the round (from 0001 at the run's start) are all stored rounds
  since the table's last one; after a server start it is the start the kept
  rounds give, as the server restores it. The clockwise order is checked from the
  first step either way.

A round without a record (or whose record does not decode, or still open) tells
nothing of its deck or offer: the colour and the start after it are taken as they
are found (the server's restore skips it too). Rounds kept before this audit line
existed have none at their starts: where the game numbers go down without one,
the start and the colour are taken as found.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from uth.engine import history
from uth.engine.banking import RotationState, next_offer_start
from uth.engine.decks import COLOURS
from uth.errors import UthError
from uth.server.ports import StoredRound
from uth.server.records import AuditEntry
from uth.server.round_books import START_ACTION


class StoredRounds(Protocol):
    """What the check reads of the round log (a :class:`~uth.server.ports.RoundLog`)."""

    def game_numbers(self) -> list[str]:
        """The game number of every round, oldest first."""
        ...

    def stored_round(self, game_number: str) -> StoredRound:
        """The round as the log keeps it."""
        ...

    def audit_lines(self, action: str) -> list[AuditEntry]:
        """Every audit line with this ``action``, oldest first."""
        ...


def table_differences(rounds: StoredRounds) -> dict[str, tuple[str, ...]]:
    """Each card-room round's differences from the rounds before it at its table
    (the module's docstring: deck colours, streaks, the offer's start and order),
    by game number; a round without any is absent.
    """
    starts = sorted(_start_ids(rounds.audit_lines(START_ACTION)))
    stored = sorted(
        (rounds.stored_round(g) for g in rounds.game_numbers()),
        key=lambda r: (bisect_left(starts, r.round_id), r.game_number),
    )
    tables = {r.table_id: _Table(r.table_id) for r in stored}
    out: dict[str, tuple[str, ...]] = {}
    run: int | None = None
    last: int | None = 0
    for stored_round in stored:
        this_run = bisect_left(starts, stored_round.round_id)
        if run is not None and this_run != run:  # a server start
            for table in tables.values():
                table.restart()
            last = 0
        run = this_run
        number = _sequence(stored_round.game_number)
        if number is None or last is None or number != last % 9999 + 1:
            # A betting window nobody bet in, or a start without its audit line.
            down = number is None or last is None or number <= last
            for table in tables.values():
                table.gap(down=down)
        last = number
        found = tables[stored_round.table_id].check(stored_round)
        if found:
            out[stored_round.game_number] = found
    return out


def _start_ids(lines: Sequence[AuditEntry]) -> Iterator[int]:
    """The newest round id at each server start (its audit line's ``last_round_id``):
    a round with a larger id was opened after that start.
    """
    for line in lines:
        newest = line.details.get("last_round_id")
        if isinstance(newest, int) and not isinstance(newest, bool):
            yield newest


def _sequence(game_number: str) -> int | None:
    """The server's sequence number at the end of a game number (``...-0007``: 7)."""
    tail = game_number.rpartition("-")[2]
    return int(tail) if tail.isdigit() else None


def _other(colour: str) -> str | None:
    """The other deck's colour (None for a colour not a card room's)."""
    if colour not in COLOURS:
        return None
    return COLOURS[1 - COLOURS.index(colour)]


def _clockwise(origin: int, seats: int) -> list[int]:
    return [(origin - 1 + k) % seats + 1 for k in range(seats)]


@dataclass
class _Table:
    """One table's card-room rounds, as the engine's
    :class:`~uth.engine.decks.TwoDecks` and :class:`~uth.engine.banking.Rotation`
    would have them, across server starts.
    """

    table_id: str
    #: The colour the next round dealt takes (None: unknown; the first is blue).
    next_colour: str | None = COLOURS[0]
    last_dealt: str | None = None
    #: The seat the next offer starts at (None: unknown).
    start: int | None = 1
    previous: str | None = None
    #: Who banked the last settled rounds in a row, and those rounds' game numbers.
    banker: str | None = None
    streak: list[str] = field(default_factory=list)
    #: What a server starting now restores (:func:`uth.engine.table.cardroom.resumed`):
    #: the rotation from the kept rounds, and the colour of the last round dealt.
    restored: RotationState = field(default_factory=RotationState)
    restored_colour: str | None = None

    def restart(self) -> None:
        """A server start: the table goes on from what its kept rounds give."""
        self.start = self.restored.start
        colour = self.restored_colour
        self.next_colour = COLOURS[0] if colour is None else _other(colour)

    def gap(self, *, down: bool) -> None:
        """Game numbers are missing before the next round (a betting window nobody
        bet in may have moved the start); ``down``: they went down (a start without
        its audit line: the colour is unknown too).
        """
        self.start = None
        if down:
            self.next_colour = None

    def check(self, stored: StoredRound) -> tuple[str, ...]:
        """The round's differences from the table's rounds before it; then the state
        moves past it.
        """
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
        if record.deck_colour in COLOURS:
            self.restored_colour = record.deck_colour
        colour = record.deck_colour or "none"
        expected, before = self.next_colour, self.last_dealt
        self.next_colour = _other(expected or colour)
        self.last_dealt = game_number
        if expected is None or colour == expected:
            return []
        why = (
            f"game {before} before it took the {_other(expected)} deck"
            if before is not None
            else f"the first round dealt at table {self.table_id}"
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
        settled = stored.status == "settled"
        self.restored = self.restored.after(
            record.rules(), banker.player, banker.seat, dealt=settled
        )
        if settled:
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
