"""A player's rounds and ledger (``/api/history``, ``/api/ledger``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from uth.server.http_models import HistoryRow, LedgerEntryOut, RoundDetailOut, errors
from uth.server.runtime import GameNumber, Player, Rt, json_ready

router = APIRouter()


@router.get(
    "/api/history",
    tags=["history"],
    response_model=list[HistoryRow],
    responses=errors(401, 422),
)
async def history(
    player: Player, rt: Rt, limit: Annotated[int, Query(ge=1, le=200)] = 20
) -> list[Any]:
    """The player's last rounds, newest first."""
    rows = await rt.worker.call(rt.rounds.history, player.id, limit)
    return [json_ready(r) for r in rows]


@router.get(
    "/api/history/{game_number}",
    tags=["history"],
    response_model=RoundDetailOut,
    responses=errors(401, 404, 422),
)
async def round_detail(game_number: GameNumber, player: Player, rt: Rt) -> Any:
    """One of the player's rounds: cards, decisions, wagers, results, balance before and after."""
    return json_ready(await rt.worker.call(rt.rounds.round_detail, player.id, game_number))


@router.get(
    "/api/ledger",
    tags=["history"],
    response_model=list[LedgerEntryOut],
    response_model_exclude_unset=True,
    responses=errors(401),
)
async def ledger(player: Player, rt: Rt) -> list[Any]:
    """Every ledger entry of the player, oldest first (``hand`` only on a second hand's)."""
    rows = [json_ready(e) for e in await rt.worker.call(rt.ledger.ledger, player.id)]
    return [{k: v for k, v in r.items() if k != "hand" or v is not None} for r in rows]
