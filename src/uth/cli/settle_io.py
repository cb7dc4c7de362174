"""The JSON contract of ``uth settle``: reading a deal, writing its settlement.

This module is the public JSON contract of settlement; keep it stable.

Input, one deal (a JSON object)::

    {"rules": "casino",
     "board": ["Ah", "Kd", "7c", "7s", "2h"],
     "dealer": ["Qc", "Qd"],
     "hands": [{"id": "seat1", "hole": ["As", "Ad"],
                "wagers": {"ante": 10, "blind": 10, "trips": 5, "bad_beat": 0},
                "play": 4}],
     "player_dealer": {"bank": 500}}

- ``rules``: a preset name, or an inline rule set (an object with the keys of a
  rule-set TOML file, which may start from a preset with ``"extends"``).
- ``board``: the five community cards; ``dealer``: the dealer's two hole cards.
- ``hands``: in settlement order (clockwise from the dealer's left). ``play`` is
  the Play wager as a multiple of the Ante (4 or 3 pre-flop, 2 on the flop, 1 at
  the river) or 0 for a fold. ``trips`` and ``bad_beat`` may be left out (0). A
  back-line bet has ``"behind": "<id of an earlier seated hand>"`` instead of
  ``hole`` and ``play``: it rides on that hand's cards and decision.
- ``player_dealer``: the player-dealer's bank, with a player-dealer rule set
  only (and required there).

The input is the pydantic model :class:`DealIn` (with :class:`HandIn`,
:class:`WagersIn`, :class:`PlayerDealerIn`), the output :class:`SettlementOut` or
:class:`ErrorOut`; their JSON Schema is ``docs/settle.schema.json``
(:func:`contract_schema`, ``uth settle --schema``).

Every key is checked: unknown keys are refused, cards and their counts, a card
seen twice anywhere in the deal, hand ids (non-empty strings, unique), every
wager against the rule set, the Play multiple, amounts in whole cents. The models
check the shape; the rule set's checks are the engine's
(:func:`uth.engine.wagers.validate_wagers`, :func:`uth.engine.settlement.check_deal`,
:func:`uth.engine.settlement.check_bank`). Amounts are JSON numbers, read exactly:
parse JSON with :func:`loads` (floats become ``Decimal``), never through binary
floats.

Output: see :func:`settlement_to_json`. Amounts are JSON numbers: ``10`` for a
whole amount, ``7.5`` otherwise. An input that cannot be settled gives
``{"error": "<field>: <what is wrong>, got <value>"}`` (:func:`error_to_json`), the
first problem found.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic.json_schema import models_json_schema
from pydantic_core import PydanticCustomError

from uth.cards.card import Card, parse_card
from uth.engine.settlement import (
    HandEntry,
    HandOutcome,
    Settlement,
    WagerOutcome,
    check_bank,
    check_behind,
    check_deal,
    check_play,
    settle,
)
from uth.engine.wagers import WagerKind, validate_wagers
from uth.errors import (
    InvalidCardError,
    InvalidDealError,
    InvalidRulesError,
    InvalidWagerError,
    UthError,
)
from uth.evaluator import CategoryKey, HandValue
from uth.money import MAX_AMOUNT, WrittenNumber, money_json, parse_amount
from uth.rules import PRESET_NAMES, RuleSet, preset, rules_from_data

#: The keys of a deal object, in the order they are documented.
DEAL_KEYS: tuple[str, ...] = ("rules", "board", "dealer", "hands", "player_dealer")
#: The keys of a hand object.
HAND_KEYS: tuple[str, ...] = ("id", "hole", "wagers", "play", "behind")
#: The longest hand id accepted.
MAX_ID_LENGTH = 64
#: The keys of a hand's ``wagers`` object (Play is given by ``play``, a multiple).
WAGER_KEYS: tuple[str, ...] = ("ante", "blind", "trips", "bad_beat")
#: The keys of the ``player_dealer`` object.
PLAYER_DEALER_KEYS: tuple[str, ...] = ("bank",)

#: The longest list of cards read (a deck).
_MAX_CARDS = 52
_SHOW_MAX = 60


class Deal(NamedTuple):
    """A validated deal, ready for :func:`uth.engine.settlement.settle`.

    Unpacks as ``rules, board, dealer, hands, bank``.

    Attributes:
        rules: the rule set.
        board: the five community cards.
        dealer: the dealer's (or player-dealer's) two hole cards.
        hands: the hands in settlement order.
        bank: the player-dealer's bank, or ``None`` for a house-banked rule set.

    """

    rules: RuleSet
    board: tuple[Card, ...]
    dealer: tuple[Card, ...]
    hands: tuple[HandEntry, ...]
    bank: Decimal | None


@dataclass(frozen=True, slots=True)
class ParsedInput:
    """The text given to ``uth settle``, split into deals.

    Attributes:
        batch: ``True`` for JSON Lines (one deal per non-empty line), ``False`` for
            a single JSON document.
        items: the parsed JSON value of each deal, or the :class:`UthError` of a
            line that is not valid JSON, in input order.

    """

    batch: bool
    items: tuple[Any, ...]


def _reject_constant(name: str) -> Any:
    raise InvalidDealError(f"input: {name} is not valid JSON", field="input")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidDealError(
                f"input: duplicate key {_show(key)} in a JSON object", field="input"
            )
        out[key] = value
    return out


def loads(text: str) -> Any:
    """Parse JSON text exactly: floats become ``Decimal`` that keep the text as
    written (:class:`uth.money.WrittenNumber`: a refused ``1e3`` is echoed as
    ``1e3``, not ``1E+3``), ints stay ints.

    ``NaN`` and ``Infinity`` are refused, and so is a key repeated in one object.

    Raises:
        InvalidDealError: the text is not valid JSON; the message gives the place.

    """
    try:
        return json.loads(
            text,
            parse_float=WrittenNumber,
            parse_constant=_reject_constant,
            object_pairs_hook=_no_duplicate_keys,
        )
    except UthError:
        raise
    except RecursionError:
        raise InvalidDealError("input: not valid JSON: nested too deeply", field="input") from None
    except json.JSONDecodeError as exc:
        raise InvalidDealError(f"input: not valid JSON: {exc}", field="input") from None
    except ValueError:  # an integer with more digits than Python converts
        raise InvalidDealError(
            "input: not valid JSON: a number has too many digits", field="input"
        ) from None


def parse_input(text: str) -> ParsedInput:
    """Split the input of ``uth settle`` into deals.

    The whole text is first parsed as one JSON value (a single deal, possibly
    pretty-printed over several lines). If that fails and the text has more than
    one non-empty line, at least one of which is a JSON object on its own, the
    text is JSON Lines: one deal per non-empty line (blank lines are skipped), a
    line that is not JSON giving its error (``line N: not valid JSON: ...``) in
    its place.

    Raises:
        InvalidDealError: the input is empty, or is neither one JSON value nor
            JSON Lines (the message is the JSON error of the whole text).

    """
    if not text.strip():
        raise InvalidDealError("input: empty, expected a deal as a JSON object", field="input")
    try:
        return ParsedInput(False, (loads(text),))
    except InvalidDealError as whole_error:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2:
            raise
        items: list[Any] = []
        for n, line in lines:
            try:
                items.append(loads(line))
            except InvalidDealError as exc:
                message = str(exc).removeprefix("input: ")
                items.append(InvalidDealError(f"line {n}: {message}", field=f"line {n}"))
        if not any(isinstance(item, dict) for item in items):
            raise whole_error from None
        return ParsedInput(True, tuple(items))


def _show(value: Any) -> str:
    """A value as it would be written in JSON, cut short when long."""
    text = str(value) if isinstance(value, Decimal) else json.dumps(value, default=str)
    if len(text) > _SHOW_MAX:
        text = text[: _SHOW_MAX - 3] + "..."
    return text


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float | Decimal):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


# --- the input models ------------------------------------------------------------
#
# Each field's checks raise a PydanticCustomError whose type is the UthError code
# (``invalid_deal``, ...) and whose message leaves out the field: :func:`_uth_error`
# puts the field's path in front (``hands[0].wagers.ante: ...``), so that a message
# reads as the hand-written validator's did. ``key`` in the context names a key
# below the error's place (an unknown key, a missing ``hole``).

#: The UthError class of each error code raised by the models.
_ERRORS: dict[str, type[UthError]] = {
    cls.code: cls
    for cls in (InvalidDealError, InvalidWagerError, InvalidRulesError, InvalidCardError)
}
#: What a missing field is, said after ``required``.
_HINTS: dict[str, str] = {
    "rules": ' (a preset name such as "casino")',
    "id": " (a non-empty string naming the hand)",
    "player_dealer": ' (e.g. {"bank": 500})',
}


def _fail(cls: type[UthError], message: str, key: str | None = None) -> PydanticCustomError:
    context: dict[str, Any] = {"message": message}
    if key is not None:
        context["key"] = key
    return PydanticCustomError(cls.code, "{message}", context)


def _bare(exc: UthError) -> str:
    """The error's message without its field (the models' errors are placed by path)."""
    return str(exc).removeprefix(f"{exc.field}: ") if exc.field else str(exc)


def _object(what: str, keys: Sequence[str]) -> Callable[[Any], Any]:
    """A model's first check: a JSON object whose keys are all among ``keys``."""

    def check(value: Any) -> Any:
        if not isinstance(value, dict):
            raise _fail(
                InvalidDealError,
                f"expected {what} (a JSON object), got {_type_name(value)} {_show(value)}",
            )
        for key in value:
            if key not in keys:
                message = f"unknown key {_show(key)} (expected one of {', '.join(keys)})"
                raise _fail(InvalidDealError, message, key=str(key))
        return value

    return check


