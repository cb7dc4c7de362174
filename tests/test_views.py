"""Seat views, the public view and the one event filter (engine/views.py; STYLE.md point 5).

Exact views of scripted rounds, phase by phase, and a property: no view of a player
ever holds a card that player may not see at that phase.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uth.cards import ALL_CARDS, Card, parse_cards, stacked_deck
from uth.engine import Phase, Round
from uth.engine import events as ev
from uth.engine.views import (
    decisions_public,
    event_audience,
    name_hand,
    public_view,
    seat_view,
    seat_wagers,
    visible_events,
)
from uth.rules import PRESET_NAMES, preset

D = Decimal


def C(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


# amy (seat 1) As Ad, bob (seat 2) 8h 8d, dealer Qc Qd, board Ah Kc 9s 4h 3c.
TOP = stacked_deck(C("As Ad 8h 8d Qc Qd Ah Kc 9s 4h 3c"))
ZERO_BETS = {"ante": 0, "blind": 0, "play": 0, "trips": 0, "bad_beat": 0}


def casino_round() -> Round:
    rnd = Round(preset("casino"), game_id="g-1")
    rnd.place_wagers("amy", ante=10, trips=5, seat=1)
    rnd.place_wagers("bob", ante="12.50", seat=2)
    return rnd


def seat(rnd: Round, player: str, **kw: Any) -> dict[str, Any]:
    return seat_view(rnd, player, **kw).to_json()


def test_seat_view_of_a_casino_round_phase_by_phase() -> None:
    rnd = casino_round()
    common = {"game_id": "g-1", "rules": "casino", "void_reason": None, "player_hand": []}
    assert seat(rnd, "amy") == {
        **common,
        "phase": "betting",
        "player": "amy",
        "in_round": True,
        "seat": 1,
        "behind": None,
        "hole_cards": [],
        "board": [],
        "dealer": None,
        "bets": {"ante": 10, "blind": 10, "play": 0, "trips": 5, "bad_beat": 0},
        "total_bet": 25,
        "decisions": [],
        "legal_actions": [],
        "hand": None,
        "result": None,
    }
    rnd.close_betting(TOP)
    amy = seat(rnd, "amy", available=D(35))
    assert amy["hole_cards"] == ["As", "Ad"]
    assert amy["legal_actions"] == ["play_3x", "check"]  # 40 is not covered
    assert amy["hand"] == {"category": "pair", "cards": ["As", "Ad"]}
    assert amy["board"] == [] and amy["dealer"] is None
    assert seat(rnd, "bob")["hole_cards"] == ["8h", "8d"]
    rnd.act("amy", "play_4x")
    rnd.act("bob", "check", auto=True)
    bob = seat(rnd, "bob")
    assert (bob["phase"], bob["board"], bob["decisions"]) == (
        "flop",
        ["Ah", "Kc", "9s"],
        ["auto:check"],
    )
    assert bob["bets"] == {"ante": 12.5, "blind": 12.5, "play": 0, "trips": 0, "bad_beat": 0}
    assert bob["hand"] == {"category": "pair", "cards": ["8h", "8d", "Ah", "Kc", "9s"]}
    assert seat(rnd, "amy")["bets"]["play"] == 40
    rnd.act("bob", "play_2x")
    assert seat(rnd, "bob")["board"] == ["Ah", "Kc", "9s", "4h", "3c"]  # settled at once
    settled = seat(rnd, "bob")
    assert settled["phase"] == "settled"
    assert settled["dealer"] == {
        "cards": ["Qc", "Qd"],
        "category": "pair",
        "best_five": ["Qd", "Qc", "Ah", "Kc", "9s"],
        "qualifies": True,
    }
    assert settled["result"] == {
        "outcome": "lose",
        "category": "pair",
        "best_five": ["8h", "8d", "Ah", "Kc", "9s"],
        "wagers": {
            "ante": {"stake": 12.5, "result": "lose", "net": -12.5},
            "blind": {"stake": 12.5, "result": "lose", "net": -12.5},
            "play": {"stake": 25, "result": "lose", "net": -25},
            "trips": {"stake": 0, "result": "no_action", "net": 0},
            "bad_beat": {"stake": 0, "result": "no_action", "net": 0},
        },
        "net": -50,
    }
    assert settled["total_bet"] == 50


def test_seat_wagers_are_the_seat_views_bets_and_legal_actions() -> None:
    rnd = casino_round()
    seen = []
    for step in ("betting", "pre_flop", "flop", "river", "settled"):
        if step == "pre_flop":
            rnd.close_betting(TOP)
        elif step == "flop":
            rnd.act("amy", "play_4x")  # amy is done; bob decides on the flop
            rnd.act("bob", "check")
        elif step == "river":
            rnd.act("bob", "check")
        elif step == "settled":
            rnd.act("bob", "play_1x")
        assert str(rnd.phase) == step
        for player, available in (("amy", None), ("bob", D(20)), ("bob", D(5)), ("eve", None)):
            view = seat_view(rnd, player, available=available)
            bets, legal = seat_wagers(rnd, player, available=available)
            assert (bets, legal) == (dict(view.bets), view.legal_actions)
            assert list(bets) == ["ante", "blind", "play", "trips", "bad_beat"]
        seen.append((step, seat_wagers(rnd, "bob")))
    assert seen[1] == (
        "pre_flop",
        (
            {"ante": D("12.50"), "blind": D("12.50"), "play": 0, "trips": 0, "bad_beat": 0},
            ("play_4x", "play_3x", "check"),
        ),
    )
    assert seen[-1][1][0]["play"] == D("12.50") and seen[-1][1][1] == ()


def test_a_player_without_a_hand_sees_only_what_is_shared() -> None:
    rnd = casino_round()
    rnd.close_betting(TOP)
    rnd.act("amy", "check")
    rnd.act("bob", "check")
    view = seat(rnd, "stranger")
    assert (view["in_round"], view["hole_cards"], view["bets"]) == (False, [], ZERO_BETS)
    assert (view["board"], view["hand"], view["legal_actions"]) == (["Ah", "Kc", "9s"], None, [])


def test_public_view_hides_every_hole_card_and_others_decisions_at_a_house_table() -> None:
    rnd = casino_round()
    rnd.close_betting(TOP)
    rnd.act("amy", "play_4x")
    assert not decisions_public(rnd.rules)
    assert public_view(rnd).to_json() == {
        "game_id": "g-1",
        "rules": "casino",
        "phase": "pre_flop",
        "player_hand": [],
        "board": [],
        "dealer": None,
        "hands": [
            {
                "player": "amy",
                "seat": 1,
                "behind": None,
                "bets": {"ante": 10, "blind": 10, "trips": 5, "bad_beat": 0},
                "total": 25,
                "decisions": [],
                "folded": False,
            },
            {
                "player": "bob",
                "seat": 2,
                "behind": None,
                "bets": {"ante": 12.5, "blind": 12.5, "trips": 0, "bad_beat": 0},
                "total": 25,
                "decisions": [],
                "folded": False,
            },
        ],
        "void_reason": None,
    }


def test_the_dealers_cards_are_in_the_public_view_after_the_reveal_only() -> None:
    # The known bug: after a reload at the showdown the snapshot never carried them.
    rnd = casino_round()
    rnd.close_betting(TOP)
    for player, action in (("amy", "check"), ("bob", "check")) * 2 + (("amy", "fold"),):
        rnd.act(player, action)
        assert public_view(rnd).dealer is None
    rnd.act("bob", "play_1x")
    dealer = public_view(rnd).to_json()["dealer"]
    assert dealer == {
        "cards": ["Qc", "Qd"],
        "category": "pair",
        "best_five": ["Qd", "Qc", "Ah", "Kc", "9s"],
        "qualifies": True,
    }
    assert seat(rnd, "stranger")["dealer"] == dealer


def test_card_room_back_line_bet_sees_its_hands_cards_and_decisions_are_public() -> None:
    rnd = Round(preset("california"), game_id="c-1", bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("cat", ante=5, behind="amy")
    rnd.place_wagers("bob", ante=20, seat=2)
    rnd.close_betting(TOP)
    rnd.act("amy", "play_3x")
    cat = seat(rnd, "cat")
    assert (cat["seat"], cat["behind"], cat["hole_cards"]) == (None, "amy", ["As", "Ad"])
    assert (cat["decisions"], cat["legal_actions"], cat["bets"]["play"]) == (["play_3x"], [], 15)
    assert seat(rnd, "bob")["hole_cards"] == ["8h", "8d"]
    hands = public_view(rnd).to_json()["hands"]
    assert [(h["player"], h["decisions"], h["bets"]["play"], h["total"]) for h in hands] == [
        ("amy", ["play_3x"], 30, 50),
        ("cat", ["play_3x"], 15, 25),
        ("bob", [], 0, 40),
    ]
    rnd.act("bob", "check")
    rnd.act("bob", "check")
    rnd.act("bob", "fold")
    bob = public_view(rnd).hands[2]
    assert (bob.decisions, bob.folded) == (("check", "check", "fold"), True)


def test_shared_hand_table_shows_the_player_hand_to_everyone() -> None:
    rnd = Round(preset("live"), game_id="L-1")
    rnd.place_wagers("amy", ante=10)
    rnd.place_wagers("bob", ante=5)
    assert public_view(rnd).player_hand == ()
    rnd.close_betting(TOP)
    for viewer in ("amy", "bob", "stranger"):
        assert seat(rnd, viewer)["player_hand"] == ["As", "Ad"]
    assert seat(rnd, "bob")["hole_cards"] == ["As", "Ad"]
    assert public_view(rnd).to_json()["player_hand"] == ["As", "Ad"]


def test_a_voided_round_shows_no_cards() -> None:
    rnd = casino_round()
    rnd.close_betting(TOP)
    rnd.act("amy", "check")
    rnd.act("bob", "check")
    rnd.void("malfunction")
    amy = seat(rnd, "amy")
    assert (amy["phase"], amy["void_reason"], amy["hole_cards"], amy["board"], amy["hand"]) == (
        "voided",
        "malfunction",
        [],
        [],
        None,
    )
    assert amy["decisions"] == ["check"] and amy["result"] is None
    public = public_view(rnd).to_json()
    assert (public["board"], public["dealer"], public["void_reason"]) == ([], None, "malfunction")


def test_name_hand_before_and_after_the_flop() -> None:
    assert name_hand(C("8h Ks"), ()).to_json() == {"category": "high_card", "cards": ["Ks", "8h"]}
    assert name_hand(C("8h 8s"), ()).category == "pair"
    assert name_hand(C("As Ks"), C("Qs Js Ts")).to_json() == {
        "category": "royal_flush",
        "cards": ["As", "Ks", "Qs", "Js", "Ts"],
    }


# ---------------------------------------------------------------------------
# The event filter
# ---------------------------------------------------------------------------


def _cards_in(value: object, into: set[str]) -> set[str]:
    """Every card notation string anywhere in JSON-ready data."""
    if isinstance(value, dict):
        for v in value.values():
            _cards_in(v, into)
    elif isinstance(value, list):
        for v in value:
            _cards_in(v, into)
    elif (
        isinstance(value, str)
        and len(value) == 2
        and value[1] in "cdhs"
        and value[0] in "23456789TJQKA"
    ):
        into.add(value)
    return into


def _seen(events: tuple[ev.Event, ...]) -> set[str]:
    out: set[str] = set()
    for e in events:
        _cards_in(e.to_dict(), out)
    return out


def test_visible_events_own_hole_cards_only_dealer_and_board_when_turned() -> None:
    rnd = casino_round()
    rnd.close_betting(TOP)
    for viewer in ("amy", "bob", None):
        shown = visible_events(rnd.events, viewer)
        assert not any(isinstance(e, ev.DealerCardsDealt | ev.BoardPlaced) for e in shown)
        assert [e.player for e in shown if isinstance(e, ev.HoleCardsDealt)] == (
            [viewer] if viewer else []
        )
    assert _seen(visible_events(rnd.events, "amy")) == {"As", "Ad"}
    assert _seen(visible_events(rnd.events, None)) == set()


def test_visible_events_folded_and_shown_hands_stay_with_their_owner() -> None:
    rnd = Round(preset("casino"))
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.close_betting(TOP)
    for p in ("amy", "bob", "amy", "bob"):
        rnd.act(p, "check")
    rnd.act("bob", "fold")
    rnd.act("amy", "play_1x")
    board_and_dealer = {"Ah", "Kc", "9s", "4h", "3c", "Qc", "Qd"}
    assert _seen(visible_events(rnd.events, "amy")) == board_and_dealer | {"As", "Ad"}
    assert _seen(visible_events(rnd.events, "bob")) == board_and_dealer | {"8h", "8d"}
    assert _seen(visible_events(rnd.events, None)) == board_and_dealer
    # bob sees neither amy's decisions nor her settlement at a house table
    bob = visible_events(rnd.events, "bob", rules=rnd.rules)
    assert {e.player for e in bob if isinstance(e, ev.DecisionMade | ev.WagerSettled)} == {"bob"}


def test_visible_events_card_room_decisions_public_settlements_private() -> None:
    rnd = Round(preset("california"), bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("cat", ante=5, behind="amy")
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.close_betting(TOP)
    rnd.act("amy", "play_4x")
    rnd.act("bob", "check")
    rnd.act("bob", "check")
    rnd.act("bob", "fold")
    cat = visible_events(rnd.events, "cat", rules=rnd.rules)
    assert [(type(e).__name__, e.player) for e in cat if hasattr(e, "player")] == [
        ("WagersPlaced", "amy"),
        ("WagersPlaced", "cat"),
        ("WagersPlaced", "bob"),
        ("HoleCardsDealt", "amy"),
        ("DecisionMade", "amy"),
        ("DecisionMade", "bob"),
        ("DecisionMade", "bob"),
        ("DecisionMade", "bob"),
        ("HandFolded", "bob"),
        ("HandShown", "amy"),
        *[("WagerSettled", "cat")] * 5,
    ]
    assert _seen(cat) == {"As", "Ad", "Ah", "Kc", "9s", "4h", "3c", "Qc", "Qd"}


@pytest.mark.parametrize("order", ["in_turn", "at_once"])
def test_event_audience_names_the_owner_and_the_back_line_bets_on_it(order: str) -> None:
    """What a table sends to whom (event_audience) is visible_events' answer, event by
    event: cat (behind amy) is named with amy for amy's cards, showdown and (where
    private) decisions, never for amy's settlement; bob's fold reaches everyone only
    where decisions are public.
    """
    rules = preset("california").model_copy(update={"decision_order": order})
    rnd = Round(rules, bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("cat", ante=5, behind="amy")
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.close_betting(TOP)
    for p, action in (("amy", "play_4x"), ("bob", "check"), ("bob", "check"), ("bob", "fold")):
        rnd.act(p, action)
    viewers = ["amy", "bob", "cat", "dan", None]
    for event in rnd.events:
        who = event_audience(rnd, event)
        for viewer in viewers:
            sees = event in visible_events(rnd.events, viewer, rules=rules)
            assert sees == (who is None or viewer in who), (event, viewer)
    public = order == "in_turn"
    named = {
        type(e).__name__: event_audience(rnd, e)
        for e in rnd.events
        if getattr(e, "player", None) in ("amy", "bob")
    }
    assert named["HoleCardsDealt"] == ("bob",)  # bob's, the last dealt
    assert named["HandShown"] == ("amy", "cat")
    assert named["HandFolded"] == (None if public else ("bob",))
    assert named["WagerSettled"] == ("amy",)
    amy_cards = next(e for e in rnd.events if isinstance(e, ev.HoleCardsDealt))
    assert event_audience(rnd, amy_cards) == ("amy", "cat")
    amy_decision = next(e for e in rnd.events if isinstance(e, ev.DecisionMade))
    assert event_audience(rnd, amy_decision) == (None if public else ("amy", "cat"))
    board = next(e for e in rnd.events if isinstance(e, ev.BoardPlaced))
    assert event_audience(rnd, board) == ()


# ---------------------------------------------------------------------------
# The hidden-card property
# ---------------------------------------------------------------------------


def _may_see(rnd: Round, viewer: str | None) -> set[str]:
    """The cards a viewer may see now, from the events the dealer has announced."""
    hand = None
    if viewer is not None and rnd.has_hand(viewer):
        hand = rnd.behind_of(viewer) or viewer
    out: set[str] = set()
    for e in rnd.events:
        if isinstance(e, ev.HoleCardsDealt) and e.player == hand:
            out |= {str(c) for c in e.cards}
        elif isinstance(e, ev.HandShown) and e.player == hand:
            out |= {str(c) for c in (*e.cards, *e.best_five)}
        elif isinstance(e, ev.PlayerHandDealt | ev.FlopTurned | ev.TurnAndRiverTurned):
            out |= {str(c) for c in e.cards}
        elif isinstance(e, ev.DealerRevealed):
            out |= {str(c) for c in (*e.cards, *e.best_five)}
    return out


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(PRESET_NAMES),
    deck=st.permutations(ALL_CARDS),
    seed=st.integers(0, 2**32 - 1),
)
def test_no_view_ever_holds_a_card_its_viewer_may_not_see(
    name: str, deck: list[Card], seed: int
) -> None:
    rng = random.Random(seed)
    rules = preset(name)
    rnd = Round(rules, game_id="p", bank=1000 if rules.bank is not None else None)
    players = [f"p{i}" for i in range(rng.randint(1, 4))]
    for i, p in enumerate(players):
        rnd.place_wagers(p, ante=5, seat=i + 1)
    if rules.back_line_bets:
        rnd.place_wagers("b0", ante=5, behind=rng.choice(players))
    viewers: list[str | None] = [*rnd.players, "stranger", None]

    def check() -> None:
        for viewer in viewers:
            allowed = _may_see(rnd, viewer)
            views = [public_view(rnd).to_json()]
            if viewer is not None:
                views.append(seat_view(rnd, viewer).to_json())
            for view in views:
                assert _cards_in(view, set()) <= allowed, (viewer, rnd.phase)
            assert _seen(visible_events(rnd.events, viewer, rules=rules)) <= allowed
            if rnd.phase is not Phase.VOIDED:
                own = seat_view(rnd, viewer) if viewer is not None else None
                if own is not None and own.in_round and rnd.phase is not Phase.BETTING:
                    assert {str(c) for c in own.hole_cards} <= allowed
                    assert own.hole_cards  # its own cards are there once dealt

    check()
    rnd.close_betting(deck)
    check()
    while rnd.phase in (Phase.PRE_FLOP, Phase.FLOP, Phase.RIVER):
        if rng.random() < 0.05:
            rnd.void("malfunction")
            check()
            break
        player = rnd.to_act or rng.choice(rnd.awaiting())  # in turn at a card room
        rnd.act(player, rng.choice(rnd.legal_actions(player)))
        check()
