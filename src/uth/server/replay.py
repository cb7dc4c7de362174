"""Stored rounds replayed: the check behind ``uth replay`` (an auditor's game recall,
GLI-19).

A round that ended keeps its record (:mod:`uth.engine.history`: the full rule set,
the deck, the ordered actions with who and when, the result) in the round log.
:func:`check_round` loads it with the round's ledger entries, re-runs the round
through the engine and confirms, in this order, that:

1. the record decodes and is the round's (game number, rule-set fingerprint and
   status as the round log has them);
2. the replayed round gives the stored result (:func:`uth.engine.history.replay`);
3. the ledger holds exactly the money movements the round implies
   (:func:`uth.engine.history.expected_ledger`), per player, entry kind and wager:
   for a settled round every debit and payout; for a voided round every debit as
   implied, and each player's wagers netting to zero (a Play decided but not yet
   debited when the round was voided, or a wager whose debit could not be stored
   (the failure that voided the round), has neither debit nor refund). A round the
   engine settled but whose settlement could not be stored, then voided, keeps the
   settled record: it must replay, and its ledger is checked as a voided round's.

The first difference is named, with the field's path (``result.7.play.payout:
stored 40.00, replayed 30.00``, ``ledger: player 7 payout ante: stored 25.00, the
round implies 20.00``). A round still open is skipped (not finished); a round voided
without a record (the server stopped before it was dealt, or mid-round) is
confirmed when its ledger entries net to zero.

A card-room round is also checked against the rounds before it at its table
(:func:`table_differences`; issue 13, items 5 and 7; RULES.md, "Who banks", "Decks
and shuffling"). The rounds are taken in game-number order and cut into server
runs (a table's decks and rotation start afresh when the server starts: its game
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
are found. Each such difference is one more line for the round (``game G: differs:
...``): the round's own check may match.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from uth.engine import history
from uth.engine.banking import next_offer_start
from uth.engine.decks import COLOURS
from uth.errors import UthError
from uth.money import CENT, ZERO
from uth.server.ports import Ledger, LedgerEntry, RoundLog, StoredRound

#: What a check found: the round replays and its ledger matches; it differs; it is
#: still open (skipped); it was voided without a record and its ledger nets to zero.
Outcome = Literal["match", "differs", "open", "unrecorded"]

_Key = tuple[str, str, str]  # (hand id: a player id or a second hand, entry kind, wager kind)


@dataclass(frozen=True, slots=True)
class RoundCheck:
    """What replaying one stored round found.

    Attributes:
        game_number: the round's game number.
        status: the round's status in the round log (``open``, ``settled``, ``voided``).
        outcome: ``match``, ``differs``, ``open`` or ``unrecorded`` (:data:`Outcome`).
        entries: how many ledger entries the round has.
        difference: the round's own first difference (its record, replay or
            ledger), or None.
        table_differences: each difference from the rounds before it at its table
            (a card room's deck colours and rotation, :func:`table_differences`).
    """

    game_number: str
    status: str
    outcome: Outcome
    entries: int
    difference: str | None = None
    table_differences: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True unless a difference was found (an open round is not one)."""
        return self.outcome != "differs"

    @property
    def differences(self) -> tuple[str, ...]:
        """Every difference found: the round's own first, then its table's."""
        own = () if self.difference is None else (self.difference,)
        return (*own, *self.table_differences)

    def message(self) -> str:
        """One line for people, e.g. ``game G-1: replayed, result and 6 ledger entries
        match``; a round that differs has one line per difference (``game G-1:
        differs: ...``).
        """
        g = f"game {self.game_number}"
        if self.outcome == "match":
            return f"{g}: replayed, result and {self.entries} ledger entries match"
        if self.outcome == "open":
            return f"{g}: open, not finished: nothing to replay yet"
        if self.outcome == "unrecorded":
            return (
                f"{g}: voided before its record was kept; "
                f"its {self.entries} ledger entries net to zero"
            )
        return "\n".join(f"{g}: differs: {d}" for d in self.differences)

    def to_json(self) -> dict[str, Any]:
        """The check as JSON-ready data (``uth replay --json``): ``difference`` is the
        round's own, ``table_differences`` those against its table's other rounds.
        """
        return {
            "game_number": self.game_number,
            "status": self.status,
            "outcome": self.outcome,
            "entries": self.entries,
            "difference": self.difference,
            "table_differences": list(self.table_differences),
            "message": self.message(),
        }


def check_round(rounds: RoundLog, ledger: Ledger, game_number: str) -> RoundCheck:
    """Replay the stored round ``game_number`` and compare its result and ledger
    entries; a card-room round is also checked against its table's rounds before it
    (:func:`table_differences`).

    Raises:
        NotFoundError: no round has this game number.
    """
    stored = rounds.stored_round(game_number)
    table = table_differences(rounds).get(game_number, ())
    return _check(stored, ledger, table)


def check_all(rounds: RoundLog, ledger: Ledger) -> list[RoundCheck]:
    """:func:`check_round` for every stored round, oldest first."""
    table = table_differences(rounds)
    return [_check(rounds.stored_round(g), ledger, table.get(g, ())) for g in rounds.game_numbers()]


def _check(stored: StoredRound, ledger: Ledger, table: tuple[str, ...]) -> RoundCheck:
    game_number = stored.game_number
    entries = ledger.round_entries(game_number)
    if stored.record is None and stored.status == "open":
        return RoundCheck(game_number, stored.status, "open", len(entries))
    difference = _difference(stored, entries)
    if difference is not None or table:
        return RoundCheck(game_number, stored.status, "differs", len(entries), difference, table)
    outcome: Outcome = "match" if stored.record is not None else "unrecorded"
    return RoundCheck(game_number, stored.status, outcome, len(entries))


# ------------------------------------------------------------ a table's rounds
def table_differences(rounds: RoundLog) -> dict[str, tuple[str, ...]]:
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


def _difference(stored: StoredRound, entries: Sequence[LedgerEntry]) -> str | None:
    """The first difference, or None when all match (a voided round without a record:
    when its entries net to zero).
    """
    if stored.record is None:
        if stored.status == "voided":
            return _nets_to_zero(entries)
        return f"record: none stored for this {stored.status} round"
    try:
        record = history.decode(stored.record)
    except UthError as exc:
        return f"record: {exc}"
    if record.game_id != stored.game_number:
        return f"game_id: stored {record.game_id}, the round log has {stored.game_number}"
    if record.rules_fingerprint != stored.rules_fingerprint:
        return (
            f"rules_fingerprint: stored {record.rules_fingerprint}, "
            f"the round log has {stored.rules_fingerprint}"
        )
    if record.status != stored.status and stored.status != "voided":
        return f"status: stored {record.status}, the round log has {stored.status}"
    report = history.replay(record)
    if not report.ok:
        return report.difference
    implied = history.expected_ledger(record)
    if stored.status == "voided":  # the record may be settled: its settlement never stored
        debits = [m for m in implied if m.kind == "wager"]
        kept = [e for e in entries if e.kind == "wager"]
        # A wager the round implies but whose debit was never stored (the storage
        # failure that voided the round) has no entry at all.
        return _compare(debits, kept, unstored_ok=True) or _nets_to_zero(entries)
    return _compare(implied, entries)


def _sums(items: Iterable[tuple[_Key, Decimal]]) -> dict[_Key, Decimal]:
    out: dict[_Key, Decimal] = {}
    for key, amount in items:
        out[key] = out.get(key, ZERO) + amount
    return out


def _compare(
    implied: Sequence[history.LedgerMove],
    entries: Sequence[LedgerEntry],
    *,
    unstored_ok: bool = False,
) -> str | None:
    """The first (player, entry kind, wager) whose amount differs, in the order the
    round implies them, then any entry the round does not imply. With
    ``unstored_ok`` (a voided round) an implied movement with no entry at all is
    not a difference: its debit was never stored.
    """
    want = _sums(((m.player, m.kind, m.wager), m.amount) for m in implied)
    # A player's second hand is keyed by its hand id, as the record names it.
    have = _sums(((e.hand or str(e.player_id), e.kind, e.wager or "-"), e.amount) for e in entries)
    for key in [*want, *(k for k in have if k not in want)]:
        stored, expected = have.get(key), want.get(key)
        if stored is None and unstored_ok:
            continue
        if stored != expected:
            player, kind, wager = key
            return (
                f"ledger: player {player} {kind} {wager}: stored {_amount(stored)}, "
                f"the round implies {_amount(expected)}"
            )
    return None


def _nets_to_zero(entries: Sequence[LedgerEntry]) -> str | None:
    """None when each player's entries of each wager add up to zero, else the first
    that does not.
    """
    sums = _sums(((e.hand or str(e.player_id), "", e.wager or "-"), e.amount) for e in entries)
    for (player, _, wager), total in sums.items():
        if total != 0:
            return (
                f"ledger: player {player} {wager}: nets {_amount(total)} in a voided round, "
                "not 0.00"
            )
    return None


def _amount(value: Decimal | None) -> str:
    return "none" if value is None else str(value.quantize(CENT))
