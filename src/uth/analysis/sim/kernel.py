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

import numba
import numpy as np
import numpy.typing as npt

from uth.evaluator.fast import (
    CARD_BIT,
    CARD_KEY,
    SIZE_KEY,
    eval5,
    eval7,
    value7_from_keys,
    value_from_keys,
)

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
def _river_counts(
    board: I64, seen_bits: int, pv: int, qual: int
) -> tuple[float, float, float, float]:
    """Over every dealer hole of the unseen cards: (wins with a qualifying dealer, wins
    with a dealer who does not qualify, losses to a qualifying dealer, losses to one
    who does not); ties are the rest.
    """
    key = SIZE_KEY[7]
    bits = 0
    for j in range(5):
        key += CARD_KEY[board[j]]
        bits += CARD_BIT[board[j]]
    rest = np.empty(52, dtype=np.int64)
    m = 0
    for c in range(52):
        if not (seen_bits >> c) & 1:
            rest[m] = c
            m += 1
    wq = 0.0
    wn = 0.0
    lq = 0.0
    ln = 0.0
    for x in range(m):
        ka = key + CARD_KEY[rest[x]]
        ba = bits + CARD_BIT[rest[x]]
        for y in range(x + 1, m):
            dv = value7_from_keys(ka + CARD_KEY[rest[y]], ba + CARD_BIT[rest[y]])
            if pv > dv:
                if dv >= qual:
                    wq += 1.0
                else:
                    wn += 1.0
            elif pv < dv:
                if dv >= qual:
                    lq += 1.0
                else:
                    ln += 1.0
    return wq, wn, lq, ln


@numba.njit(cache=True, inline="always")
def _ev(wq: float, wn: float, lq: float, ln: float, blind: float, m: int) -> float:
    """The sum of a Play of m Antes' results (Ante + Blind + Play) over the counted deals."""
    return wq * (1.0 + blind + m) + wn * (blind + m) - lq * (2.0 + m) - ln * (1.0 + m)


@numba.njit(cache=True)
def _blind_odds(pays: I64, value: int) -> float:
    cat = value >> SHIFT
    if pays[1, cat] == 0:
        return 0.0
    return float(pays[0, cat] / pays[1, cat])


@numba.njit(cache=True)
def _river_exact(
    hole0: int, hole1: int, board: I64, pv: int, pays: I64, qual: int, mults: I64
) -> tuple[int, float]:
    """The best river decision by exact counting over the dealer's holes of the 45
    unseen cards, and its summed result (fold: -2 per deal). Ties: the smaller wager.
    """
    seen = (1 << hole0) | (1 << hole1)
    for j in range(5):
        seen |= 1 << board[j]
    wq, wn, lq, ln = _river_counts(board, seen, pv, qual)
    best = -2.0 * 990.0  # a fold loses Ante and Blind on each of the C(45, 2) dealer holes
    best_m = 0
    blind = _blind_odds(pays, pv)
    for m in range(1, MAX_MULT + 1):
        if mults[2, m]:
            ev = _ev(wq, wn, lq, ln, blind, m)
            if ev > best:
                best = ev
                best_m = m
    return best_m, best


@numba.njit(cache=True)
def _flop_exact(hole0: int, hole1: int, flop: I64, pays: I64, qual: int, mults: I64) -> int:
    """The best flop decision by exact counting: every turn and river of the 47 unseen
    cards, every dealer hole of the 45 left, the river decided by :func:`_river_exact`.
    Ties: the smaller wager (check).
    """
    seen = (1 << hole0) | (1 << hole1)
    for j in range(3):
        seen |= 1 << flop[j]
    rest = np.empty(47, dtype=np.int64)
    m = 0
    for c in range(52):
        if not (seen >> c) & 1:
            rest[m] = c
            m += 1
    board = np.empty(5, dtype=np.int64)
    board[0] = flop[0]
    board[1] = flop[1]
    board[2] = flop[2]
    check = 0.0
    raise_sum = np.zeros(MAX_MULT + 1, dtype=np.float64)
    for t in range(m):
        for r in range(t + 1, m):
            board[3] = rest[t]
            board[4] = rest[r]
            pv = eval7(hole0, hole1, board[0], board[1], board[2], board[3], board[4])
            s = seen | (1 << rest[t]) | (1 << rest[r])
            wq, wn, lq, ln = _river_counts(board, s, pv, qual)
            blind = _blind_odds(pays, pv)
            best = -2.0 * 990.0
            for k in range(1, MAX_MULT + 1):
                if mults[2, k]:
                    best = max(best, _ev(wq, wn, lq, ln, blind, k))
                if mults[1, k]:
                    raise_sum[k] += _ev(wq, wn, lq, ln, blind, k)
            check += best
    best_m = 0
    best_ev = check
    for k in range(1, MAX_MULT + 1):
        if mults[1, k] and raise_sum[k] > best_ev:
            best_ev = raise_sum[k]
            best_m = k
    return best_m


