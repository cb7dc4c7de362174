"""Property test: many random California card-room rounds (seeds 000, 002).

Each example seats two to seven players (some willing to bank, with a bank of their
own choosing), maybe a third-party banker and back-line bettors, and plays a dozen
rounds: the offer in rotation (banking.Rotation), two alternating decks with a
discard rack (decks.TwoDecks), random wagers within the limits and the balances,
random legal decisions taken in turn. It checks, round after round:

- the player-dealer's result stays within plus or minus the bank, and
  ``bank_left`` on every settlement event equals the bank plus the result so far;
- money is conserved across all accounts (players, back-line bettors, backer);
  no balance goes below zero;
- nobody banks three rounds in a row (so not while another seated player would
  accept), and when nobody banks, every willing seated player who could cover
  the least bank was passed over;
- only one deck colour is ever in the discard rack, and the colours alternate.
"""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import event, given, settings
from hypothesis import strategies as st

from uth.cards import ALL_CARDS, SeededShuffler
from uth.engine import Phase, Round
from uth.engine import events as ev
from uth.engine.banking import Banker, NoBanker, Offered, Rotation
from uth.engine.decks import TwoDecks
from uth.rules import preset

ROUNDS = 12


def _amount(rng: random.Random, low: Decimal, high: Decimal) -> Decimal:
    return Decimal(rng.randint(int(low), int(high)))


