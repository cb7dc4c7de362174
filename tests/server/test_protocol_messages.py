"""The words of ``malformed`` replies for card-room fields (a new-user trial): a
seat number or an amount is named and quoted as written, without Python's types.
"""

from __future__ import annotations

import json

import pytest

from uth.money import WrittenNumber
from uth.server.protocol import ProtocolError, parse_command


def refusal(text: str) -> str:
    with pytest.raises(ProtocolError) as caught:
        parse_command(json.loads(text, parse_float=WrittenNumber))
    assert (caught.value.code, caught.value.request_id) == ("malformed", "r1")
    return str(caught.value)


@pytest.mark.parametrize(
    ("command", "value", "message"),
    [
        ("place_bet", "2.0", "behind: expected a seat number from 1 to 7, got 2.0"),
        ("place_bet", "2e0", "behind: expected a seat number from 1 to 7, got 2e0"),
        ("place_bet", "8", "behind: expected a seat number from 1 to 7, got 8"),
        ("place_bet", '"3"', 'behind: expected a seat number from 1 to 7, got "3"'),
        ("undo", "true", "behind: expected a seat number from 1 to 7, got true"),
        ("double", "0", "behind: expected a seat number from 1 to 7, got 0"),
        ("repeat", "[3]", "behind: expected a seat number from 1 to 7, got [3]"),
    ],
)
def test_a_bad_seat_behind_is_quoted_as_written(command: str, value: str, message: str) -> None:
    bet = ', "spot": "ante", "amount": 5' if command == "place_bet" else ""
    text = f'{{"type": "{command}", "id": "r1"{bet}, "behind": {value}}}'
    assert refusal(text) == message


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2.0", "seat: expected a seat number from 1 to 7, got 2.0"),
        ("null", "seat: expected a seat number from 1 to 7, got null"),
    ],
)
def test_a_bad_seat_to_sit_at_is_quoted_as_written(value: str, message: str) -> None:
    assert refusal(f'{{"type": "sit", "id": "r1", "seat": {value}}}') == message


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("true", "bank: expected a number or a decimal string, got true"),
        ('{"a": 1}', 'bank: expected a number or a decimal string, got {"a": 1}'),
    ],
)
def test_a_bank_that_is_not_an_amount_says_an_amount_is_expected(value: str, message: str) -> None:
    text = f'{{"type": "answer_offer", "id": "r1", "accept": true, "bank": {value}}}'
    assert refusal(text) == message
