"""The rule-set model (pydantic, frozen)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    field_validator,
    model_validator,
)

from uth.evaluator import Category
from uth.money import parse_amount


def _parse_odds(value: Any) -> Any:
    if isinstance(value, Odds):
        return value
    if isinstance(value, bool):
        raise ValueError(f"expected odds such as '3:2', got {value!r}")
    if isinstance(value, int):
        return {"win": value, "per": 1}
    if isinstance(value, str):
        text = value.replace(" ", "").replace("to", ":")
        left, sep, right = text.partition(":")
        if not sep:
            left, right = text, "1"
        try:
            return {"win": int(left.replace(",", "")), "per": int(right)}
        except ValueError:
            raise ValueError(f"expected odds such as '3:2', got {value!r}") from None
    return value


class Odds(BaseModel):
    """Odds ``win:per`` paid on a winning wager: ``3:2`` pays 3 for every 2 wagered.

    Written in files as ``"3:2"`` (or an integer ``n`` for ``n:1``).
    """

    model_config = ConfigDict(frozen=True)

    win: int = Field(gt=0)
    per: int = Field(gt=0)

    @property
    def ratio(self) -> Fraction:
        """The odds as an exact fraction: 3:2 is 3/2."""
        return Fraction(self.win, self.per)

    def pay(self, stake: Decimal) -> Decimal:
        """The winnings (not counting the returned stake) on ``stake``; exact, may hold
        fractions of a cent (the caller rounds).
        """
        return stake * self.win / self.per

    def __str__(self) -> str:
        return f"{self.win}:{self.per}"


OddsField = Annotated[Odds, BeforeValidator(_parse_odds), PlainSerializer(str, return_type=str)]


def _parse_money(value: Any) -> Decimal:
    try:
        return parse_amount(value)
    except ValueError as exc:
        raise ValueError(str(exc).split(": ", 1)[-1]) from None


Money = Annotated[Decimal, BeforeValidator(_parse_money), PlainSerializer(str, return_type=str)]


def _parse_category(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return Category.from_key(value)
        except KeyError:
            keys = ", ".join(c.key for c in Category)
            raise ValueError(f"unknown hand category {value!r} (one of {keys})") from None
    return value


CategoryField = Annotated[
    Category, BeforeValidator(_parse_category), PlainSerializer(lambda c: c.key, return_type=str)
]

#: A pay table: hand category -> odds. A category that is absent does not pay.
PayTable = dict[CategoryField, OddsField]


class Limit(BaseModel):
    """A wager's table minimum and maximum, in currency units (inclusive)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min: Money
    max: Money

    @model_validator(mode="after")
    def _ordered(self) -> Limit:
        if self.min <= 0:
            raise ValueError(f"min must be positive, got {self.min}")
        if self.max < self.min:
            raise ValueError(f"max ({self.max}) is below min ({self.min})")
        return self

    def __str__(self) -> str:
        return f"{self.min}-{self.max}"


#: The largest Play multiple a rule set may offer (our bound; the seeds have 4).
MAX_MULTIPLE = 10
#: One 52-card deck deals at most this many two-card hands besides the dealer's
#: two cards and the five community cards.
MAX_INDIVIDUAL_HANDS = (52 - 2 - 5) // 2


class PlayMultiples(BaseModel):
    """The Play wager, as multiples of the Ante, allowed at each decision (RULES.md, "Wagers").

    Defaults: 4x or 3x pre-flop, 2x on the flop, 1x at the river.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    pre_flop: tuple[int, ...] = (4, 3)
    flop: tuple[int, ...] = (2,)
    river: tuple[int, ...] = (1,)

    @field_validator("pre_flop", "flop", "river")
    @classmethod
    def _positive(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if not value:
            raise ValueError("at least one multiple is required")
        if any(not 1 <= m <= MAX_MULTIPLE for m in value):
            raise ValueError(f"multiples must be 1 to {MAX_MULTIPLE}, got {list(value)}")
        if len(set(value)) != len(value):
            raise ValueError(f"multiples must not repeat, got {list(value)}")
        return tuple(sorted(value, reverse=True))

    @property
    def all(self) -> frozenset[int]:
        """Every multiple allowed at some decision."""
        return frozenset(self.pre_flop + self.flop + self.river)

    @property
    def largest(self) -> int:
        """The largest multiple (4 by default): the most a Play wager can be."""
        return max(self.all)


class PayoutCap(BaseModel):
    """Payout cap (001): the total paid to one player in one round on Ante, Blind and
    Play is at most the greater of ``amount`` and, when ``min_bettor_rule``, the most
    a player betting the table minimum could win in a round. Trips is not capped.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    amount: Money = Decimal("50000.00")
    min_bettor_rule: bool = True


