"""Every HTTP route answers with a pydantic response model (issue 8, item 5), so the
OpenAPI document shows each answer's real schema; money in it is a JSON number.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import LIVE_TABLE, live_server
from pydantic import ValidationError

from uth.rules import preset
from uth.server.app import create_app
from uth.server.config import Settings
from uth.server.http_models import TableDetailOut, TableOut
from uth.server.routes.tables import money_numbers


def _app(tmp_path: Path) -> Any:
    # Building the app opens nothing: storage and tables start with its lifespan.
    return create_app(Settings(database_url=f"sqlite:///{tmp_path / 'uth.db'}"))


def test_every_route_declares_its_response_model(tmp_path: Path) -> None:
    # Read from the OpenAPI document: FastAPI keeps included routers' routes apart
    # from app.routes, and the document is what a client sees.
    doc = _app(tmp_path).openapi()
    operations = [(m, p, op) for p, ops in doc["paths"].items() for m, op in ops.items()]
    assert len(operations) == 13
    untyped = [
        f"{m} {p} {code}"
        for m, p, op in operations
        for code, answer in op["responses"].items()
        if code.startswith("2")
        and "$ref" not in _item(answer["content"]["application/json"]["schema"])
    ]
    assert untyped == []


def _item(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of a list's items, else the schema itself."""
    items: dict[str, Any] = schema.get("items", schema)
    return items


def test_the_lobby_schema_names_every_field_and_money_is_a_number(tmp_path: Path) -> None:
    doc = _app(tmp_path).openapi()
    ok = doc["paths"]["/api/tables"]["get"]["responses"]["200"]["content"]["application/json"]
    assert ok["schema"]["items"] == {"$ref": "#/components/schemas/TableOut"}
    table = doc["components"]["schemas"]["TableOut"]
    assert table["required"] == [
        "id", "name", "names", "rules", "limits", "seats", "players", "phase", "chips", "trainer"
    ]  # fmt: skip
    money = table["properties"]["chips"]["items"]
    assert [t["type"] for t in money["anyOf"]] == ["integer", "number"]
    detail = doc["components"]["schemas"]["TableDetailOut"]
    assert {"rule_set", "cap", "figures"} <= set(detail["required"])


LOBBY: dict[str, Any] = {
    "id": "live-1", "name": "Live", "names": {"ru": "Живой"}, "rules": "live",
    "limits": {"ante": [5, 1000], "trips": [5, 1000], "bad_beat": None},
    "seats": None, "players": 2, "phase": "flop", "chips": [1, 2.5, 500], "trainer": True,
}  # fmt: skip
READY = {
    "status": "ready", "house_edge": 0.02185, "rtp_initial_bet": 0.9782,
    "rtp_total_bet": 0.9947, "trips_rtp": 0.965, "bad_beat_rtp": None,
}  # fmt: skip


@pytest.mark.parametrize(
    "figures", [READY, {"status": "computing"}, {"status": "failed", "error": "out of memory"}]
)
def test_the_table_models_send_what_the_server_built_and_nothing_more(
    figures: dict[str, Any],
) -> None:
    # FastAPI validates a route's answer with its model and sends the model's dump:
    # the same keys and values as the dict the route built (no added nulls).
    assert TableOut.model_validate(LOBBY).model_dump(mode="json") == LOBBY
    rule_set = money_numbers(preset("live"))
    detail = {**LOBBY, "rule_set": rule_set, "cap": None, "figures": figures}
    assert TableDetailOut.model_validate(detail).model_dump(mode="json") == detail


@pytest.mark.parametrize(
    ("chips", "error"),
    [(["1"], "Input should be a valid integer"), ([1.0], "a whole amount is sent as an integer")],
)
def test_the_lobby_refuses_money_in_another_encoding(chips: list[Any], error: str) -> None:
    with pytest.raises(ValidationError, match=error):
        TableOut.model_validate({**LOBBY, "chips": chips})


def test_the_rule_set_of_a_table_sends_money_as_numbers(tmp_path: Path) -> None:
    # Issue 8, item 5: money leaves the server in one encoding, the rule set included.
    table = {
        **LIVE_TABLE,
        "overrides": {"ante": {"min": 2.5, "max": 500}, "payout_cap": {"amount": 10000.25}},
    }
    with live_server(f"sqlite:///{tmp_path / 'uth.db'}", tmp_path, tables=[table]) as srv:
        detail = srv.client.get("/api/tables/t1").json()
    rule_set = detail["rule_set"]
    assert rule_set["ante"] == {"min": 2.5, "max": 500}
    assert rule_set["trips"] == {"min": 5, "max": 1000}
    assert rule_set["bad_beat"] is None and rule_set["bank"] is None
    assert rule_set["payout_cap"] == {"amount": 10000.25, "min_bettor_rule": True}
    assert detail["cap"] == 10000.25
    # Everything else is the rule set's canonical JSON, as `uth rules show --json`.
    assert rule_set["blind_pays"] == {
        "royal_flush": "500:1", "straight_flush": "50:1", "four_of_a_kind": "10:1",
        "full_house": "3:1", "flush": "3:2", "straight": "1:1",
    }  # fmt: skip
    assert rule_set["play_multiples"] == {"pre_flop": [4, 3], "flop": [2], "river": [1]}


def test_the_rule_set_schema_names_its_money_as_numbers(tmp_path: Path) -> None:
    schemas = _app(tmp_path).openapi()["components"]["schemas"]
    limit = schemas["LimitOut"]
    assert limit["required"] == ["min", "max"]
    assert [t["type"] for t in limit["properties"]["min"]["anyOf"]] == ["integer", "number"]
    with pytest.raises(ValidationError, match="Input should be a valid integer"):
        TableDetailOut.model_validate(
            {**LOBBY, "rule_set": {**money_numbers(preset("live")), "ante": {"min": "5.00", "max": 1000}},
             "cap": None, "figures": READY}
        )  # fmt: skip