def _rules(value: Any) -> RuleSet:
    """A preset name or an inline rule set (:func:`uth.rules.rules_from_data`)."""
    try:
        if isinstance(value, str):
            return preset(value)
        if isinstance(value, dict):
            return rules_from_data(value, source="rules")
    except InvalidRulesError as exc:
        raise _fail(InvalidRulesError, str(exc).removeprefix("rules: ")) from None
    raise _fail(
        InvalidRulesError, f"expected a preset name or a rule-set object, got {_show(value)}"
    )


def _cards(count: int) -> Callable[[Any], Any]:
    """A list of cards; their number and duplicates are checked by the engine's
    :func:`uth.engine.settlement.check_deal` (one definition for both).
    """

    def check(value: Any) -> Any:
        if not isinstance(value, list) or len(value) > _MAX_CARDS:
            raise _fail(InvalidDealError, f"expected a list of {count} cards, got {_show(value)}")
        return value

    return check


def _card(value: Any) -> Card:
    try:
        return parse_card(value)
    except InvalidCardError as exc:
        raise _fail(InvalidCardError, _bare(exc)) from None


def _amount(value: Any) -> Decimal:
    """An amount from JSON: a JSON number (int or exact ``Decimal``), read by
    :func:`uth.money.parse_amount` (a plain decimal, at most two places, not negative).
    """
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise _fail(InvalidWagerError, f"expected an amount (a JSON number), got {_show(value)}")
    try:
        return parse_amount(value)
    except InvalidWagerError as exc:
        raise _fail(InvalidWagerError, _bare(exc)) from None


