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

Every key is checked: unknown keys are refused, cards and their counts, a card
seen twice anywhere in the deal, hand ids (non-empty strings, unique), every
wager against the rule set, the Play multiple, amounts in whole cents. Amounts
are JSON numbers, read exactly: parse JSON with :func:`loads` (floats become
``Decimal``), never through binary floats.

Output: see :func:`settlement_to_json`. Amounts are JSON numbers: ``10`` for a
whole amount, ``7.5`` otherwise. An input that cannot be settled gives
``{"error": "<field>: <what is wrong>, got <value>"}`` (:func:`error_to_json`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from uth.cards.card import Card, parse_card
from uth.engine.settlement import HandEntry, Settlement, check_deal, settle
from uth.engine.wagers import Wagers, validate_wagers
from uth.errors import InvalidDealError, InvalidRulesError, InvalidWagerError, UthError
from uth.evaluator import HandValue
from uth.money import money_json, parse_amount
from uth.rules import RuleSet, preset, rules_from_data

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
    """Parse JSON text exactly: floats become ``Decimal``, ints stay ints.

    ``NaN`` and ``Infinity`` are refused, and so is a key repeated in one object.

    Raises:
        InvalidDealError: the text is not valid JSON; the message gives the place.

    """
    try:
        return json.loads(
            text,
            parse_float=Decimal,
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


def _object(value: Any, field: str, what: str, keys: Sequence[str]) -> dict[str, Any]:
    """Check that ``value`` is an object whose keys are all among ``keys``."""
    if not isinstance(value, dict):
        raise InvalidDealError(
            f"{field}: expected {what} (a JSON object), got {_type_name(value)} {_show(value)}",
            field=field,
        )
    for key in value:
        if key not in keys:
            where = f"{field}.{key}" if field != "deal" else str(key)
            raise InvalidDealError(
                f"{where}: unknown key {_show(key)} (expected one of {', '.join(keys)})",
                field=where,
            )
    return value


def _required(obj: dict[str, Any], key: str, field: str, hint: str = "") -> Any:
    if key not in obj:
        raise InvalidDealError(f"{field}: required{hint}", field=field)
    return obj[key]


def _amount(value: Any, field: str) -> Decimal:
    """An amount from JSON: a JSON number (int or exact ``Decimal``), read by
    :func:`uth.money.parse_amount` (a plain decimal, at most two places, not negative).
    """
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise InvalidWagerError(
            f"{field}: expected an amount (a JSON number), got {_show(value)}", field=field
        )
    return parse_amount(value, field=field)


def _rules(value: Any) -> RuleSet:
    if isinstance(value, str):
        return preset(value)
    if isinstance(value, dict):
        return rules_from_data(value, source="rules")
    raise InvalidRulesError(
        f"rules: expected a preset name or a rule-set object, got {_show(value)}", field="rules"
    )


def _cards(value: Any, field: str, count: int) -> tuple[Card, ...]:
    """A list of cards; their number and duplicates are checked by the engine's
    :func:`uth.engine.settlement.check_deal` (one definition for both).
    """
    if not isinstance(value, list) or len(value) > _MAX_CARDS:
        raise InvalidDealError(
            f"{field}: expected a list of {count} cards, got {_show(value)}", field=field
        )
    return tuple(parse_card(item, field=f"{field}[{i}]") for i, item in enumerate(value))


def _play(value: Any, rules: RuleSet, field: str) -> int:
    allowed = ", ".join(str(m) for m in sorted(rules.play_multiples.all | {0}, reverse=True))
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidWagerError(
            f"{field}: expected the Play multiple of the Ante as a whole number "
            f"({allowed}; 0 for a fold), got {_show(value)}",
            field=field,
        )
    if value != 0 and value not in rules.play_multiples.all:
        raise InvalidWagerError(
            f"{field}: the Play multiple must be one of {allowed}, got {value}", field=field
        )
    return value


def _hand(i: int, value: Any, rules: RuleSet, earlier: dict[str, HandEntry]) -> HandEntry:
    """One hand object."""
    where = f"hands[{i}]"
    obj = _object(value, where, "a hand", HAND_KEYS)
    hand_id = _required(obj, "id", f"{where}.id", " (a non-empty string naming the hand)")
    if not isinstance(hand_id, str) or not hand_id.strip() or len(hand_id) > MAX_ID_LENGTH:
        raise InvalidDealError(
            f"{where}.id: expected a non-empty string of at most {MAX_ID_LENGTH} characters, "
            f"got {_show(hand_id)}",
            field=f"{where}.id",
        )
    if hand_id in earlier:
        raise InvalidDealError(
            f"{where}.id: duplicate hand id {_show(hand_id)}", field=f"{where}.id"
        )
    raw = _object(
        _required(obj, "wagers", f"{where}.wagers"), f"{where}.wagers", "the wagers", WAGER_KEYS
    )
    for key in ("ante", "blind"):
        _required(raw, key, f"{where}.wagers.{key}")
    amounts = {key: _amount(raw[key], f"{where}.wagers.{key}") for key in WAGER_KEYS if key in raw}
    wagers = validate_wagers(
        rules,
        ante=amounts["ante"],
        blind=amounts["blind"],
        trips=amounts.get("trips", 0),
        bad_beat=amounts.get("bad_beat", 0),
        field=f"{where}.wagers",
    )
    if "behind" in obj:
        return _behind(where, obj, hand_id, wagers, rules, earlier)
    hole = _cards(
        _required(obj, "hole", f"{where}.hole", " (2 hole cards, or 'behind' for a back-line bet)"),
        f"{where}.hole",
        2,
    )
    play = _play(
        _required(obj, "play", f"{where}.play", " (the Play multiple of the Ante, 0 for a fold)"),
        rules,
        f"{where}.play",
    )
    return HandEntry(hand_id, wagers, hole, play)


def _behind(
    where: str,
    obj: dict[str, Any],
    hand_id: str,
    wagers: Wagers,
    rules: RuleSet,
    earlier: dict[str, HandEntry],
) -> HandEntry:
    followed = obj["behind"]
    if not isinstance(followed, str) or not followed.strip():
        raise InvalidDealError(
            f"{where}.behind: expected the id of an earlier hand, got {_show(followed)}",
            field=f"{where}.behind",
        )
    for key in ("hole", "play"):
        if key in obj:
            raise InvalidDealError(
                f"{where}.{key}: a back-line bet rides on the cards and decision of "
                f"{_show(followed)} and has no {key} of its own, got {_show(obj[key])}",
                field=f"{where}.{key}",
            )
    if not rules.back_line_bets:
        raise InvalidDealError(
            f"{where}.behind: rule set {rules.name!r} has no back-line bets, got {_show(followed)}",
            field=f"{where}.behind",
        )
    target = earlier.get(followed)
    if target is None or target.behind is not None:
        raise InvalidDealError(
            f"{where}.behind: {_show(followed)} is not the id of an earlier seated hand",
            field=f"{where}.behind",
        )
    return HandEntry(hand_id, wagers, None, target.play, followed)


def _bank(obj: dict[str, Any], rules: RuleSet) -> Decimal | None:
    if rules.banking == "house":
        if "player_dealer" in obj:
            raise InvalidWagerError(
                f"player_dealer: rule set {rules.name!r} is house-banked and takes no "
                f"player-dealer, got {_show(obj['player_dealer'])}",
                field="player_dealer",
            )
        return None
    pd = _object(
        _required(obj, "player_dealer", "player_dealer", ' (e.g. {"bank": 500})'),
        "player_dealer",
        "the player-dealer",
        PLAYER_DEALER_KEYS,
    )
    bank = _amount(_required(pd, "bank", "player_dealer.bank"), "player_dealer.bank")
    limit = rules.bank
    assert limit is not None  # a player_dealer rule set always has bank limits
    if not limit.min <= bank <= limit.max:
        raise InvalidWagerError(
            f"player_dealer.bank: the bank must be between {limit.min} and {limit.max}, got {bank}",
            field="player_dealer.bank",
        )
    return bank


def deal_from_json(obj: Any) -> Deal:
    """Validate a parsed JSON deal and turn it into engine values.

    Args:
        obj: the deal as parsed by :func:`loads` (amounts as int or ``Decimal``;
            a binary float is read through its shortest ``str``).

    Returns:
        A :class:`Deal`, which unpacks as ``(rules, board, dealer, hands, bank)``.

    Raises:
        UthError: the first problem found; the message names the field
            (``hands[0].wagers.ante``) and the value, on one line.

    """
    deal = _object(obj, "deal", "a deal", DEAL_KEYS)
    rules = _rules(_required(deal, "rules", "rules", ' (a preset name such as "casino")'))
    board = _cards(_required(deal, "board", "board"), "board", 5)
    dealer = _cards(_required(deal, "dealer", "dealer"), "dealer", 2)
    raw_hands = _required(deal, "hands", "hands")
    if not isinstance(raw_hands, list) or not raw_hands:
        raise InvalidDealError(
            f"hands: expected a non-empty list of hands, got {_show(raw_hands)}", field="hands"
        )
    seen: dict[str, HandEntry] = {}
    holes: list[tuple[str, tuple[Card, ...]]] = []
    for i, value in enumerate(raw_hands):
        entry = _hand(i, value, rules, seen)
        seen[entry.id] = entry
        if entry.hole is not None:
            holes.append((f"hands[{i}]", entry.hole))
    check_deal(rules, board, dealer, holes)
    seated = sum(1 for entry in seen.values() if entry.behind is None)
    if rules.seats is not None and seated > rules.seats:
        raise InvalidDealError(
            f"hands: rule set {rules.name!r} has {rules.seats} seats, got {seated} seated hands",
            field="hands",
        )
    bank = _bank(deal, rules)
    return Deal(rules, board, dealer, tuple(seen.values()), bank)


def settle_deal(deal: Deal) -> Settlement:
    """Settle a validated :class:`Deal` (:func:`uth.engine.settlement.settle`)."""
    return settle(deal.rules, deal.board, deal.dealer, deal.hands, bank=deal.bank)


def _hand_json(hand: HandValue) -> dict[str, Any]:
    return {"category": hand.category.key, "best_five": [str(c) for c in hand.best_five]}


def settlement_to_json(settlement: Settlement) -> dict[str, Any]:
    """The settlement as the JSON object of the contract.

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
    ``uncovered_winnings`` what that part would have won (not paid; 0 on a loss). Categories are snake_case; a wager's ``result`` is ``win``, ``lose``, ``push``
    or ``no_action``; ``net`` is what the player won (+) or lost (-); the banker's
    net is minus the players' total. All five wagers are always present, in layout
    order. Amounts are JSON numbers (:func:`uth.money.money_json`).
    """
    return {
        "dealer": {
            **_hand_json(settlement.dealer.hand),
            "qualifies": settlement.dealer.qualifies,
        },
        "hands": [
            {
                "id": hand.id,
                **_hand_json(hand.hand),
                "outcome": hand.outcome,
                "wagers": {
                    w.kind: {
                        "stake": money_json(w.stake),
                        "result": w.result,
                        "net": money_json(w.net),
                        "capped": money_json(w.capped),
                        "uncovered": money_json(w.uncovered_stake),
                        "uncovered_winnings": money_json(w.uncovered_winnings),
                    }
                    for w in hand.wagers
                },
                "net": money_json(hand.net),
            }
            for hand in settlement.hands
        ],
        "banker": {"kind": settlement.banker_kind, "net": money_json(settlement.banker_net)},
    }


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


def dumps(obj: Any, *, indent: int | None = None) -> str:
    """Serialise a contract object as JSON text (one line unless ``indent``)."""
    return json.dumps(obj, indent=indent, ensure_ascii=False)


__all__ = [
    "DEAL_KEYS",
    "HAND_KEYS",
    "PLAYER_DEALER_KEYS",
    "WAGER_KEYS",
    "Deal",
    "ParsedInput",
    "deal_from_json",
    "dumps",
    "error_message",
    "error_to_json",
    "loads",
    "parse_input",
    "settle_deal",
    "settle_json",
    "settlement_to_json",
]
