"""The simulation: strategies against independent references, streams, sessions, CLI."""

from __future__ import annotations

import json
from decimal import Decimal
from importlib import resources
from itertools import combinations

import numpy as np
import pytest
from typer.testing import CliRunner

from uth.analysis.sim import kernel as k
from uth.analysis.sim.flop_table import _file as flop_table_file
from uth.analysis.sim.run import (
    block_uniforms,
    compile_game,
    default_table,
    simulate,
    table,
)
from uth.analysis.sim.sessions import play_sessions, simulate_sessions
from uth.analysis.sim.strategies import (
    CallableStrategy,
    StrategyError,
    expand_range,
    strategy,
)
from uth.cards import parse_card
from uth.cli.main import app
from uth.evaluator import evaluate7_batch, hand_value
from uth.rules import PRESET_NAMES, preset

CASINO = preset("casino")


def _idx(text: str) -> list[int]:
    return [parse_card(c).index for c in text.split()]


def _decide(name: str, hole: str, board: str) -> tuple[int, int]:
    game = compile_game(CASINO, default_table(CASINO), strategy(name, CASINO))
    h = _idx(hole)
    b = np.array(_idx(board), dtype=np.int64)
    return k.decide(h[0], h[1], b, game.pre, game.rule, game.pays, 1 << 20, game.mults, game.flops)


# -- practical card, rule by rule -------------------------------------------------


@pytest.mark.parametrize(
    ("hole", "raises"),
    [
        ("3c 3d", True), ("2c 2d", False), ("Ac 2d", True), ("Kc 5d", True), ("Kc 4d", False),
        ("Kh 2h", True), ("Qc 8d", True), ("Qc 7d", False), ("Qh 6h", True), ("Qh 5h", False),
        ("Jh 8h", True), ("Jh 7h", False), ("Jc Td", True), ("Jc 9d", False), ("Tc 9c", False),
    ],
)  # fmt: skip
def test_practical_pre_flop_chart(hole: str, raises: bool) -> None:
    street, m = _decide("practical", hole, "2s 7h 9d 5c 8c")
    assert (street, m) == (0, 4) if raises else street > 0


@pytest.mark.parametrize(
    ("hole", "flop", "raises"),
    [
        ("7c 2d", "7h Ks 3d", True),  # hidden pair
        ("2c 2d", "Ks 9h 4c", False),  # pocket deuces are not enough
        ("5c 4d", "9s 9h 4c", True),  # two pair
        ("Th 3c", "5h 8h Kh", True),  # four to a flush with a hidden ten
        ("9h 3c", "5h 8h Kh", False),  # ... a nine is not enough
        ("Jd 6c", "Ks Kh 3s", False),  # a pair on the board alone
    ],
)
def test_practical_flop_rule(hole: str, flop: str, raises: bool) -> None:
    street, m = _decide("practical", hole, f"{flop} 2s 2h" if "2" not in hole else f"{flop} Ac Ad")
    assert (street == 1 and m == 2) is raises


def _practical_river_reference(hole: list[int], board: list[int]) -> int:
    """The river rule written independently on the plain evaluator."""
    pv = hand_value(hole + board)
    if pv >> 20 > hand_value(board) >> 20:
        return 1
    unseen = [c for c in range(52) if c not in hole and c not in board]
    outs = sum(1 for c in unseen if hand_value([*board, c]) > pv)
    return 1 if outs < 21 else 0


def test_practical_river_matches_a_reference_on_random_spots() -> None:
    rng = np.random.default_rng(5)
    game = compile_game(CASINO, default_table(CASINO), strategy("practical", CASINO))
    checked = played = 0
    while checked < 300:
        cards = [int(c) for c in rng.permutation(52)[:7]]
        hole, board = cards[:2], cards[2:]
        street, m = k.decide(
            hole[0], hole[1], np.array(board, dtype=np.int64),
            np.zeros((13, 13), dtype=np.int64),  # check pre-flop
            np.array([k.FLOP_NEVER, k.RIVER_PRACTICAL, 21, 8], dtype=np.int64),
            np.zeros((6, 10), dtype=np.int64), 1 << 20, game.mults, game.flops,
        )  # fmt: skip
        assert street == 2
        assert m == _practical_river_reference(hole, board), (hole, board)
        checked += 1
        played += m
    assert 0 < played < checked  # both decisions occur


def test_ranges_expand_to_the_listed_hands() -> None:
    assert expand_range("33+") == [
        "33",
        "44",
        "55",
        "66",
        "77",
        "88",
        "99",
        "TT",
        "JJ",
        "QQ",
        "KK",
        "AA",
    ]
    assert expand_range("K5o+") == ["K5o", "K6o", "K7o", "K8o", "K9o", "KTo", "KJo", "KQo"]
    assert expand_range("JTo") == ["JTo"]
    with pytest.raises(StrategyError, match="starting hand"):
        expand_range("KKs")


# -- exact counting (optimal's river and flop) against brute force ----------------


