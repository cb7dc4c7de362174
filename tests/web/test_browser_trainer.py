"""Trainer mode in the browser (issue 11): EVs beside each decision, the best marked,
the cost of a deliberately wrong decision after the round, and nothing of it sent to a
player with the trainer off (checked on that page's WebSocket frames).

Seed 7, round 1 on the live table: player hand 6d Js, flop Qc 4s 2c, turn and river
6s 5h (a pair of sixes). Ann turns the trainer on, checks twice and folds the pair at
the river, where Play 1x is best; Bob plays beside her with the trainer off.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from web_harness import Player

from uth.analysis.advisor import advise
from uth.cards import parse_cards
from uth.rules import preset

LIVE = preset("live")
HOLE = parse_cards("6d Js")
SPOTS = {"pre_flop": (), "flop": parse_cards("Qc 4s 2c"), "river": parse_cards("Qc 4s 2c 6s 5h")}
NAMES = {"raise_4x": "play_4x", "raise_3x": "play_3x", "raise_2x": "play_2x", "raise_1x": "play_1x"}


def _fmt(x: Fraction, *, sign: bool = True, decimal: str = ".") -> str:
    """formatEv of trainer.js: three decimals, a sign except on zero, the minus sign U+2212."""
    text = f"{abs(float(x)):.3f}".replace(".", decimal)
    if sign and x != 0:
        text = ("+" if x > 0 else "\u2212") + text
    return text


def _expect_advice(p: Player, street: str) -> str:
    """The EV of each option beside its button, the best one marked; returns the best."""
    advice = advise(LIVE, HOLE, SPOTS[street])
    best = NAMES.get(advice.best, advice.best)
    for name, ev in advice.actions.items():
        action = NAMES.get(name, name)
        button = p.loc(f"#decision-buttons [data-action='{action}']")
        p.expect(button.locator(".trainer-ev")).to_have_text(
            _fmt(ev) + (" best" if action == best else "")
        )
    p.expect(p.loc("#decision-buttons .trainer-best")).to_have_count(1)
    p.expect(p.loc(f"#decision-buttons [data-action='{best}']")).to_have_class(
        "btn btn-decide decide-" + best + " trainer-best"
    )
    return best


def test_trainer_at_the_table(new_player: Any) -> None:
    bob_frames: list[str] = []
    bob: Player = new_player()
    bob.page.on(
        "websocket", lambda ws: ws.on("framereceived", lambda payload: bob_frames.append(payload))
    )
    bob.sign_in("Bob")
    bob.join("live-1")
    ann: Player = new_player()
    ann.sign_in("Ann")
    ann.join("live-1")
    ann.wait_betting()
    bob.wait_betting()

    toggle = ann.loc("#btn-trainer")
    ann.expect(toggle).to_be_visible()  # a play-money table
    ann.expect(toggle).to_have_attribute("aria-pressed", "false")
    ann.expect(ann.loc("#trainer-panel")).to_be_hidden()
    toggle.click()
    ann.expect(toggle).to_have_attribute("aria-pressed", "true")
    ann.expect(ann.loc("#trainer-panel")).to_contain_text(
        "Your decisions are scored after the showdown."
    )
    ann.bet("ante", 25)
    bob.bet("ante", 25)
    ann.close_betting()

    # Before the flop: J-6 offsuit checks (best), and Ann checks.
    ann.expect_decision("play_4x", "play_3x", "check")
    assert _expect_advice(ann, "pre_flop") == "check"
    bob.expect_decision("play_4x", "play_3x", "check")
    bob.expect(bob.loc("#decision-buttons .trainer-ev")).to_have_count(0)
    ann.decide("check")
    bob.decide("check")
    # On the flop.
    ann.expect_decision("play_2x", "check")
    ann.expect(ann.loc("#board .card[data-card]:not([data-card=''])")).to_have_count(3)
    flop_best = _expect_advice(ann, "flop")
    ann.decide("check")
    bob.decide("check")
    # At the river: a pair of sixes; Ann folds it, deliberately wrong.
    ann.expect_decision("play_1x", "fold")
    assert _expect_advice(ann, "river") == "play_1x"
    ann.decide("fold")
    bob.decide("play_1x")

    costs = {
        "pre_flop": advise(LIVE, HOLE).cost("check"),
        "flop": advise(LIVE, HOLE, SPOTS["flop"]).cost("check"),
        "river": advise(LIVE, HOLE, SPOTS["river"]).cost("fold"),
    }
    assert costs["pre_flop"] == 0 and costs["river"] > 1
    review = ann.loc("#trainer-review")
    ann.expect(review).to_be_visible()
    ann.expect(review.locator("tbody tr")).to_have_count(3)
    river = review.locator("tr[data-street='river']")
    ann.expect(river).to_have_class("trainer-costly")
    ann.expect(river.locator("td").nth(0)).to_have_text("FOLD")
    ann.expect(river.locator("td").nth(1)).to_have_text("PLAY 1x")
    ann.expect(river.locator(".trainer-cost")).to_have_text(_fmt(costs["river"], sign=False))
    ann.expect(review.locator("tr[data-street='pre_flop'] .trainer-cost")).to_have_text("0.000")
    flop_row = review.locator("tr[data-street='flop']")
    ann.expect(flop_row.locator(".trainer-cost")).to_have_text(_fmt(costs["flop"], sign=False))
    ann.expect(flop_row).to_have_class(
        "trainer-right" if flop_best == "check" else "trainer-costly"
    )
    total = sum(costs.values(), Fraction(0))
    ann.expect(ann.loc("#trainer-round-cost")).to_have_text(_fmt(total, sign=False))
    ann.expect(ann.loc("#trainer-session-cost")).to_have_text(_fmt(total, sign=False))
    ann.expect(ann.loc("#trainer-panel")).to_contain_text("Session total (rounds: 1)")

    # In Russian: the panel's words and the decimal comma.
    ann.loc(".lang-btn[data-lang='ru']").click()
    ann.expect(ann.loc("#trainer-panel h3")).to_have_text("Тренер")
    ann.expect(river.locator("td").nth(0)).to_have_text("ПАС")
    ann.expect(ann.loc("#trainer-session-cost")).to_have_text(_fmt(total, sign=False, decimal=","))
    ann.expect(ann.loc("#btn-trainer")).to_have_text("Тренер")

    # Bob, with the trainer off, was sent nothing of it.
    bob.expect(bob.loc("#trainer-panel")).to_be_hidden()
    messages = [json.loads(f) for f in bob_frames if isinstance(f, str)]
    assert any(m.get("type") == "settlement" for m in messages)
    leaked = [
        m
        for m in messages
        if str(m.get("type", "")).startswith("trainer")
        or "trainer" in m
        or "trainer" in (m.get("snapshot") or {})
    ]
    assert leaked == []
    assert ann.console_errors == [] and bob.console_errors == []