def _hand_id(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_ID_LENGTH:
        raise _fail(
            InvalidDealError,
            f"expected a non-empty string of at most {MAX_ID_LENGTH} characters, "
            f"got {_show(value)}",
        )
    return value


def _multiple(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(
            InvalidWagerError,
            "expected the Play multiple of the Ante as a whole number (0 for a fold), "
            f"got {_show(value)}",
        )
    return value


def _followed(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(InvalidDealError, f"expected the id of an earlier hand, got {_show(value)}")
    return value


def _hands(value: Any) -> Any:
    if not isinstance(value, list) or not value:
        raise _fail(InvalidDealError, f"expected a non-empty list of hands, got {_show(value)}")
    return value


_CARD = Annotated[
    Card,
    PlainValidator(_card),
    WithJsonSchema({"type": "string", "pattern": "^(10|[2-9TJQKAtjqka])[cdhsCDHS♣♦♥♠]$"}),
]
_AMOUNT = Annotated[
    Decimal,
    BeforeValidator(_amount),
    WithJsonSchema(
        {
            "type": "number",
            "minimum": 0,
            "maximum": float(MAX_AMOUNT),
            "description": "currency units, a plain decimal with at most two places, read "
            "exactly (never through binary floats; no exponent)",
        }
    ),
]
_NO_AMOUNT = Decimal(0)


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WagersIn(_In):
    """A hand's initial wagers; checked against the rule set by the engine's
    :func:`uth.engine.wagers.validate_wagers`.
    """

    ante: _AMOUNT
    blind: _AMOUNT = Field(description="equal to the Ante")
    trips: _AMOUNT = _NO_AMOUNT
    bad_beat: _AMOUNT = _NO_AMOUNT

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, value: Any) -> Any:
        return _object("the wagers", WAGER_KEYS)(value)


class HandIn(_In):
    """One hand: a seated hand (``hole`` and ``play``) or a back-line bet
    (``behind``: the id of an earlier seated hand, whose cards and decision it rides on).
    """

    id: Annotated[str, BeforeValidator(_hand_id), Field(min_length=1, max_length=MAX_ID_LENGTH)]
    hole: Annotated[tuple[_CARD, ...] | None, BeforeValidator(_cards(2))] = Field(
        default=None, description="2 hole cards (a seated hand)"
    )
    wagers: WagersIn
    play: Annotated[int | None, BeforeValidator(_multiple)] = Field(
        default=None,
        description="the Play multiple of the Ante: 4 or 3 pre-flop, 2 on the flop, 1 at "
        "the river (the rule set's multiples), 0 for a fold",
    )
    behind: Annotated[str | None, BeforeValidator(_followed)] = Field(
        default=None, description="a back-line bet: the id of an earlier seated hand"
    )

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, value: Any) -> Any:
        return _object("a hand", HAND_KEYS)(value)

    @model_validator(mode="after")
    def _seated_or_behind(self) -> HandIn:
        if self.behind is None:
            if self.hole is None:
                hint = "required (2 hole cards, or 'behind' for a back-line bet)"
                raise _fail(InvalidDealError, hint, key="hole")
            if self.play is None:
                hint = "required (the Play multiple of the Ante, 0 for a fold)"
                raise _fail(InvalidDealError, hint, key="play")
            return self
        for key in ("hole", "play"):
            own = getattr(self, key)
            if own is not None:
                shown = [str(c) for c in own] if key == "hole" else own
                raise _fail(
                    InvalidDealError,
                    f"a back-line bet rides on the cards and decision of {_show(self.behind)} "
                    f"and has no {key} of its own, got {_show(shown)}",
                    key=key,
                )
        return self


class PlayerDealerIn(_In):
    """The player-dealer of a player-dealer rule set: their bank for the round."""

    bank: _AMOUNT

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, value: Any) -> Any:
        return _object("the player-dealer", PLAYER_DEALER_KEYS)(value)