@settings(max_examples=170, deadline=None)  # 2,040 rounds (issue 13: thousands)
@given(
    name=st.sampled_from(["california", "california-bad-beat"]),
    seated=st.integers(2, 7),
    willing=st.lists(st.booleans(), min_size=7, max_size=7),
    banks=st.lists(st.integers(100, 3000), min_size=7, max_size=7),
    balances=st.lists(st.integers(50, 5000), min_size=7, max_size=7),
    backer=st.booleans(),
    rails=st.integers(0, 2),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_card_room_rounds_keep_every_invariant(
    name: str,
    seated: int,
    willing: list[bool],
    banks: list[int],
    balances: list[int],
    backer: bool,
    rails: int,
    seed: int,
) -> None:
    rules = preset(name)
    assert rules.bank is not None
    least = rules.bank.min
    rng = random.Random(seed)
    shuffler = SeededShuffler(seed)
    rotation = Rotation(rules, backer="backer" if backer else None)
    players = [f"p{i}" for i in range(seated)]
    for i, player in enumerate(players):
        rotation.sit(player, i + 1)
    wants = {p: (willing[i], Decimal(banks[i])) for i, p in enumerate(players)}
    wants["backer"] = (True, Decimal(2000))
    balance = {p: Decimal(balances[i]) for i, p in enumerate(players)}
    balance["backer"] = Decimal(100000)
    for r in range(rails):
        balance[f"rail{r}"] = Decimal(2000)
    total = sum(balance.values())
    decks = TwoDecks()
    for colour in decks.needs_shuffle():
        decks.load(colour, shuffler.shuffle(ALL_CARDS))
    bankers: list[str] = []
    colours: list[str | None] = []
    for _ in range(ROUNDS):
        state = rotation.open_offer()
        while isinstance(state, Offered):
            ok, bank = wants[state.player]
            bank = min(bank, balance[state.player])
            if ok and bank >= least:
                state = rotation.answer(state.player, bank, balance=balance[state.player])
            else:
                state = rotation.answer(state.player, None)
        if isinstance(state, NoBanker):
            event("no round: nobody banks")
            passed = {s.player for s in state.steps if s.outcome == "passed_over"}
            for p in players:
                ok, _ = wants[p]
                if ok and balance[p] >= least:
                    assert p in passed, f"{p} would accept but was not offered"
            bankers.append("")
            continue
        assert isinstance(state, Banker)
        event(f"banker: {'third party' if state.third_party else 'seated'}")
        if any(s.outcome == "passed_over" for s in state.steps):
            event("a player passed over")
        dealt = _play_round(rotation, state, decks, balance, rng)
        rotation.end_round(dealt=dealt)
        bankers.append(state.player if dealt else "")
        assert decks.in_play is not None
        colours.append(decks.in_play.colour)
        decks.collect()
        assert len(decks.rack.colours) == 1
        for colour in decks.needs_shuffle():
            decks.load(colour, shuffler.shuffle(ALL_CARDS))
        assert sum(balance.values()) == total
        assert all(v >= 0 for v in balance.values())
    for a, b, c in zip(bankers, bankers[1:], bankers[2:], strict=False):
        assert not (a and a != "backer" and a == b == c), bankers
    assert colours == [("blue", "red")[i % 2] for i in range(len(colours))]


def _play_round(
    rotation: Rotation,
    banker: Banker,
    decks: TwoDecks,
    balance: dict[str, Decimal],
    rng: random.Random,
) -> bool:
    """Deal and play one round from the next deck (left in play); update the balances;
    False when nobody could bet (the round is voided).
    """
    deck = decks.deal()
    rnd = Round(rotation.rules, bank=banker.bank)
    assert rnd.events[0] == ev.RoundOpened("", rotation.rules.name, banker.bank)
    limits = rotation.rules
    spent: dict[str, Decimal] = {}
    seats = {p: s for s, p in rotation.seats.items()}
    for player in rotation.players():
        ante = _amount(rng, limits.ante.min, min(limits.ante.max, Decimal(60)))
        trips = ante if rng.random() < 0.3 else Decimal(0)
        bad_beat = ante if limits.bad_beat is not None and rng.random() < 0.3 else Decimal(0)
        if balance[player] < 2 * ante + trips + bad_beat:
            continue
        rnd.place_wagers(player, ante=ante, trips=trips, bad_beat=bad_beat, seat=seats[player])
        spent[player] = rnd.wagers(player).total
    seated_hands = list(spent)
    for rail in (p for p in balance if p.startswith("rail")):
        if seated_hands and rng.random() < 0.6:
            ante = _amount(rng, limits.ante.min, Decimal(20))
            rnd.place_wagers(rail, ante=ante, trips=ante, behind=rng.choice(seated_hands))
            spent[rail] = rnd.wagers(rail).total
    if not seated_hands:
        rnd.void("nobody bet")
        return False
    closed = rnd.close_betting(deck)[0]
    assert closed == ev.BettingClosed(rnd.players, deck.colour)
    while rnd.phase in (Phase.PRE_FLOP, Phase.FLOP, Phase.RIVER):
        player = rnd.to_act
        assert player is not None and player == rnd.awaiting()[0]
        rails = [h for h in rnd.players if h.startswith("rail") and h not in seated_hands]
        followers = [r for r in rails if _behind(rnd, r) == player]
        ante = rnd.wagers(player).ante
        # a back-line bettor follows the seat's Play: keep the seat's choice within
        # what every follower can cover too
        available = min(
            [balance[player] - spent[player]]
            + [(balance[r] - spent[r]) * ante / rnd.wagers(r).ante for r in followers]
        )
        action = rng.choice(rnd.legal_actions(player, available=available))
        rnd.act(player, action, available=available)
        spent[player] += ante * action.multiple
        for r in followers:
            spent[r] += rnd.wagers(r).ante * action.multiple
    assert rnd.phase is Phase.SETTLED and rnd.settlement is not None
    bank = banker.bank
    result = Decimal(0)
    for e in rnd.events:
        if isinstance(e, ev.WagerSettled):
            result -= e.net
            assert -bank <= result <= bank
            if e.uncovered:
                event("a wager not (fully) covered")
            assert e.bank_left == bank + result
            balance[e.player] += e.net
    assert result == rnd.settlement.banker_net
    balance[banker.player] += result
    return True


def _behind(rnd: Round, hand: str) -> str | None:
    events = [e for e in rnd.events if isinstance(e, ev.WagersPlaced) and e.player == hand]
    return events[-1].behind if events else None
