"""The decision advisor: the exact EV of every legal action at a decision.

For a rule set, the player's two hole cards and the cards the player sees (none,
the flop, or the whole board), :func:`advise` returns the exact expected value of
each legal action from that point on, in Ante units for the whole hand: Ante,
Blind and Play together, side bets (Trips, Bad Beat) excluded. A fold is -2 (the
Ante and Blind lose). The figures follow RULES.md, "Settlement against the
dealer": the Ante pushes when the dealer does not qualify; the Blind pays by its
table on a win with a paying hand, pushes on a win below it, and loses on a loss;
the Play wins or loses even money; ties push everything. Payout cap and
player-dealer bank are ignored (the figures are per unit Ante), as in the exact
analysis (docs/math.md).

How each street is computed:

- **River** (five board cards): every dealer hole of the 45 cards the player does
  not see, C(45, 2) = 990 of them, is compared with the player's hand.
- **Flop** (three board cards): every turn and river pair of the 47 unseen cards,
  C(47, 2) = 1,081, and for each every dealer hole of the other 45; a Play on the
  flop is settled on each of the 1,070,190 deals, a check is worth the best river
  decision (Play or fold) on each turn and river, averaged.
- **Pre-flop**: the EV table of the 169 starting hands from the exact analysis
  (:mod:`uth.analysis.exact`), read from its stored result
  (:func:`analysis_pre_flop`, the default :data:`PreFlopSource`).

Card removal: the dealer never holds a card the player sees (the player's hole
cards and the board). Cards of other players are unseen and count as possible
dealer cards, as they are for the player at the table.

The kernels release the GIL (``nogil``): a server can compute advice in a worker
thread without stalling its event loop.

Sums are exact integers (the Blind's odds are scaled by the least common multiple
of their denominators) turned into :class:`~fractions.Fraction`; nothing is
rounded. Ties between actions go to the smaller wager (check or fold first), as in
the exact analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from uth.analysis.cache import cached_result
from uth.analysis.deck import starting_hand
from uth.analysis.params import fingerprint, game_params
from uth.analysis.result import AnalysisResult
from uth.analysis.showdown import flop_counts, river_counts, showdown_ev
from uth.cards import Card
from uth.cards.card import check_distinct
from uth.engine import Action
from uth.errors import InvalidCardError, UthError
from uth.rules import RuleSet

Street = Literal["pre_flop", "flop", "river"]

#: Dealer holes from the 45 cards the player does not see at the river: C(45, 2).
DEALER_HOLES = 990
#: Turn and river pairs from the 47 cards the player does not see on the flop: C(47, 2).
TURN_RIVERS = 1081
#: Board cards seen on each street.
STREET_OF_BOARD: dict[int, Street] = {0: "pre_flop", 3: "flop", 5: "river"}


class AdviceUnavailableError(UthError):
    """No answer can be given: the pre-flop EV table of this rule set is not known."""

    code = "advice_unavailable"


def action_name(action: Action) -> str:
    """The advisor's name of an engine action: ``raise_4x`` ... ``check``, ``fold``.

    The engine writes ``play_4x``; the advisor and its JSON use ``raise_4x`` (issue 11).
    """
    return f"raise_{action.multiple}x" if action.kind == "play" else action.kind


def legal_names(rules: RuleSet, street: Street) -> tuple[str, ...]:
    """The advisor's names of the legal actions on a street, largest Play first.

    Pre-flop and on the flop the last is ``check``, at the river ``fold``
    (RULES.md, "A round"; the multiples come from the rule set).
    """
    multiples = getattr(rules.play_multiples, street)
    last = "fold" if street == "river" else "check"
    return (*(f"raise_{m}x" for m in multiples), last)


@dataclass(frozen=True)
class Advice:
    """The exact EV of each legal action at one decision.

    Attributes:
        street: ``pre_flop``, ``flop`` or ``river``.
        actions: EV per action name, in Ante units for the whole hand (Ante, Blind
            and Play), in legal order (largest Play first, then check or fold).
        best: the action with the highest EV (ties: the smaller wager).

    """

    street: Street
    actions: dict[str, Fraction]

    @property
    def best(self) -> str:
        """The optimal action (ties go to the smaller wager: check, fold, smaller Play)."""
        names = list(self.actions)
        best = names[-1]
        for name in reversed(names):
            if self.actions[name] > self.actions[best]:
                best = name
        return best

    def cost(self, action: str) -> Fraction:
        """What ``action`` costs against the best action, in Antes (0 for the best).

        Raises:
            AdviceUnavailableError: the action is not legal here (named in the message).

        """
        if action not in self.actions:
            raise AdviceUnavailableError(
                f"action: {action!r} is not one of {', '.join(self.actions)}", field="action"
            )
        return self.actions[self.best] - self.actions[action]

    def only(self, names: Sequence[str]) -> Advice:
        """The same advice limited to ``names`` (the actions a player's balance allows).

        Raises:
            AdviceUnavailableError: none of ``names`` is an action of this advice.

        """
        kept = {name: ev for name, ev in self.actions.items() if name in names}
        if not kept:
            raise AdviceUnavailableError(
                f"action: none of {', '.join(names)} is one of {', '.join(self.actions)}",
                field="action",
            )
        return Advice(self.street, kept)

    def to_json(self) -> dict[str, Any]:
        """``{"actions": {"raise_4x": ev, ...}, "best": "raise_4x"}`` with float EVs."""
        return {
            "actions": {name: float(ev) for name, ev in self.actions.items()},
            "best": self.best,
        }


#: Where pre-flop EVs come from: ``(rules, hole) -> {action name: EV}`` for the
#: pre-flop actions of ``rules``; raises :class:`AdviceUnavailableError` when the
#: table of that rule set is not known.
PreFlopSource = Callable[[RuleSet, tuple[Card, Card]], Mapping[str, Fraction]]


def no_pre_flop_table(rules: RuleSet, hole: tuple[Card, Card]) -> Mapping[str, Fraction]:
    """A pre-flop source without a table (tests, or to advise the flop and river only).

    Raises:
        AdviceUnavailableError: always, naming the rule set.

    """
    raise AdviceUnavailableError(
        f"rules: no pre-flop EV table is known for rule set {rules.name!r}", field="rules"
    )


#: Stored analysis results already read, by rule-set fingerprint.
_RESULTS: dict[str, AnalysisResult] = {}


def analysis_pre_flop(rules: RuleSet, hole: tuple[Card, Card]) -> Mapping[str, Fraction]:
    """The default pre-flop source: the exact analysis' table of the 169 starting hands.

    Reads the stored result of ``rules`` (:func:`uth.analysis.cached_result`: shipped
    with the package for the presets whose math it covers, or in the user cache after
    ``uth analyze``) once per process, then looks up the hole's starting hand
    (``AKs``, ``T9o``, ``77``).

    Raises:
        AdviceUnavailableError: no stored result for ``rules`` (naming the rule set
            and how to compute it).

    """
    key = _params(rules)[1]
    result = _RESULTS.get(key)
    if result is None:
        result = cached_result(rules)
        if result is None:
            raise AdviceUnavailableError(
                f"rules: no stored exact analysis for rule set {rules.name!r}, so no "
                "pre-flop EVs; compute it once with `uth analyze --rules` and this "
                "rule set's preset or file (the result is cached)",
                field="rules",
            )
        _RESULTS[key] = result
    hand = result.pre_flop[starting_hand(hole[0].index, hole[1].index)]
    return {
        **{f"raise_{m}x": ev for m, ev in hand.raise_ev.items()},
        "check": hand.check,
    }


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True, eq=False)
class _Params:
    """The math-relevant rules as integers for the kernels (from
    :func:`uth.analysis.params.game_params`).

    ``scale`` is S, the least common multiple of the Blind odds' denominators; one
    Ante is S units and ``blind_win[category]`` the Blind's winnings times S (0
    where the Blind pushes on a win).
    """

    scale: int
    blind_win: npt.NDArray[np.int64]
    qualify: int
    flop: npt.NDArray[np.int64]
    river: npt.NDArray[np.int64]


#: Parameters of the rule sets seen lately, by object id (the rule set is kept
#: with them, so an id is never reused while its entry lives). A server asks
#: about its tables' few rule sets over and over; this keeps each answer from
#: re-deriving them (about 0.1 ms).
_PARAMS: dict[int, tuple[RuleSet, _Params, str]] = {}


def _params(rules: RuleSet) -> tuple[_Params, str]:
    """The kernels' parameters of ``rules`` and its fingerprint (memoised)."""
    entry = _PARAMS.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1], entry[2]
    game = game_params(rules)
    params = _Params(
        scale=game.blind_scale,
        blind_win=game.blind_win,
        qualify=game.qualify_value,
        flop=np.array(game.flop, dtype=np.int64),
        river=np.array(game.river, dtype=np.int64),
    )
    if len(_PARAMS) >= 64:
        _PARAMS.clear()
    _PARAMS[id(rules)] = (rules, params, fingerprint(rules))
    return params, _PARAMS[id(rules)][2]