class DealIn(_In):
    """The input of ``uth settle``: one finished deal (see the module's docstring)."""

    rules: Annotated[
        RuleSet,
        PlainValidator(_rules),
        WithJsonSchema(
            {
                "anyOf": [
                    {"type": "string", "enum": list(PRESET_NAMES), "description": "a preset"},
                    {
                        "type": "object",
                        "description": "an inline rule set: the keys of a rule-set TOML file "
                        '(RULES.md); it may start from a preset with "extends"',
                    },
                ]
            }
        ),
    ]
    board: Annotated[tuple[_CARD, ...], BeforeValidator(_cards(5))] = Field(
        description="the five community cards"
    )
    dealer: Annotated[tuple[_CARD, ...], BeforeValidator(_cards(2))] = Field(
        description="the dealer's (or player-dealer's) two hole cards"
    )
    hands: Annotated[tuple[HandIn, ...], BeforeValidator(_hands)] = Field(
        min_length=1, description="the hands, clockwise from the dealer's left"
    )
    player_dealer: PlayerDealerIn | None = Field(
        default=None, description="with a player-dealer rule set only (and required there)"
    )

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, value: Any) -> Any:
        return _object("a deal", DEAL_KEYS)(value)


def _path(loc: Sequence[int | str], key: str | None = None) -> str:
    """``("hands", 0, "wagers", "ante")`` as ``hands[0].wagers.ante``; ``deal`` for ()."""
    text = ""
    for part in (*loc, key) if key is not None else loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "deal"


