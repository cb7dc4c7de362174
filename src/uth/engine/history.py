"""Round records: a round kept as the full rule set, the deck, the actions and the
result, encoded as canonical JSON, decoded, and replayed through the engine.

An auditor's game recall (GLI-19): from a :class:`RoundRecord` alone the round can
be re-run and its stored result confirmed, or the first difference named.

- :func:`record_of` takes the record of a round (in any phase; the result is filled
  once it is settled or voided).
- :func:`encode` writes it as canonical JSON (sorted keys, no blanks, amounts as
  two-place strings, times as ISO-8601 UTC); :func:`decode` reads it back, with an
  :class:`~uth.errors.InvalidRecordError` naming the bad field.
- :func:`replay` rebuilds the rule set, re-runs the actions and compares the result
  (:class:`ReplayReport`).
- :func:`expected_ledger` lists the money movements the round implies for each
  player (debits of wagers, credits of payouts or refunds), to compare with a
  ledger.

The encoded shape (``format`` ``uth.round/1``)::

    {"format": "uth.round/1", "game_id": "...",
     "rules": {...the full rule set...}, "rules_fingerprint": "<64 hex digits>",
     "bank": "1000.00" | null, "deck": ["As", ... 52 cards] | [],
     "deck_colour": "blue" | null,
     "actions": [{"kind": "place_wagers", "player": "amy", "at": "...+00:00" | null,
                  "payload": {"ante": "10.00", "blind": "10.00", "trips": "0.00",
                              "bad_beat": "0.00", "seat": 1, "behind": null}}, ...],
     "status": "settled" | "voided" | "betting" | "pre_flop" | "flop" | "river",
     "result": {"amy": {"outcome": "win", "net": "45.00",
                        "ante": {"stake": "10.00", "result": "win", "net": "10.00",
                                 "payout": "20.00", "capped": "0.00",
                                 "uncovered": "0.00", "uncovered_winnings": "0.00"},
                        "blind": {...}, "play": {...}, "trips": {...},
                        "bad_beat": {...}}},
     "banker_net": "-45.00"}

A card-room round (a player-dealer banks) adds two keys, absent from other records
(records without them decode as before)::

     "player_dealer": "7",
     "offers": [{"player": "8", "seat": 1, "outcome": "declined", "bank": null},
                {"player": "7", "seat": 2, "outcome": "accepted", "bank": "1000.00"}]

Per wager, ``stake``, ``result``, ``net``, ``capped``, ``uncovered`` and
``uncovered_winnings`` are those of ``uth settle --json``; ``payout`` is what goes
back to the player (stake plus net: the ledger's credit, 0 for a lost wager). In a
voided round every wager placed is ``returned`` (``payout`` = ``stake``, ``net`` 0)
and the hand's outcome is ``void``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import Decimal
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Literal, get_args

from uth.cards.card import Card, check_distinct, parse_card
from uth.cards.deck import PreparedDeck
from uth.engine import events as ev
from uth.engine.banking import OfferOutcome, OfferStep
from uth.engine.round import ActionKind, ActionRecord, PayloadValue, Phase, Round
from uth.engine.wagers import INITIAL_WAGERS, LAYOUT_ORDER, WagerKind
from uth.errors import InvalidRecordError, UthError
from uth.money import CENT, ZERO, parse_amount
from uth.rules import RuleSet, rules_fingerprint, rules_from_json, rules_json
from uth.rules.canonical import canonical_json

#: The record format written by :func:`encode` and read by :func:`decode`.
FORMAT = "uth.round/1"

_WAGER_FIELDS = (
    "stake",
    "result",
    "net",
    "payout",
    "capped",
    "uncovered",
    "uncovered_winnings",
)
_FINGERPRINT = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class WagerRecord:
    """One wager's result as stored (currency units).

    Attributes:
        stake: the amount wagered.
        result: ``win``, ``lose``, ``push``, ``no_action``, or ``returned`` (void).
        net: won (+) or lost (-).
        payout: what goes back to the player: stake plus net (0 for a lost wager; the
            stake for a returned one).
        capped: winnings withheld by the payout cap (001).
        uncovered: the stake the player-dealer's bank could not cover (returned).
        uncovered_winnings: what that uncovered stake would have won (not paid).

    """

    stake: Decimal
    result: str
    net: Decimal
    payout: Decimal
    capped: Decimal = ZERO
    uncovered: Decimal = ZERO
    uncovered_winnings: Decimal = ZERO


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One hand's result as stored.

    Attributes:
        outcome: ``win``, ``lose``, ``tie``, ``fold``, or ``void``.
        net: the total won (+) or lost (-) on every wager.
        wagers: the five wagers by kind, in layout order (read-only).

    """

    outcome: str
    net: Decimal
    wagers: Mapping[str, WagerRecord]

    def __post_init__(self) -> None:
        object.__setattr__(self, "wagers", MappingProxyType(dict(self.wagers)))


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A round as stored: enough to replay it and check its result.

    Attributes:
        game_id: the round's identifier (the server's game number).
        rules_json: the full rule set as canonical JSON (:func:`uth.rules.rules_json`).
        rules_fingerprint: the SHA-256 of ``rules_json`` (64 hex digits).
        bank: the player-dealer's bank (currency units), or None.
        deck: the 52 cards in deal order; empty when betting never closed.
        deck_colour: the back colour of the deck dealt (two alternating decks), or None.
        actions: every accepted command in order (:class:`~uth.engine.ActionRecord`).
        status: the round's phase when recorded (``settled``, ``voided``, ...).
        result: per player id, the hand's result (empty while the round is in play).
        banker_net: what the house or player-dealer won (+) or lost (-); 0 unless
            settled.
        player_dealer: at a card room, who banked the round (their account id as a
            string); None at a house-banked table.
        offers: at a card room, the offer of the position for this round in order:
            who declined, was passed over, and who accepted with which bank
            (RULES.md, "Who banks"). Each wager's coverage is its ``uncovered``,
            ``uncovered_winnings`` and the hand's ``fold`` outcome.

    """

    game_id: str
    rules_json: str
    rules_fingerprint: str
    bank: Decimal | None
    deck: tuple[Card, ...]
    deck_colour: str | None
    actions: tuple[ActionRecord, ...]
    status: str
    result: Mapping[str, PlayerResult]
    banker_net: Decimal
    player_dealer: str | None = None
    offers: tuple[OfferStep, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "result", MappingProxyType(dict(self.result)))

    def rules(self) -> RuleSet:
        """The rule set, rebuilt from ``rules_json``.

        Raises:
            InvalidRulesError: the JSON is not a valid rule set.

        """
        return rules_from_json(self.rules_json)


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """The outcome of :func:`replay`.

    Attributes:
        ok: the replayed round gives the stored result.
        difference: None when ok, else the first difference as a sentence, with the
            path of the field (``result.amy.play.payout: stored 40.00, replayed
            30.00``) or the action the engine refused.
        replayed: the record of the replayed round, or None when it could not run.

    """

    ok: bool
    difference: str | None
    replayed: RoundRecord | None

    def __str__(self) -> str:
        return "ok" if self.ok else f"differs: {self.difference}"


@dataclass(frozen=True, slots=True)
class LedgerMove:
    """One money movement a round implies for a player.

    Attributes:
        player: the player's id.
        kind: ``wager`` (a debit), ``payout`` (a settled wager's credit) or ``refund``
            (a voided round's credit).
        wager: the wager it concerns (``ante``, ``blind``, ``play``, ``trips``,
            ``bad_beat``).
        amount: currency units, signed as in a ledger: debits negative, credits
            positive.

    """

    player: str
    kind: Literal["wager", "payout", "refund"]
    wager: WagerKind | Literal["bank"]
    amount: Decimal


# ----------------------------------------------------------------- record_of
def _result(rnd: Round) -> dict[str, PlayerResult]:
    if rnd.settlement is not None:
        return {
            hand.id: PlayerResult(
                hand.outcome,
                hand.net,
                {
                    w.kind: WagerRecord(
                        w.stake,
                        w.result,
                        w.net,
                        w.stake + w.net,
                        w.capped,
                        w.uncovered_stake,
                        w.uncovered_winnings,
                    )
                    for w in hand.wagers
                },
            )
            for hand in rnd.settlement.hands
        }
    if rnd.phase != Phase.VOIDED:
        return {}
    returned: dict[tuple[str, str], Decimal] = {}
    for e in rnd.events:
        if isinstance(e, ev.WagerReturned):
            returned[(e.player, e.wager)] = returned.get((e.player, e.wager), ZERO) + e.amount
    out = {}
    for player in rnd.players:
        wagers: dict[str, WagerRecord] = {}
        for kind in LAYOUT_ORDER:
            amount = returned.get((player, kind), ZERO)
            wagers[kind] = WagerRecord(amount, "returned" if amount else "no_action", ZERO, amount)
        out[player] = PlayerResult("void", ZERO, wagers)
    return out


def record_of(rnd: Round) -> RoundRecord:
    """The record of a round as it stands (keep it once settled or voided).

    Args:
        rnd: the round, in any phase.

    Returns:
        A :class:`RoundRecord` with the round's full rule set, deck, actions and
        result.

    """
    rules = rnd.rules
    return RoundRecord(
        game_id=rnd.game_id,
        rules_json=rules_json(rules),
        rules_fingerprint=rules_fingerprint(rules),
        bank=rnd.bank_amount,
        deck=rnd.deck_order,
        deck_colour=rnd.deck_colour,
        actions=rnd.actions,
        status=str(rnd.phase),
        result=_result(rnd),
        banker_net=rnd.settlement.banker_net if rnd.settlement is not None else ZERO,
    )


# -------------------------------------------------------------------- encode
def _money(amount: Decimal) -> str:
    """An amount as a two-place string (``"10.00"``; ``"-0.00"`` for a negative 0)."""
    if not amount:
        return "-0.00" if amount.is_signed() else "0.00"
    text = _MONEY_TEXT.get(amount)
    if text is None:
        if len(_MONEY_TEXT) >= 4096:
            _MONEY_TEXT.clear()
        text = _MONEY_TEXT[amount] = str(amount.quantize(CENT))
    return text


#: The text of each non-zero amount met (equal amounts have the same text): a
#: 1,000-player round's record holds some 40,000 amounts, mostly the same few.
_MONEY_TEXT: dict[Decimal, str] = {}


def _payload_data(payload: Mapping[str, PayloadValue]) -> dict[str, Any]:
    return {k: _money(v) if isinstance(v, Decimal) else v for k, v in payload.items()}


def _at(at: datetime | None) -> str | None:
    return None if at is None else at.astimezone(UTC).isoformat()


def _data(record: RoundRecord, *, rules: bool = True) -> dict[str, Any]:
    """The record as JSON-ready data, in the order a replay compares it."""
    out: dict[str, Any] = {
        "status": record.status,
        "result": {
            player: {
                "outcome": r.outcome,
                "net": _money(r.net),
                **{
                    kind: {
                        name: _money(v) if isinstance(v := getattr(w, name), Decimal) else v
                        for name in _WAGER_FIELDS
                    }
                    for kind, w in r.wagers.items()
                },
            }
            for player, r in record.result.items()
        },
        "banker_net": _money(record.banker_net),
        "actions": [
            {
                "kind": a.kind,
                "player": a.player,
                "payload": _payload_data(a.payload),
                "at": _at(a.at),
            }
            for a in record.actions
        ],
        "deck": [str(c) for c in record.deck],
        "deck_colour": record.deck_colour,
        "bank": None if record.bank is None else _money(record.bank),
        "game_id": record.game_id,
        "rules_fingerprint": record.rules_fingerprint,
    }
    if record.player_dealer is not None or record.offers:
        out["player_dealer"] = record.player_dealer
        out["offers"] = [
            {
                "player": o.player,
                "seat": o.seat,
                "outcome": o.outcome,
                "bank": None if o.bank is None else _money(o.bank),
            }
            for o in record.offers
        ]
    if rules:
        out["rules"] = json.loads(record.rules_json)
    return out


def encode(record: RoundRecord) -> str:
    """The record as canonical JSON text (sorted keys, no blanks, UTF-8).

    Amounts are two-place strings (``"10.00"``), times ISO-8601 in UTC, cards their
    notation. See the module's docstring for the shape.

    The text is written directly, key by key in sorted order (about 5x faster
    than building the data and sorting it with :func:`json.dumps`: a 1,000-player
    round is encoded with each settlement); it is exactly
    ``canonical_json({"format": FORMAT, ...the record's data...})``
    (``tests/test_history.py`` compares the two).
    """
    parts = [
        '{"actions":[',
        ",".join(map(_action_text, record.actions)),
        '],"bank":',
        _amount_text(record.bank),
        ',"banker_net":"',
        _money(record.banker_net),
        '","deck":[',
        ",".join([f'"{c}"' for c in record.deck]),
        '],"deck_colour":',
        _value_text(record.deck_colour),
        ',"format":"',
        FORMAT,
        '","game_id":',
        _string(record.game_id),
    ]
    if record.player_dealer is not None or record.offers:
        parts += [
            ',"offers":[',
            ",".join(map(_offer_text, record.offers)),
            '],"player_dealer":',
            _value_text(record.player_dealer),
        ]
    results = record.result
    parts += [
        ',"result":{',
        ",".join([f"{_string(p)}:{_result_text(results[p])}" for p in sorted(results)]),
        '},"rules":',
        _canonical(record.rules_json),
        ',"rules_fingerprint":',
        _string(record.rules_fingerprint),
        ',"status":',
        _string(record.status),
        "}",
    ]
    return "".join(parts)


#: A JSON string literal with its escapes, non-ASCII characters kept (``ensure_ascii=False``).
_string: Callable[[str], str] = json.encoder.encode_basestring


def _value_text(value: object) -> str:
    """A JSON value as :func:`canonical_json` writes it (amounts as two-place strings)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, Decimal):
        return f'"{_money(value)}"'
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, int):
        return int.__repr__(value)
    return canonical_json(value)


def _amount_text(amount: Decimal | None) -> str:
    return "null" if amount is None else f'"{_money(amount)}"'


def _action_text(a: ActionRecord) -> str:
    payload = a.payload
    fields = ",".join([f"{_string(k)}:{_value_text(payload[k])}" for k in sorted(payload)])
    return (
        f'{{"at":{_value_text(_at(a.at))},"kind":{_string(a.kind)},'
        f'"payload":{{{fields}}},"player":{_value_text(a.player)}}}'
    )


def _wager_text(w: WagerRecord) -> str:
    money = _money
    return (
        f'{{"capped":"{money(w.capped)}","net":"{money(w.net)}",'
        f'"payout":"{money(w.payout)}","result":{_string(w.result)},'
        f'"stake":"{money(w.stake)}","uncovered":"{money(w.uncovered)}",'
        f'"uncovered_winnings":"{money(w.uncovered_winnings)}"}}'
    )


def _result_text(r: PlayerResult) -> str:
    items = {kind: _wager_text(w) for kind, w in r.wagers.items()}
    items["net"] = f'"{_money(r.net)}"'
    items["outcome"] = _string(r.outcome)
    return "{" + ",".join([f"{_string(k)}:{items[k]}" for k in sorted(items)]) + "}"


def _offer_text(o: OfferStep) -> str:
    return (
        f'{{"bank":{_amount_text(o.bank)},"outcome":{_string(o.outcome)},'
        f'"player":{_string(o.player)},"seat":{_value_text(o.seat)}}}'
    )


@lru_cache(maxsize=16)
def _canonical(text: str) -> str:
    """A rule set's JSON text in canonical form (kept per text: it rarely changes)."""
    return canonical_json(json.loads(text))


# -------------------------------------------------------------------- decode
def _fail(field: str, message: str) -> InvalidRecordError:
    return InvalidRecordError(f"{field}: {message}", field=field)


def _object(value: object, field: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(field, f"expected an object, got {value!r}")
    for key in keys:
        if key not in value:
            raise _fail(f"{field}.{key}" if field != "record" else key, "missing")
    for key in value:
        if key not in keys:
            raise _fail(f"{field}.{key}" if field != "record" else key, "unknown key")
    return value


def _amount(value: object, field: str) -> Decimal:
    if not isinstance(value, str):
        raise _fail(field, f"expected an amount as a string such as '10.00', got {value!r}")
    try:
        return parse_amount(value, field=field, allow_negative=True)
    except UthError as exc:
        raise InvalidRecordError(str(exc), field=field) from None


def _optional_amount(value: object, field: str) -> Decimal | None:
    return None if value is None else _amount(value, field)


def _text(value: object, field: str, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _fail(field, f"expected a string, got {value!r}")
    return value


def _choice(value: object, field: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise _fail(field, f"expected one of {', '.join(allowed)}, got {value!r}")
    assert isinstance(value, str)
    return value


_PAYLOADS: dict[str, tuple[str, ...]] = {
    "place_wagers": ("ante", "blind", "trips", "bad_beat", "seat", "behind"),
    "withdraw": (),
    "close_betting": (),
    "act": ("action", "auto"),
    "void": ("reason",),
}


def _payload(kind: str, value: object, field: str) -> dict[str, PayloadValue]:
    data = _object(value, field, _PAYLOADS[kind])
    out: dict[str, PayloadValue] = {}
    for key, item in data.items():
        here = f"{field}.{key}"
        if key in ("ante", "blind", "trips", "bad_beat"):
            out[key] = _amount(item, here)
        elif key == "seat":
            if item is not None and (isinstance(item, bool) or not isinstance(item, int)):
                raise _fail(here, f"expected a seat number or null, got {item!r}")
            out[key] = item
        elif key == "auto":
            if not isinstance(item, bool):
                raise _fail(here, f"expected true or false, got {item!r}")
            out[key] = item
        else:  # behind, action, reason
            out[key] = _text(item, here, optional=key == "behind")
    return out


def _time(value: object, field: str) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            at = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            if at.utcoffset() is not None:
                return at
    raise _fail(field, f"expected an ISO-8601 time with its offset or null, got {value!r}")


def _action(value: object, field: str) -> ActionRecord:
    data = _object(value, field, ("kind", "player", "payload", "at"))
    kind: ActionKind = _choice(data["kind"], f"{field}.kind", get_args(ActionKind))  # type: ignore[assignment]
    needs_player = kind in ("place_wagers", "withdraw", "act")
    player = _text(data["player"], f"{field}.player", optional=not needs_player)
    if not needs_player and player is not None:
        raise _fail(f"{field}.player", f"a {kind} action has no player, got {player!r}")
    payload = _payload(kind, data["payload"], f"{field}.payload")
    return ActionRecord(kind, player, payload, _time(data["at"], f"{field}.at"))


def _wager(value: object, field: str) -> WagerRecord:
    data = _object(value, field, _WAGER_FIELDS)
    amounts = {k: _amount(data[k], f"{field}.{k}") for k in _WAGER_FIELDS if k != "result"}
    result = _text(data["result"], f"{field}.result")
    return WagerRecord(result=result, **amounts)


def _player_result(value: object, field: str) -> PlayerResult:
    data = _object(value, field, ("outcome", "net", *LAYOUT_ORDER))
    return PlayerResult(
        _text(data["outcome"], f"{field}.outcome"),
        _amount(data["net"], f"{field}.net"),
        {kind: _wager(data[kind], f"{field}.{kind}") for kind in LAYOUT_ORDER},
    )


def _deck(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list) or len(value) not in (0, 52):
        shown = f"{len(value)} cards" if isinstance(value, list) else repr(value)
        raise _fail("deck", f"expected 52 cards (or none: never dealt), got {shown}")
    try:
        cards = tuple(parse_card(c, field=f"deck[{i}]") for i, c in enumerate(value))
        check_distinct(cards, field="deck")
    except UthError as exc:
        raise InvalidRecordError(str(exc), field=exc.field) from None
    return cards


def decode(text: str) -> RoundRecord:
    """Read a record written by :func:`encode`.

    Raises:
        InvalidRecordError: the text is not JSON, a key is missing or unknown, a
            value has the wrong type or form, or the rule set's fingerprint does not
            match it; the message names the field (``actions[2].payload.ante``).
        InvalidRulesError: ``rules`` is not a valid rule set (naming its field).

    """
    try:
        raw = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise _fail("record", f"not JSON ({exc})") from None
    keys: tuple[str, ...] = (
        "format",
        "game_id",
        "rules",
        "rules_fingerprint",
        "bank",
        "deck",
        "deck_colour",
        "actions",
        "status",
        "result",
        "banker_net",
    )
    card_room = isinstance(raw, dict) and ("player_dealer" in raw or "offers" in raw)
    if card_room:
        keys = (*keys, "player_dealer", "offers")
    data = _object(raw, "record", keys)
    if data["format"] != FORMAT:
        raise _fail("format", f"expected {FORMAT!r}, got {data['format']!r}")
    if not isinstance(data["rules"], dict):
        raise _fail("rules", f"expected the rule set as an object, got {data['rules']!r}")
    rules = rules_from_json(canonical_json(data["rules"]))
    fingerprint = _text(data["rules_fingerprint"], "rules_fingerprint")
    if not _FINGERPRINT.fullmatch(fingerprint):
        raise _fail("rules_fingerprint", f"expected 64 hex digits, got {fingerprint!r}")
    if fingerprint != rules_fingerprint(rules):
        raise _fail(
            "rules_fingerprint",
            f"{fingerprint} is not the fingerprint of the rule set kept "
            f"({rules_fingerprint(rules)})",
        )
    actions = data["actions"]
    if not isinstance(actions, list):
        raise _fail("actions", f"expected a list, got {actions!r}")
    result = data["result"]
    if not isinstance(result, dict):
        raise _fail("result", f"expected an object, got {result!r}")
    return RoundRecord(
        game_id=_text(data["game_id"], "game_id"),
        rules_json=rules_json(rules),
        rules_fingerprint=fingerprint,
        bank=_optional_amount(data["bank"], "bank"),
        deck=_deck(data["deck"]),
        deck_colour=_text(data["deck_colour"], "deck_colour", optional=True),
        actions=tuple(_action(a, f"actions[{i}]") for i, a in enumerate(actions)),
        status=_choice(data["status"], "status", tuple(str(p) for p in Phase)),
        result={_text(p, "result"): _player_result(r, f"result.{p}") for p, r in result.items()},
        banker_net=_amount(data["banker_net"], "banker_net"),
        player_dealer=_text(data["player_dealer"], "player_dealer", optional=True)
        if card_room
        else None,
        offers=_offers(data["offers"]) if card_room else (),
    )


def _offers(value: object) -> tuple[OfferStep, ...]:
    if not isinstance(value, list):
        raise _fail("offers", f"expected a list, got {value!r}")
    out = []
    for i, item in enumerate(value):
        field = f"offers[{i}]"
        data = _object(item, field, ("player", "seat", "outcome", "bank"))
        seat = data["seat"]
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise _fail(f"{field}.seat", f"expected a seat number or null, got {seat!r}")
        outcome: OfferOutcome = _choice(  # type: ignore[assignment]
            data["outcome"], f"{field}.outcome", get_args(OfferOutcome)
        )
        out.append(
            OfferStep(
                _text(data["player"], f"{field}.player"),
                seat,
                outcome,
                _optional_amount(data["bank"], f"{field}.bank"),
            )
        )
    return tuple(out)


# -------------------------------------------------------------------- replay
def _apply(rnd: Round, action: ActionRecord, record: RoundRecord) -> None:
    p = action.payload
    at = action.at
    if action.kind == "place_wagers":
        assert action.player is not None
        seat, behind = p.get("seat"), p.get("behind")
        rnd.place_wagers(
            action.player,
            ante=p.get("ante"),
            blind=p.get("blind"),
            trips=p.get("trips", ZERO),
            bad_beat=p.get("bad_beat", ZERO),
            seat=seat if isinstance(seat, int) else None,
            behind=behind if isinstance(behind, str) else None,
            at=at,
        )
    elif action.kind == "withdraw":
        assert action.player is not None
        rnd.withdraw(action.player, at=at)
    elif action.kind == "close_betting":
        deck = PreparedDeck(record.deck, record.deck_colour) if record.deck_colour else record.deck
        rnd.close_betting(deck, at=at)
    elif action.kind == "act":
        assert action.player is not None
        rnd.act(action.player, str(p.get("action")), auto=p.get("auto") is True, at=at)
    else:
        rnd.void(str(p.get("reason")), at=at)


def rebuild(record: RoundRecord) -> Round:
    """The round re-run from the record's rule set, bank, deck and actions (as it
    stood when recorded: settled, voided or in play), for :mod:`uth.engine.views`.

    Raises:
        UthError: the rule set or bank is invalid, or the engine refuses an action
            (the message names ``actions[i]``).

    """
    rnd = Round(record.rules(), game_id=record.game_id, bank=record.bank)
    for i, action in enumerate(record.actions):
        try:
            _apply(rnd, action, record)
        except UthError as exc:
            who = f" by {action.player!r}" if action.player is not None else ""
            raise type(exc)(
                f"actions[{i}]: the engine refuses {action.kind}{who}: {exc}",
                field=f"actions[{i}]",
            ) from None
    return rnd


def _shown(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _first_difference(path: str, stored: object, replayed: object) -> str | None:
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in [*stored, *(k for k in replayed if k not in stored)]:
            here = f"{path}.{key}" if path else str(key)
            if key not in replayed:
                return f"{here}: stored {_shown(stored[key])}, not in the replay"
            if key not in stored:
                return f"{here}: not stored, replayed {_shown(replayed[key])}"
            found = _first_difference(here, stored[key], replayed[key])
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(replayed, list):
        for i, (a, b) in enumerate(zip(stored, replayed, strict=False)):
            found = _first_difference(f"{path}[{i}]", a, b)
            if found:
                return found
        if len(stored) != len(replayed):
            return f"{path}: stored {len(stored)} items, replayed {len(replayed)}"
        return None
    if stored != replayed or type(stored) is not type(replayed):
        return f"{path}: stored {_shown(stored)}, replayed {_shown(replayed)}"
    return None


def replay(record: RoundRecord) -> ReplayReport:
    """Re-run a stored round through the engine and compare it with the record.

    The rule set is rebuilt from the record (its fingerprint checked), the round
    opened with the record's bank, and every action applied in order (the deck at
    ``close_betting``). The replayed round's status, result, banker's net, actions,
    deck, bank and game id are compared with the stored ones in that order.

    Returns:
        A :class:`ReplayReport`: ``ok``, or the first difference as a sentence
        (``result.amy.play.payout: stored 40.00, replayed 30.00``; ``actions[3]:
        the engine refuses act by 'amy': ...``).

    """
    try:
        rules = record.rules()
        fingerprint = rules_fingerprint(rules)
        if fingerprint != record.rules_fingerprint:
            return ReplayReport(
                False,
                f"rules_fingerprint: stored {record.rules_fingerprint}, replayed {fingerprint}",
                None,
            )
        rnd = rebuild(record)
    except UthError as exc:
        return ReplayReport(False, str(exc), None)
    replayed = replace(record_of(rnd), player_dealer=record.player_dealer, offers=record.offers)
    difference = _first_difference("", _data(record, rules=False), _data(replayed, rules=False))
    if difference is None:
        difference = _offer_difference(record)
    return ReplayReport(difference is None, difference, replayed)


def _offer_difference(record: RoundRecord) -> str | None:
    """A card-room record's offer must end with the player-dealer accepting the
    round's bank, after only declines and passes (RULES.md, "Who banks").
    """
    if record.player_dealer is None and not record.offers:
        return None
    if record.player_dealer is None or record.bank is None or not record.offers:
        return "player_dealer: a card-room round needs the player-dealer, the bank and the offers"
    *before, last = record.offers
    if (last.outcome, last.player, last.bank) != ("accepted", record.player_dealer, record.bank):
        return (
            f"offers[{len(before)}]: stored {last.outcome} by {last.player!r} with "
            f"{last.bank}, expected the player-dealer {record.player_dealer!r} accepting "
            f"the bank {record.bank}"
        )
    for i, step in enumerate(before):
        if step.outcome == "accepted":
            return f"offers[{i}]: an acceptance before the last offer"
    return None


def expected_ledger(record: RoundRecord) -> tuple[LedgerMove, ...]:
    """The money movements the round implies, to compare with a ledger.

    Debits (``wager``, negative): each hand's initial wagers (Ante, Blind, Trips,
    Bad Beat; those above 0) in settlement order, then each Play wager. Credits
    (positive): for a settled round each wager's ``payout`` above 0 (``payout``);
    for a voided round each returned wager (``refund``). A round still in play has
    debits only.

    A server that debits Play wagers in batches may void a round before a Play was
    debited: its ledger then has neither that debit nor its refund, while the
    player's total for the round is the same (0).

    Raises:
        UthError: the record cannot be replayed (see :func:`replay`).

    """
    rnd = rebuild(record)
    moves: list[LedgerMove] = []
    for player in rnd.players:
        wagers = rnd.wagers(player)
        for kind in INITIAL_WAGERS:
            if (amount := wagers.get(kind)) > 0:
                moves.append(LedgerMove(player, "wager", kind, -amount))
    for player in rnd.players:
        play = rnd.wagers(player).ante * (rnd.play_multiple(player) or 0)
        if play > 0:
            moves.append(LedgerMove(player, "wager", "play", -play))
    credit: Literal["payout", "refund"] = "refund" if record.status == "voided" else "payout"
    for player, result in record.result.items():
        for kind in LAYOUT_ORDER:
            wager = result.wagers.get(kind)
            if wager is not None and wager.payout > 0:
                moves.append(LedgerMove(player, credit, kind, wager.payout))
    dealer, bank = record.player_dealer, record.bank
    if dealer is not None and bank is not None:  # the bank: debited, then back with its result
        moves.insert(0, LedgerMove(dealer, "wager", "bank", -bank))
        back = bank if record.status == "voided" else bank + record.banker_net
        if back > 0:
            moves.append(LedgerMove(dealer, credit, "bank", back))
    return tuple(moves)


__all__ = [
    "FORMAT",
    "LedgerMove",
    "PlayerResult",
    "ReplayReport",
    "RoundRecord",
    "WagerRecord",
    "decode",
    "encode",
    "expected_ledger",
    "rebuild",
    "record_of",
    "replay",
]
