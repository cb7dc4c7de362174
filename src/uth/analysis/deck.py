"""The deck an analysis runs on, its hole cards and its canonical flops.

An analysis runs on a deck of ``n`` cards: the full 52-card deck, or a reduced
deck (some ranks in some suits) small enough for the brute-force reference. The
deck must be suit-symmetric (every rank it holds in every suit it holds), so
that any permutation of its suits maps the deck onto itself and the game's
value is unchanged by it (suits are equal, RULES.md "Cards and hands").

Cards are named by *position* 0..n-1 in the deck (ascending card index, see
:attr:`uth.cards.Card.index`). A pair of positions ``i < j`` is a *hole* with
id :attr:`AnalysisDeck.hole_id` ``[i, j]`` (lexicographic order; 1,326 holes
in the full deck).

Suit isomorphism: the 22,100 flops of the full deck fall into 1,755 classes
under the 24 suit permutations. Each class is represented by its smallest flop
(the *canonical flop*); :attr:`AnalysisDeck.orbits` lists, for each canonical
flop, one suit permutation per flop of its class, so that summing over the
class is summing over the canonical flop with the player's hole mapped.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations

import numpy as np
import numpy.typing as npt

from uth.cards.card import RANK_CHARS

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class AnalysisDeck:
    """A suit-symmetric deck with its holes, suit permutations and canonical flops.

    Attributes:
        cards: card indices 0..51, ascending, shape (n,).
        hole_cards: the two positions of each hole, shape (n*(n-1)/2, 2).
        hole_id: hole id of positions (i, j) for i != j (either order), -1 on the
            diagonal; shape (n, n).
        suit_perms: each suit permutation as a position permutation, shape (g, n),
            g = (number of suits)!; row 0 is the identity.
        hole_perms: the same permutations acting on hole ids, shape (g, holes).
        flops: the canonical flops as sorted position triples, shape (f, 3).
        orbits: for each canonical flop, the indices into ``suit_perms`` that map
            it onto each flop of its class, one per flop: a list of f arrays whose
            lengths sum to C(n, 3).

    """

    cards: IntArray
    hole_cards: IntArray
    hole_id: IntArray
    suit_perms: IntArray
    hole_perms: IntArray
    flops: IntArray
    orbits: tuple[IntArray, ...]

    @property
    def n(self) -> int:
        """The number of cards."""
        return int(self.cards.shape[0])

    @property
    def n_holes(self) -> int:
        """The number of two-card holes, C(n, 2)."""
        return int(self.hole_cards.shape[0])

    @property
    def weights(self) -> IntArray:
        """The number of flops in each canonical flop's class, shape (f,)."""
        return np.array([len(o) for o in self.orbits], dtype=np.int64)

    def describe(self) -> str:
        """The deck in words: ``52 cards`` or ``15 cards (TJQKA in cdh)``."""
        if self.n == 52:
            return "52 cards"
        ranks = sorted({int(c) >> 2 for c in self.cards})
        suits = sorted({int(c) & 3 for c in self.cards})
        return f"{self.n} cards ({''.join(RANK_CHARS[r] for r in ranks)} in {''.join('cdhs'[s] for s in suits)})"


def _build(cards: tuple[int, ...]) -> AnalysisDeck:
    n = len(cards)
    if n < 9:
        raise ValueError(f"deck: a deal needs at least 9 cards, got {n}")
    ranks = sorted({c >> 2 for c in cards})
    suits = sorted({c & 3 for c in cards})
    if len(set(cards)) != n or n != len(ranks) * len(suits) or any(not 0 <= c < 52 for c in cards):
        raise ValueError(
            f"deck: every rank must be in every suit (a suit-symmetric deck), got {list(cards)}"
        )
    position = {c: i for i, c in enumerate(cards)}
    pairs = list(combinations(range(n), 2))
    hole_cards = np.array(pairs, dtype=np.int64)
    hole_id = np.full((n, n), -1, dtype=np.int64)
    for h, (i, j) in enumerate(pairs):
        hole_id[i, j] = hole_id[j, i] = h
    perms = []
    for image in permutations(suits):
        mapping = dict(zip(suits, image, strict=True))
        perms.append([position[(c & ~3) | mapping[c & 3]] for c in cards])
    suit_perms = np.array(perms, dtype=np.int64)
    hole_perms = np.empty((len(perms), len(pairs)), dtype=np.int64)
    for g, perm in enumerate(perms):
        for h, (i, j) in enumerate(pairs):
            hole_perms[g, h] = hole_id[perm[i], perm[j]]
    classes: dict[tuple[int, ...], dict[tuple[int, ...], int]] = {}
    for flop in combinations(range(n), 3):
        images = [tuple(sorted(perm[p] for p in flop)) for perm in perms]
        canonical = min(images)
        if canonical == flop:
            members: dict[tuple[int, ...], int] = {}
            for g, image in enumerate(images):
                members.setdefault(image, g)
            classes[flop] = members
    flops = np.array(sorted(classes), dtype=np.int64)
    orbits = tuple(
        np.array(sorted(classes[tuple(int(p) for p in f)].values()), dtype=np.int64) for f in flops
    )
    return AnalysisDeck(
        cards=np.array(cards, dtype=np.int64),
        hole_cards=hole_cards,
        hole_id=hole_id,
        suit_perms=suit_perms,
        hole_perms=hole_perms,
        flops=flops,
        orbits=orbits,
    )


@cache
def analysis_deck(cards: tuple[int, ...] | None = None) -> AnalysisDeck:
    """The analysis deck of ``cards`` (card indices), or of the full 52-card deck.

    Raises:
        ValueError: the cards are not a suit-symmetric deck of at least 9 cards.

    """
    return _build(tuple(sorted(cards)) if cards is not None else tuple(range(52)))


def reduced_deck(ranks: str, suits: str) -> AnalysisDeck:
    """A reduced deck: every rank of ``ranks`` (``"TJQKA"``) in every suit of ``suits``
    (``"cdh"``).

    Raises:
        ValueError: an unknown rank or suit character, or too few cards.

    """
    try:
        cards = tuple(
            RANK_CHARS.index(r) * 4 + "cdhs".index(s) for r in ranks.upper() for s in suits.lower()
        )
    except ValueError:
        raise ValueError(f"deck: unknown rank or suit in {ranks!r} / {suits!r}") from None
    return analysis_deck(cards)


def starting_hand(card_a: int, card_b: int) -> str:
    """The starting-hand class of two cards (indices 0..51): ``AA``, ``AKs``, ``T9o``.

    The 1,326 holes of the full deck fall into 169 classes: 13 pairs, 78 suited
    and 78 offsuit hands, the higher rank first.
    """
    hi, lo = max(card_a >> 2, card_b >> 2), min(card_a >> 2, card_b >> 2)
    if hi == lo:
        return RANK_CHARS[hi] * 2
    suited = (card_a & 3) == (card_b & 3)
    return RANK_CHARS[hi] + RANK_CHARS[lo] + ("s" if suited else "o")
