"""Round records (engine/history.py): encode, decode, replay and the ledger they imply."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest

from uth.cards import (
    Card,
    PreparedDeck,
    SeededShuffler,
    parse_cards,
    stacked_deck,
)
from uth.cli.play import TableDecks
from uth.engine import Phase, Round
from uth.engine.banking import OfferStep
from uth.engine.history import (
    FORMAT,
    LedgerMove,
    RoundRecord,
    decode,
    encode,
    expected_ledger,
    record_of,
    replay,
)
from uth.engine.history import _data as history_data
from uth.errors import InvalidRecordError, InvalidRulesError
from uth.rules import PRESET_NAMES, preset, rules_fingerprint, rules_json
from uth.rules.canonical import canonical_json

D = Decimal
AT = datetime(2026, 11, 30, 17, 0, 5, 250000, tzinfo=UTC)


def C(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


# amy (seat 1) As Ad, bob (seat 2) 8h 8d, dealer Qc Qd, board Ah Kc 9s 4h 3c.
TOP = stacked_deck(C("As Ad 8h 8d Qc Qd Ah Kc 9s 4h 3c"))


def card_room_round() -> Round:
    """California: a back-line bet, a fold at the river, a player-dealer's bank."""
    rnd = Round(preset("california"), game_id="20261130-170000-0001", bank=1000)
    rnd.place_wagers("amy", ante=10, trips=5, seat=1, at=AT)
    rnd.place_wagers("cat", ante=5, behind="amy", at=AT)
    rnd.place_wagers("bob", ante=20, seat=2, at=AT + timedelta(seconds=1))
    rnd.place_wagers("dan", ante=5, seat=3)
    rnd.withdraw("dan", at=AT + timedelta(seconds=2))
    rnd.close_betting(PreparedDeck(TOP, "blue"), at=AT + timedelta(seconds=15))
    rnd.act("amy", "play_4x", at=AT + timedelta(seconds=16))
    rnd.act("bob", "check", auto=True, at=AT + timedelta(seconds=30))
    rnd.act("bob", "check", at=AT + timedelta(seconds=31))
    rnd.act("bob", "fold", at=AT + timedelta(seconds=40))
    return rnd


def altered(text: str, change: Any) -> str:
    data = json.loads(text)
    change(data)
    return canonical_json(data)


def test_record_of_a_card_room_round_and_its_exact_encoding() -> None:
    rnd = card_room_round()
    record = record_of(rnd)
    assert record.status == "settled" and record.deck == TOP and record.deck_colour == "blue"
    assert record.rules_fingerprint == rules_fingerprint(preset("california"))
    assert record.actions == rnd.actions and len(record.actions) == 10
    data = json.loads(encode(record))
    assert data["format"] == FORMAT
    assert data["rules"] == json.loads(rules_json(preset("california")))
    assert data["actions"][0] == {
        "kind": "place_wagers",
        "player": "amy",
        "payload": {
            "ante": "10.00",
            "blind": "10.00",
            "trips": "5.00",
            "bad_beat": "0.00",
            "seat": 1,
            "behind": None,
        },
        "at": "2026-11-30T17:00:05.250000+00:00",
    }
    assert data["actions"][4:6] == [
        {
            "kind": "withdraw",
            "player": "dan",
            "payload": {},
            "at": "2026-11-30T17:00:07.250000+00:00",
        },
        {
            "kind": "close_betting",
            "player": None,
            "payload": {},
            "at": "2026-11-30T17:00:20.250000+00:00",
        },
    ]
    assert data["actions"][6]["payload"] == {"action": "play_4x", "auto": False}
    assert data["actions"][7]["payload"] == {"action": "check", "auto": True}
    assert data["result"]["amy"] == {
        "outcome": "win",
        "net": "65.00",
        "ante": {
            "stake": "10.00",
            "result": "win",
            "net": "10.00",
            "payout": "20.00",
            "capped": "0.00",
            "uncovered": "0.00",
            "uncovered_winnings": "0.00",
        },
        "blind": {
            "stake": "10.00",
            "result": "push",
            "net": "0.00",
            "payout": "10.00",
            "capped": "0.00",
            "uncovered": "0.00",
            "uncovered_winnings": "0.00",
        },
        "play": {
            "stake": "40.00",
            "result": "win",
            "net": "40.00",
            "payout": "80.00",
            "capped": "0.00",
            "uncovered": "0.00",
            "uncovered_winnings": "0.00",
        },
        "trips": {
            "stake": "5.00",
            "result": "win",
            "net": "15.00",
            "payout": "20.00",
            "capped": "0.00",
            "uncovered": "0.00",
            "uncovered_winnings": "0.00",
        },
        "bad_beat": {
            "stake": "0.00",
            "result": "no_action",
            "net": "0.00",
            "payout": "0.00",
            "capped": "0.00",
            "uncovered": "0.00",
            "uncovered_winnings": "0.00",
        },
    }
    assert {p: r["net"] for p, r in data["result"].items()} == {
        "amy": "65.00",
        "cat": "25.00",
        "bob": "-40.00",
    }
    assert (data["result"]["bob"]["outcome"], data["banker_net"]) == ("fold", "-50.00")
    assert (data["bank"], data["status"], len(data["deck"])) == ("1000.00", "settled", 52)


