"""Every HTTP route answers with a pydantic response model (issue 8, item 5), so the
OpenAPI document shows each answer's real schema; money in it is a JSON number.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from uth.server.app import create_app
from uth.server.config import Settings
from uth.server.http_models import TableDetailOut, TableOut


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
    detail = {**LOBBY, "rule_set": {"name": "live"}, "cap": None, "figures": figures}
    assert TableDetailOut.model_validate(detail).model_dump(mode="json") == detail


@pytest.mark.parametrize(
    ("chips", "error"),
    [(["1"], "Input should be a valid integer"), ([1.0], "a whole amount is sent as an integer")],
)
def test_the_lobby_refuses_money_in_another_encoding(chips: list[Any], error: str) -> None:
    with pytest.raises(ValidationError, match=error):
        TableOut.model_validate({**LOBBY, "chips": chips})