@numba.njit(cache=True)
def _flop_practical(h0: int, h1: int, f: I64, mults: I64, kicker: int) -> int:
    """The practical card's flop rule: two pair or better, a hidden pair except pocket
    deuces, or four to a flush with a hidden card of that suit of rank ``kicker``
    (0..12) or better.
    """
    value = eval5(h0, h1, f[0], f[1], f[2])
    raise_it = (value >> SHIFT) >= TWO_PAIR
    r0 = _rank(h0)
    r1 = _rank(h1)
    if r0 == r1 and r0 > 0:
        raise_it = True
    for j in range(3):
        if _rank(f[j]) == r0 or _rank(f[j]) == r1:
            raise_it = True
    if not raise_it:
        for s in range(4):
            n = ((h0 & 3) == s) + ((h1 & 3) == s)
            for j in range(3):
                n += (f[j] & 3) == s
            if n >= 4 and (((h0 & 3) == s and r0 >= kicker) or ((h1 & 3) == s and r1 >= kicker)):
                raise_it = True
    return _largest(mults, 1) if raise_it else 0


@numba.njit(cache=True)
def _river_practical(h0: int, h1: int, b: I64, pv: int, mults: I64, outs_limit: int) -> int:
    """The practical card's river rule: Play with a hand of a higher category than the
    board's alone (a hidden pair or better), or when fewer than ``outs_limit`` of the
    45 unseen cards, added to the board, would give the dealer a better hand.
    """
    board_value = eval5(b[0], b[1], b[2], b[3], b[4])
    if (pv >> SHIFT) > (board_value >> SHIFT):
        return _largest(mults, 2)
    seen = (1 << h0) | (1 << h1)
    key = SIZE_KEY[6]
    bits = 0
    for j in range(5):
        seen |= 1 << b[j]
        key += CARD_KEY[b[j]]
        bits += CARD_BIT[b[j]]
    outs = 0
    unseen = 45
    for c in range(52):
        if (seen >> c) & 1:
            continue
        unseen -= 1
        if value_from_keys(key + CARD_KEY[c], bits + CARD_BIT[c]) > pv:
            outs += 1
            if outs >= outs_limit:
                return 0
        elif outs + unseen < outs_limit:
            break
    return _largest(mults, 2)


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
    """A seated hand's decisions: (street 0 pre-flop, 1 flop, 2 river; Play multiple,
    0 for a fold at the river). ``flops`` is the flop table's (table, canon,
    inverse, hole_id) (:class:`uth.analysis.sim.flop_table.FlopLookup`), read by
    the ``FLOP_TABLE`` rule.
    """
    i, j = pre_flop_index(h0, h1)
    m = pre[i, j]
    if m > 0:
        return 0, m
    flop_rule = rule[RULE_FLOP]
    if flop_rule == FLOP_ALWAYS:
        m = _largest(mults, 1)
    elif flop_rule == FLOP_PRACTICAL:
        m = _flop_practical(h0, h1, board, mults, rule[RULE_FLUSH_KICKER])
    elif flop_rule == FLOP_EXACT:
        m = _flop_exact(h0, h1, board, pays, qual, mults)
    elif flop_rule == FLOP_TABLE:
        table, canon, inverse, hole_id = flops
        code = canon[board[0], board[1], board[2]]
        g = code & 31
        m = table[code >> 5, hole_id[inverse[g, h0], inverse[g, h1]]]
    if m > 0:
        return 1, m
    river_rule = rule[RULE_RIVER]
    if river_rule == RIVER_FOLD:
        return 2, 0
    if river_rule == RIVER_ALWAYS:
        return 2, _largest(mults, 2)
    pv = eval7(h0, h1, board[0], board[1], board[2], board[3], board[4])
    if river_rule == RIVER_PRACTICAL:
        return 2, _river_practical(h0, h1, board, pv, mults, rule[RULE_OUTS])
    best_m, _ = _river_exact(h0, h1, board, pv, pays, qual, mults)
    return 2, best_m


