"""A player's seat at a table machine, and game numbers."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal

from uth.money import ZERO

#: The betting spots a player fills; the Blind follows the Ante (004).
SPOTS = ("ante", "trips", "bad_beat")


def no_bets() -> dict[str, Decimal]:
    """Empty bets: every spot at 0."""
    return dict.fromkeys(SPOTS, ZERO)


def cost(bets: dict[str, Decimal]) -> Decimal:
    """Money needed for these bets: the Ante twice (Ante and Blind), Trips, Bad Beat."""
    return 2 * bets["ante"] + bets["trips"] + bets["bad_beat"]


@dataclass
class Seat:
    """A player at the table: their bets for the coming round, the undo stack
    (previous bets, whether the step was a Double), open connections (a count: the
    host holds the connections), the Play reserved but not yet debited, and this
    round's decisions (``auto:check`` when the timer decided). At a card-room
    table ``number`` is the seat taken with ``sit`` (None: not seated), and
    ``behind`` the seat a back-line bet of this round follows.
    """

    player_id: int
    name: str
    number: int | None
    bets: dict[str, Decimal] = field(default_factory=no_bets)
    undo: list[tuple[dict[str, Decimal], bool]] = field(default_factory=list)
    doubled: bool = False
    connections: int = 0
    pending_play: Decimal = ZERO
    decisions: list[str] = field(default_factory=list)
    behind: int | None = None

    @property
    def hand_id(self) -> str:
        """The player's hand id in the engine's round."""
        return str(self.player_id)

    @property
    def staked(self) -> Decimal:
        """What the current bets cost (:func:`cost`)."""
        return cost(self.bets)


class GameNumbers:
    """Allocates game numbers ``YYYYMMDD-HHMMSS-NNNN``: the round's UTC start time
    (to the second) and a sequence number shared by every table of a server, so
    that two tables opening a round in the same second get different numbers
    (004: every round has a unique game number that tells when it started).
    """

    def __init__(self) -> None:
        self._sequence = 0

    def next(self, now: datetime) -> str:
        """The next game number for a round starting at ``now`` (1..9999, then again 1)."""
        self._sequence = self._sequence % 9999 + 1
        return f"{now.astimezone(UTC):%Y%m%d-%H%M%S}-{self._sequence:04d}"