def _uth_error(exc: ValidationError) -> UthError:
    """The first error of a model's validation as the contract's one-line error."""
    err = exc.errors()[0]
    context = err.get("ctx") or {}
    field = _path(err["loc"], context.get("key"))
    if err["type"] == "missing":
        hint = _HINTS.get(str(err["loc"][-1]), "") if err["loc"] else ""
        return InvalidDealError(f"{field}: required{hint}", field=field)
    cls = _ERRORS.get(err["type"], InvalidDealError)
    return cls(f"{field}: {context.get('message', err['msg'])}", field=field)


def deal_from_json(obj: Any) -> Deal:
    """Validate a parsed JSON deal and turn it into engine values.

    First the shape (:class:`DealIn`: keys, types, cards, amounts), then the rule
    set's checks by the engine: the wagers (:func:`uth.engine.wagers.validate_wagers`),
    the Play multiple, back-line bets, the cards of the deal
    (:func:`uth.engine.settlement.check_deal`), the seats and the bank
    (:func:`uth.engine.settlement.check_bank`).

    Args:
        obj: the deal as parsed by :func:`loads` (amounts as int or ``Decimal``;
            a binary float is read through its shortest ``str``).

    Returns:
        A :class:`Deal`, which unpacks as ``(rules, board, dealer, hands, bank)``.

    Raises:
        UthError: the first problem found; the message names the field
            (``hands[0].wagers.ante``) and the value, on one line.

    """
    try:
        deal = DealIn.model_validate(obj)
    except ValidationError as exc:
        raise _uth_error(exc) from None
    rules = deal.rules
    seen: dict[str, HandEntry] = {}
    holes: list[tuple[str, tuple[Card, ...]]] = []
    for i, hand in enumerate(deal.hands):
        entry = _hand(f"hands[{i}]", hand, rules, seen)
        seen[entry.id] = entry
        if entry.hole is not None:
            holes.append((f"hands[{i}]", entry.hole))
    check_deal(rules, deal.board, deal.dealer, holes)
    seated = sum(1 for entry in seen.values() if entry.behind is None)
    if rules.seats is not None and seated > rules.seats:
        raise InvalidDealError(
            f"hands: rule set {rules.name!r} has {rules.seats} seats, got {seated} seated hands",
            field="hands",
        )
    if rules.banking != "house" and deal.player_dealer is None:
        raise InvalidDealError(
            f"player_dealer: required{_HINTS['player_dealer']}", field="player_dealer"
        )
    bank = check_bank(rules, None if deal.player_dealer is None else deal.player_dealer.bank)
    return Deal(rules, deal.board, deal.dealer, tuple(seen.values()), bank)


def _hand(where: str, hand: HandIn, rules: RuleSet, earlier: dict[str, HandEntry]) -> HandEntry:
    """One hand checked against the rule set and the hands before it."""
    if hand.id in earlier:
        raise InvalidDealError(
            f"{where}.id: duplicate hand id {_show(hand.id)}", field=f"{where}.id"
        )
    wagers = validate_wagers(
        rules,
        ante=hand.wagers.ante,
        blind=hand.wagers.blind,
        trips=hand.wagers.trips,
        bad_beat=hand.wagers.bad_beat,
        field=f"{where}.wagers",
    )
    if hand.behind is not None:
        target = check_behind(rules, hand.behind, earlier, where)
        return HandEntry(hand.id, wagers, None, target.play, hand.behind)
    assert hand.hole is not None and hand.play is not None  # HandIn: a seated hand has both
    check_play(rules, hand.play, where)
    return HandEntry(hand.id, wagers, hand.hole, hand.play)


