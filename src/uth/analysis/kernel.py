"""The numba kernels of the exact analysis (method and cost: docs/math.md).

For one canonical flop, :func:`flop_kernel` walks one turn/river pair of each class
under the flop's own suit symmetries (weighted by the size of the class); on each
5-card board it lists the holes of the remaining cards in order of value
(:func:`uth.analysis._values.sorted_hole_values`: one value per pair of ranks, one
per hole that makes a flush) and counts for every player hole the dealer holes it
beats, ties and loses to (and how many of those qualify) by a sweep with per-card
counters: the dealer holes that share a card with the player's hole are removed by
inclusion-exclusion instead of a loop over the dealer's holes. From these counts it
adds up, per player hole and river decision, the exact integer sums a hand that
plays needs, then sums each hole over its images under the flop's symmetries and
takes the flop decision. :func:`scatter_flop` adds a canonical flop's per-hole sums
into the per-hole totals of every flop of its suit class.

All amounts are integers in the units of :mod:`uth.analysis.params`; every
count is a number of deals. Column layouts are the ``PLAY_*`` and ``CHECK_*``
constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from uth.analysis._values import board_value, sorted_hole_values

# Per player hole: sums over the deals that follow, for a hand that plays (any
# multiple m): EV = AB + m * PL, second moment = M0 + m * M1 + m^2 * M2; deals
# won, tied and lost at showdown; Bad Beat result and deals it pays; the Ante's
# share of AB (the Blind's is AB - ANTE, the Play's m * PL).
PLAY_AB, PLAY_PL, PLAY_M0, PLAY_M1, PLAY_M2 = 0, 1, 2, 3, 4
PLAY_WIN, PLAY_TIE, PLAY_LOSS, PLAY_BAD_BEAT, PLAY_BAD_BEAT_HITS, PLAY_ANTE = 5, 6, 7, 8, 9, 10
PLAY_COLUMNS = 11

# Per player hole: sums for a hand that checked pre-flop (the best decisions that
# follow): EV, second moment, deals won / tied / lost at showdown, deals folded,
# Bad Beat result and deals it pays, Trips correction for folds settled on the
# board (amount and paying deals), the Ante's and the Play's shares of EV, then
# the deals raised at each flop multiple, then at each river multiple.
CHECK_EV, CHECK_M, CHECK_WIN, CHECK_TIE, CHECK_LOSS, CHECK_FOLD = 0, 1, 2, 3, 4, 5
CHECK_BAD_BEAT, CHECK_BAD_BEAT_HITS, CHECK_TRIPS, CHECK_TRIPS_HITS = 6, 7, 8, 9
CHECK_ANTE, CHECK_PLAY = 10, 11
CHECK_BASE = 12

# Per canonical flop: checksums of its per-hole sums (shipped with the results).
FLOP_SUMS = ("check_ev", "check_m", "check_fold", "play_ab", "play_pl", "play_m0")


# Per player hole, within one flop: the packed sums of one board's counts. Three
# counts below 2**21 share one int64 (W | L << 21 | Wq << 42): a player hole's
# weighted sums over the computed boards of a flop are at most the 1,176 turn/river
# pairs (the weights add up to them) times 990 dealer holes, 1,164,240 < 2**21.
_PACK = 21
_MASK = (1 << _PACK) - 1
# The Bad Beat column packs the amount paid (winnings plus stake, below 2**40)
# with the number of paying deals above it.
_BB_PACK = 40
# One slot of six sums per river decision (the Play multiples in order, then the
# fold), for the boards it was taken on; the sums of a hand that plays whatever
# comes are the sums over every slot. Then the Trips correction for folds settled
# on the board (amount and paying deals).
A_PACK, A_LQ, A_X1, A_X2, A_X3, A_BAD_BEAT = range(6)
A_PER_SLOT = 6
A_TRIPS, A_TRIPS_HITS = 0, 1  # after the slots


@njit(cache=True, nogil=True, inline="always")
def _river_board(
    cards: np.ndarray,
    board: np.ndarray,
    rest: np.ndarray,
    hole_id: np.ndarray,
    blind_scale: int,
    blind_win: np.ndarray,
    river: np.ndarray,
    qualify_value: int,
    trips_net: np.ndarray,
    board_only: bool,
    bad_beat: bool,
    bad_beat_scale: int,
    bad_beat_win: np.ndarray,
    acc: np.ndarray,
    categories: np.ndarray,
    hole_a: np.ndarray,
    hole_b: np.ndarray,
    values: np.ndarray,
    work: np.ndarray,
    snap: np.ndarray,
    snap_total: np.ndarray,
    cnt: np.ndarray,
    wins: np.ndarray,
    leq: np.ndarray,
    weight: int,
) -> None:
    """Add one board's counts for every player hole of ``rest`` into ``acc``
    (columns ``A_*``), each multiplied by ``weight``: the sums a hand that plays
    needs, and those of the river decision of a hand that checked.
    """
    m = rest.shape[0]
    nr = values.shape[0]
    dealers = (m - 2) * (m - 3) // 2
    s = blind_scale
    sorted_hole_values(cards, board, rest, hole_a, hole_b, values, work)
    cnt[:m] = 0
    less_total = 0
    next_cat = 0
    # The per-card counts are kept at the qualifier's boundary (and, for the Bad
    # Beat, at every category boundary above it).
    qual_cat = qualify_value >> 20
    i = 0
    while i < nr:
        v = values[i]
        while next_cat <= 10 and (next_cat << 20) <= v:
            if bad_beat or next_cat == qual_cat:
                snap[next_cat, :m] = cnt[:m]
            snap_total[next_cat] = less_total
            next_cat += 1
        j = i
        while j < nr and values[j] == v:
            wins[j] = less_total - cnt[hole_a[j]] - cnt[hole_b[j]]
            j += 1
        for x in range(i, j):
            cnt[hole_a[x]] += 1
            cnt[hole_b[x]] += 1
        less_total += j - i
        for x in range(i, j):
            leq[x] = less_total - cnt[hole_a[x]] - cnt[hole_b[x]] + 1
        i = j
    while next_cat <= 10:
        if bad_beat or next_cat == qual_cat:
            snap[next_cat, :m] = cnt[:m]
        snap_total[next_cat] = less_total
        next_cat += 1
    for c in range(10):
        categories[c] += weight * (snap_total[c + 1] - snap_total[c])
    fold_ev = -2 * s * dealers
    board_net = 0
    if board_only:
        b = board_value(
            cards[board[0]], cards[board[1]], cards[board[2]], cards[board[3]], cards[board[4]]
        )
        board_net = trips_net[b >> 20]
    n_river = river.shape[0]
    for k in range(nr):
        a = hole_a[k]
        b = hole_b[k]
        v = values[k]
        cat = v >> 20
        w = wins[k]
        lo = dealers - leq[k]
        nq = snap_total[qual_cat] - snap[qual_cat, a] - snap[qual_cat, b]
        if v < qualify_value:
            nq += 1
            wq = 0
            lq = dealers - nq
        else:
            wq = w - nq
            lq = lo
        bp = blind_win[cat]
        packed = w | (lo << _PACK) | (wq << (2 * _PACK))
        bb = 0
        if bad_beat:
            # Bad Beat (002): the beaten hand's category pays when the dealer
            # qualifies and the hands do not tie; otherwise it loses.
            paid = 0
            hits = 0
            if bad_beat_win[cat] > 0:
                paid += lq * (bad_beat_win[cat] + bad_beat_scale)
                hits += lq
            for c in range(qual_cat, cat + 1):
                if bad_beat_win[c] == 0:
                    continue
                upper = w if c == cat else snap_total[c + 1] - snap[c + 1, a] - snap[c + 1, b]
                lower = snap_total[c] - snap[c, a] - snap[c, b]
                paid += (upper - lower) * (bad_beat_win[c] + bad_beat_scale)
                hits += upper - lower
            bb = paid + (hits << _BB_PACK)
        h = hole_id[rest[a], rest[b]]
        # River decision: fold, or Play at a river multiple; on an exact tie the
        # smaller wager (fold first, then the smaller multiple).
        ab = s * (wq - lq) + bp * w - s * lo
        pl = s * (w - lo)
        best = fold_ev
        choice = n_river
        for r in range(n_river - 1, -1, -1):
            ev = ab + river[r] * pl
            if ev > best:
                best = ev
                choice = r
        base = A_PER_SLOT * choice
        acc[h, base + A_PACK] += weight * packed
        acc[h, base + A_LQ] += weight * (lq | (1 << (2 * _PACK)))
        if bp:
            acc[h, base + A_X1] += weight * bp * w
            acc[h, base + A_X2] += weight * bp * wq
            acc[h, base + A_X3] += weight * bp * bp * w
        if bad_beat:
            acc[h, base + A_BAD_BEAT] += weight * bb
        if board_only and choice == n_river:
            trips = A_PER_SLOT * (n_river + 1)
            acc[h, trips + A_TRIPS] += weight * (board_net - trips_net[cat])
            acc[h, trips + A_TRIPS_HITS] += weight * ((board_net > 0) - (trips_net[cat] > 0))


# Per player hole, within one flop, once the boards are done: the sums of ``acc``
# unpacked (one count per column), for a hand that plays (base 0), then the folds
# and Trips corrections, then per river multiple (base U_BASE + U_PER * r).
U_W, U_LO, U_WQ, U_LQ, U_X1, U_X2, U_X3, U_BB, U_BB_HITS, U_BOARDS = range(10)
U_PER = 10
U_FOLD, U_TRIPS, U_TRIPS_HITS = 10, 11, 12
U_BASE = 13


@njit(cache=True, nogil=True)
def _unpack_add(row: np.ndarray, n_river: int, out: np.ndarray) -> None:
    """Add the packed sums ``row`` (slots ``A_*``) into ``out`` (columns ``U_*``)."""
    for r in range(n_river + 1):
        base = A_PER_SLOT * r
        packed = row[base + A_PACK]
        bb = row[base + A_BAD_BEAT]
        fields = (
            packed & _MASK,
            (packed >> _PACK) & _MASK,
            packed >> (2 * _PACK),
            row[base + A_LQ] & _MASK,
            row[base + A_X1],
            row[base + A_X2],
            row[base + A_X3],
            bb & ((1 << _BB_PACK) - 1),
            bb >> _BB_PACK,
            row[base + A_LQ] >> (2 * _PACK),
        )
        # a hand that plays whatever comes: every slot
        ubase = U_BASE + U_PER * r if r < n_river else -1
        for c in range(U_PER):
            out[c] += fields[c]
            if ubase >= 0:
                out[ubase + c] += fields[c]
        if r == n_river:
            out[U_FOLD] += fields[U_BOARDS]
    trips = A_PER_SLOT * (n_river + 1)
    out[U_TRIPS] += row[trips + A_TRIPS]
    out[U_TRIPS_HITS] += row[trips + A_TRIPS_HITS]


@njit(cache=True, nogil=True)
def _moments(
    u: np.ndarray, base: int, boards: int, dealers: int, s: int, bad_beat_scale: int
) -> tuple[int, int, int, int, int, int, int, int, int, int, int]:
    """One set of unpacked sums (columns ``U_*`` from ``base``) over ``boards`` boards
    of ``dealers`` dealer holes: (AB, PL, M0, M1, M2, W, T, L, Bad Beat, Bad Beat
    hits, Ante), as the ``PLAY_*`` columns.
    """
    w = u[base + U_W]
    lo = u[base + U_LO]
    wq = u[base + U_WQ]
    lq = u[base + U_LQ]
    x1 = u[base + U_X1]
    x2 = u[base + U_X2]
    x3 = u[base + U_X3]
    t = boards * dealers - w - lo
    ab = s * (wq - lq) + x1 - s * lo
    pl = s * (w - lo)
    m0 = s * s * wq + 2 * s * x2 + x3 + 4 * s * s * lq + s * s * (lo - lq)
    m1 = 2 * s * (s * wq + x1 + 2 * s * lq + s * (lo - lq))
    m2 = s * s * (w + lo)
    bb_net = u[base + U_BB] - bad_beat_scale * boards * dealers
    return ab, pl, m0, m1, m2, w, t, lo, bb_net, u[base + U_BB_HITS], s * (wq - lq)


@njit(cache=True, nogil=True)
def flop_stabilizer(flop: np.ndarray, suit_perms: np.ndarray, n: int) -> np.ndarray:
    """The suit permutations (indices into ``suit_perms``) that map ``flop`` onto itself."""
    in_flop = np.zeros(n, dtype=np.bool_)
    for p in flop:
        in_flop[p] = True
    stab = np.empty(suit_perms.shape[0], dtype=np.int64)
    ns = 0
    for g in range(suit_perms.shape[0]):
        ok = True
        for p in flop:
            if not in_flop[suit_perms[g, p]]:
                ok = False
        if ok:
            stab[ns] = g
            ns += 1
    return stab[:ns]


@njit(cache=True, nogil=True)
def flop_kernel(
    cards: np.ndarray,
    flop: np.ndarray,
    hole_id: np.ndarray,
    suit_perms: np.ndarray,
    hole_perms: np.ndarray,
    blind_scale: int,
    blind_win: np.ndarray,
    flop_mult: np.ndarray,
    river: np.ndarray,
    qualify_value: int,
    trips_net: np.ndarray,
    board_only: bool,
    bad_beat: bool,
    bad_beat_scale: int,
    bad_beat_win: np.ndarray,
    play: np.ndarray,
    check: np.ndarray,
    categories: np.ndarray,
) -> None:
    """Exact per-hole sums for one flop, over every turn, river and dealer hole.

    Args:
        cards: the deck's card indices, shape (n,).
        flop: the flop's three positions.
        hole_id: hole ids of position pairs, shape (n, n).
        suit_perms, hole_perms: the deck's suit permutations acting on positions,
            shape (g, n), and on hole ids, shape (g, holes)
            (:class:`uth.analysis.deck.AnalysisDeck`).
        blind_scale ... bad_beat_win: the rules (:class:`uth.analysis.params.GameParams`);
            ``flop_mult`` and ``river`` are the Play multiples, descending.
        play: out, shape (holes, PLAY_COLUMNS): sums for a hand that plays.
        check: out, shape (holes, CHECK_BASE + len(flop_mult) + len(river)):
            sums for a hand that checked pre-flop, after its best flop decision
            (flop multiples counted in columns CHECK_BASE.., river multiples after them).
        categories: in/out, shape (10,): (player hole, board) pairs per category of
            the player's 7-card hand are added to it.

    Rows of holes that share a card with the flop are zero.

    Only one turn/river pair of each class under the flop's own suit symmetries
    (the permutations that map the flop onto itself) is computed, weighted by the
    size of its class; the weighted sums of a hole, summed over the images of the
    hole under those symmetries, are the exact sums times the number of symmetries
    (docs/math.md).
    """
    n = cards.shape[0]
    m = n - 5
    nr = m * (m - 1) // 2
    dealers = (m - 2) * (m - 3) // 2
    s = blind_scale
    n_flop = flop_mult.shape[0]
    n_river = river.shape[0]
    play[:, :] = 0
    check[:, :] = 0
    acc = np.zeros((check.shape[0], A_PER_SLOT * (n_river + 1) + 2), dtype=np.int64)
    hole_a = np.empty(nr, dtype=np.int64)
    hole_b = np.empty(nr, dtype=np.int64)
    values = np.empty(nr, dtype=np.int64)
    work = np.zeros((6, nr + 400), dtype=np.int64)
    snap = np.zeros((11, m), dtype=np.int64)
    snap_total = np.zeros(11, dtype=np.int64)
    cnt = np.zeros(m, dtype=np.int64)
    wins = np.empty(nr, dtype=np.int64)
    leq = np.empty(nr, dtype=np.int64)
    in_flop = np.zeros(n, dtype=np.bool_)
    for p in flop:
        in_flop[p] = True
    stab = flop_stabilizer(flop, suit_perms, n)
    ns = stab.shape[0]
    remaining = np.array([p for p in range(n) if not in_flop[p]], dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    board[:3] = flop
    rest = np.empty(m, dtype=np.int64)
    for ti in range(remaining.shape[0]):
        for ri in range(ti + 1, remaining.shape[0]):
            t = remaining[ti]
            r = remaining[ri]
            # The pair is computed when no symmetry maps it to a smaller pair; its
            # weight is the size of its class.
            fixed = 0
            smallest = True
            for g in stab:
                x = suit_perms[g, t]
                y = suit_perms[g, r]
                lo_p = min(x, y)
                hi_p = max(x, y)
                if lo_p < t or (lo_p == t and hi_p < r):
                    smallest = False
                    break
                if lo_p == t and hi_p == r:
                    fixed += 1
            if not smallest:
                continue
            board[3] = t
            board[4] = r
            x = 0
            for p in remaining:
                if p != t and p != r:
                    rest[x] = p
                    x += 1
            _river_board(
                cards, board, rest, hole_id, blind_scale, blind_win,
                river, qualify_value, trips_net, board_only, bad_beat, bad_beat_scale,
                bad_beat_win, acc, categories, hole_a, hole_b, values, work, snap, snap_total,
                cnt, wins, leq, ns // fixed,
            )  # fmt: skip
    # Flop decision: check (the river decisions) or Play at a flop multiple; on an
    # exact tie the smaller wager.
    deals = nr * dealers
    u = np.empty(U_BASE + U_PER * n_river, dtype=np.int64)
    for a in range(n):
        for b in range(a + 1, n):
            if in_flop[a] or in_flop[b]:
                continue
            h = hole_id[a, b]
            u[:] = 0
            for g in stab:
                _unpack_add(acc[hole_perms[g, h]], n_river, u)
            for c in range(u.shape[0]):
                if u[c] % ns:
                    raise AssertionError("flop_kernel: the sums are not symmetric")
                u[c] //= ns
            ab, pl, m0, m1, m2, w, t, lo, bb, bb_hits, ante = _moments(
                u, 0, nr, dealers, s, bad_beat_scale
            )
            out = play[h]
            out[PLAY_AB] = ab
            out[PLAY_PL] = pl
            out[PLAY_M0] = m0
            out[PLAY_M1] = m1
            out[PLAY_M2] = m2
            out[PLAY_WIN] = w
            out[PLAY_TIE] = t
            out[PLAY_LOSS] = lo
            out[PLAY_BAD_BEAT] = bb if bad_beat else 0
            out[PLAY_BAD_BEAT_HITS] = bb_hits
            out[PLAY_ANTE] = ante
            folds = u[U_FOLD] * dealers
            chk = np.zeros(CHECK_BASE + n_flop + n_river, dtype=np.int64)
            chk[CHECK_EV] = -2 * s * folds
            chk[CHECK_M] = 4 * s * s * folds
            chk[CHECK_FOLD] = folds
            chk[CHECK_BAD_BEAT] = -bad_beat_scale * folds if bad_beat else 0
            chk[CHECK_TRIPS] = u[U_TRIPS] * dealers
            chk[CHECK_TRIPS_HITS] = u[U_TRIPS_HITS] * dealers
            chk[CHECK_ANTE] = -s * folds
            for r in range(n_river):
                base = U_BASE + U_PER * r
                boards = u[base + U_BOARDS]
                rab, rpl, rm0, rm1, rm2, rw, rt, rlo, rbb, rbb_hits, rante = _moments(
                    u, base, boards, dealers, s, bad_beat_scale
                )
                mult = river[r]
                chk[CHECK_EV] += rab + mult * rpl
                chk[CHECK_M] += rm0 + mult * rm1 + mult * mult * rm2
                chk[CHECK_WIN] += rw
                chk[CHECK_TIE] += rt
                chk[CHECK_LOSS] += rlo
                if bad_beat:
                    chk[CHECK_BAD_BEAT] += rbb
                    chk[CHECK_BAD_BEAT_HITS] += rbb_hits
                chk[CHECK_ANTE] += rante
                chk[CHECK_PLAY] += mult * rpl
                chk[CHECK_BASE + n_flop + r] = boards * dealers
            best = chk[CHECK_EV]
            choice = -1
            for f in range(n_flop - 1, -1, -1):
                ev = ab + flop_mult[f] * pl
                if ev > best:
                    best = ev
                    choice = f
            if choice >= 0:
                mult = flop_mult[choice]
                chk[:] = 0
                chk[CHECK_EV] = best
                chk[CHECK_M] = m0 + mult * m1 + mult * mult * m2
                chk[CHECK_WIN] = w
                chk[CHECK_TIE] = t
                chk[CHECK_LOSS] = lo
                chk[CHECK_BAD_BEAT] = out[PLAY_BAD_BEAT]
                chk[CHECK_BAD_BEAT_HITS] = bb_hits
                chk[CHECK_ANTE] = ante
                chk[CHECK_PLAY] = mult * pl
                chk[CHECK_BASE + choice] = deals
            check[h, :] = chk


@njit(cache=True, nogil=True, parallel=True)
def flops_kernel(
    cards: np.ndarray,
    flops: np.ndarray,
    hole_id: np.ndarray,
    suit_perms: np.ndarray,
    hole_perms: np.ndarray,
    blind_scale: int,
    blind_win: np.ndarray,
    flop_mult: np.ndarray,
    river: np.ndarray,
    qualify_value: int,
    trips_net: np.ndarray,
    board_only: bool,
    bad_beat: bool,
    bad_beat_scale: int,
    bad_beat_win: np.ndarray,
    play: np.ndarray,
    check: np.ndarray,
    categories: np.ndarray,
) -> None:
    """:func:`flop_kernel` for several flops in parallel (numba threads).

    ``flops`` has shape (k, 3); ``play``, ``check`` and ``categories`` get a
    leading axis of length k (``categories`` zeroed here).
    """
    categories[:, :] = 0
    for i in prange(flops.shape[0]):
        flop_kernel(
            cards, flops[i], hole_id, suit_perms, hole_perms, blind_scale, blind_win, flop_mult,
            river, qualify_value, trips_net, board_only, bad_beat, bad_beat_scale, bad_beat_win, play[i], check[i],
            categories[i],
        )  # fmt: skip


@njit(cache=True, nogil=True)
def scatter_flop(
    play: np.ndarray,
    check: np.ndarray,
    hole_perms: np.ndarray,
    orbit: np.ndarray,
    total_play: np.ndarray,
    total_check: np.ndarray,
) -> None:
    """Add a canonical flop's per-hole sums into the per-hole totals of every flop
    of its class: for each suit permutation g of ``orbit``, the row of hole h goes
    to hole g(h).
    """
    for g in orbit:
        perm = hole_perms[g]
        for h in range(play.shape[0]):
            target = perm[h]
            for c in range(play.shape[1]):
                total_play[target, c] += play[h, c]
            for c in range(check.shape[1]):
                total_check[target, c] += check[h, c]
