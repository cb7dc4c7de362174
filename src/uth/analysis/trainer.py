"""Trainer mode: score a player's decisions against the advisor's exact EVs.

A :class:`TrainerSession` belongs to one player for one session (a terminal game,
or a browser seat with the trainer on). Before each decision it gives the
:class:`~uth.analysis.advisor.Advice` of the spot; after it, it records what the
decision cost against the best action (0 when it was the best); after the
showdown :meth:`TrainerSession.end_round` returns the round's reviews and adds
their cost to the session total. Costs are in Antes (the advisor's unit); the
trainer never sees money. Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from uth.analysis.advisor import (
    Advice,
    AdviceUnavailableError,
    PreFlopSource,
    Street,
    advise,
    analysis_pre_flop,
)
from uth.cards import Card
from uth.rules import RuleSet


@dataclass(frozen=True)
class Review:
    """One decision of a round, scored.

    Attributes:
        street: ``pre_flop``, ``flop`` or ``river``.
        action: the action taken (advisor name: ``raise_4x``, ``check``, ``fold``...).
        best: the best action of the advice.
        cost: EV given up against the best action, in Antes (0 for the best).
        auto: the timer took the decision (AUTO CHECKED / AUTO FOLDED).

    """

    street: Street
    action: str
    best: str
    cost: Fraction
    auto: bool = False


@dataclass
class TrainerSession:
    """The trainer of one player: advice before decisions, costs after the showdown.

    Args:
        rules: the table's rule set.
        pre_flop: the source of pre-flop EVs (the exact analysis' table); a
            decision whose advice it cannot give is not scored.

    Attributes:
        total: the cost of every finished round of the session, in Antes.
        rounds: the number of finished rounds.

    """

    rules: RuleSet
    pre_flop: PreFlopSource = analysis_pre_flop
    total: Fraction = Fraction(0)
    rounds: int = 0
    _reviews: list[Review] = field(default_factory=list)

    def advice(
        self, hole: Sequence[Card], board: Sequence[Card], legal: Sequence[str] | None = None
    ) -> Advice | None:
        """The advice at this decision, or None when the pre-flop table is not known.

        Args:
            hole: the player's two hole cards.
            board: the community cards seen (0, 3 or 5).
            legal: the actions the player may take (advisor names; a short balance
                can leave out Play multiples); the advice is limited to them.

        Raises:
            InvalidCardError: the cards do not make a spot (see
                :func:`~uth.analysis.advisor.advise`).

        """
        try:
            advice = advise(self.rules, hole, board, pre_flop=self.pre_flop)
        except AdviceUnavailableError:
            return None
        return advice if legal is None else advice.only(legal)

    def record(self, advice: Advice, action: str, *, auto: bool = False) -> Review:
        """Score ``action`` (taken at the spot of ``advice``) and keep it for the round.

        Raises:
            AdviceUnavailableError: the action is not one of the advice's actions.

        """
        review = Review(advice.street, action, advice.best, advice.cost(action), auto)
        self._reviews.append(review)
        return review

    def end_round(self) -> tuple[Review, ...]:
        """The round's reviews, in decision order; their cost joins the session total."""
        reviews = tuple(self._reviews)
        self._reviews.clear()
        self.total += sum((r.cost for r in reviews), Fraction(0))
        self.rounds += 1
        return reviews