# --------------------------------------------------------------------------- API


def _indices(hole: Sequence[Card], board: Sequence[Card]) -> npt.NDArray[np.int64]:
    """Check the cards of a spot and return their indices (hole first)."""
    if len(hole) != 2:
        raise InvalidCardError(f"hole: expected 2 cards, got {len(hole)}", field="hole")
    if len(board) not in STREET_OF_BOARD:
        raise InvalidCardError(
            f"board: expected 0 cards (pre-flop), 3 (the flop) or 5 (the whole board), "
            f"got {len(board)}",
            field="board",
        )
    check_distinct((*hole, *board), field="cards")
    return np.array([c.index for c in (*hole, *board)], dtype=np.int64)


def river_advice(rules: RuleSet, hole: Sequence[Card], board: Sequence[Card]) -> Advice:
    """The EV of each river action (each river Play multiple, fold) on a full board.

    Args:
        rules: the rule set (Blind table, dealer qualifier, river multiples).
        hole: the player's two hole cards.
        board: the five community cards.

    Returns:
        An :class:`Advice` for street ``river``; exact over the 990 dealer holes.

    Raises:
        InvalidCardError: not two hole cards, not five board cards, or a card twice.

    """
    if len(board) != 5:
        raise InvalidCardError(f"board: expected 5 cards, got {len(board)}", field="board")
    cards = _indices(hole, board)
    p = _params(rules)[0]
    counts = np.zeros(6, dtype=np.int64)
    river_counts(cards, p.qualify, counts)
    unit = p.scale * DEALER_HOLES
    actions = {
        f"raise_{m}x": Fraction(int(showdown_ev(counts, int(m), p.scale, p.blind_win)), unit)
        for m in p.river
    }
    actions["fold"] = Fraction(-2)
    return Advice("river", actions)


