"""The events a round emits: what the dealer does and announces, in order.

Each event is a frozen record. ``to_dict()`` gives its JSON form with a ``type``.
``visibility`` marks the cards no one may see as ``hidden`` (the dealer's hole
cards and the face-down board until they are turned) and a hand's own cards as
``player``; who sees which event is decided in one place,
:func:`uth.engine.views.visible_events` (STYLE.md, point 5).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any, ClassVar, Literal

from uth.cards.card import Card
from uth.money import money_json

Visibility = Literal["public", "player", "hidden"]
Street = Literal["pre_flop", "flop", "river"]


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of round events."""

    type: ClassVar[str] = "event"
    visibility: ClassVar[Visibility] = "public"

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data: ``{"type": ..., field: value, ...}``.

        Cards become notation strings, money a JSON number.
        """
        out: dict[str, Any] = {"type": self.type}
        kind = type(self)
        names = _NAMES.get(kind)
        if names is None:
            names = _NAMES[kind] = tuple(f.name for f in fields(self))
        for name in names:
            out[name] = _json(getattr(self, name))
        return out


#: Each event class's field names in order (``dataclasses.fields`` is slow per call:
#: a 1,000-player round has about 11,000 events to store).
_NAMES: dict[type[Event], tuple[str, ...]] = {}


def _json(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Decimal):
        return money_json(value)
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class RoundOpened(Event):
    """Betting opens for a round (no cards yet: the deck comes at the close of betting)."""

    type: ClassVar[str] = "round_opened"
    game_id: str
    rules: str
    bank: Decimal | None


@dataclass(frozen=True, slots=True)
class WagersPlaced(Event):
    """A hand's initial wagers are placed (or replaced) while betting is open."""

    type: ClassVar[str] = "wagers_placed"
    player: str
    ante: Decimal
    blind: Decimal
    trips: Decimal
    bad_beat: Decimal
    seat: int | None = None
    behind: str | None = None


@dataclass(frozen=True, slots=True)
class WagersWithdrawn(Event):
    """A hand's wagers are taken back while betting is open (a player left, 004)."""

    type: ClassVar[str] = "wagers_withdrawn"
    player: str


@dataclass(frozen=True, slots=True)
class BettingClosed(Event):
    """No more bets; the deal begins from the deck received now.

    Attributes:
        hands: every hand's id (seated and back-line) in settlement order.
        deck_colour: the back colour of the deck dealt (two-deck procedures, 000/002),
            or None.

    """

    type: ClassVar[str] = "betting_closed"
    hands: tuple[str, ...]
    deck_colour: str | None = None


@dataclass(frozen=True, slots=True)
class HoleCardsDealt(Event):
    """Two hole cards dealt face down to a player (seen only by that player)."""

    type: ClassVar[str] = "hole_cards_dealt"
    visibility: ClassVar[Visibility] = "player"
    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayerHandDealt(Event):
    """The one player hand of a shared-hand table, dealt face up for everyone (004)."""

    type: ClassVar[str] = "player_hand_dealt"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealerCardsDealt(Event):
    """The dealer's two hole cards, dealt last and face down (hidden until the showdown)."""

    type: ClassVar[str] = "dealer_cards_dealt"
    visibility: ClassVar[Visibility] = "hidden"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BoardPlaced(Event):
    """The five community cards taken from the deck together, face down (002)."""

    type: ClassVar[str] = "board_placed"
    visibility: ClassVar[Visibility] = "hidden"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DecisionMade(Event):
    """A player's decision on a street.

    Attributes:
        action: ``play_4x`` ... ``play_1x``, ``check`` or ``fold``.
        multiple: the Play multiple (0 for check or fold).
        play: the Play wager placed, in currency units (0 for check or fold).
        auto: the decision was made by the timer (AUTO CHECKED / AUTO FOLDED, 004).

    """

    type: ClassVar[str] = "decision"
    player: str
    street: Street
    action: str
    multiple: int
    play: Decimal
    auto: bool = False