class RuleSet(BaseModel):
    """A complete, validated set of rules for one table.

    Every field is data; no rule is an ``if preset == ...`` branch (STYLE.md).
    Money is ``Decimal`` in currency units. See RULES.md for the meaning of each
    option and the presets' choices.

    Raises:
        pydantic.ValidationError: on construction, naming the field at fault.
            Use :func:`uth.rules.rules_from_data` to get an ``InvalidRulesError``.

    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, description="short name, e.g. 'casino'")
    title: str = Field(default="", description="one-line title")
    seed: str = Field(default="", description="the seed document this rule set follows")
    notes: tuple[str, ...] = Field(default=(), description="the choices this rule set makes")

    banking: Literal["house", "player_dealer"] = "house"
    deck_procedure: Literal["single_deck", "two_alternating_decks"] = "single_deck"
    seats: int | None = Field(default=7, ge=1, description="seats at the table; None = unlimited")
    back_line_bets: bool = False
    shared_hand: bool = Field(
        default=False,
        description="one player hand dealt face up and played by every player (004)",
    )
    max_consecutive_banks: int = Field(default=2, ge=1)

    ante: Limit = Limit(min=Decimal(5), max=Decimal(1000))
    trips: Limit | None = Limit(min=Decimal(5), max=Decimal(1000))
    bad_beat: Limit | None = None
    bank: Limit | None = None
    side_bets_not_above_ante: bool = False

    settlement_order: Literal["clockwise", "right_to_left"] = Field(
        default="clockwise",
        description=(
            "the order hands are resolved at the showdown, after the folded hands "
            "(settled at the fold): 'clockwise', seat by seat from the (player-)dealer's "
            "left (002); 'right_to_left', the reverse of the deal, Antes returned first "
            "also right to left when the dealer does not qualify (003)"
        ),
    )
    decision_order: Literal["at_once", "in_turn"] = Field(
        default="at_once",
        description=(
            "how each street's decisions are taken: 'at_once', every player against the "
            "same timer (004); 'in_turn', one hand at a time clockwise from the "
            "(player-)dealer's left (000, 002; RULES.md, 'Order of decisions')"
        ),
    )
    play_multiples: PlayMultiples = PlayMultiples()
    dealer_qualifier: CategoryField = Category.PAIR
    folded_trips: Literal["player_hand", "board_only"] = "player_hand"
    payout_cap: PayoutCap | None = None

    blind_pays: PayTable
    trips_pays: PayTable = {}
    bad_beat_pays: PayTable = {}

    @field_validator("seats", mode="before")
    @classmethod
    def _unlimited(cls, value: Any) -> Any:
        return None if value == "unlimited" else value

    @model_validator(mode="after")
    def _consistent(self) -> RuleSet:
        if self.banking == "player_dealer" and self.bank is None:
            raise ValueError("bank: a player_dealer rule set needs bank limits")
        if self.banking == "house" and self.bank is not None:
            raise ValueError("bank: only a player_dealer rule set has bank limits")
        if self.trips is not None and not self.trips_pays:
            raise ValueError("trips_pays: Trips is offered but has no pay table")
        if self.bad_beat is not None and not self.bad_beat_pays:
            raise ValueError("bad_beat_pays: Bad Beat is offered but has no pay table")
        if self.bad_beat is None and self.bad_beat_pays:
            raise ValueError("bad_beat: a Bad Beat pay table needs bad_beat limits")
        if self.bad_beat_pays and min(self.bad_beat_pays) < Category.THREE_OF_A_KIND:
            raise ValueError("bad_beat_pays: the beaten hand must be three of a kind or better")
        # RULES.md, "Settlement against the dealer": the Blind pays on a straight or
        # better, Trips on three of a kind or better.
        if not self.blind_pays:
            raise ValueError("blind_pays: the Blind needs a pay table")
        if min(self.blind_pays) < Category.STRAIGHT:
            low = min(self.blind_pays).key
            raise ValueError(f"blind_pays: the Blind pays on a straight or better, got {low}")
        if self.trips_pays and min(self.trips_pays) < Category.THREE_OF_A_KIND:
            low = min(self.trips_pays).key
            raise ValueError(f"trips_pays: Trips pays on three of a kind or better, got {low}")
        if not self.shared_hand and (self.seats is None or self.seats > MAX_INDIVIDUAL_HANDS):
            raise ValueError(
                f"seats: one deck deals at most {MAX_INDIVIDUAL_HANDS} hands of their own, got "
                f"{self.seats or 'unlimited'}; set fewer seats or shared_hand = true"
            )
        return self

    @property
    def offers_trips(self) -> bool:
        """Whether the Trips wager is offered."""
        return self.trips is not None

    @property
    def offers_bad_beat(self) -> bool:
        """Whether the Bad Beat Bonus wager is offered (002)."""
        return self.bad_beat is not None

    def cap_amount(self) -> Decimal | None:
        """The payout cap on Ante + Blind + Play in one round, or None for no cap.

        001: the greater of the cap's ``amount`` and the most a player betting the
        table minimum could win: Ante 1:1, Blind at the top of its pay table, and
        the largest Play multiple at 1:1.
        """
        cap = self.payout_cap
        if cap is None:
            return None
        if not cap.min_bettor_rule:
            return cap.amount
        top_blind = max(odds.ratio for odds in self.blind_pays.values())
        a = self.ante.min
        most = a + a * top_blind.numerator / top_blind.denominator + a * self.play_multiples.largest
        return max(cap.amount, most)