def flop_advice(rules: RuleSet, hole: Sequence[Card], flop: Sequence[Card]) -> Advice:
    """The EV of each flop action (each flop Play multiple, check) after the flop.

    A check is followed by the best river decision on each turn and river.

    Args:
        rules: the rule set (Blind table, dealer qualifier, flop and river multiples).
        hole: the player's two hole cards.
        flop: the three flop cards.

    Returns:
        An :class:`Advice` for street ``flop``; exact over the 1,081 turn and river
        pairs and the 990 dealer holes of each.

    Raises:
        InvalidCardError: not two hole cards, not three flop cards, or a card twice.

    """
    if len(flop) != 3:
        raise InvalidCardError(f"flop: expected 3 cards, got {len(flop)}", field="flop")
    cards = _indices(hole, flop)
    p = _params(rules)[0]
    raise_sums = np.zeros(p.flop.shape[0], dtype=np.int64)
    check_sum = flop_counts(cards, p.qualify, p.scale, p.blind_win, p.flop, p.river, raise_sums)
    unit = p.scale * DEALER_HOLES * TURN_RIVERS
    actions = {
        f"raise_{int(m)}x": Fraction(int(s), unit) for m, s in zip(p.flop, raise_sums, strict=True)
    }
    actions["check"] = Fraction(int(check_sum), unit)
    return Advice("flop", actions)


def pre_flop_advice(
    rules: RuleSet, hole: Sequence[Card], source: PreFlopSource = analysis_pre_flop
) -> Advice:
    """The EV of each pre-flop action, from ``source`` (the exact analysis' table).

    Raises:
        InvalidCardError: not two distinct hole cards.
        AdviceUnavailableError: ``source`` has no table for ``rules``, or its table
            lacks one of the legal pre-flop actions.

    """
    _indices(hole, ())
    table = source(rules, (hole[0], hole[1]))
    actions: dict[str, Fraction] = {}
    for name in legal_names(rules, "pre_flop"):
        if name not in table:
            raise AdviceUnavailableError(
                f"rules: the pre-flop table of {rules.name!r} has no {name}", field="rules"
            )
        actions[name] = Fraction(table[name])
    return Advice("pre_flop", actions)


def advise(
    rules: RuleSet,
    hole: Sequence[Card],
    board: Sequence[Card] = (),
    *,
    pre_flop: PreFlopSource = analysis_pre_flop,
) -> Advice:
    """The exact EV of every legal action at the decision the seen cards give.

    Args:
        rules: the rule set.
        hole: the player's two hole cards.
        board: the community cards seen: none (pre-flop), the flop (3) or all five
            (river).
        pre_flop: where pre-flop EVs come from (default: the exact analysis' stored
            table, :func:`analysis_pre_flop`).

    Returns:
        The :class:`Advice` of that street.

    Raises:
        InvalidCardError: not two hole cards, a board of another size, or a card
            twice (the message names the field).
        AdviceUnavailableError: pre-flop, when ``pre_flop`` has no table for ``rules``.

    """
    _indices(hole, board)
    if len(board) == 5:
        return river_advice(rules, hole, board)
    if len(board) == 3:
        return flop_advice(rules, hole, board)
    return pre_flop_advice(rules, hole, pre_flop)
