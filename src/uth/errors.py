"""Domain exceptions shared by every layer.

Each is a subclass of :class:`ValueError` and its message names the bad field
and value, so that a CLI or an API can show it as it is.
"""

from __future__ import annotations


class UthError(ValueError):
    """Base class of every error uth raises on bad input.

    Attributes:
        field: the name of the input field at fault (``"board[2]"``, ``"wagers.trips"``),
            or ``None`` when no single field is at fault.
        code: a short machine-readable error code (``"invalid_card"``).

    """

    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class InvalidCardError(UthError):
    """A card could not be parsed, or a card appears twice in a deal."""

    code = "invalid_card"


class InvalidRulesError(UthError):
    """A rule set is inconsistent or a rule-set file is malformed."""

    code = "invalid_rules"


class InvalidWagerError(UthError):
    """A wager breaks the rule set: limits, Blind equal to Ante, Trips above the Ante, ..."""

    code = "invalid_wager"


class InvalidDealError(UthError):
    """A deal is malformed: wrong card counts, unknown hand id, bad deck."""

    code = "invalid_deal"


class IllegalActionError(UthError):
    """An action that is not among the legal actions at this point of the round."""

    code = "illegal_action"


class InvalidRecordError(UthError):
    """A stored round record is malformed: a missing or unknown key, a bad value."""

    code = "invalid_record"