def test_encode_decode_round_trip_is_exact() -> None:
    rnd = card_room_round()
    record = record_of(rnd)
    text = encode(record)
    back = decode(text)
    assert back == record
    assert encode(back) == text
    assert text == canonical_json(json.loads(text))  # canonical: sorted, no blanks
    # a time given in another zone is kept as the same instant, written in UTC
    other = Round(preset("casino"))
    other.place_wagers(
        "amy", ante=10, at=datetime(2026, 11, 30, 19, 0, tzinfo=timezone(timedelta(hours=2)))
    )
    again = decode(encode(record_of(other)))
    assert again.actions[0].at == datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
    assert (again.status, again.deck, dict(again.result)) == ("betting", (), {})


def _random_round(rng: random.Random, name: str, decks: TableDecks) -> Round:
    rules = preset(name)
    rnd = Round(rules, game_id=f"r{rng.getrandbits(16)}", bank=500 if rules.bank else None)
    seats = rng.randint(1, 5)
    for i in range(seats):
        rnd.place_wagers(f"p{i}", ante=rng.choice([5, 10, "12.50"]), seat=i + 1)
        if rules.trips is not None and rng.random() < 0.5:
            rnd.place_wagers(f"p{i}", ante=10, trips=5, seat=i + 1)
    if rules.back_line_bets:
        rnd.place_wagers("b0", ante=5, behind=f"p{rng.randrange(seats)}")
    if seats > 1 and rng.random() < 0.2:
        rnd.withdraw("p0")
    if rng.random() < 0.05:
        rnd.void("misdeal")
        return rnd
    rnd.close_betting(decks.deal())
    decks.collect()  # the round keeps the order; the next round takes the other deck
    while rnd.phase in (Phase.PRE_FLOP, Phase.FLOP, Phase.RIVER):
        if rng.random() < 0.03:
            rnd.void("malfunction")
            break
        player = rnd.to_act or rng.choice(rnd.awaiting())
        auto = rng.random() < 0.2
        action = rnd.timeout_action(player) if auto else rng.choice(rnd.legal_actions(player))
        rnd.act(player, action, auto=auto)
    return rnd


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_replay_confirms_rounds_of_every_preset(name: str) -> None:
    rng = random.Random(f"history-{name}")
    decks = TableDecks(preset(name), SeededShuffler(8))
    statuses = set()
    for _ in range(12):
        rnd = _random_round(rng, name, decks)
        record = decode(encode(record_of(rnd)))
        report = replay(record)
        assert (report.ok, report.difference, str(report)) == (True, None, "ok")
        assert report.replayed == record
        statuses.add(record.status)
    assert "settled" in statuses


def test_encode_writes_exactly_the_canonical_json_of_the_record() -> None:
    """encode writes the text directly (the settlement path's cost): it must be
    byte for byte canonical_json of the record's data, for every kind of record.
    """
    records = [record_of(card_room_round()), _with_offers(record_of(card_room_round()))]
    for name in PRESET_NAMES:
        rng = random.Random(f"encode-{name}")
        decks = TableDecks(preset(name), SeededShuffler(3))
        records += [record_of(_random_round(rng, name, decks)) for _ in range(12)]
    voided = Round(preset("casino"), game_id='"Zoë" \\ 20261130\n')
    voided.place_wagers("amy é", ante="12.5", at=AT)
    voided.void('misdeal: "two cards" — ⚠', at=AT)
    records.append(record_of(voided))
    betting = Round(preset("casino"), game_id="open")
    betting.place_wagers("amy", ante=10, trips=5)
    records.append(record_of(betting))  # in play: no deck, no result, no times
    plain = records[0]
    records.append(
        replace(
            plain,
            banker_net=D("-0"),  # a negative zero keeps its sign, as str(Decimal) does
            bank=D("0.005"),  # rounded to two places as before
            rules_json=json.dumps(json.loads(plain.rules_json), indent=2),  # not canonical
        )
    )
    statuses = set()
    for record in records:
        expected = canonical_json({"format": FORMAT, **history_data(record)})
        assert encode(record) == expected
        statuses.add(record.status)
    assert statuses >= {"settled", "voided", "betting"}
    assert '"banker_net":"-0.00"' in encode(records[-1])


