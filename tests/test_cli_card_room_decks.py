"""``uth play --rules california`` deals from the engine's two alternating decks and
their discard rack (uth.engine.decks.TwoDecks; seeds 000 and 002, "only one deck's
cards in the discard rack at a time"), as the table machine does: each colour is
loaded from the shuffler when it needs a deck, and the deck dealt goes into the
rack after its round.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from decimal import Decimal

import pytest
from rich.console import Console

from uth.cards import ALL_CARDS, Card, SeededShuffler
from uth.cli.card_room import CardRoom
from uth.cli.play import TableDecks
from uth.engine.decks import DiscardRack
from uth.rules import preset


def test_a_card_room_session_alternates_the_decks_through_the_discard_rack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # california, seed 3, bank 100, two computers. Rounds 1 and 2: you bank 100 (no
    # hand of yours). Round 3: you have banked two in a row, the offer starts at seat
    # 2: Ada banks; you bet Ante 10, no Trips, and play 4x pre-flop. Round 4: Ada
    # keeps the position; you leave at the Ante.
    script = iter(["100", "100", "10", "0", "4", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(script))
    discarded: list[tuple[str, int]] = []
    discard = DiscardRack.discard

    def spy(rack: DiscardRack, colour: str, cards: Iterable[Card]) -> None:
        new = tuple(cards)
        discarded.append((colour, len(new)))
        discard(rack, colour, new)

    monkeypatch.setattr(DiscardRack, "discard", spy)
    out = io.StringIO()
    rules = preset("california")
    decks = TableDecks(rules, SeededShuffler(3))
    room = CardRoom(
        Console(file=out, width=200, highlight=False, soft_wrap=True),
        rules,
        decks,
        Decimal(1000),
        computers=2,
        computer_bank=Decimal(100),
    )
    room.run()
    text = out.getvalue()
    assert next(script, None) is None  # every line of the script was read
    assert room.rounds == 3  # round 4 ended at the Ante: not played
    dealt = [line for line in text.splitlines() if line.startswith("Dealing from")]
    assert dealt == [
        "Dealing from the blue deck.",
        "Dealing from the red deck.",
        "Dealing from the blue deck.",
    ]
    assert text.count("You are the player-dealer with a bank of 100.00") == 2
    assert text.count("Ada is the player-dealer with a bank of 100.00.") == 2
    # Each deck dealt went whole into the rack after its round, one colour at a time.
    assert discarded == [("blue", 52), ("red", 52), ("blue", 52)]
    two = decks.two
    assert two is not None
    assert (two.rounds_dealt, two.in_play, two.rack.colours) == (3, None, frozenset({"blue"}))
    assert sorted(card for _, card in two.rack.cards) == sorted(ALL_CARDS)
    # The red deck left the rack for the shuffler when blue was dealt: the next
    # round loads it.
    assert two.needs_shuffle() == ("red",)
    assert two.next_colour == "red"


def test_one_deck_rule_sets_have_no_rack() -> None:
    decks = TableDecks(preset("casino"), SeededShuffler(3))
    assert decks.two is None
    first = decks.deal()
    decks.collect()  # nothing to collect: one deck shuffled for every round
    assert (first.colour, first.shuffle_number, decks.deal().shuffle_number) == (None, 0, 1)
