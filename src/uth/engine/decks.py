"""Two alternating decks and the discard rack of a California card-room table.

Seed 000, "Number of Decks": "two alternating decks ... a. The backs of the cards of
the two decks are of different color; b. One deck will be shuffled by the automated
card shuffling device while the other deck is being dealt ...; c. Both decks will be
continuously alternated in and out of play, with each deck being used for every
other round of play; and d. The cards from only one deck shall be placed in the
discard rack at any given time." Seed 002 says the same; RULES.md, "Decks and
shuffling".

Pure: the shuffled orders come in from outside (the shuffling machine, here a
:class:`uth.cards.Shuffler` the caller runs); this module keeps track of which deck
is where and refuses what the procedure forbids. One round's cycle::

    decks = TwoDecks()                          # blue first, then red
    decks.load("blue", shuffler.shuffle(ALL_CARDS))
    decks.load("red", shuffler.shuffle(ALL_CARDS))
    deck = decks.deal()          # PreparedDeck(colour="blue"): give it to the Round
    ... the round ...
    decks.collect()              # blue's 52 cards into the discard rack
    deck = decks.deal()          # red; blue leaves the rack for the shuffler
    decks.load("blue", shuffler.shuffle(ALL_CARDS))   # while red is dealt
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from uth.cards.card import Card, check_distinct
from uth.cards.deck import PreparedDeck
from uth.errors import InvalidDealError

#: The back colours of a card room's two decks, the first dealt first (a table's
#: :class:`TwoDecks`; ``uth replay`` checks that a table's rounds alternate them).
COLOURS = ("blue", "red")


@dataclass
class DiscardRack:
    """The discard rack: the cards of one deck at a time (000, 2d).

    Attributes:
        cards: ``(colour, card)`` of each card in the rack, in the order discarded.

    """

    cards: list[tuple[str, Card]] = field(default_factory=list)

    @property
    def colours(self) -> frozenset[str]:
        """The back colours of the cards in the rack (at most one; empty when empty)."""
        return frozenset(colour for colour, _ in self.cards)

    @property
    def colour(self) -> str | None:
        """The colour of the deck in the rack, or ``None`` when it is empty."""
        return self.cards[0][0] if self.cards else None

    def discard(self, colour: str, cards: Iterable[Card]) -> None:
        """Put cards with backs of ``colour`` in the rack.

        Raises:
            InvalidDealError: the rack holds the other deck's cards (only one deck's
                cards in the rack at a time, 000), or a card is already in the rack
                or given twice. A refused discard changes nothing.

        """
        new = tuple(cards)
        held = self.colour
        if held is not None and colour != held:
            raise InvalidDealError(
                f"discard_rack: it holds the {held} deck's cards; a {colour} card cannot "
                "go in (the cards of only one deck in the discard rack at a time, 000)",
                field="discard_rack",
            )
        check_distinct(new, field="discard_rack")
        there = {card for _, card in self.cards}
        twice = [str(c) for c in new if c in there]
        if twice:
            raise InvalidDealError(
                f"discard_rack: {', '.join(twice)} already in the rack", field="discard_rack"
            )
        self.cards.extend((colour, card) for card in new)

    def unload(self) -> tuple[Card, ...]:
        """Empty the rack (its deck goes to the shuffling machine); returns its cards."""
        out = tuple(card for _, card in self.cards)
        self.cards.clear()
        return out


@dataclass
class TwoDecks:
    """Two decks with backs of different colours, dealt in alternate rounds (000, 002).

    Args:
        colours: the two back colours; the first is dealt first.

    Raises:
        InvalidDealError: the colours are not two different names.

    """

    colours: tuple[str, str] = COLOURS
    rack: DiscardRack = field(default_factory=DiscardRack)
    _loaded: dict[str, PreparedDeck] = field(default_factory=dict, init=False)
    _in_play: PreparedDeck | None = field(default=None, init=False)
    _dealt: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        if len(self.colours) != 2 or self.colours[0] == self.colours[1] or not all(self.colours):
            raise InvalidDealError(
                f"colours: two different back colours are required, got {self.colours!r}",
                field="colours",
            )

    @property
    def next_colour(self) -> str:
        """The colour of the deck the next round is dealt from."""
        return self.colours[self._dealt % 2]

    @property
    def in_play(self) -> PreparedDeck | None:
        """The deck of the round under way (dealt and not yet collected)."""
        return self._in_play

    @property
    def rounds_dealt(self) -> int:
        """How many rounds have been dealt."""
        return self._dealt

    def needs_shuffle(self) -> tuple[str, ...]:
        """The colours for which the shuffling machine should deliver a deck now: not
        loaded, not in play, and not in the discard rack.
        """
        busy = set(self._loaded) | set(self.rack.colours)
        if self._in_play is not None:
            busy.add(self._in_play.colour or "")
        return tuple(c for c in self.colours if c not in busy)

    def load(self, colour: str, order: Sequence[Card]) -> None:
        """A shuffled deck of ``colour`` comes in from the shuffling machine.

        Raises:
            InvalidDealError: an unknown colour; that deck is in play, in the discard
                rack, or already loaded; the order is not 52 distinct cards.

        """
        if colour not in self.colours:
            raise InvalidDealError(
                f"colour: expected one of {', '.join(self.colours)}, got {colour!r}",
                field="colour",
            )
        if colour not in self.needs_shuffle():
            raise InvalidDealError(
                f"colour: the {colour} deck is {self._where(colour)}, it cannot be loaded",
                field="colour",
            )
        self._loaded[colour] = PreparedDeck(tuple(order), colour, self._dealt)

    def deal(self) -> PreparedDeck:
        """Take the next deck for a round: the other colour than last round's. The
        deck in the discard rack (last round's) goes to the shuffling machine first.

        Raises:
            InvalidDealError: the last round's deck has not been collected, or the next
                deck has not been loaded yet. Nothing changes.

        """
        if self._in_play is not None:
            raise InvalidDealError(
                f"deck: the {self._in_play.colour} deck is still in play; collect it first",
                field="deck",
            )
        colour = self.next_colour
        deck = self._loaded.get(colour)
        if deck is None:
            raise InvalidDealError(
                f"deck: the {colour} deck has not come back from the shuffler", field="deck"
            )
        if self.rack.colour not in (None, colour):
            self.rack.unload()
        del self._loaded[colour]
        self._in_play = deck
        self._dealt += 1
        return deck

    def collect(self) -> None:
        """The round is over: the cards of the deck in play that are not yet in the
        discard rack go there (002 puts the undealt rest there at the flop).

        Raises:
            InvalidDealError: no deck is in play.

        """
        deck = self._in_play
        if deck is None:
            raise InvalidDealError("deck: no deck is in play", field="deck")
        colour = deck.colour or ""
        there = {card for _, card in self.rack.cards}
        self.rack.discard(colour, (c for c in deck.order if c not in there))
        self._in_play = None

    def _where(self, colour: str) -> str:
        if self._in_play is not None and self._in_play.colour == colour:
            return "in play"
        if colour in self.rack.colours:
            return "in the discard rack"
        return "already loaded"


__all__ = ["COLOURS", "DiscardRack", "TwoDecks"]
