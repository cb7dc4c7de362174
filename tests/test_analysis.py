"""The exact analysis (uth.analysis): the fast method against a brute-force
reference on reduced decks, the shipped preset results against the published
figures and against flops recomputed here, and the side bets from 7-card
category counts.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from uth.analysis import analysis_deck, analyze, cached_result, fingerprint, reduced_deck
from uth.analysis.cache import shipped_result
from uth.analysis.exact import run_flops
from uth.analysis.params import game_params
from uth.analysis.reference import reference
from uth.analysis.result import AnalysisResult
from uth.evaluator import Category
from uth.rules import preset, rules_from_data

FIGURES = ("ev", "second_moment", "average_total_bet", "fold", "win", "tie", "loss")
WAGERS = ("ante", "blind", "play")


def _flush_one_to_one() -> object:
    """The casino rules with the Blind paying 1:1 on a flush instead of 3:2."""
    return rules_from_data(
        {
            "extends": "casino",
            "name": "flush-even",
            "blind_pays": {
                "royal_flush": "500:1",
                "straight_flush": "50:1",
                "four_of_a_kind": "10:1",
                "full_house": "3:1",
                "flush": "1:1",
                "straight": "1:1",
            },
        }
    )


def _assert_matches_reference(result: AnalysisResult, ref: dict[str, object]) -> None:
    for key in (*FIGURES, *WAGERS):
        assert float(getattr(result, key)) == pytest.approx(ref[key], abs=1e-12), key
    for street, counts in result.frequencies.items():
        ref_counts = ref["frequencies"][street]  # type: ignore[index]
        for multiple, freq in counts.items():
            assert float(freq) == pytest.approx(ref_counts[multiple], abs=1e-12), (street, multiple)
    for side in ("trips", "bad_beat"):
        ours, theirs = getattr(result, side), ref[side]
        assert (ours is None) == (theirs is None)
        if ours is not None:
            assert float(ours[0]) == pytest.approx(theirs[0], abs=1e-12)  # type: ignore[index]
            assert float(ours[1]) == pytest.approx(theirs[1], abs=1e-12)  # type: ignore[index]
    assert result.deals == ref["deals"]


@pytest.mark.parametrize(
    ("ranks", "suits", "rules_name"),
    [
        ("QKA", "cdhs", "casino"),  # quads, full houses, trips
        ("QKA", "cdhs", "california-bad-beat"),  # Bad Beat, Trips on the board after a fold
        ("TJQKA", "cd", "casino"),  # straights and royal flushes
    ],
)
def test_fast_method_matches_brute_force(ranks: str, suits: str, rules_name: str) -> None:
    deck = reduced_deck(ranks, suits)
    rules = preset(rules_name)
    result = analyze(rules, deck=deck, threads=1)
    _assert_matches_reference(result, reference(rules, deck))


def test_custom_blind_table_changes_house_edge_as_brute_force_says() -> None:
    # An independent calculation of the custom table: the brute-force reference
    # on a deck with flushes and straight flushes (seven ranks in two suits).
    deck = reduced_deck("89TJQKA", "cd")
    custom = _flush_one_to_one()
    ours = analyze(custom, deck=deck, threads=1)  # type: ignore[arg-type]
    _assert_matches_reference(ours, reference(custom, deck))  # type: ignore[arg-type]
    casino = analyze(preset("casino"), deck=deck, threads=1)
    assert ours.house_edge > casino.house_edge
    assert fingerprint(custom) != fingerprint(preset("casino"))  # type: ignore[arg-type]


def test_results_do_not_depend_on_threads_or_batches() -> None:
    deck = reduced_deck("TJQKA", "cdh")
    params = game_params(preset("casino"))
    flops = list(range(len(deck.flops)))
    one = run_flops(params, deck, flops, batch=1)
    many = run_flops(params, deck, flops[::-1], batch=7)
    assert (one.play == many.play).all()
    assert (one.check == many.check).all()
    assert (one.categories == many.categories).all()


def test_fingerprint_only_changes_with_the_math() -> None:
    casino = preset("casino")
    assert fingerprint(casino) == fingerprint(preset("california")) == fingerprint(preset("live"))
    assert fingerprint(preset("california-bad-beat")) != fingerprint(casino)
    wider = rules_from_data({"extends": "casino", "ante": {"min": 10, "max": 5000}})
    assert fingerprint(wider) == fingerprint(casino)
    fewer = rules_from_data({"extends": "casino", "play_multiples": {"pre_flop": [4]}})
    assert fingerprint(fewer) != fingerprint(casino)


# --- the shipped results (full deck, made by `uth analyze --store`) ---------------

# Published 7-card hand counts out of C(52, 7) = 133,784,560 (e.g. Wizard of
# Odds, "Texas Hold'em probabilities"; a royal flush counted apart from the other
# straight flushes).
SEVEN_CARD_COUNTS = {
    Category.ROYAL_FLUSH: 4_324,
    Category.STRAIGHT_FLUSH: 37_260,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


def _shipped(name: str) -> AnalysisResult:
    result = shipped_result(preset(name))
    assert result is not None, f"no shipped result for {name}"
    return result


def test_shipped_casino_result_reproduces_the_published_figures() -> None:
    result = _shipped("casino")
    # Wizard of Odds, "Ultimate Texas Hold 'Em": house edge 2.185% of the Ante;
    # seed 004: 97.82% on the initial bet, 99.47% on the total bet, Trips 96.50%.
    assert round(float(result.house_edge) * 100, 3) == 2.185
    assert round(float(result.rtp_initial_bet) * 100, 2) == 97.82
    assert round(float(result.rtp_total_bet) * 100, 2) == 99.47
    assert result.trips is not None
    assert round(float(result.trips[0]) * 100, 2) == 96.50
    assert result.deals == comb(52, 2) * comb(50, 3) * comb(47, 2) * comb(45, 2)
    assert result.ante + result.blind + result.play == result.ev
    assert result.win + result.tie + result.loss == 1


def test_shipped_categories_and_trips_follow_from_published_counts() -> None:
    result = _shipped("casino")
    total = comb(52, 7)
    # Every 7-card hand appears in C(7, 2) * C(5, 3) deals per dealer hole.
    per_hand = comb(7, 2) * comb(5, 3) * comb(45, 2)
    assert {Category(c): n // per_hand for c, n in enumerate(result.categories)} == (
        SEVEN_CARD_COUNTS
    )
    assert all(n % per_hand == 0 for n in result.categories)
    rules = preset("casino")
    rtp = (
        sum(
            (
                count * (1 + rules.trips_pays[c].ratio) if c in rules.trips_pays else Fraction(0)
                for c, count in SEVEN_CARD_COUNTS.items()
            ),
            start=Fraction(0),
        )
        / total
    )
    hits = Fraction(sum(n for c, n in SEVEN_CARD_COUNTS.items() if c in rules.trips_pays), total)
    assert result.trips == (rtp, hits)


def test_shipped_bad_beat_trips_follow_from_counts_and_folds() -> None:
    bad_beat = _shipped("california-bad-beat")
    casino = _shipped("casino")
    # Same main game: the side bets do not change the strategy.
    assert (bad_beat.ev, bad_beat.fold) == (casino.ev, casino.fold)
    assert bad_beat.bad_beat is not None and bad_beat.trips is not None and casino.trips is not None
    # board_only only changes the Trips of folded hands, and an optimal player
    # never folds three of a kind or better made with a hole card: the Trips
    # return is exactly that of player_hand (the reduced-deck tests show that the
    # board_only path does change it where such folds happen).
    assert bad_beat.trips == casino.trips
    # Bad Beat: a fold loses it, so it pays less than the 14.8% house edge of
    # Stephen How's two-way table with folds ignored.
    assert Fraction(1, 2) < bad_beat.bad_beat[0] < Fraction(852, 1000)
    assert 0 < bad_beat.bad_beat[1] < 1 - bad_beat.fold


def _recompute_sample(name: str, picks: list[int]) -> None:
    rules = preset(name)
    shipped = _shipped(name)
    deck = analysis_deck()
    batch = run_flops(game_params(rules), deck, picks, batch=len(picks))
    for row, flop in enumerate(picks):
        assert tuple(int(x) for x in batch.flop_sums[row]) == shipped.flop_sums[flop], flop


def test_shipped_casino_flops_recomputed() -> None:
    # A sample of canonical flops (first, middle and last in deck order)
    # recomputed exactly; the shipped file records every flop's checksums.
    _recompute_sample("casino", [0, 3, 877, 1754])


def test_shipped_bad_beat_flops_recomputed() -> None:
    _recompute_sample("california-bad-beat", [1, 1000])


def test_shipped_pre_flop_table_gives_the_house_edge() -> None:
    result = _shipped("casino")
    assert len(result.pre_flop) == 169
    assert sum(h.combos for h in result.pre_flop.values()) == 1326
    ev = (
        sum(
            (h.combos * max(h.check, *h.raise_ev.values()) for h in result.pre_flop.values()),
            start=Fraction(0),
        )
        / 1326
    )
    assert ev == result.ev
    # Known strategy points (Wizard of Odds): raise 4x with any ace and K5s,
    # check 32o and K4o... and never 3x.
    assert result.pre_flop["A2o"].best == "raise_4x"
    assert result.pre_flop["K5s"].best == "raise_4x"
    assert result.pre_flop["33"].best == "raise_4x"
    assert result.pre_flop["22"].best == "check"
    assert result.pre_flop["32o"].best == "check"
    assert result.frequencies["pre_flop"][3] == 0


def test_cached_result_prefers_the_shipped_file(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UTH_CACHE_DIR", str(tmp_path))
    assert cached_result(preset("live")) == _shipped("casino")


@pytest.mark.xdist_group("ray")
def test_ray_cluster_gives_the_local_result(ray_local: object) -> None:
    deck = reduced_deck("QKA", "cdhs")
    rules = preset("california-bad-beat")
    local = analyze(rules, deck=deck, threads=1)
    clustered = analyze(rules, deck=deck, ray_address="auto")
    assert _timeless(clustered) == _timeless(local)


def _timeless(result: AnalysisResult) -> dict[str, object]:
    data = result.to_json()
    del data["elapsed_s"], data["summary"]["elapsed_s"]
    return data