def test_replay_confirms_a_voided_round_and_the_card_room_round() -> None:
    rnd = card_room_round()
    assert replay(record_of(rnd)).ok
    early = Round(preset("live"), game_id="e")
    early.place_wagers("amy", ante=10)
    early.void("no wagers could be debited")
    record = decode(encode(record_of(early)))
    assert (record.status, record.deck, replay(record).ok) == ("voided", (), True)
    assert expected_ledger(record) == (
        LedgerMove("amy", "wager", "ante", D(-10)),
        LedgerMove("amy", "wager", "blind", D(-10)),
        LedgerMove("amy", "refund", "ante", D(10)),
        LedgerMove("amy", "refund", "blind", D(10)),
    )
    voided = Round(preset("california-bad-beat"), game_id="v", bank=5000)
    voided.place_wagers("amy", ante=10, bad_beat=5, seat=1)
    voided.place_wagers("carl", ante=5, behind="amy")
    voided.place_wagers("bob", ante=20, seat=2)
    voided.place_wagers("eve", ante=5, seat=3)
    voided.close_betting(TOP)
    voided.act("amy", "play_3x")
    for action in ("check", "check", "check", "check", "fold"):  # bob, eve, bob, eve, bob
        voided.act(voided.awaiting()[0], action)
    assert voided.awaiting() == ("eve",)
    voided.void("shuffler malfunction", at=AT)
    record = record_of(voided)
    assert replay(decode(encode(record))).ok
    assert {p: (r.outcome, r.net) for p, r in record.result.items()} == {
        "amy": ("void", D(0)),
        "carl": ("void", D(0)),
        "bob": ("void", D(0)),
        "eve": ("void", D(0)),
    }
    assert record.result["bob"].wagers["ante"].payout == D(20)  # folded, then returned
    assert {k: (w.stake, w.result, w.payout) for k, w in record.result["carl"].wagers.items()} == {
        "ante": (D(5), "returned", D(5)),
        "blind": (D(5), "returned", D(5)),
        "play": (D(15), "returned", D(15)),
        "trips": (D(0), "no_action", D(0)),
        "bad_beat": (D(0), "no_action", D(0)),
    }


def test_a_hand_altered_record_reports_the_first_difference() -> None:
    text = encode(record_of(card_room_round()))

    def payout(d: dict[str, Any]) -> None:
        d["result"]["amy"]["play"]["payout"] = "30.00"

    report = replay(decode(altered(text, payout)))
    assert not report.ok
    assert report.difference == "result.amy.play.payout: stored 30.00, replayed 80.00"
    assert str(report) == "differs: result.amy.play.payout: stored 30.00, replayed 80.00"

    def decision(d: dict[str, Any]) -> None:
        d["actions"][6]["payload"]["action"] = "play_3x"

    assert replay(decode(altered(text, decision))).difference == (
        "result.amy.net: stored 65.00, replayed 55.00"
    )

    def deck(d: dict[str, Any]) -> None:
        d["deck"][0], d["deck"][2] = d["deck"][2], d["deck"][0]  # amy: 8h Ad, no Trips

    assert replay(decode(altered(text, deck))).difference == (
        "result.amy.net: stored 65.00, replayed 45.00"
    )

    def refused(d: dict[str, Any]) -> None:
        d["actions"][8]["payload"]["action"] = "play_2x"
        d["actions"][9]["payload"]["action"] = "play_2x"

    report = replay(decode(altered(text, refused)))
    assert (report.ok, report.replayed) == (False, None)
    assert report.difference == (
        "actions[9]: the engine refuses act by 'bob': action: play_2x is not legal for 'bob' "
        "in phase settled (legal: none)"
    )

    def banker(d: dict[str, Any]) -> None:
        d["banker_net"] = "-54.00"

    assert replay(decode(altered(text, banker))).difference == (
        "banker_net: stored -54.00, replayed -50.00"
    )

    def time(d: dict[str, Any]) -> None:
        d["status"] = "voided"

    assert replay(decode(altered(text, time))).difference == (
        "status: stored voided, replayed settled"
    )