@numba.njit(cache=True, inline="always")
def _pay(pays: I64, row: int, cat: int, stake: int) -> int:
    """Winnings on ``stake`` cents by pay-table row ``row`` (0 Blind, 1 Trips, 2 Bad
    Beat) for category ``cat``, rounded down to the cent; -1 when it does not pay.
    """
    per = pays[2 * row + 1, cat]
    if per == 0:
        return -1
    return int(stake * pays[2 * row, cat] // per)


@numba.njit(cache=True)
def settle_hand(
    pays: I64,
    opts: I64,
    ante: int,
    trips: int,
    bad_beat: int,
    play: int,
    pv: int,
    dv: int,
    bv: int,
    running: int,
    gross: I64,
    net: I64,
    uncovered: I64,
) -> tuple[int, int]:
    """Settle one hand's five wagers into ``net`` and ``uncovered`` (cents, layout
    order) against the payout cap and the bank; ``gross`` (5,) is scratch space.
    Returns (the banker's running result after it, the amount with action before
    the bank).
    """
    gross[:] = 0  # + win, - loss, 0 push or no stake
    qual = opts[OPT_QUALIFIER] << SHIFT
    if play == 0:
        gross[0] = -ante
        gross[1] = -ante
        trips_value = bv if opts[OPT_BOARD_ONLY] else pv
        if trips > 0:
            w = _pay(pays, 1, trips_value >> SHIFT, trips)
            gross[3] = w if w >= 0 else -trips
        gross[4] = -bad_beat
    else:
        cmp = (pv > dv) - (pv < dv)
        qualifies = dv >= qual
        if cmp > 0:
            if qualifies:
                gross[0] = ante
            w = _pay(pays, 0, pv >> SHIFT, ante)
            if w >= 0:
                gross[1] = w
            gross[2] = ante * play
        elif cmp < 0:
            if qualifies:
                gross[0] = -ante
            gross[1] = -ante
            gross[2] = -ante * play
        if trips > 0:
            w = _pay(pays, 1, pv >> SHIFT, trips)
            gross[3] = w if w >= 0 else -trips
        if bad_beat > 0:
            w = _pay(pays, 2, min(pv, dv) >> SHIFT, bad_beat)
            if not qualifies or cmp == 0 or w < 0:
                gross[4] = -bad_beat
            else:
                gross[4] = w
        cap = opts[OPT_CAP]
        if cap >= 0:
            room = cap
            for k in (0, 2, 1):
                if gross[k] > 0:
                    paid = min(gross[k], room)
                    room -= paid
                    gross[k] = paid
    bank = opts[OPT_BANK]
    action = 0
    for k in range(5):
        g = gross[k]
        uncovered[k] = 0
        if g == 0:
            net[k] = 0
            continue
        action += abs(g)
        if bank >= 0:
            room = bank + running if g > 0 else bank - running
            amount = abs(g)
            covered = min(amount, room)
            uncovered[k] = amount - covered
            g = covered if g > 0 else -covered
        net[k] = g
        running -= g
    return running, action


@numba.njit(cache=True)
def _round(
    u: F64,
    i: int,
    deck: I64,
    pays: I64,
    opts: I64,
    mults: I64,
    seat_of: I64,
    ante: I64,
    trips: I64,
    bad_beat: I64,
    pre: I64,
    rule: I64,
    flops: tuple[I64, I64, I64, I64],
    given: I64,
    plays: I64,
    streets: I64,
    values: I64,
    gross: I64,
    nets: I64,
    uncov: I64,
) -> tuple[int, int]:
    """Deal, decide and settle round i; fills plays/streets/values (per seat, then
    the dealer's value in ``values[seats]``) and nets/uncov (per hand, 5 wagers).
    Returns (banker net, action before the bank).
    """
    seats = opts[OPT_SEATS]
    shared = opts[OPT_SHARED]
    dealt = 1 if shared else seats
    k = 2 * dealt + 7
    deal(u, i, deck, k)
    d0 = deck[2 * dealt]
    d1 = deck[2 * dealt + 1]
    board = deck[2 * dealt + 2 : 2 * dealt + 7]
    qual = opts[OPT_QUALIFIER] << SHIFT
    dv = eval7(d0, d1, board[0], board[1], board[2], board[3], board[4])
    values[seats] = dv
    any_fold = False
    for s in range(seats):
        c = 0 if shared else s
        h0 = deck[2 * c]
        h1 = deck[2 * c + 1]
        if given.shape[0] > 0:
            streets[s] = given[i, 2 * s]
            plays[s] = given[i, 2 * s + 1]
        elif shared and s > 0:
            streets[s] = streets[0]
            plays[s] = plays[0]
        else:
            st, m = decide(h0, h1, board, pre, rule, pays, qual, mults, flops)
            streets[s] = st
            plays[s] = m
        values[s] = eval7(h0, h1, board[0], board[1], board[2], board[3], board[4])
        if plays[s] == 0:
            any_fold = True
    bv = eval5(board[0], board[1], board[2], board[3], board[4]) if any_fold else 0
    running = 0
    action = 0
    n_hands = seat_of.shape[0]
    # Folded seats first (settled at the fold), then the others in seat order or reversed.
    for phase in range(2):
        for q in range(seats):
            s = q
            if phase == 1 and opts[OPT_REVERSE]:
                s = seats - 1 - q
            folded = plays[s] == 0
            if folded != (phase == 0):
                continue
            for h in range(n_hands):
                if seat_of[h] == s:
                    running, a = settle_hand(
                        pays, opts, ante[h], trips[h], bad_beat[h], plays[s], values[s], dv,
                        bv, running, gross, nets[h], uncov[h],
                    )  # fmt: skip
                    action += a
    return running, action


@numba.njit(cache=True, nogil=True)
def play_block(
    u: F64,
    pays: I64,
    opts: I64,
    mults: I64,
    seat_of: I64,
    ante: I64,
    trips: I64,
    bad_beat: I64,
    pre: I64,
    rule: I64,
    flops: tuple[I64, I64, I64, I64],
    given: I64,
    acc: I64,
    facc: F64,
    round_net: I64,
) -> None:
    """Play ``u.shape[0]`` rounds and add their totals into ``acc`` (ACC_INT) and
    ``facc`` (ACC_FLOAT). ``given`` (rounds, 2 * seats): decided streets and
    multiples per seat from a Python strategy, or shape (0, 0) to decide here.
    ``round_net`` (rounds,) gets hand 0's net on all its wagers per round, or has
    shape (0,).
    """
    seats = opts[OPT_SEATS]
    n_hands = seat_of.shape[0]
    deck = np.empty(52, dtype=np.int64)
    plays = np.empty(seats, dtype=np.int64)
    streets = np.empty(seats, dtype=np.int64)
    values = np.empty(seats + 1, dtype=np.int64)
    gross = np.empty(5, dtype=np.int64)
    nets = np.zeros((n_hands, 5), dtype=np.int64)
    uncov = np.zeros((n_hands, 5), dtype=np.int64)
    antes = 0
    for h in range(n_hands):
        antes += ante[h]
    for i in range(u.shape[0]):
        banker, action = _round(
            u, i, deck, pays, opts, mults, seat_of, ante, trips, bad_beat, pre, rule, flops,
            given,
            plays, streets, values, gross, nets, uncov,
        )  # fmt: skip
        acc[A_ROUNDS] += 1
        acc[A_ANTE_STAKE] += antes
        main = 0
        missed = 0
        for h in range(n_hands):
            acc[A_TRIPS_STAKE] += trips[h]
            acc[A_BB_STAKE] += bad_beat[h]
            for k in range(5):
                acc[A_NET + k] += nets[h, k]
                missed += uncov[h, k]
            main += nets[h, 0] + nets[h, 1] + nets[h, 2]
        if round_net.shape[0] > 0:
            round_net[i] = nets[0, 0] + nets[0, 1] + nets[0, 2] + nets[0, 3] + nets[0, 4]
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
                d = values[s] - values[seats]
                if d > 0:
                    acc[A_WIN] += 1
                elif d < 0:
                    acc[A_LOSS] += 1
                else:
                    acc[A_TIE] += 1
        x = main / antes
        facc[F_SQ] += x * x
        y = banker / antes
        facc[F_BANKER_SQ] += y * y


@numba.njit(cache=True, nogil=True)
def trace_block(
    u: F64,
    pays: I64,
    opts: I64,
    mults: I64,
    seat_of: I64,
    ante: I64,
    trips: I64,
    bad_beat: I64,
    pre: I64,
    rule: I64,
    flops: tuple[I64, I64, I64, I64],
    given: I64,
    cards: I64,
    plays_out: I64,
    nets_out: I64,
    uncov_out: I64,
) -> None:
    """Play the rounds of ``u`` and record each: ``cards`` (rounds, 2 * dealt + 7):
    the holes dealt in seat order, the dealer's two, the board; ``plays_out``
    (rounds, seats); ``nets_out`` and ``uncov_out`` (rounds, hands, 5) in cents.
    """
    seats = opts[OPT_SEATS]
    n_hands = seat_of.shape[0]
    deck = np.empty(52, dtype=np.int64)
    plays = np.empty(seats, dtype=np.int64)
    streets = np.empty(seats, dtype=np.int64)
    values = np.empty(seats + 1, dtype=np.int64)
    gross = np.empty(5, dtype=np.int64)
    nets = np.zeros((n_hands, 5), dtype=np.int64)
    uncov = np.zeros((n_hands, 5), dtype=np.int64)
    for i in range(u.shape[0]):
        _round(
            u, i, deck, pays, opts, mults, seat_of, ante, trips, bad_beat, pre, rule, flops,
            given,
            plays, streets, values, gross, nets, uncov,
        )  # fmt: skip
        cards[i, :] = deck[: cards.shape[1]]
        plays_out[i, :] = plays
        nets_out[i] = nets
        uncov_out[i] = uncov


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