def settle_deal(deal: Deal) -> Settlement:
    """Settle a validated :class:`Deal` (:func:`uth.engine.settlement.settle`)."""
    return settle(deal.rules, deal.board, deal.dealer, deal.hands, bank=deal.bank)


# --- the output models -----------------------------------------------------------

#: An amount written as a JSON number: ``10`` when whole, else ``7.5``
#: (:func:`uth.money.money_json`).
_MONEY_OUT = Annotated[
    Decimal,
    PlainSerializer(money_json, return_type=int | float),
    WithJsonSchema({"type": "number", "description": "currency units: 10 or 7.5"}),
]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WagerOut(_Out):
    """One wager's settlement: ``net`` is what the player won (+) or lost (-);
    ``capped`` the winnings withheld by the payout cap (001); ``uncovered`` the part
    of the stake the player-dealer's bank could not cover (returned) and
    ``uncovered_winnings`` what that part would have won (not paid).
    """

    stake: _MONEY_OUT
    result: WagerOutcome
    net: _MONEY_OUT
    capped: _MONEY_OUT
    uncovered: _MONEY_OUT
    uncovered_winnings: _MONEY_OUT


class DealerOut(_Out):
    """The dealer's best hand and whether it qualifies."""

    category: CategoryKey
    best_five: list[str]
    qualifies: bool


class HandOut(_Out):
    """One hand's result; ``wagers`` holds all five wagers, in layout order."""

    id: str
    category: CategoryKey
    best_five: list[str]
    outcome: HandOutcome
    wagers: dict[WagerKind, WagerOut]
    net: _MONEY_OUT


class BankerOut(_Out):
    """Who banks the round and their net: minus the players' total."""

    kind: Literal["house", "player_dealer"]
    net: _MONEY_OUT


class SettlementOut(_Out):
    """The output of ``uth settle`` for a deal that settles."""

    dealer: DealerOut
    hands: list[HandOut]
    banker: BankerOut


class ErrorOut(_Out):
    """The output of ``uth settle --json`` for a deal that cannot be settled."""

    error: str = Field(
        examples=["hands[0].wagers.ante: the Ante must be between 5.00 and 1000.00, got 2.00"]
    )


def _hand_json(hand: HandValue) -> dict[str, Any]:
    return {"category": hand.category.key, "best_five": [str(c) for c in hand.best_five]}


def settlement_out(settlement: Settlement) -> SettlementOut:
    """The settlement as the contract's output model (:class:`SettlementOut`)."""
    return SettlementOut(
        dealer=DealerOut(
            **_hand_json(settlement.dealer.hand), qualifies=settlement.dealer.qualifies
        ),
        hands=[
            HandOut(
                id=hand.id,
                **_hand_json(hand.hand),
                outcome=hand.outcome,
                wagers={
                    w.kind: WagerOut(
                        stake=w.stake,
                        result=w.result,
                        net=w.net,
                        capped=w.capped,
                        uncovered=w.uncovered_stake,
                        uncovered_winnings=w.uncovered_winnings,
                    )
                    for w in hand.wagers
                },
                net=hand.net,
            )
            for hand in settlement.hands
        ],
        banker=BankerOut(kind=settlement.banker_kind, net=settlement.banker_net),
    )


