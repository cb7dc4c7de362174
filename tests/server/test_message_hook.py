"""The live tests' client checks every message the server sends against its model
(``helpers.check_message``, ``uth.server.messages``): a drift fails the test."""

from __future__ import annotations

import json

import pytest
from helpers import check_message

PAUSE = {"type": "pause", "now": "2026-11-29T23:30:55+00:00",
         "deadline": "2026-11-29T23:30:57+00:00", "seconds_left": 2.0}  # fmt: skip


def test_a_message_that_fits_its_model_passes() -> None:
    check_message(json.dumps(PAUSE))
    check_message(json.dumps({**PAUSE, "deadline": None, "seconds_left": None}))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seconds_left": "2.0"}, "pause.seconds_left"),  # a string where the model says number
        ({"now": "2026-11-29 23:30:55"}, "pause.now"),  # not ISO 8601 in UTC
        ({"extra": 1}, "pause.extra"),  # a field the protocol does not document
    ],
)
def test_a_message_that_drifts_fails_the_test_that_received_it(
    change: dict[str, object], field: str
) -> None:
    with pytest.raises(AssertionError, match="a server message breaks its model") as info:
        check_message(json.dumps({**PAUSE, **change}))
    assert field in str(info.value)