@dataclass(frozen=True, slots=True)
class FlopTurned(Event):
    """The first three community cards turned face up."""

    type: ClassVar[str] = "flop_turned"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TurnAndRiverTurned(Event):
    """The last two community cards turned face up together."""

    type: ClassVar[str] = "turn_and_river_turned"
    cards: tuple[Card, ...]


_ANNOUNCED = {
    "royal_flush": "a royal flush",
    "straight_flush": "a straight flush",
    "four_of_a_kind": "four of a kind",
    "full_house": "a full house",
    "flush": "a flush",
    "straight": "a straight",
    "three_of_a_kind": "three of a kind",
    "two_pair": "two pair",
    "pair": "a pair",
    "high_card": "high card",
}


@dataclass(frozen=True, slots=True)
class DealerRevealed(Event):
    """The dealer's hand shown and announced, and whether it qualifies."""

    type: ClassVar[str] = "dealer_revealed"
    cards: tuple[Card, ...]
    category: str
    best_five: tuple[Card, ...]
    qualifies: bool

    @property
    def announcement(self) -> str:
        """The dealer's words: ``"Dealer has two pair, qualifies"``."""
        verdict = "qualifies" if self.qualifies else "does not qualify"
        return f"Dealer has {_ANNOUNCED.get(self.category, self.category)}, {verdict}"


@dataclass(frozen=True, slots=True)
class AntesReturned(Event):
    """The dealer does not qualify: every Ante is returned first (003)."""

    type: ClassVar[str] = "antes_returned"
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """A player's hand turned up and read at the showdown."""

    type: ClassVar[str] = "hand_shown"
    player: str
    cards: tuple[Card, ...]
    category: str
    best_five: tuple[Card, ...]
    outcome: str


@dataclass(frozen=True, slots=True)
class HandFolded(Event):
    """A folded hand, collected face down at the fold, before the dealer's cards are
    shown (its cards are never shown; RULES.md, "A round", step 7).
    """

    type: ClassVar[str] = "hand_folded"
    player: str


@dataclass(frozen=True, slots=True)
class WagerSettled(Event):
    """One wager's result (RULES.md, "Settlement against the dealer").

    A folded hand's wagers are settled at the fold, right after its
    :class:`HandFolded`; the others after :class:`DealerRevealed`, in the rule
    set's ``settlement_order``. ``uncovered``, ``capped``, ``uncovered_stake`` and
    ``uncovered_winnings`` are those of :class:`uth.engine.settlement.WagerResult`.

    ``bank_left``: on a player-dealer table, the player-dealer's bank after this
    wager (the bank plus the player-dealer's result so far: it goes down as winners
    are paid, up as losers are collected, and stays between 0 and twice the bank),
    so that a table can show the bank going down seat by seat (000, 002; RULES.md,
    "Who banks"); ``None`` at a house-banked table.
    """

    type: ClassVar[str] = "wager_settled"
    player: str
    wager: str
    stake: Decimal
    result: str
    net: Decimal
    uncovered: Decimal
    capped: Decimal
    uncovered_stake: Decimal = Decimal(0)
    uncovered_winnings: Decimal = Decimal(0)
    bank_left: Decimal | None = None


@dataclass(frozen=True, slots=True)
class RoundSettled(Event):
    """Every wager is settled; the banker's result."""

    type: ClassVar[str] = "round_settled"
    banker: str
    banker_net: Decimal


@dataclass(frozen=True, slots=True)
class WagerReturned(Event):
    """A wager returned to its owner because the round was voided."""

    type: ClassVar[str] = "wager_returned"
    player: str
    wager: str
    amount: Decimal


@dataclass(frozen=True, slots=True)
class RoundVoided(Event):
    """The round is void (misdeal, 003; malfunction, 004): every wager was returned."""

    type: ClassVar[str] = "round_voided"
    reason: str
