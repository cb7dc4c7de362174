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


def line_hand(player_id: int, behind: int) -> str:
    """The engine hand id of a seated player's back-line hand behind seat ``behind``:
    ``"<player id>@<seat>"`` (a player's own hand is ``"<player id>"``).
    """
    return f"{player_id}@{behind}"


def account_of(hand_id: str) -> int:
    """The account id of an engine hand id (``"7"`` or ``"7@3"``: 7)."""
    return int(hand_id.partition("@")[0])


def second_hand(hand_id: str) -> str | None:
    """The hand id when it is a player's second (back-line) hand, else None: the
    ledger keys a second hand's entries by it (docs/protocol.md, "Card-room tables").
    """
    return hand_id if "@" in hand_id else None


@dataclass
class Seat:
    """A player at the table: their bets for the coming round, the undo stack
    (previous bets, whether the step was a Double), open connections (a count: the
    host holds the connections), the Play reserved but not yet debited, and this
    round's decisions (``auto:check`` when the timer decided). At a card-room
    table ``number`` is the seat taken with ``sit`` (None: not seated), and
    ``behind`` the seat a back-line bet of this round follows.

    A seated player's back-line hand (issue 13: a player seated elsewhere bets
    behind another seat) is a second ``Seat`` of the same player with ``line``
    true: its own bets, undo stack, Double and pending Play, and the hand id
    :func:`line_hand` (the player id and the seat it is behind).
    ``play_hold`` is the Play reserved for a back-line hand when its bets are
    placed: the largest Play its Ante can need (it follows another player's
    raise), released once the round is settled or voided.
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
    line: bool = False
    play_hold: Decimal = ZERO

    @property
    def hand_id(self) -> str:
        """The hand id in the engine's round: the player id, or for a seated player's
        back-line hand :func:`line_hand`.
        """
        if self.line:
            assert self.behind is not None
            return line_hand(self.player_id, self.behind)
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
