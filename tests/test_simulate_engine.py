"""The simulation kernel settles every wager exactly as uth.engine.settle does.

Random rounds of each preset at random tables (1 to 7 seats, back-line bets where
the rules allow them, random Antes and side bets in cents, random player-dealer
banks from exhausted to ample), each strategy in turn, compared wager by wager.

The engine side is plain Python (about 4 ms of CPU a round of up to seven seats
here), so the default suite plays ``UTH_SIM_ROUNDS`` rounds per preset (default
2,000: about 35 CPU-seconds for all four, compilation included); the full check
of issue 12 is ``UTH_SIM_ROUNDS=100000`` (README, "uth simulate").
"""

from __future__ import annotations

import os
from decimal import Decimal

import numpy as np
import pytest

from uth.analysis.sim import kernel as k
from uth.analysis.sim.run import Bettor, Table, block_uniforms, compile_game
from uth.analysis.sim.strategies import CallableStrategy, Strategy, strategy
from uth.cards import Card, parse_cards
from uth.engine import HandEntry, Wagers, settle
from uth.evaluator import hand_value
from uth.rules import PRESET_NAMES, RuleSet, preset

ROUNDS = int(os.environ.get("UTH_SIM_ROUNDS", "2000"))
BATCH = 50
KINDS = ("ante", "blind", "play", "trips", "bad_beat")


def _money(rng: np.random.Generator, low: int, high: int) -> Decimal:
    return Decimal(int(rng.integers(low * 100, high * 100 + 1))) / 100


def _random_table(rules: RuleSet, rng: np.random.Generator) -> Table:
    seats = int(rng.integers(1, 8))
    bettors: list[Bettor] = []
    for s in range(seats):
        behind = int(rng.integers(0, 3)) if rules.back_line_bets else 0
        for j in range(1 + behind):
            ante = _money(rng, 5, 1000) if rng.random() < 0.7 else _money(rng, 5, 20)
            top = ante if rules.side_bets_not_above_ante else Decimal(1000)
            trips = _money(rng, 5, int(top)) if rules.offers_trips and rng.random() < 0.6 else 0
            bb = _money(rng, 5, int(top)) if rules.offers_bad_beat and rng.random() < 0.6 else 0
            bettors.append(Bettor(s, Wagers(ante, ante, Decimal(trips), Decimal(bb)), j > 0))
    bank = None
    if rules.bank is not None:
        bank = Decimal(int(10 ** rng.uniform(2, 5) * 100)) / 100
    return Table(tuple(bettors), bank)


def _random_decider(seed: int) -> CallableStrategy:
    rng = np.random.default_rng(seed)

    def decide(street: str, hole: tuple[int, int], board: tuple[int, ...]) -> int:
        x = rng.random()
        if street == "pre_flop":
            return 4 if x < 0.2 else 3 if x < 0.35 else 0
        if street == "flop":
            return 2 if x < 0.3 else 0
        return 1 if x < 0.5 else 0

    return CallableStrategy("random", decide)


def _strategies(rules: RuleSet) -> list[Strategy | CallableStrategy]:
    return [
        strategy("practical", rules),
        strategy("always-4x", rules),
        strategy("never-raise", rules),
        _random_decider(7),
    ]


