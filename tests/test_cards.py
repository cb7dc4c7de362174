"""Tests for uth.cards: card notation, indices, decks, shufflers and deck procedures."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from uth.cards import (
    ALL_CARDS,
    RANK_CHARS,
    SUIT_CHARS,
    Card,
    PreparedDeck,
    SecureShuffler,
    SeededShuffler,
    SingleDeck,
    Suit,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
    stacked_deck,
)
from uth.errors import InvalidCardError, InvalidDealError, UthError

# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("As", 14, Suit.SPADES),
        ("Td", 10, Suit.DIAMONDS),
        ("10d", 10, Suit.DIAMONDS),
        ("2c", 2, Suit.CLUBS),
        ("9h", 9, Suit.HEARTS),
        ("Jc", 11, Suit.CLUBS),
        ("Qh", 12, Suit.HEARTS),
        ("Kd", 13, Suit.DIAMONDS),
        # case
        ("as", 14, Suit.SPADES),
        ("AS", 14, Suit.SPADES),
        ("aS", 14, Suit.SPADES),
        ("td", 10, Suit.DIAMONDS),
        ("TD", 10, Suit.DIAMONDS),
        ("10D", 10, Suit.DIAMONDS),
        ("kH", 13, Suit.HEARTS),
        # suit symbols, filled and outlined
        ("A♠", 14, Suit.SPADES),
        ("Q♥", 12, Suit.HEARTS),
        ("7♦", 7, Suit.DIAMONDS),
        ("3♣", 3, Suit.CLUBS),
        ("10♥", 10, Suit.HEARTS),
        ("j♠", 11, Suit.SPADES),
        ("A♤", 14, Suit.SPADES),
        ("A♡", 14, Suit.HEARTS),
        ("A♢", 14, Suit.DIAMONDS),
        ("A♧", 14, Suit.CLUBS),
        # blanks around
        ("  As  ", 14, Suit.SPADES),
        ("\tKd\n", 13, Suit.DIAMONDS),
        (" 10d ", 10, Suit.DIAMONDS),
    ],
)
def test_parse_card(text: str, rank: int, suit: Suit) -> None:
    card = parse_card(text)
    assert card == Card(rank, suit)
    assert card.rank == rank
    assert card.suit is suit


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "A",
        "s",
        "1s",
        "0s",
        "11s",
        "1d",
        "Ax",
        "Zs",
        "AsK",
        "As Kd",
        "10",
        "A s",
        "♠A",
        "Tt",
        "1♠0",
    ],
)
def test_parse_card_rejects(text: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(text, field="board[2]")
    err = info.value
    assert err.field == "board[2]"
    assert str(err) == f"board[2]: {text!r} is not a card (expected e.g. 'As', 'Td', '10d')"
    assert err.code == "invalid_card"
    assert isinstance(err, ValueError)
    assert isinstance(err, UthError)


@pytest.mark.parametrize("value", [None, 14, ["As"], b"As"])
def test_parse_card_rejects_non_strings(value: object) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(value, field="hole[0]")  # type: ignore[arg-type]
    assert info.value.field == "hole[0]"
    assert str(info.value) == f"hole[0]: expected a card such as 'As', got {value!r}"


def test_parse_card_default_field_name() -> None:
    with pytest.raises(InvalidCardError, match=r"^card: 'Xx' is not a card") as info:
        parse_card("Xx")
    assert info.value.field == "card"


def test_every_card_round_trips_through_text_and_symbol() -> None:
    for card in ALL_CARDS:
        assert parse_card(str(card)) is card
        assert parse_card(str(card).lower()) is card
        assert parse_card(str(card).upper()) is card
        assert parse_card(card.rank_char + card.suit.symbol) is card
    assert parse_card("10s") is parse_card("Ts")


def test_card_format_and_repr() -> None:
    card = Card(10, Suit.DIAMONDS)
    assert str(card) == "Td"
    assert repr(card) == "Card(Td)"
    assert card.rank_char == "T"
    assert card.rank_name == "ten"
    assert Card(14, Suit.SPADES).rank_name == "ace"
    assert Card(2, Suit.CLUBS).rank_name == "two"
    assert Card(11, Suit.HEARTS).rank_name == "jack"
    assert Suit.CLUBS.char == "c"
    assert Suit.SPADES.char == "s"
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [s.char for s in Suit] == ["c", "d", "h", "s"]
    assert RANK_CHARS == "23456789TJQKA"
    assert SUIT_CHARS == "cdhs"


def test_format_cards() -> None:
    assert format_cards([Card(14, Suit.SPADES), Card(13, Suit.DIAMONDS), Card(7, Suit.CLUBS)]) == (
        "As Kd 7c"
    )
    assert format_cards([]) == ""


@pytest.mark.parametrize("rank", [0, 1, 15, -2, 100])
def test_card_rank_out_of_range(rank: int) -> None:
    with pytest.raises(InvalidCardError, match=rf"^card rank must be 2\.\.14, got {rank}$") as info:
        Card(rank, Suit.CLUBS)
    assert info.value.field == "rank"


def test_card_is_frozen_and_hashable() -> None:
    card = Card(14, Suit.SPADES)
    with pytest.raises(AttributeError):
        card.rank = 13  # type: ignore[misc]
    assert {card, Card(14, Suit.SPADES)} == {card}
    assert Card(14, Suit.SPADES) == parse_card("As")
    assert Card(14, Suit.SPADES) != Card(14, Suit.HEARTS)


def test_card_order_rank_then_suit() -> None:
    assert Card(2, Suit.SPADES) < Card(3, Suit.CLUBS)
    assert (
        Card(9, Suit.CLUBS) < Card(9, Suit.DIAMONDS) < Card(9, Suit.HEARTS) < Card(9, Suit.SPADES)
    )
    assert sorted(parse_cards("As 2c Kd 2s")) == list(parse_cards("2c 2s Kd As"))


# --------------------------------------------------------------------------- parse_cards


@pytest.mark.parametrize(
    "text",
    [
        "As Kd Td",
        "As,Kd,Td",
        "As, Kd, Td",
        "  As   Kd\tTd ",
        "AsKdTd",
        "AsKd10d",
        "as kd 10D",
        "A♠ K♦ 10♦",
        "A♠K♦T♦",
    ],
)
def test_parse_cards_string_forms(text: str) -> None:
    expected = (Card(14, Suit.SPADES), Card(13, Suit.DIAMONDS), Card(10, Suit.DIAMONDS))
    assert parse_cards(text) == expected
    assert parse_cards(text, count=3) == expected


def test_parse_cards_iterable_and_order() -> None:
    cards = parse_cards(["7c", " 10h", "2s"])
    assert cards == (Card(7, Suit.CLUBS), Card(10, Suit.HEARTS), Card(2, Suit.SPADES))
    assert isinstance(cards, tuple)
    assert parse_cards(iter(["Ah"])) == (Card(14, Suit.HEARTS),)
    assert parse_cards("") == ()
    assert parse_cards([]) == ()
    assert parse_cards("10d") == (Card(10, Suit.DIAMONDS),)
    assert parse_cards("As") == (Card(14, Suit.SPADES),)


def test_parse_cards_names_the_bad_item() -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards("As Kd Xx", field="board")
    assert info.value.field == "board[2]"
    assert str(info.value) == "board[2]: 'Xx' is not a card (expected e.g. 'As', 'Td', '10d')"

    with pytest.raises(InvalidCardError) as info:
        parse_cards(["As", "1h"], field="hole")
    assert info.value.field == "hole[1]"
    assert str(info.value).startswith("hole[1]: '1h' is not a card")

    with pytest.raises(InvalidCardError) as info:
        parse_cards(["As", None])  # type: ignore[list-item]
    assert info.value.field == "cards[1]"


def test_parse_cards_run_that_cannot_be_split() -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards("AsKdQ", field="board")
    assert info.value.field == "board"
    assert str(info.value) == "board: cannot split 'AsKdQ' into cards"


@pytest.mark.parametrize(
    ("text", "duplicate"),
    [("As Kd As", "As"), ("As as", "As"), ("Td 10d", "Td"), ("A♠ As", "As"), ("AsAs", "As")],
)
def test_parse_cards_duplicate(text: str, duplicate: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text, field="board")
    assert info.value.field == "board"
    assert str(info.value) == f"board: duplicate card {duplicate}"


@pytest.mark.parametrize(
    ("text", "count", "got"),
    [("As Kd", 3, 2), ("As Kd Qh Jc", 3, 4), ("", 2, 0), ("As", 2, 1), ("As Kd Qh Jc Tc 9c", 5, 6)],
)
def test_parse_cards_wrong_count(text: str, count: int, got: int) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text, field="hole", count=count)
    assert info.value.field == "hole"
    assert str(info.value) == f"hole: expected {count} cards, got {got}"


def test_parse_cards_default_field_name() -> None:
    with pytest.raises(InvalidCardError, match=r"^cards: duplicate card 2c$"):
        parse_cards("2c 2c")
    with pytest.raises(InvalidCardError, match=r"^cards: expected 2 cards, got 1$"):
        parse_cards("2c", count=2)


# --------------------------------------------------------------------------- indices


def test_index_round_trip_all_52() -> None:
    assert len(ALL_CARDS) == 52
    assert len(set(ALL_CARDS)) == 52
    seen = set()
    for i in range(52):
        card = Card.from_index(i)
        assert card.index == i
        assert card is ALL_CARDS[i]
        assert card.index == (card.rank - 2) * 4 + card.suit.value
        seen.add((card.rank, card.suit))
    assert len(seen) == 52
    for card in ALL_CARDS:
        assert Card.from_index(card.index) is card


@pytest.mark.parametrize(
    ("text", "index"),
    [("2c", 0), ("2d", 1), ("2h", 2), ("2s", 3), ("3c", 4), ("Td", 33), ("Ac", 48), ("As", 51)],
)
def test_known_indices(text: str, index: int) -> None:
    assert parse_card(text).index == index
    assert str(Card.from_index(index)) == text


@pytest.mark.parametrize("index", [-1, 52, 100])
def test_from_index_out_of_range(index: int) -> None:
    with pytest.raises(
        InvalidCardError, match=rf"^card index must be 0\.\.51, got {index}$"
    ) as info:
        Card.from_index(index)
    assert info.value.field == "index"


def test_full_deck_is_index_order() -> None:
    deck = full_deck()
    assert deck == ALL_CARDS
    assert [c.index for c in deck] == list(range(52))
    assert format_cards(deck[:5]) == "2c 2d 2h 2s 3c"
    assert str(deck[-1]) == "As"
    assert Counter(c.rank for c in deck) == {r: 4 for r in range(2, 15)}
    assert Counter(c.suit for c in deck) == {s: 13 for s in Suit}


# --------------------------------------------------------------------------- stacked_deck


def test_stacked_deck() -> None:
    top = parse_cards("As Kd 2c 7h")
    deck = stacked_deck(top)
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert deck[:4] == top
    rest = deck[4:]
    assert [c.index for c in rest] == sorted(c.index for c in rest)
    assert set(rest) == set(ALL_CARDS) - set(top)
    assert format_cards(rest[:5]) == "2d 2h 2s 3c 3d"
    assert str(rest[-1]) == "Ah"  # As is on top, so Ah is the last card


def test_stacked_deck_empty_and_full_top() -> None:
    assert stacked_deck([]) == ALL_CARDS
    reversed_deck = tuple(reversed(ALL_CARDS))
    assert stacked_deck(reversed_deck) == reversed_deck
    assert stacked_deck(iter(parse_cards("2c"))) == ALL_CARDS


def test_stacked_deck_duplicate() -> None:
    with pytest.raises(InvalidCardError) as info:
        stacked_deck(parse_cards(["As", "Kd"]) + parse_cards(["As"]))
    assert info.value.field == "top"
    assert str(info.value) == "top: duplicate card As"


# --------------------------------------------------------------------------- shufflers


def _is_permutation(order: tuple[Card, ...]) -> bool:
    return len(order) == 52 and sorted(c.index for c in order) == list(range(52))


def test_seeded_shuffler_is_reproducible() -> None:
    a = SeededShuffler(12345)
    b = SeededShuffler(12345)
    first_a, second_a = a.shuffle(ALL_CARDS), a.shuffle(ALL_CARDS)
    first_b, second_b = b.shuffle(ALL_CARDS), b.shuffle(ALL_CARDS)
    assert first_a == first_b
    assert second_a == second_b
    assert first_a != second_a  # the sequence moves on
    assert _is_permutation(first_a)
    assert _is_permutation(second_a)
    assert first_a != ALL_CARDS
    assert a.seed == 12345


def test_seeded_shuffler_is_a_seeded_mersenne_twister() -> None:
    # The documented contract: random.Random(seed).shuffle, so that a seed in a bug
    # report reproduces the deck anywhere.
    rng = random.Random(7)
    expected1 = list(ALL_CARDS)
    rng.shuffle(expected1)
    expected2 = list(ALL_CARDS)
    rng.shuffle(expected2)
    shuffler = SeededShuffler(7)
    assert shuffler.shuffle(ALL_CARDS) == tuple(expected1)
    assert shuffler.shuffle(ALL_CARDS) == tuple(expected2)


def test_seeded_shuffler_different_seeds_differ() -> None:
    orders = {SeededShuffler(seed).shuffle(ALL_CARDS) for seed in range(20)}
    assert len(orders) == 20
    assert all(_is_permutation(order) for order in orders)


def test_shuffle_does_not_change_input() -> None:
    cards = list(ALL_CARDS)
    for shuffler in (SeededShuffler(1), SecureShuffler()):
        out = shuffler.shuffle(cards)
        assert cards == list(ALL_CARDS)
        assert isinstance(out, tuple)
        assert _is_permutation(out)


def test_seeded_shuffler_on_a_part_deck() -> None:
    part = parse_cards("As Kd Qh Jc Tc")
    out = SeededShuffler(3).shuffle(part)
    assert sorted(out) == sorted(part)
    assert len(out) == 5


def test_secure_shuffler_returns_permutations() -> None:
    shuffler = SecureShuffler()
    orders = [shuffler.shuffle(ALL_CARDS) for _ in range(5)]
    assert all(_is_permutation(order) for order in orders)
    # 52! orders: five secure shuffles that are not all distinct is (practically) impossible.
    assert len(set(orders)) == 5
    assert ALL_CARDS not in orders


# --------------------------------------------------------------------------- PreparedDeck


def test_prepared_deck_accepts_52() -> None:
    deck = PreparedDeck(ALL_CARDS)
    assert deck.order == ALL_CARDS
    assert deck.colour is None
    assert deck.shuffle_number == 0
    with pytest.raises(AttributeError):
        deck.colour = "red"  # type: ignore[misc]


@pytest.mark.parametrize("n", [0, 51, 53])
def test_prepared_deck_rejects_wrong_size(n: int) -> None:
    order = (*ALL_CARDS, ALL_CARDS[0])[:n]
    with pytest.raises(InvalidDealError) as info:
        PreparedDeck(order)
    assert info.value.field == "deck"
    assert str(info.value) == f"deck: expected 52 cards, got {n}"


def test_prepared_deck_rejects_duplicates() -> None:
    order = (*ALL_CARDS[:51], ALL_CARDS[10])  # 52 cards, 4h twice, As missing
    assert len(order) == 52
    with pytest.raises(InvalidCardError) as info:
        PreparedDeck(order)
    assert info.value.field == "deck"
    assert str(info.value) == "deck: duplicate card 4h"


# --------------------------------------------------------------------------- procedures


def test_single_deck() -> None:
    proc = SingleDeck(SeededShuffler(99))
    reference = SeededShuffler(99)
    decks = [proc.next_deck() for _ in range(4)]
    assert [d.shuffle_number for d in decks] == [0, 1, 2, 3]
    assert [d.colour for d in decks] == [None, None, None, None]
    for deck in decks:
        assert _is_permutation(deck.order)
        assert deck.order == reference.shuffle(ALL_CARDS)
    assert len({d.order for d in decks}) == 4
