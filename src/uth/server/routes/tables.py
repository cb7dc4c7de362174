"""The lobby and the health check (``/api/tables``, ``/healthz``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from uth.server.http_models import Health, TableDetailOut, TableOut, errors
from uth.server.runtime import Rt, json_ready, table_of

health = APIRouter()
router = APIRouter()


@health.get("/healthz", tags=["health"], response_model=Health)
async def healthz(rt: Rt) -> dict[str, Any]:
    """Liveness: the tables and their phases."""
    return {"status": "ok", "tables": {i: t.phase for i, t in rt.tables.items()}}


@router.get("/api/tables", tags=["tables"], response_model=list[TableOut])
async def tables(rt: Rt) -> list[dict[str, Any]]:
    """The lobby: every table with its rule set, limits, players and phase."""
    return [t.info() for t in rt.tables.values()]


@router.get(
    "/api/tables/{table_id}",
    tags=["tables"],
    response_model=TableDetailOut,
    responses=errors(404, 422),
)
async def table(table_id: str, rt: Rt) -> dict[str, Any]:
    """One table with its full rule set (pay tables, limits, options)."""
    t = table_of(rt, table_id)
    return {
        **t.info(),
        "rule_set": money_numbers(t.rules),
        "cap": json_ready(t.rules.cap_amount()),
        "figures": rt.figures.for_rules(t.rules),
    }


def money_numbers(model: BaseModel) -> dict[str, Any]:
    """``model``'s JSON with its ``Decimal`` fields (nested models' too) as money
    numbers (:func:`uth.server.runtime.json_ready`) instead of the rule-set files'
    decimal strings: money leaves the server in one encoding (issue 8, item 5).
    """
    out: dict[str, Any] = model.model_dump(mode="json")
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, Decimal):
            out[name] = json_ready(value)
        elif isinstance(value, BaseModel):
            out[name] = money_numbers(value)
    return out