def _entries(rules: RuleSet, tbl: Table, cards: list[int], plays: list[int]) -> list[HandEntry]:
    dealt = 1 if rules.shared_hand else tbl.seats
    out = []
    for b in sorted(tbl.bettors, key=lambda b: (b.seat, b.behind)):
        c = 0 if dealt == 1 else b.seat
        hole = (Card.from_index(cards[2 * c]), Card.from_index(cards[2 * c + 1]))
        n = sum(1 for e in out if e.id.startswith(f"s{b.seat}"))
        if b.behind:
            out.append(HandEntry(f"s{b.seat}b{n}", b.wagers, None, 0, behind=f"s{b.seat}"))
        else:
            out.append(HandEntry(f"s{b.seat}", b.wagers, hole, plays[b.seat]))
    return out


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_kernel_settles_as_the_engine(name: str) -> None:
    rules = preset(name)
    rng = np.random.default_rng(1000 + PRESET_NAMES.index(name))
    strategies = _strategies(rules)
    compared = folds = uncovered = capped_rounds = 0
    for batch in range(ROUNDS // BATCH):
        tbl = _random_table(rules, rng)
        strat = strategies[batch % len(strategies)]
        game = compile_game(rules, tbl, strat)
        u = block_uniforms(batch, 0, BATCH, game.dealt)
        given = np.zeros((0, 0), dtype=np.int64)
        if isinstance(strat, CallableStrategy):
            dealt_cards = np.empty((BATCH, 2 * game.dealt + 7), dtype=np.int64)
            k.deal_block(u, dealt_cards)
            given = strat.decisions(dealt_cards, game.seats, rules)
        hands = game.seat_of.shape[0]
        cards = np.empty((BATCH, 2 * game.dealt + 7), dtype=np.int64)
        plays = np.empty((BATCH, game.seats), dtype=np.int64)
        nets = np.empty((BATCH, hands, 5), dtype=np.int64)
        uncov = np.empty((BATCH, hands, 5), dtype=np.int64)
        k.trace_block(
            u, game.pays, game.opts, game.mults, game.seat_of, game.ante, game.trips,
            game.bad_beat, game.pre, game.rule, game.flops, given, cards, plays, nets, uncov,
        )  # fmt: skip
        for i in range(BATCH):
            row = cards[i].tolist()
            entries = _entries(rules, tbl, row, plays[i].tolist())
            # In seat order: the engine settles the folded hands first, at the fold
            # (RULES.md, "A round", step 7), then the rule set's settlement order.
            folded = {e.id for e in entries if e.behind is None and e.play == 0}
            board = [Card.from_index(c) for c in row[-5:]]
            dealer = [Card.from_index(c) for c in row[-7:-5]]
            result = settle(rules, board, dealer, entries, bank=tbl.bank)
            by_id = {h.id: h for h in result.hands}
            for h, entry in enumerate(entries):
                got = by_id[entry.id]
                for w, kind in enumerate(KINDS):
                    wager = got.wager(kind)
                    assert int(wager.net * 100) == nets[i, h, w], (name, i, entry, kind, wager)
                    assert int(wager.uncovered * 100) == uncov[i, h, w], (name, i, entry, kind)
                    uncovered += wager.uncovered > 0
                    capped_rounds += wager.capped > 0
            folds += len(folded)
            compared += 1
    assert compared == ROUNDS // BATCH * BATCH
    assert folds > 0
    if rules.bank is not None:
        assert uncovered > 0  # some banks ran out


def test_payout_cap_as_the_engine() -> None:
    # A straight flush on 1,000 Ante, 4x Play: 1,000 + 50,000 + 4,000 won, capped at
    # 50,000 (001): the Blind is paid what is left after the Ante and the Play.
    rules = preset("casino")
    board = parse_cards("9h 8h 7h 2c 3d")
    hole = parse_cards("Th Jh")
    dealer = parse_cards("Kc Kd")
    wagers = Wagers(Decimal(1000), Decimal(1000), Decimal(5))
    got = settle(rules, board, dealer, [HandEntry("s0", wagers, tuple(hole), 4)]).hands[0]
    game = compile_game(rules, Table((Bettor(0, wagers),)), strategy("always-4x", rules))
    out = np.zeros((1, 10), dtype=np.int64)
    pv = hand_value([c.index for c in [*hole, *board]])
    dv = hand_value([c.index for c in [*dealer, *board]])
    qual, cap = int(game.opts[k.OPT_QUALIFIER]) << 20, int(game.opts[k.OPT_CAP])
    k.settle_hand(game.pays, qual, 0, cap, -1, 100000, 500, 0, 4, pv, dv, 0, 0, out, 0)
    net = out[0, :5]
    assert [int(got.wager(kind).net * 100) for kind in KINDS] == net.tolist()
    assert net.tolist() == [100000, 4500000, 400000, 20000, 0]
    assert out[0, 5:].tolist() == [0, 0, 0, 0, 0]
    assert got.wager("blind").capped == Decimal(5000)
