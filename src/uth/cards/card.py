"""The card value type and its notation."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from uth.errors import InvalidCardError

#: Rank characters in rank order; index 0 is the deuce (rank 2), index 12 the ace (rank 14).
RANK_CHARS = "23456789TJQKA"
#: Suit characters in suit-index order. Suits are equal in rank (RULES.md, "Cards and hands").
SUIT_CHARS = "cdhs"

_SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"}
_RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}


class Suit(IntEnum):
    """The four suits; the value is the suit index used in card indices."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The one-letter notation: ``c``, ``d``, ``h`` or ``s``."""
        return SUIT_CHARS[self.value]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self.value]


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card.

    Attributes:
        rank: 2..14 (11 jack, 12 queen, 13 king, 14 ace).
        suit: the :class:`Suit`.

    Cards order by rank, then suit index; the order is only for sorting displays,
    suits never break a tie between hands.

    """

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14:
            raise InvalidCardError(f"card rank must be 2..14, got {self.rank!r}", field="rank")

    @property
    def index(self) -> int:
        """The card's index 0..51: ``(rank - 2) * 4 + suit``."""
        return (self.rank - 2) * 4 + self.suit.value

    @property
    def rank_char(self) -> str:
        """The rank in notation: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return RANK_CHARS[self.rank - 2]

    @property
    def rank_name(self) -> str:
        """The rank in words: ``ace``, ``ten``, ``two``."""
        return _RANK_NAMES[self.rank]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with index 0..51 (see :attr:`index`).

        Raises:
            InvalidCardError: the index is out of range.

        """
        if not 0 <= index < 52:
            raise InvalidCardError(f"card index must be 0..51, got {index!r}", field="index")
        return ALL_CARDS[index]

    def __str__(self) -> str:
        return self.rank_char + self.suit.char

    def __repr__(self) -> str:
        return f"Card({self})"


ALL_CARDS: tuple[Card, ...] = tuple(
    Card(rank, Suit(suit)) for rank in range(2, 15) for suit in range(4)
)
_BY_TEXT = {str(card): card for card in ALL_CARDS}


def parse_card(text: str, *, field: str = "card") -> Card:
    """Parse one card from notation.

    Accepts a rank (``2``..``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``) followed
    by a suit letter (``c d h s``) or symbol (``♣ ♦ ♥ ♠``), in either case, with
    surrounding blanks ignored: ``As``, ``td``, ``10d``, ``Q♥``.

    Args:
        text: the card's notation.
        field: the input field name used in the error message.

    Raises:
        InvalidCardError: the text is not a card; the message names ``field``.

    """
    if not isinstance(text, str):
        raise InvalidCardError(f"{field}: expected a card such as 'As', got {text!r}", field=field)
    raw = text.strip()
    body = raw
    if body[-1:] in _SUIT_SYMBOLS:
        body = body[:-1] + _SUIT_SYMBOLS[body[-1]]
    body = body.upper()
    if body.startswith("10"):
        body = "T" + body[2:]
    if len(body) == 2:
        card = _BY_TEXT.get(body[0] + body[1].lower())
        if card is not None:
            return card
    raise InvalidCardError(
        f"{field}: {text!r} is not a card (expected e.g. 'As', 'Td', '10d')", field=field
    )


def parse_cards(
    texts: str | Iterable[str], *, field: str = "cards", count: int | None = None
) -> tuple[Card, ...]:
    """Parse several cards and check they are distinct.

    Args:
        texts: an iterable of card notations, or one string with cards separated by
            blanks or commas (``"As Kd"``, ``"As,Kd"``), or run together (``"AsKd"``).
        field: the input field name used in error messages (items get ``field[i]``).
        count: when given, the exact number of cards required.

    Raises:
        InvalidCardError: a card is malformed or appears twice, or the count is wrong.

    """
    if isinstance(texts, str):
        items = texts.replace(",", " ").split()
        if len(items) == 1 and len(items[0]) > 3:
            items = _split_run(items[0], field)
    else:
        items = list(texts)
    cards = tuple(parse_card(t, field=f"{field}[{i}]") for i, t in enumerate(items))
    if count is not None and len(cards) != count:
        raise InvalidCardError(f"{field}: expected {count} cards, got {len(cards)}", field=field)
    check_distinct(cards, field=field)
    return cards


def _split_run(text: str, field: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(text):
        width = 3 if text.startswith("10", i) else 2
        out.append(text[i : i + width])
        i += width
    if any(len(item) < 2 for item in out):
        raise InvalidCardError(f"{field}: cannot split {text!r} into cards", field=field)
    return out


def check_distinct(cards: Sequence[Card], *, field: str = "cards") -> None:
    """Raise :class:`InvalidCardError` naming the first card that appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidCardError(f"{field}: duplicate card {card}", field=field)
        seen.add(card)


def format_cards(cards: Iterable[Card]) -> str:
    """Format cards as blank-separated notation: ``"As Kd 7c"``."""
    return " ".join(str(card) for card in cards)
