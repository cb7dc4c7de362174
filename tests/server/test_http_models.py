"""Every HTTP route answers with a pydantic response model (issue 8, item 5), so the
OpenAPI document shows each answer's real schema; money in it is a JSON number.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.routing import APIRoute

from uth.server.app import create_app
from uth.server.config import Settings


def _app(tmp_path: Path) -> Any:
    # Building the app opens nothing: storage and tables start with its lifespan.
    return create_app(Settings(database_url=f"sqlite:///{tmp_path / 'uth.db'}"))


def test_every_route_declares_its_response_model(tmp_path: Path) -> None:
    app = _app(tmp_path)
    routes = [r for r in app.routes if isinstance(r, APIRoute) and r.include_in_schema]
    assert len(routes) == 13
    assert [r.path for r in routes if r.response_model is None] == []


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