def _exact_sums(hole: list[int], board: list[int]) -> tuple[float, float]:
    """(sum of a 1x Play's results, of a fold's) over all 990 dealer holes, by brute force."""
    pv = hand_value(hole + board)
    blind = {4: 1.0, 5: 1.5, 6: 3.0, 7: 10.0, 8: 50.0, 9: 500.0}.get(pv >> 20, 0.0)
    unseen = [c for c in range(52) if c not in hole and c not in board]
    total = 0.0
    for d in combinations(unseen, 2):
        dv = hand_value([*d, *board])
        q = dv >> 20 >= 1
        if pv > dv:
            total += (1 if q else 0) + blind + 1
        elif pv < dv:
            total -= (1 if q else 0) + 1 + 1
    return total, -2.0 * 990


def test_optimal_river_is_exact_on_random_spots() -> None:
    rng = np.random.default_rng(11)
    game = compile_game(CASINO, default_table(CASINO), strategy("never-raise", CASINO))
    for _ in range(12):
        cards = [int(c) for c in rng.permutation(52)[:7]]
        hole, board = cards[:2], cards[2:]
        m, best = k._river_exact(
            hole[0], hole[1], np.array(board, dtype=np.int64), game.pays, 1 << 20, game.mults
        )
        play, fold = _exact_sums(hole, board)
        assert m == (1 if play > fold else 0)
        assert best == max(play, fold)


def test_optimal_flop_is_exact_against_a_batch_enumeration() -> None:
    game = compile_game(CASINO, default_table(CASINO), strategy("never-raise", CASINO))
    blind = np.array([0, 0, 0, 0, 1.0, 1.5, 3.0, 10.0, 50.0, 500.0])
    for hole_text, flop_text in (
        ("Ah 7c", "Kd 9s 2c"),
        ("6h 5h", "4h 9h Kc"),
        ("Qs Jd", "Tc 4d 4h"),
    ):
        hole, flop = _idx(hole_text), _idx(flop_text)
        rest = [c for c in range(52) if c not in hole + flop]
        rows, players = [], []
        for t, r in combinations(rest, 2):
            unseen = [c for c in rest if c not in (t, r)]
            players.append([*hole, *flop, t, r])
            rows += [[a, b, *flop, t, r] for a, b in combinations(unseen, 2)]
        pv = evaluate7_batch(np.array(players, dtype=np.uint8)).astype(np.int64)
        dv = evaluate7_batch(np.array(rows, dtype=np.uint8)).astype(np.int64).reshape(len(pv), 990)
        p = pv[:, None]
        q = (dv >> 20) >= 1
        win, lose = p > dv, p < dv
        bl = blind[pv >> 20][:, None]

        def ev(m: int, win=win, lose=lose, q=q, bl=bl) -> np.ndarray:  # type: ignore[no-untyped-def]
            per = np.where(win, q + bl + m, 0.0) - np.where(lose, q + 1.0 + m, 0.0)
            return per.sum(axis=1)  # type: ignore[no-any-return]

        check = np.maximum(ev(1), -2.0 * 990).sum()
        expected = 2 if ev(2).sum() > check else 0
        got = k._flop_exact(
            hole[0], hole[1], np.array(flop, dtype=np.int64), game.pays, 1 << 20, game.mults
        )
        assert got == expected, (hole_text, flop_text, ev(2).sum(), check)


# -- streams, workers, accumulators ----------------------------------------------


def test_block_streams_are_the_seed_sequence_children() -> None:
    children = np.random.SeedSequence(42).spawn(3)
    want = np.random.Generator(np.random.PCG64(children[2])).random((5, 9))
    assert np.array_equal(block_uniforms(42, 2, 5, 1), want)


def test_same_seed_same_numbers_whatever_the_workers() -> None:
    strat = strategy("practical", CASINO)
    one = simulate(CASINO, strat, 5000, 9, workers=1, block_rounds=1024)
    two = simulate(CASINO, strat, 5000, 9, workers=2, block_rounds=1024)
    assert one.acc == two.acc
    assert one.main == two.main
    assert one.banker == two.banker
    other = simulate(CASINO, strat, 5000, 10, workers=2, block_rounds=1024)
    assert other.acc != one.acc