def settlement_to_json(settlement: Settlement) -> dict[str, Any]:
    """The settlement as the JSON object of the contract (:class:`SettlementOut`).

    Shape::

        {"dealer": {"category": "pair", "best_five": [...], "qualifies": true},
         "hands": [{"id": "seat1", "category": "full_house", "best_five": [...],
                    "outcome": "win" | "lose" | "tie" | "fold",
                    "wagers": {"ante": {"stake": 10, "result": "win", "net": 10,
                                        "capped": 0, "uncovered": 0,
                                        "uncovered_winnings": 0},
                               "blind": {...}, "play": {...}, "trips": {...},
                               "bad_beat": {...}},
                    "net": 120}],
         "banker": {"kind": "house" | "player_dealer", "net": -120}}

    ``hands`` lists one result per input hand in the order they were settled
    (see :func:`uth.engine.settlement.settle`): the folded hands first, in input
    order (settled at the fold), then the others in the rule set's
    ``settlement_order`` (``clockwise``: input order; ``right_to_left``: reversed),
    each back-line bet right after the hand it follows; ids are unique, so match
    results to input hands by ``id``. Per wager, ``capped`` is the winnings withheld
    by the payout cap (001), ``uncovered`` the part of the stake the player-dealer's
    bank could not cover (no action, returned to the player) and
    ``uncovered_winnings`` what that part would have won (not paid; 0 on a loss).
    Categories are snake_case; a wager's ``result`` is ``win``, ``lose``, ``push``
    or ``no_action``; ``net`` is what the player won (+) or lost (-); the banker's
    net is minus the players' total. All five wagers are always present, in layout
    order. Amounts are JSON numbers (:func:`uth.money.money_json`).
    """
    out: dict[str, Any] = settlement_out(settlement).model_dump(mode="json")
    return out


def error_message(exc: UthError) -> str:
    """The error's message on one line (``field: what is wrong, got value``)."""
    return " ".join(str(exc).split())


def error_to_json(exc: UthError) -> dict[str, Any]:
    """The contract's error object: ``{"error": "<one-line message>"}``."""
    return {"error": error_message(exc)}


def settle_json(obj: Any) -> dict[str, Any]:
    """Validate and settle one parsed JSON deal; never raises on bad input.

    Returns:
        :func:`settlement_to_json` of the settlement, or :func:`error_to_json` of
        the first problem (an :class:`UthError` given as ``obj`` is reported as is:
        a JSON Lines line that did not parse).

    """
    if isinstance(obj, UthError):
        return error_to_json(obj)
    try:
        return settlement_to_json(settle_deal(deal_from_json(obj)))
    except UthError as exc:
        return error_to_json(exc)


def contract_schema() -> dict[str, Any]:
    """The JSON Schema of the contract (``docs/settle.schema.json``, ``uth settle
    --schema``): ``$defs.DealIn`` is the input, ``$defs.SettlementOut`` or
    ``$defs.ErrorOut`` the output; ``input`` and ``output`` point at them.
    """
    _, schema = models_json_schema(
        [(DealIn, "validation"), (SettlementOut, "serialization"), (ErrorOut, "serialization")],
        title="uth settle: the JSON contract of settlement",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **schema,
        "input": {"$ref": "#/$defs/DealIn"},
        "output": {"anyOf": [{"$ref": "#/$defs/SettlementOut"}, {"$ref": "#/$defs/ErrorOut"}]},
    }


def contract_schema_text() -> str:
    """:func:`contract_schema` as the text of ``docs/settle.schema.json``."""
    return json.dumps(contract_schema(), indent=2, ensure_ascii=False) + "\n"


def dumps(obj: Any, *, indent: int | None = None) -> str:
    """Serialise a contract object as JSON text (one line unless ``indent``)."""
    return json.dumps(obj, indent=indent, ensure_ascii=False)


__all__ = [
    "DEAL_KEYS",
    "HAND_KEYS",
    "PLAYER_DEALER_KEYS",
    "WAGER_KEYS",
    "Deal",
    "DealIn",
    "ErrorOut",
    "HandIn",
    "ParsedInput",
    "PlayerDealerIn",
    "SettlementOut",
    "WagersIn",
    "contract_schema",
    "contract_schema_text",
    "deal_from_json",
    "dumps",
    "error_message",
    "error_to_json",
    "loads",
    "parse_input",
    "settle_deal",
    "settle_json",
    "settlement_out",
    "settlement_to_json",
]
