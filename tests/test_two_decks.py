"""Two alternating decks and the discard rack (uth.engine.decks; seeds 000 and 002)."""

from __future__ import annotations

import pytest

from uth.cards import ALL_CARDS, SeededShuffler, parse_cards
from uth.engine import Round
from uth.engine import events as ev
from uth.engine.decks import DiscardRack, TwoDecks
from uth.errors import InvalidDealError
from uth.rules import preset


def test_000_the_decks_alternate_and_each_round_records_its_colour() -> None:
    shuffler = SeededShuffler(5)
    decks = TwoDecks()
    assert decks.needs_shuffle() == ("blue", "red")
    decks.load("blue", shuffler.shuffle(ALL_CARDS))
    decks.load("red", shuffler.shuffle(ALL_CARDS))
    colours = []
    for n in range(6):
        deck = decks.deal()
        # one deck is dealt while the shuffling machine shuffles the other
        other = "red" if deck.colour == "blue" else "blue"
        if n == 0:
            assert decks.needs_shuffle() == ()  # red is loaded already
        else:  # last round's deck left the rack for the shuffler
            assert decks.needs_shuffle() == (other,)
            decks.load(other, shuffler.shuffle(ALL_CARDS))
        rnd = Round(preset("california"), bank=100)
        rnd.place_wagers("amy", ante=5, seat=1)
        closed = rnd.close_betting(deck)[0]
        assert isinstance(closed, ev.BettingClosed)
        colours.append(closed.deck_colour)
        decks.collect()
        assert decks.rack.colours == {deck.colour}
        assert len(decks.rack.cards) == 52
    assert colours == ["blue", "red"] * 3
    assert decks.rounds_dealt == 6


def test_000_the_discard_rack_refuses_a_card_of_the_other_colour() -> None:
    rack = DiscardRack()
    rack.discard("blue", parse_cards("As Kd"))
    with pytest.raises(
        InvalidDealError,
        match=r"^discard_rack: it holds the blue deck's cards; a red card cannot go in "
        r"\(the cards of only one deck in the discard rack at a time, 000\)$",
    ):
        rack.discard("red", parse_cards("2c"))
    with pytest.raises(InvalidDealError, match=r"^discard_rack: As already in the rack$"):
        rack.discard("blue", parse_cards("Qh As"))
    assert [c for _, c in rack.cards] == list(parse_cards("As Kd"))  # nothing changed
    assert rack.unload() == parse_cards("As Kd")
    rack.discard("red", parse_cards("2c"))
    assert rack.colour == "red"


def test_000_a_deck_cannot_be_dealt_or_loaded_out_of_turn() -> None:
    decks = TwoDecks(("green", "gold"))
    with pytest.raises(InvalidDealError, match="deck: the green deck has not come back from"):
        decks.deal()
    with pytest.raises(InvalidDealError, match="colour: expected one of green, gold, got 'blue'"):
        decks.load("blue", ALL_CARDS)
    with pytest.raises(InvalidDealError, match="deck: expected 52 cards, got 2"):
        decks.load("green", parse_cards("As Ks"))
    decks.load("green", ALL_CARDS)
    with pytest.raises(InvalidDealError, match="colour: the green deck is already loaded"):
        decks.load("green", ALL_CARDS)
    decks.deal()
    with pytest.raises(InvalidDealError, match="colour: the green deck is in play"):
        decks.load("green", ALL_CARDS)
    with pytest.raises(InvalidDealError, match="deck: the green deck is still in play"):
        decks.deal()
    decks.collect()
    with pytest.raises(InvalidDealError, match="colour: the green deck is in the discard rack"):
        decks.load("green", ALL_CARDS)
    with pytest.raises(InvalidDealError, match="deck: no deck is in play"):
        decks.collect()
    with pytest.raises(InvalidDealError, match="deck: the gold deck has not come back"):
        decks.deal()
    decks.load("gold", ALL_CARDS)
    gold = decks.deal()
    assert gold.colour == "gold"
    assert decks.rack.cards == []  # the green deck went to the shuffler
    assert decks.needs_shuffle() == ("green",)


def test_the_undealt_rest_may_go_to_the_rack_during_the_round() -> None:
    decks = TwoDecks()
    decks.load("blue", ALL_CARDS)
    deck = decks.deal()
    decks.rack.discard("blue", deck.order[20:])  # 002: the rest, unseen, at the flop
    decks.collect()
    assert sorted(c for _, c in decks.rack.cards) == sorted(ALL_CARDS)


@pytest.mark.parametrize("colours", [("red", "red"), ("red", "")])
def test_two_different_colours_are_required(colours: tuple[str, str]) -> None:
    with pytest.raises(InvalidDealError, match="colours: two different back colours"):
        TwoDecks(colours)