def test_accumulators_agree_with_the_traced_rounds() -> None:
    rules = preset("california-bad-beat")
    tbl = table(rules, seats=3, ante=10, trips=5, bad_beat=5, behind=1, bank=300)
    strat = strategy("practical", rules)
    game = compile_game(rules, tbl, strat)
    u = block_uniforms(3, 0, 2000, game.dealt)
    acc = np.zeros(k.ACC_INT, dtype=np.int64)
    facc = np.zeros(k.ACC_FLOAT)
    none = np.zeros((0, 0), dtype=np.int64)
    args = (u, game.pays, game.opts, game.mults, game.seat_of, game.ante, game.trips,
            game.bad_beat, game.pre, game.rule, game.flops, none)  # fmt: skip
    k.play_block(*args, acc, facc, np.zeros(0, dtype=np.int64))
    hands = game.seat_of.shape[0]
    cards = np.empty((2000, 2 * game.dealt + 7), dtype=np.int64)
    plays = np.empty((2000, game.seats), dtype=np.int64)
    nets = np.empty((2000, hands, 5), dtype=np.int64)
    unc = np.empty((2000, hands, 5), dtype=np.int64)
    k.trace_block(*args, cards, plays, nets, unc)
    assert acc[k.A_ROUNDS] == 2000
    assert acc[k.A_ANTE_STAKE] == 2000 * 6 * 1000
    assert list(acc[k.A_NET : k.A_NET + 5]) == list(nets.sum(axis=(0, 1)))
    assert acc[k.A_UNCOVERED] == unc.sum()
    assert acc[k.A_FOLD] == (plays == 0).sum()
    assert acc[k.A_COVERED_ROUNDS] == (unc.sum(axis=(1, 2)) == 0).sum()
    # the player-dealer never wins or loses more than the bank
    assert np.abs(nets.sum(axis=(1, 2))).max() <= 30000


def test_python_callable_strategy_plays_the_same_as_the_kernel_rule() -> None:
    def always_four(street: str, hole: tuple[int, int], board: tuple[int, ...]) -> int:
        assert len(board) == 0
        return 4

    a = simulate(CASINO, strategy("always-4x", CASINO), 3000, 4, block_rounds=1024)
    b = simulate(CASINO, CallableStrategy("py", always_four), 3000, 4, block_rounds=1024)
    assert a.acc == b.acc


def test_callable_multiple_not_offered_is_refused() -> None:
    bad = CallableStrategy("bad", lambda street, hole, board: 5)
    with pytest.raises(StrategyError, match="5x is not offered on the pre_flop"):
        simulate(CASINO, bad, 10, 1)


# -- sessions --------------------------------------------------------------------


def test_sessions_stop_at_ruin() -> None:
    nets = np.array([[-300, -300, 900, 100], [100, 100, -100, 100]], dtype=np.int64)
    balances, ruined, final = play_sessions(nets, 1000, 600)
    assert balances.tolist() == [[1000, 700, 400, 400, 400], [1000, 1100, 1200, 1100, 1200]]
    assert ruined.tolist() == [True, False]
    assert final.tolist() == [400, 1200]


def test_session_results_are_reproducible_and_bounded() -> None:
    strat = strategy("practical", CASINO)
    a = simulate_sessions(CASINO, strat, 3, bankroll=Decimal(50), session_hands=100, sessions=200)
    b = simulate_sessions(
        CASINO, strat, 3, bankroll=Decimal(50), session_hands=100, sessions=200, workers=2
    )
    assert np.array_equal(a.final, b.final)
    assert a.need == 6.0  # Ante + Blind + 4x Play of an Ante of 1
    assert 0 < a.ruin_probability < 1
    assert a.final.min() >= -50


# -- CLI ---------------------------------------------------------------------------


def test_cli_json() -> None:
    out = CliRunner().invoke(app, ["simulate", "--hands", "3000", "--seed", "2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["rounds"] == 3000
    assert data["ci95"][0] < data["mean"] < data["ci95"][1]
    assert sum(data["frequencies"].values()) == pytest.approx(1.0)
    assert set(data["wagers"]) == {"ante", "blind", "play"}
    assert sum(data["wagers"].values()) == pytest.approx(data["mean"])
    again = json.loads(
        CliRunner()
        .invoke(app, ["simulate", "--hands", "3000", "--seed", "2", "--json", "--workers", "2"])
        .stdout
    )
    assert again["mean"] == data["mean"]


def test_cli_sessions_plot(tmp_path: object) -> None:
    from pathlib import Path

    png = Path(str(tmp_path)) / "s.png"
    out = CliRunner().invoke(
        app,
        ["simulate", "--bankroll", "40", "--session-hands", "50", "--sessions", "100",
         "--plot", str(png), "--json"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads(out.stdout)["sessions"] == 100


def test_cli_bad_strategy() -> None:
    out = CliRunner().invoke(app, ["simulate", "--strategy", "bluff", "--hands", "10"])
    assert out.exit_code == 2
    assert "unknown strategy 'bluff'" in out.output


# -- Ray ---------------------------------------------------------------------------


@pytest.mark.xdist_group("ray")
def test_ray_gives_the_local_figures(ray_local: object) -> None:
    strat = strategy("practical", CASINO)
    local = simulate(CASINO, strat, 4000, 8, block_rounds=1024)
    remote = simulate(CASINO, strat, 4000, 8, block_rounds=1024, ray_address="local")
    assert remote.acc == local.acc
    assert remote.main == local.main


def test_every_preset_reads_the_shipped_flop_table() -> None:
    # The side bets change no decision: one table serves casino and california-bad-beat.
    names = {flop_table_file(preset(name)) for name in PRESET_NAMES}
    assert len(names) == 1
    assert resources.files("uth.analysis.sim").joinpath("data", names.pop()).is_file()
