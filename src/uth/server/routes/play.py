"""The WebSocket endpoint: one player at one table (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from uth.money import WrittenNumber, money_json
from uth.server.connection import WsConnection
from uth.server.ports import PlayerRecord
from uth.server.protocol import MAX_FRAME_BYTES, ProtocolError, parse_command
from uth.server.runtime import Runtime
from uth.server.table import CommandError, LiveTable

log = logging.getLogger("uth.server")
router = APIRouter()

_AUTH_SECONDS = 10.0


@router.websocket("/ws/tables/{table_id}")
async def play(websocket: WebSocket, table_id: str) -> None:
    """One player at one table. The first message must be ``{"type": "auth", "token": ...}``."""
    rt: Runtime = websocket.app.state.runtime
    await websocket.accept()
    t = rt.tables.get(table_id)
    if t is None:
        await websocket.send_json(
            {
                "type": "error",
                "id": None,
                "code": "not_found",
                "message": f"table: no table {table_id!r}",
            }
        )
        await websocket.close(code=4404)
        return
    player = await _authenticate(websocket, rt)
    if player is None:
        return
    conn = WsConnection(websocket, lambda c: t.disconnect(player.id, c))
    if not rt.reservations.knows(player.id):
        rt.reservations.set_balance(player.id, player.balance)
    try:
        await t.load_player(player.id)
    except Exception:  # Repeat is a convenience: the player still sits down
        log.exception("table %s: last bets of player %s not loaded", table_id, player.id)
    try:
        snapshot = t.join(player, conn)
    except CommandError as exc:
        await websocket.send_json(
            {"type": "error", "id": None, "code": exc.code, "message": str(exc)}
        )
        await websocket.close(code=4409)
        return
    conn.send(snapshot)
    for notice in t.notices(player.id):
        conn.send(notice)
    for game_number in rt.restart_voids.pop(player.id, []):
        conn.send(
            {
                "type": "round_voided",
                "game_number": game_number,
                "code": "server_restarted",
                "reason": "server restarted during the round",
                "balance": money_json(rt.reservations.available(player.id)),
            }
        )
    writer = asyncio.create_task(conn.pump())
    try:
        while not conn.stalled:
            text = await _receive_text(websocket)
            reply = _dispatch(t, player.id, text, conn)
            conn.send(reply)
            t.publish()
            if reply["type"] == "accepted" and "snapshot" not in reply:
                # The balance is shared: the player's other tables show it too.
                for other in rt.tables.values():
                    if other is not t:
                        other.push_state(player.id)
    except WebSocketDisconnect:
        pass
    finally:
        t.disconnect(player.id, conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer


async def _receive_text(websocket: WebSocket) -> str | None:
    """The next text frame; None for a binary frame (answered as malformed).

    Raises:
        WebSocketDisconnect: the client went away.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


def _dispatch(
    table: LiveTable, player_id: int, text: str | None, conn: WsConnection | None = None
) -> dict[str, Any]:
    if text is None:
        return {
            "type": "error",
            "id": None,
            "code": "malformed",
            "message": "message: send JSON in a text frame (binary frames are not accepted)",
        }
    if len(text) > MAX_FRAME_BYTES or len(text.encode("utf-8")) > MAX_FRAME_BYTES:
        # Not parsed, not quoted: the reply's size does not depend on the input's.
        return {
            "type": "error",
            "id": None,
            "code": "malformed",
            "message": f"message: too long; at most {MAX_FRAME_BYTES} bytes",
        }
    try:
        # JSON numbers with a fraction or exponent keep their text as written, so
        # that the amount parser can refuse 1e2 and echo it as 1e2 (parse_amount).
        raw = json.loads(text, parse_float=WrittenNumber)
    except (ValueError, RecursionError):
        return {
            "type": "error",
            "id": None,
            "code": "malformed",
            "message": "message: not valid JSON",
        }
    try:
        command = parse_command(raw)
    except ProtocolError as exc:
        return {"type": "error", "id": exc.request_id, "code": exc.code, "message": str(exc)}
    return table.handle(player_id, command, conn)


async def _authenticate(websocket: WebSocket, rt: Runtime) -> PlayerRecord | None:
    try:
        text = await asyncio.wait_for(_receive_text(websocket), timeout=_AUTH_SECONDS)
        first = json.loads(text) if text is not None and len(text) <= MAX_FRAME_BYTES else None
    except (TimeoutError, ValueError, RecursionError, WebSocketDisconnect):
        first = None
    token = first.get("token") if isinstance(first, dict) and first.get("type") == "auth" else None
    player = (
        await rt.worker.call(rt.ledger.player_by_token, token) if isinstance(token, str) else None
    )
    if player is None:
        with contextlib.suppress(Exception):
            await websocket.send_json(
                {
                    "type": "error",
                    "id": None,
                    "code": "unauthorized",
                    "message": "auth: a valid player token is required",
                }
            )
            await websocket.close(code=4401)
        return None
    return player