def test_a_record_whose_rules_do_not_match_their_fingerprint_is_refused() -> None:
    text = encode(record_of(card_room_round()))

    def rules(d: dict[str, Any]) -> None:
        d["rules"]["trips_pays"]["three_of_a_kind"] = "4:1"

    theirs = rules_fingerprint(preset("california"))
    with pytest.raises(
        InvalidRecordError, match=f"^rules_fingerprint: {theirs} is not the fingerprint"
    ):
        decode(altered(text, rules))
    record = decode(text)
    forged = RoundRecord(
        **{**{f: getattr(record, f) for f in record.__slots__}, "rules_fingerprint": "0" * 64}
    )  # type: ignore[arg-type]
    assert replay(forged).difference == (f"rules_fingerprint: stored {'0' * 64}, replayed {theirs}")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("deck"), "deck: missing"),
        (lambda d: d.update(extra=1), "extra: unknown key"),
        (
            lambda d: d.update(format="uth.round/0"),
            "format: expected 'uth.round/1', got 'uth.round/0'",
        ),
        (
            lambda d: d.update(status="done"),
            "status: expected one of betting, pre_flop, flop, river, settled, voided, got 'done'",
        ),
        (lambda d: d["deck"].pop(), "deck: expected 52 cards (or none: never dealt), got 51 cards"),
        (lambda d: d["deck"].__setitem__(5, "Zz"), "deck[5]: "),
        (lambda d: d["deck"].__setitem__(5, "As"), "deck: duplicate card As"),
        (
            lambda d: d["actions"][0]["payload"].update(ante=10),
            "actions[0].payload.ante: expected an amount as a string such as '10.00', got 10",
        ),
        (
            lambda d: d["actions"][0]["payload"].update(ante="10.001"),
            "actions[0].payload.ante: amounts have at most two decimal places",
        ),
        (
            lambda d: d["actions"][1].update(at="2026-11-30T17:00:00"),
            "actions[1].at: expected an ISO-8601 time with its offset or null, got '2026-11-30T17:00:00'",
        ),
        (
            lambda d: d["actions"][2].update(kind="bet"),
            "actions[2].kind: expected one of place_wagers, withdraw, close_betting, act, void, got 'bet'",
        ),
        (
            lambda d: d["actions"][5].update(player="amy"),
            "actions[5].player: a close_betting action has no player, got 'amy'",
        ),
        (
            lambda d: d["actions"][6]["payload"].update(auto="no"),
            "actions[6].payload.auto: expected true or false, got 'no'",
        ),
        (lambda d: d["result"]["amy"].pop("play"), "result.amy.play: missing"),
        (
            lambda d: d["result"]["amy"]["play"].update(net="x"),
            "result.amy.play.net: expected a plain decimal amount",
        ),
        (
            lambda d: d.update(bank=1000),
            "bank: expected an amount as a string such as '10.00', got 1000",
        ),
    ],
)
def test_decode_names_the_bad_field(change: Any, message: str) -> None:
    text = altered(encode(record_of(card_room_round())), change)
    with pytest.raises(InvalidRecordError, match="^" + re.escape(message)):
        decode(text)


def test_decode_refuses_what_is_not_a_record() -> None:
    with pytest.raises(InvalidRecordError, match=r"^record: not JSON"):
        decode("{")
    with pytest.raises(InvalidRecordError, match=r"^record: expected an object, got \[\]"):
        decode("[]")
    text = altered(encode(record_of(card_room_round())), lambda d: d["rules"].pop("blind_pays"))
    with pytest.raises(InvalidRulesError, match=r"^rules: blind_pays: Field required"):
        decode(text)


