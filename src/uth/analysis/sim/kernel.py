"""The numba kernel of the Monte Carlo simulation: deal, decide and settle whole rounds.

One call plays a block of rounds at one table layout and either adds the block's
totals into an accumulator row (:func:`play_block`) or records every round
(:func:`trace_block`, for the comparison with :func:`uth.engine.settle`). Hands are
valued by the fast evaluator's kernels (:mod:`uth.evaluator.fast`); money is in
integer cents, rounded exactly as the engine rounds (winnings on odds such as 3:2
are rounded down to the cent, :func:`uth.money.cents`).

Settlement follows RULES.md, "Settlement against the dealer" and "Who banks":
each hand's wagers in layout order (Ante, Blind, Play, Trips, Bad Beat); the
payout cap (001) on Ante, Play then Blind; a player-dealer's bank covers wagers
one at a time, the folded hands first (settled at the fold, before the
player-dealer's cards are shown; "A round", step 7), then the other seats
clockwise from the player-dealer's left (or right to left, the reverse of the
deal, with ``settlement_order = "right_to_left"``), each seat's back-line bets
right after it.

Randomness: the caller passes uniform doubles in [0, 1), ``DEAL_WIDTH`` per
round, drawn from an independent NumPy stream per block; a partial Fisher-Yates
shuffle turns them into the cards dealt (``j + floor(u * (52 - j))``: the bias of
a 53-bit double is below 1e-14 per draw).

Speed: :func:`play_block` and :func:`trace_block` share one loop (``_play``) that
plays every round without passing an array to a function on the common path
(decisions by :func:`_rule_decision` on scalars; the flop table and exact counts
only for the strategies that use them): numba counts the references to every array
argument with atomic operations, which cost more than the round itself
(docs/benchmarks.md, "Benchmarks: simulation").

Layouts of the arrays (all int64 unless said):

* ``pays`` (6, 10): rows Blind win, Blind per, Trips win, Trips per, Bad Beat
  win, Bad Beat per, by hand category (``per`` 0: that category does not pay).
* ``opts`` (OPT_COUNT,): see the ``OPT_*`` indices.
* ``mults`` (3, MAX_MULT + 1): per street (pre-flop, flop, river) 1 where that
  Play multiple is offered.
* ``seat_of``, ``ante``, ``trips``, ``bad_beat`` (H,): per hand, the seat whose
  cards and decisions it follows (hands grouped by seat, the seated hand first,
  then its back-line bets) and its wagers in cents (the Blind equals the Ante).
* strategy: ``pre`` (13, 13) int64 pre-flop Play multiple (0 check) by
  ``[high rank, low rank]`` when suited, ``[low, high]`` offsuit, ``[r, r]``
  pairs (ranks 0..12 = deuce..ace); ``rule`` (RULE_COUNT,): see ``RULE_*``;
  ``flops``: the flop table and its maps (:class:`uth.analysis.sim.flop_table.FlopLookup`,
  read by ``FLOP_TABLE``; placeholders of size 1 otherwise).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from uth.analysis.showdown import flop_counts, river_counts, showdown_ev
from uth.evaluator.fast import CARD_BIT, CARD_KEY, SIZE_KEY, eval5, eval7, value_from_keys

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

#: Category numbers (uth.evaluator.Category) used by the strategies.
PAIR, TWO_PAIR = 1, 2
SHIFT = 20  # uth.evaluator.CATEGORY_SHIFT
MAX_MULT = 10  # uth.rules.model.MAX_MULTIPLE

# opts
OPT_QUALIFIER, OPT_BOARD_ONLY, OPT_CAP, OPT_BANK, OPT_REVERSE, OPT_SHARED, OPT_SEATS = range(7)
OPT_COUNT = 7

# rule: how the flop and river decisions are taken
RULE_FLOP, RULE_RIVER, RULE_OUTS, RULE_FLUSH_KICKER = range(4)
RULE_COUNT = 4
FLOP_NEVER, FLOP_ALWAYS, FLOP_PRACTICAL, FLOP_EXACT, FLOP_TABLE = 0, 1, 2, 3, 4
RIVER_FOLD, RIVER_ALWAYS, RIVER_PRACTICAL, RIVER_EXACT = 0, 1, 2, 3

# Accumulator row (int64), per block.
A_ROUNDS = 0
A_ANTE_STAKE = 1  # sum of the Antes of every hand
A_NET = 2  # 5 slots: net per wager kind in layout order (Ante, Blind, Play, Trips, Bad Beat)
A_TRIPS_STAKE = 7
A_BB_STAKE = 8
A_DECISIONS = 9  # 3 streets x (MAX_MULT + 1): seated decisions by street and multiple
A_FOLD = A_DECISIONS + 3 * (MAX_MULT + 1)
A_SEATED = A_FOLD + 1  # seated-hand decisions taken (rounds x seats)
A_UNCOVERED = A_SEATED + 1  # amounts the bank could not cover (win or loss), cents
A_ACTION = A_UNCOVERED + 1  # amounts won or lost before the bank (after the cap), cents
A_COVERED_ROUNDS = A_ACTION + 1  # rounds in which the bank covered every wager
A_WIN = A_COVERED_ROUNDS + 1  # seated hands winning / tying / losing at showdown
A_TIE = A_WIN + 1
A_LOSS = A_TIE + 1
ACC_INT = A_LOSS + 1
# float64 accumulators
F_SQ = 0  # sum over rounds of (main net / Antes)^2
F_BANKER_SQ = 1  # sum over rounds of (banker net / Antes)^2
ACC_FLOAT = 2


@numba.njit(cache=True, inline="always")
def _rank(c: int) -> int:
    return c >> 2


@numba.njit(cache=True)
def deal(u: F64, i: int, deck: I64, k: int) -> None:
    """Shuffle the first ``k`` positions of ``deck`` (a permutation of 0..51) from row i of u."""
    for j in range(52):
        deck[j] = j
    for j in range(k):
        r = j + int(u[i, j] * (52 - j))
        t = deck[j]
        deck[j] = deck[r]
        deck[r] = t


@numba.njit(cache=True)
def pre_flop_index(a: int, b: int) -> tuple[int, int]:
    """The ``pre`` cell of hole cards a, b: [high, low] suited, [low, high] offsuit."""
    ra = _rank(a)
    rb = _rank(b)
    hi = max(ra, rb)
    lo = min(ra, rb)
    if (a & 3) == (b & 3) and hi != lo:
        return hi, lo
    return lo, hi


@numba.njit(cache=True)
def _largest(mults: I64, street: int) -> int:
    for m in range(MAX_MULT, 0, -1):
        if mults[street, m]:
            return m
    return 0


@numba.njit(cache=True)
def _blind_units(pays: I64) -> tuple[int, I64]:
    """The Blind table as the exact analysis keeps it (:mod:`uth.analysis.params`):
    (S, the least common multiple of its odds' denominators; each category's
    winnings times S, shape (10,)).
    """
    scale = 1
    for cat in range(10):
        per = pays[1, cat]
        if per > 0:
            a = scale
            b = per
            while b:
                a, b = b, a % b
            scale = scale // a * per
    win = np.zeros(10, dtype=np.int64)
    for cat in range(10):
        if pays[1, cat] > 0:
            win[cat] = pays[0, cat] * scale // pays[1, cat]
    return scale, win


@numba.njit(cache=True)
def _offered(mults: I64, street: int) -> I64:
    """The Play multiples offered on ``street`` (0 pre-flop, 1 flop, 2 river), ascending."""
    n = 0
    for m in range(1, MAX_MULT + 1):
        n += mults[street, m] != 0
    out = np.empty(n, dtype=np.int64)
    n = 0
    for m in range(1, MAX_MULT + 1):
        if mults[street, m]:
            out[n] = m
            n += 1
    return out


@numba.njit(cache=True)
def _river_exact(
    hole0: int, hole1: int, board: I64, pays: I64, qual: int, mults: I64
) -> tuple[int, float]:
    """The best river decision by exact counting over the dealer's holes of the 45
    unseen cards (:func:`uth.analysis.showdown.river_counts`), and its summed result
    in Antes (fold: -2 per deal). Ties: the smaller wager.
    """
    scale, blind_win = _blind_units(pays)
    cards = np.empty(7, dtype=np.int64)
    cards[0] = hole0
    cards[1] = hole1
    cards[2:] = board
    counts = np.zeros(6, dtype=np.int64)
    river_counts(cards, qual, counts)
    best = -2 * scale * 990  # a fold loses Ante and Blind on each of the C(45, 2) dealer holes
    best_m = 0
    for m in _offered(mults, 2):
        ev = showdown_ev(counts, m, scale, blind_win)
        if ev > best:
            best = ev
            best_m = m
    return best_m, best / scale


@numba.njit(cache=True)
def _flop_exact(hole0: int, hole1: int, flop: I64, pays: I64, qual: int, mults: I64) -> int:
    """The best flop decision by exact counting (:func:`uth.analysis.showdown.flop_counts`):
    every turn and river of the 47 unseen cards, every dealer hole of the 45 left, the
    river decided at its best. Ties: the smaller wager (check).
    """
    scale, blind_win = _blind_units(pays)
    cards = np.empty(5, dtype=np.int64)
    cards[0] = hole0
    cards[1] = hole1
    cards[2:] = flop
    flop_mult = _offered(mults, 1)
    raise_sums = np.zeros(flop_mult.shape[0], dtype=np.int64)
    best_ev = flop_counts(cards, qual, scale, blind_win, flop_mult, _offered(mults, 2), raise_sums)
    best_m = 0
    for k in range(flop_mult.shape[0]):
        if raise_sums[k] > best_ev:
            best_ev = raise_sums[k]
            best_m = flop_mult[k]
    return best_m


@numba.njit(cache=True)
def _flop_practical(h0: int, h1: int, f0: int, f1: int, f2: int, kicker: int) -> bool:
    """The practical card's flop rule: two pair or better, a hidden pair except pocket
    deuces, or four to a flush with a hidden card of that suit of rank ``kicker``
    (0..12) or better.
    """
    value = eval5(h0, h1, f0, f1, f2)
    if (value >> SHIFT) >= TWO_PAIR:
        return True
    r0 = _rank(h0)
    r1 = _rank(h1)
    if r0 == r1 and r0 > 0:
        return True
    for f in (f0, f1, f2):
        if _rank(f) == r0 or _rank(f) == r1:
            return True
    for s in range(4):
        n = ((h0 & 3) == s) + ((h1 & 3) == s) + ((f0 & 3) == s) + ((f1 & 3) == s)
        n += (f2 & 3) == s
        if n >= 4 and (((h0 & 3) == s and r0 >= kicker) or ((h1 & 3) == s and r1 >= kicker)):
            return True
    return False


@numba.njit(cache=True)
def _river_practical(
    h0: int, h1: int, b0: int, b1: int, b2: int, b3: int, b4: int, pv: int, outs_limit: int
) -> bool:
    """The practical card's river rule: Play with a hand of a higher category than the
    board's alone (a hidden pair or better), or when fewer than ``outs_limit`` of the
    45 unseen cards, added to the board, would give the dealer a better hand.
    """
    board_value = eval5(b0, b1, b2, b3, b4)
    if (pv >> SHIFT) > (board_value >> SHIFT):
        return True
    seen = (1 << h0) | (1 << h1) | (1 << b0) | (1 << b1) | (1 << b2) | (1 << b3) | (1 << b4)
    key = SIZE_KEY[6] + CARD_KEY[b0] + CARD_KEY[b1] + CARD_KEY[b2] + CARD_KEY[b3] + CARD_KEY[b4]
    bits = CARD_BIT[b0] + CARD_BIT[b1] + CARD_BIT[b2] + CARD_BIT[b3] + CARD_BIT[b4]
    outs = 0
    unseen = 45
    for c in range(52):
        if (seen >> c) & 1:
            continue
        unseen -= 1
        if value_from_keys(key + CARD_KEY[c], bits + CARD_BIT[c]) > pv:
            outs += 1
            if outs >= outs_limit:
                return False
        elif outs + unseen < outs_limit:
            break
    return True


@numba.njit(cache=True)
def _rule_decision(
    h0: int,
    h1: int,
    b0: int,
    b1: int,
    b2: int,
    b3: int,
    b4: int,
    pv: int,
    pre_flop: int,
    flop_rule: int,
    river_rule: int,
    outs: int,
    kicker: int,
    flop_max: int,
    river_max: int,
) -> tuple[int, int, int]:
    """The decisions a strategy's chart and card rules take: (street, Play multiple,
    pending). ``pre_flop`` is the chart's multiple for the hole (0 check), ``pv`` the
    hand's value on the whole board, ``flop_max`` and ``river_max`` the largest
    multiples. ``pending`` is 1 when the flop decision needs the flop table or exact
    counting, 2 when the river needs exact counting (:func:`_exact_decision`), else 0.
    Scalars only: this runs for every round.
    """
    if pre_flop > 0:
        return 0, pre_flop, 0
    m = 0
    if flop_rule == FLOP_ALWAYS:
        m = flop_max
    elif flop_rule == FLOP_PRACTICAL:
        m = flop_max if _flop_practical(h0, h1, b0, b1, b2, kicker) else 0
    elif flop_rule in (FLOP_EXACT, FLOP_TABLE):
        return 1, 0, 1
    if m > 0:
        return 1, m, 0
    if river_rule == RIVER_ALWAYS:
        m = river_max
    elif river_rule == RIVER_PRACTICAL:
        m = river_max if _river_practical(h0, h1, b0, b1, b2, b3, b4, pv, outs) else 0
    elif river_rule == RIVER_EXACT:
        return 2, 0, 2
    return 2, m, 0


@numba.njit(cache=True)
def _exact_decision(
    pending: int,
    h0: int,
    h1: int,
    board: I64,
    pv: int,
    rule: I64,
    pays: I64,
    qual: int,
    mults: I64,
    flops: tuple[I64, I64, I64, I64],
) -> tuple[int, int]:
    """The decisions :func:`_rule_decision` left ``pending`` (1 from the flop, 2 the
    river): (street, multiple). Ties of exact EVs go to the smaller wager.
    """
    if pending == 1:
        if rule[RULE_FLOP] == FLOP_TABLE:
            table, canon, inverse, hole_id = flops
            code = canon[board[0], board[1], board[2]]
            g = code & 31
            m = int(table[code >> 5, hole_id[inverse[g, h0], inverse[g, h1]]])
        else:
            m = _flop_exact(h0, h1, board, pays, qual, mults)
        if m > 0:
            return 1, m
        st, m, pending = _rule_decision(
            h0, h1, board[0], board[1], board[2], board[3], board[4], pv, 0, FLOP_NEVER,
            rule[RULE_RIVER], rule[RULE_OUTS], rule[RULE_FLUSH_KICKER], 0, _largest(mults, 2),
        )  # fmt: skip
        if pending == 0:
            return st, m
    best_m, _ = _river_exact(h0, h1, board, pays, qual, mults)
    return 2, best_m


@numba.njit(cache=True)
def decide(
    h0: int,
    h1: int,
    board: I64,
    pre: I64,
    rule: I64,
    pays: I64,
    qual: int,
    mults: I64,
    flops: tuple[I64, I64, I64, I64],
) -> tuple[int, int]:
    """A seated hand's decisions, as the kernel takes them: (street 0 pre-flop, 1 flop,
    2 river; Play multiple, 0 for a fold at the river). ``flops`` is the flop table's
    (table, canon, inverse, hole_id) (:class:`uth.analysis.sim.flop_table.FlopLookup`),
    read by the ``FLOP_TABLE`` rule.
    """
    pv = eval7(h0, h1, board[0], board[1], board[2], board[3], board[4])
    i, j = pre_flop_index(h0, h1)
    st, m, pending = _rule_decision(
        h0, h1, board[0], board[1], board[2], board[3], board[4], pv, pre[i, j],
        rule[RULE_FLOP], rule[RULE_RIVER], rule[RULE_OUTS], rule[RULE_FLUSH_KICKER],
        _largest(mults, 1), _largest(mults, 2),
    )  # fmt: skip
    if pending:
        st, m = _exact_decision(pending, h0, h1, board, pv, rule, pays, qual, mults, flops)
    return st, m


@numba.njit(cache=True, inline="always")
def _pay(pays: I64, row: int, cat: int, stake: int) -> int:
    """Winnings on ``stake`` cents by pay-table row ``row`` (0 Blind, 1 Trips, 2 Bad
    Beat) for category ``cat``, rounded down to the cent; -1 when it does not pay.
    """
    per = pays[2 * row + 1, cat]
    if per == 0:
        return -1
    return int(stake * pays[2 * row, cat] // per)


@numba.njit(cache=True, inline="always")
def _cover(g: int, bank: int, running: int) -> tuple[int, int, int]:
    """One wager's gross result ``g`` (+ win, - loss) against a bank of ``bank`` cents
    (-1: none) with the banker's ``running`` result: (net, uncovered, running after).
    """
    if g == 0 or bank < 0:
        return g, 0, running - g
    room = bank + running if g > 0 else bank - running
    amount = abs(g)
    covered = min(amount, room)
    net = covered if g > 0 else -covered
    return net, amount - covered, running - net


@numba.njit(cache=True, inline="always")
def settle_hand(
    pays: I64,
    qual: int,
    board_only: int,
    cap: int,
    bank: int,
    ante: int,
    trips: int,
    bad_beat: int,
    play: int,
    pv: int,
    dv: int,
    bv: int,
    running: int,
    out: I64,
    h: int,
) -> tuple[int, int]:
    """Settle hand ``h``'s five wagers against the payout cap and the bank: ``out[h,
    :5]`` their net results, ``out[h, 5:]`` the amounts the bank could not cover
    (cents, layout order). ``qual``: the dealer's lowest qualifying value;
    ``board_only``: a folded hand's Trips on the board's value ``bv``; ``cap`` and
    ``bank``: cents, -1 for none (``opts``). Returns (the banker's running result
    after it, the amount with action before the bank).
    """
    # + win, - loss, 0 push or no stake: Ante, Blind, Play, Trips, Bad Beat
    g0 = g1 = g2 = g3 = g4 = 0
    if play == 0:
        g0 = -ante
        g1 = -ante
        trips_value = bv if board_only else pv
        if trips > 0:
            w = _pay(pays, 1, trips_value >> SHIFT, trips)
            g3 = w if w >= 0 else -trips
        g4 = -bad_beat
    else:
        cmp = (pv > dv) - (pv < dv)
        qualifies = dv >= qual
        if cmp > 0:
            if qualifies:
                g0 = ante
            w = _pay(pays, 0, pv >> SHIFT, ante)
            if w >= 0:
                g1 = w
            g2 = ante * play
        elif cmp < 0:
            if qualifies:
                g0 = -ante
            g1 = -ante
            g2 = -ante * play
        if trips > 0:
            w = _pay(pays, 1, pv >> SHIFT, trips)
            g3 = w if w >= 0 else -trips
        if bad_beat > 0:
            w = _pay(pays, 2, min(pv, dv) >> SHIFT, bad_beat)
            g4 = -bad_beat if not qualifies or cmp == 0 or w < 0 else w
        if cap >= 0:
            # the cap pays the Ante, then the Play, then the Blind (001)
            room = cap
            if g0 > 0:
                g0 = min(g0, room)
                room -= g0
            if g2 > 0:
                g2 = min(g2, room)
                room -= g2
            if g1 > 0:
                g1 = min(g1, room)
    action = abs(g0) + abs(g1) + abs(g2) + abs(g3) + abs(g4)
    out[h, 0], out[h, 5], running = _cover(g0, bank, running)
    out[h, 1], out[h, 6], running = _cover(g1, bank, running)
    out[h, 2], out[h, 7], running = _cover(g2, bank, running)
    out[h, 3], out[h, 8], running = _cover(g3, bank, running)
    out[h, 4], out[h, 9], running = _cover(g4, bank, running)
    return running, action


class Layout(NamedTuple):
    """A game as the kernel plays it (a rule set, a table and a strategy as arrays;
    layouts in the module's docstring): the one definition of the inputs that
    :func:`play_block` and :func:`trace_block` share, between the round's deal
    ``u`` and ``given``. A tuple of arrays, which numba takes in nopython mode.

    Attributes:
        pays: (6, 10) the pay tables.
        opts: (OPT_COUNT,) the table's options (``OPT_*``).
        mults: (3, MAX_MULT + 1) the Play multiples offered per street.
        seat_of: (H,) the seat each hand follows.
        ante: (H,) each hand's Ante in cents (the Blind equals it).
        trips: (H,) each hand's Trips in cents.
        bad_beat: (H,) each hand's Bad Beat in cents.
        pre: (13, 13) the pre-flop Play multiple by starting hand.
        rule: (RULE_COUNT,) the strategy's rules (``RULE_*``).
        flops: the flop table and its maps (placeholders of size 1 when unused).

    """

    pays: I64
    opts: I64
    mults: I64
    seat_of: I64
    ante: I64
    trips: I64
    bad_beat: I64
    pre: I64
    rule: I64
    flops: tuple[I64, I64, I64, I64]


#: Where an entry point's arguments after the :class:`Layout` start.
_AFTER_LAYOUT = 1 + len(Layout._fields)


@numba.njit(cache=True, nogil=True)
def _play(
    u: F64,
    layout: Layout,
    given: I64,
    acc: I64,
    facc: F64,
    round_net: I64,
    cards: I64,
    plays_out: I64,
    nets_out: I64,
    uncov_out: I64,
) -> None:
    """Deal, decide and settle every round of ``u``: :func:`play_block` and, when
    ``cards`` has rows, :func:`trace_block` (then ``acc`` and ``facc`` are not
    touched). Every round is played inside this one loop, with no call that passes
    arrays on the common path: numba counts references to each array passed to a
    function, and those atomic counts cost more than the round itself.
    """
    pays, opts, mults, seat_of, ante, trips, bad_beat, pre, rule, flops = layout
    seats = opts[OPT_SEATS]
    shared = opts[OPT_SHARED]
    dealt = 1 if shared else seats
    n_cards = 2 * dealt + 7
    n_hands = seat_of.shape[0]
    qual = opts[OPT_QUALIFIER] << SHIFT
    reverse = opts[OPT_REVERSE]
    board_only = opts[OPT_BOARD_ONLY]
    cap = opts[OPT_CAP]
    bank = opts[OPT_BANK]
    flop_rule = rule[RULE_FLOP]
    river_rule = rule[RULE_RIVER]
    outs = rule[RULE_OUTS]
    kicker = rule[RULE_FLUSH_KICKER]
    flop_max = _largest(mults, 1)
    river_max = _largest(mults, 2)
    tracing = cards.shape[0] > 0
    decided = given.shape[0] > 0
    deck = np.empty(52, dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    plays = np.empty(seats, dtype=np.int64)
    streets = np.empty(seats, dtype=np.int64)
    values = np.empty(seats, dtype=np.int64)
    out = np.zeros((n_hands, 10), dtype=np.int64)  # per hand: 5 nets, 5 uncovered
    antes = 0
    for h in range(n_hands):
        antes += ante[h]
    for i in range(u.shape[0]):
        deal(u, i, deck, n_cards)
        d0 = deck[2 * dealt]
        d1 = deck[2 * dealt + 1]
        b0 = deck[2 * dealt + 2]
        b1 = deck[2 * dealt + 3]
        b2 = deck[2 * dealt + 4]
        b3 = deck[2 * dealt + 5]
        b4 = deck[2 * dealt + 6]
        dv = eval7(d0, d1, b0, b1, b2, b3, b4)
        any_fold = False
        for s in range(seats):
            c = 0 if shared else s
            h0 = deck[2 * c]
            h1 = deck[2 * c + 1]
            pv = eval7(h0, h1, b0, b1, b2, b3, b4)
            values[s] = pv
            if decided:
                streets[s] = given[i, 2 * s]
                plays[s] = given[i, 2 * s + 1]
            elif shared and s > 0:
                streets[s] = streets[0]
                plays[s] = plays[0]
            else:
                pi, pj = pre_flop_index(h0, h1)
                st, m, pending = _rule_decision(
                    h0, h1, b0, b1, b2, b3, b4, pv, pre[pi, pj], flop_rule, river_rule, outs,
                    kicker, flop_max, river_max,
                )  # fmt: skip
                if pending:
                    board[0] = b0
                    board[1] = b1
                    board[2] = b2
                    board[3] = b3
                    board[4] = b4
                    st, m = _exact_decision(
                        pending, h0, h1, board, pv, rule, pays, qual, mults, flops
                    )
                streets[s] = st
                plays[s] = m
            if plays[s] == 0:
                any_fold = True
        bv = eval5(b0, b1, b2, b3, b4) if any_fold else 0
        running = 0
        action = 0
        # Folded seats first (settled at the fold), then the others in seat order or
        # reversed.
        for phase in range(2):
            for q in range(seats):
                s = seats - 1 - q if phase == 1 and reverse else q
                if (plays[s] == 0) != (phase == 0):
                    continue
                for h in range(n_hands):
                    if seat_of[h] == s:
                        running, a = settle_hand(
                            pays, qual, board_only, cap, bank, ante[h], trips[h], bad_beat[h],
                            plays[s], values[s],
                            dv, bv, running, out, h,
                        )  # fmt: skip
                        action += a
        if tracing:
            for j in range(cards.shape[1]):
                cards[i, j] = deck[j]
            for s in range(seats):
                plays_out[i, s] = plays[s]
            for h in range(n_hands):
                for j in range(5):
                    nets_out[i, h, j] = out[h, j]
                    uncov_out[i, h, j] = out[h, 5 + j]
            continue
        acc[A_ROUNDS] += 1
        acc[A_ANTE_STAKE] += antes
        main = 0
        missed = 0
        for h in range(n_hands):
            acc[A_TRIPS_STAKE] += trips[h]
            acc[A_BB_STAKE] += bad_beat[h]
            for j in range(5):
                acc[A_NET + j] += out[h, j]
                missed += out[h, 5 + j]
            main += out[h, 0] + out[h, 1] + out[h, 2]
        if round_net.shape[0] > 0:
            round_net[i] = out[0, 0] + out[0, 1] + out[0, 2] + out[0, 3] + out[0, 4]
        acc[A_UNCOVERED] += missed
        acc[A_ACTION] += action
        if missed == 0:
            acc[A_COVERED_ROUNDS] += 1
        for s in range(seats):
            acc[A_SEATED] += 1
            if plays[s] == 0:
                acc[A_FOLD] += 1
            else:
                acc[A_DECISIONS + streets[s] * (MAX_MULT + 1) + plays[s]] += 1
                d = values[s] - dv
                if d > 0:
                    acc[A_WIN] += 1
                elif d < 0:
                    acc[A_LOSS] += 1
                else:
                    acc[A_TIE] += 1
        x = main / antes
        facc[F_SQ] += x * x
        y = running / antes
        facc[F_BANKER_SQ] += y * y


@numba.njit(cache=True, nogil=True)
def play_block(*args: Any) -> None:
    """``play_block(u, *layout, given, acc, facc, round_net)``: play the rounds dealt
    by ``u`` (rounds, DEAL_WIDTH) in a :class:`Layout` (its fields in order) and add
    their totals into ``acc`` (ACC_INT,) and ``facc`` (ACC_FLOAT,). ``given``
    (rounds, 2 * seats): decided streets and multiples per seat from a Python
    strategy, or shape (0, 0) to decide here. ``round_net`` (rounds,) gets hand 0's
    net on all its wagers per round, or has shape (0,).
    """
    given, acc, facc, round_net = args[_AFTER_LAYOUT:]
    _play(
        args[0], Layout(*args[1:_AFTER_LAYOUT]), given, acc, facc, round_net,
        np.zeros((0, 0), dtype=np.int64), np.zeros((0, 0), dtype=np.int64),
        np.zeros((0, 0, 0), dtype=np.int64), np.zeros((0, 0, 0), dtype=np.int64),
    )  # fmt: skip


@numba.njit(cache=True, nogil=True)
def trace_block(*args: Any) -> None:
    """``trace_block(u, *layout, given, cards, plays_out, nets_out, uncov_out)``: play
    the rounds as :func:`play_block` does and record each: ``cards`` (rounds,
    2 * dealt + 7): the holes dealt in seat order, the dealer's two, the board;
    ``plays_out`` (rounds, seats); ``nets_out`` and ``uncov_out`` (rounds, hands, 5)
    in cents.
    """
    given, cards, plays_out, nets_out, uncov_out = args[_AFTER_LAYOUT:]
    _play(
        args[0], Layout(*args[1:_AFTER_LAYOUT]), given,
        np.zeros(ACC_INT, dtype=np.int64), np.zeros(ACC_FLOAT, dtype=np.float64),
        np.zeros(0, dtype=np.int64), cards, plays_out, nets_out, uncov_out,
    )  # fmt: skip


@numba.njit(cache=True, nogil=True)
def deal_block(u: F64, cards: I64) -> None:
    """The cards of each round of ``u`` as :func:`play_block` deals them (for a Python
    strategy): ``cards`` (rounds, 2 * dealt + 7).
    """
    deck = np.empty(52, dtype=np.int64)
    k = cards.shape[1]
    for i in range(u.shape[0]):
        deal(u, i, deck, k)
        cards[i, :] = deck[:k]
