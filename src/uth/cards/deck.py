"""Decks and shufflers.

RULES.md, "Decks and shuffling": 001 and 004 use one deck shuffled after every
round (:class:`SingleDeck`, also the shuffling machine that delivers each shuffled
deck); 000/002 deal from two alternating decks whose backs differ in colour, kept
by the engine with their discard rack (:class:`uth.engine.decks.TwoDecks`). A live table shuffles with a cryptographically secure
generator (:class:`SecureShuffler`); a seeded generator (:class:`SeededShuffler`)
is only for simulations and tests.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from uth.cards.card import ALL_CARDS, Card, check_distinct
from uth.errors import InvalidDealError


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in index order (2c 2d 2h 2s 3c ... As)."""
    return ALL_CARDS


def stacked_deck(top: Iterable[Card]) -> tuple[Card, ...]:
    """A 52-card deck order with ``top`` first and every other card after it in index order.

    For scripted rounds and tests: the deal order of RULES.md ("A round") takes the
    cards from the front.

    Raises:
        InvalidCardError: a card of ``top`` appears twice.

    """
    head = tuple(top)
    check_distinct(head, field="top")
    rest = [card for card in ALL_CARDS if card not in set(head)]
    return head + tuple(rest)


class Shuffler(Protocol):
    """Something that returns a random permutation of a sequence of cards."""

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """Return the cards in a new random order; the input is not changed."""
        ...


class SecureShuffler:
    """Shuffles with the operating system's cryptographically secure generator (``secrets``).

    For real play (RULES.md, "Decks and shuffling"). Fisher-Yates by
    :meth:`random.SystemRandom.shuffle`, which draws from ``os.urandom``.
    """

    def __init__(self) -> None:
        self._rng = secrets.SystemRandom()

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """Return the cards in a uniformly random order."""
        out = list(cards)
        self._rng.shuffle(out)
        return tuple(out)


class SeededShuffler:
    """Shuffles with a seeded Mersenne Twister: the same seed gives the same decks.

    For tests, simulations and reproducible bug reports only, never for real play.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def shuffle(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """Return the cards in the next order of the seeded sequence."""
        out = list(cards)
        self._rng.shuffle(out)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class PreparedDeck:
    """A shuffled deck ready to deal one round.

    Attributes:
        order: the 52 cards, first dealt first.
        colour: the colour of the deck's backs (two alternating decks), or ``None``
            for a single deck.
        shuffle_number: how many decks this procedure has prepared before this one.

    """

    order: tuple[Card, ...]
    colour: str | None = None
    shuffle_number: int = 0

    def __post_init__(self) -> None:
        if len(self.order) != 52:
            raise InvalidDealError(f"deck: expected 52 cards, got {len(self.order)}", field="deck")
        check_distinct(self.order, field="deck")


@dataclass
class SingleDeck:
    """One deck, shuffled after every round (001, 004)."""

    shuffler: Shuffler
    _count: int = field(default=0, init=False)

    def next_deck(self) -> PreparedDeck:
        """A freshly shuffled 52-card deck."""
        deck = PreparedDeck(self.shuffler.shuffle(ALL_CARDS), None, self._count)
        self._count += 1
        return deck