def test_expected_ledger_of_a_settled_round() -> None:
    moves = expected_ledger(decode(encode(record_of(card_room_round()))))
    assert [(m.player, m.kind, m.wager, m.amount) for m in moves] == [
        ("amy", "wager", "ante", D(-10)),
        ("amy", "wager", "blind", D(-10)),
        ("amy", "wager", "trips", D(-5)),
        ("cat", "wager", "ante", D(-5)),
        ("cat", "wager", "blind", D(-5)),
        ("bob", "wager", "ante", D(-20)),
        ("bob", "wager", "blind", D(-20)),
        ("amy", "wager", "play", D(-40)),
        ("cat", "wager", "play", D(-20)),
        ("amy", "payout", "ante", D(20)),
        ("amy", "payout", "blind", D(10)),
        ("amy", "payout", "play", D(80)),
        ("amy", "payout", "trips", D(20)),
        ("cat", "payout", "ante", D(10)),
        ("cat", "payout", "blind", D(5)),
        ("cat", "payout", "play", D(40)),
    ]
    net: dict[str, Decimal] = {}
    for m in moves:
        net[m.player] = net.get(m.player, D(0)) + m.amount
    assert net == {"amy": D(65), "cat": D(25), "bob": D(-40)}


def test_expected_ledger_of_a_voided_round_refunds_every_debit() -> None:
    rnd = Round(preset("casino"), game_id="v-2")
    rnd.place_wagers("amy", ante=10, trips=5, seat=1)
    rnd.close_betting(TOP)
    rnd.act("amy", "play_4x")
    assert rnd.phase is Phase.SETTLED  # a lone hand that played goes to the showdown
    voided = Round(preset("casino"), game_id="v-3")
    voided.place_wagers("amy", ante=10, trips=5, seat=1)
    voided.place_wagers("bob", ante=5, seat=2)
    voided.close_betting(TOP)
    voided.act("amy", "play_4x")
    voided.void("malfunction")
    assert expected_ledger(record_of(voided)) == (
        LedgerMove("amy", "wager", "ante", D(-10)),
        LedgerMove("amy", "wager", "blind", D(-10)),
        LedgerMove("amy", "wager", "trips", D(-5)),
        LedgerMove("bob", "wager", "ante", D(-5)),
        LedgerMove("bob", "wager", "blind", D(-5)),
        LedgerMove("amy", "wager", "play", D(-40)),
        LedgerMove("amy", "refund", "ante", D(10)),
        LedgerMove("amy", "refund", "blind", D(10)),
        LedgerMove("amy", "refund", "play", D(40)),
        LedgerMove("amy", "refund", "trips", D(5)),
        LedgerMove("bob", "refund", "ante", D(5)),
        LedgerMove("bob", "refund", "blind", D(5)),
    )


# --- a card room's player-dealer and offer (issue 13) -----------------------------


def _with_offers(record: RoundRecord) -> RoundRecord:
    offers = (
        OfferStep("amy", 1, "declined"),
        OfferStep("eve", 4, "passed_over"),
        OfferStep("pd", 5, "accepted", D(1000)),
    )
    return replace(record, player_dealer="pd", offers=offers)


def test_a_card_room_record_keeps_the_player_dealer_and_the_offer() -> None:
    plain = record_of(card_room_round())
    assert {"player_dealer", "offers"}.isdisjoint(json.loads(encode(plain)))  # as before
    assert decode(encode(plain)).offers == ()
    record = _with_offers(plain)
    text = encode(record)
    data = json.loads(text)
    assert data["player_dealer"] == "pd"
    assert data["offers"] == [
        {"player": "amy", "seat": 1, "outcome": "declined", "bank": None},
        {"player": "eve", "seat": 4, "outcome": "passed_over", "bank": None},
        {"player": "pd", "seat": 5, "outcome": "accepted", "bank": "1000.00"},
    ]
    assert decode(text) == record
    assert replay(decode(text)).ok
    # The bank moves in the ledger: debited, then back with the bank's result.
    moves = expected_ledger(record)
    assert moves[0] == LedgerMove("pd", "wager", "bank", D(-1000))
    assert moves[-1] == LedgerMove("pd", "payout", "bank", D(1000) + record.banker_net)


def test_replay_refuses_an_offer_that_does_not_end_with_the_bank() -> None:
    data = json.loads(encode(_with_offers(record_of(card_room_round()))))
    data["offers"][2]["bank"] = "900.00"
    report = replay(decode(canonical_json(data)))
    assert report.difference == (
        "offers[2]: stored accepted by 'pd' with 900.00, expected the player-dealer "
        "'pd' accepting the bank 1000.00"
    )
    data["offers"][2]["outcome"] = "dealt"
    with pytest.raises(InvalidRecordError, match=r"offers\[2\]\.outcome"):
        decode(canonical_json(data))
