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

A card-room round is also checked against the rounds before it at its table:
its deck colour, its player-dealer's streak and its offer
(:func:`uth.server.replay_tables.table_differences`). Each such difference is one
more line for the round (``game G: differs: ...``): the round's own check may
match.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from uth.engine import history
from uth.errors import UthError
from uth.money import CENT, ZERO
from uth.server.ports import Ledger, LedgerEntry, RoundLog, StoredRound
from uth.server.replay_tables import table_differences

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
