"""Cards, decks and shufflers.

A :class:`Card` is an immutable value with a rank (2..14, ace high) and a suit.
Cards parse from the usual notation (``As``, ``Td``, ``10d``, ``ah``, ``A♠``) and
format as ``As``. The 52 cards have a fixed index 0..51 (``rank_index * 4 + suit``)
that the evaluator and the analysis use.

Shuffling lives here, outside the engine: a round is given a deck order that was
shuffled beforehand (RULES.md, "Decks and shuffling").
"""

from uth.cards.card import (
    ALL_CARDS,
    RANK_CHARS,
    SUIT_CHARS,
    Card,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from uth.cards.deck import (
    PreparedDeck,
    SecureShuffler,
    SeededShuffler,
    Shuffler,
    SingleDeck,
    full_deck,
    stacked_deck,
)

__all__ = [
    "ALL_CARDS",
    "RANK_CHARS",
    "SUIT_CHARS",
    "Card",
    "PreparedDeck",
    "SecureShuffler",
    "SeededShuffler",
    "Shuffler",
    "SingleDeck",
    "Suit",
    "format_cards",
    "full_deck",
    "parse_card",
    "parse_cards",
    "stacked_deck",
]
