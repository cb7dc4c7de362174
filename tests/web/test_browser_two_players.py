"""Two players in two browser contexts at the casino table (own hole cards, 001).

Each sees the other's bets (the "Other players' bets" panel, refreshed by the server
at most once a second), and neither ever receives the other's cards: not on the page,
not in any WebSocket frame, before the showdown or after it.
"""

from __future__ import annotations

import json
from typing import Any

from web_harness import Player


def _record_frames(p: Player) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    p.page.on("websocket", on_ws)
    return frames


def _own_cards(p: Player) -> list[str]:
    cards = p.loc("#player-cards .card[data-card]")
    p.expect(cards).to_have_count(2)
    codes = [c.get_attribute("data-card") or "" for c in cards.all()]
    assert all(len(c) == 2 for c in codes), codes
    return codes


def _cards_on_page(p: Player) -> set[str]:
    codes: list[str] = p.page.eval_on_selector_all(
        "svg.card[data-card]", "els => els.map(e => e.dataset.card).filter(Boolean)"
    )
    return set(codes)


def _cards_in_frames(frames: list[dict[str, Any]], codes: list[str]) -> list[dict[str, Any]]:
    return [f for f in frames if any(f'"{c}"' in json.dumps(f) for c in codes)]


def test_two_players_see_bets_but_not_cards(new_player: Any) -> None:
    ann: Player = new_player(1280, 860)
    bob: Player = new_player(390, 844)
    ann_frames = _record_frames(ann)
    bob_frames = _record_frames(bob)
    ann.sign_in("Ann")
    bob.sign_in("Bob")
    ann.join("casino-1")
    bob.join("casino-1")
    ann.wait_betting()
    bob.wait_betting()

    ann.bet("ante", 25)
    ann.bet("trips", 5)
    bob.bet("ante", 5, times=2)
    ann.server.advance(1)  # the server sends the table's bets once a second
    row = bob.loc("#others .other[data-name='Ann']")
    bob.expect(row.locator("[data-spot='ante'] b")).to_have_text("25")
    bob.expect(row.locator("[data-spot='trips'] b")).to_have_text("5")
    bob.expect(row.locator(".seat-no")).to_have_text("seat 1")
    bob.expect(bob.loc("#others .others-total")).to_have_text("Players betting: 1 · total 55")
    other = ann.loc("#others .other[data-name='Bob']")
    ann.expect(other.locator("[data-spot='ante'] b")).to_have_text("10")
    ann.expect(other.locator("[data-spot='trips']")).to_have_count(0)
    # Bets change: Bob doubles; Ann sees it at the next refresh.
    bob.loc("#btn-double").click()
    bob.expect_bets(ante="20")
    ann.server.advance(1)
    ann.expect(other.locator("[data-spot='ante'] b")).to_have_text("20")

    # The deal: each sees their own two cards and the dealer's two backs.
    ann.close_betting("casino-1")
    ann.expect_decision("play_4x", "play_3x", "check")
    bob.expect_decision("play_4x", "play_3x", "check")
    ann.expect(ann.loc("#player-label")).to_have_text("Your hand")
    ann_cards = _own_cards(ann)
    bob_cards = _own_cards(bob)
    assert not set(ann_cards) & set(bob_cards)
    for p in (ann, bob):
        p.expect(p.loc("#dealer-cards .card-back")).to_have_count(2)
    # Bets stay listed during the round.
    bob.expect(row.locator("[data-spot='ante'] b")).to_have_text("25")

    # Each decides alone; Bob's panel stays open while Ann plays.
    ann.decide("play_4x")
    bob.expect_decision("play_4x", "play_3x", "check")
    bob.decide("check")
    bob.decide("check")
    assert not set(ann_cards) & _cards_on_page(bob)
    assert not set(bob_cards) & _cards_on_page(ann)
    bob.decide("play_1x")

    # The showdown: both see the dealer's hand; still never the other's hole cards.
    for p in (ann, bob):
        p.expect(p.loc("#announcement")).to_be_visible()
        p.expect(p.loc("#result")).to_be_visible()
        p.expect(p.loc("#dealer-cards .card-back")).to_have_count(0)
    assert not set(ann_cards) & _cards_on_page(bob)
    assert not set(bob_cards) & _cards_on_page(ann)
    assert _cards_in_frames(bob_frames, ann_cards) == []
    assert _cards_in_frames(ann_frames, bob_cards) == []
    # Sanity of the frame check: each did receive their own cards.
    assert _cards_in_frames(ann_frames, ann_cards)
    assert _cards_in_frames(bob_frames, bob_cards)
    assert ann.console_errors == [] and bob.console_errors == []
