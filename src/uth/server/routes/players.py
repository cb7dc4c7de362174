"""Sign-in and the signed-in player (``/api/players``, ``/api/me``)."""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field, field_validator

from uth.server.http_models import PlayerOut, SignInOut, errors
from uth.server.ports import NameTakenError, PlayerRecord
from uth.server.runtime import Player, Rt, player_json

router = APIRouter()

#: The longest display name, in characters after normalisation.
NAME_MAX = 20
#: Unicode categories refused in a name: control, format (zero-width space,
#: right-to-left override), private use, surrogates, unassigned, line and
#: paragraph separators.
_NAME_REFUSED = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def normalise_name(value: str) -> str:
    """A display name as stored and compared: NFKC, outer white space removed.

    Raises:
        ValueError: blank, longer than :data:`NAME_MAX`, or holding a control or
            invisible character (named by its code point).
    """
    name = unicodedata.normalize("NFKC", value).strip()
    if not name:
        raise ValueError("must not be blank")
    if len(name) > NAME_MAX:
        raise ValueError(f"at most {NAME_MAX} characters, got {len(name)}")
    bad = next((c for c in name if unicodedata.category(c) in _NAME_REFUSED), None)
    if bad is not None:
        raise ValueError(f"no control or invisible characters, got U+{ord(bad):04X}")
    return name


class SignIn(BaseModel):
    """Sign in with a display name (play money); ``token`` resumes the name's account."""

    name: str = Field(max_length=200)
    token: str | None = Field(default=None, min_length=1, max_length=200)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return normalise_name(value)


@router.post(
    "/api/players",
    tags=["players"],
    status_code=201,
    response_model=SignInOut,
    responses={
        200: {"model": SignInOut, "description": "The name's account, resumed with its token"},
        **errors(400, 409, 422),
    },
)
async def sign_in(body: SignIn, rt: Rt, response: Response) -> dict[str, Any]:
    """Sign in with a name: a free name opens a play-money account (201); the
    name with its account's token resumes that account (200); the name of
    another account is refused (409 ``name_taken``). The token in the reply
    authorises this player only.
    """
    store = rt.ledger

    def sign_in_once() -> tuple[PlayerRecord, bool]:
        # One storage call: the worker runs calls one at a time, so two
        # sign-ins with one name cannot both find it free.
        owner = store.player_by_name(body.name)
        if owner is None:
            # A new account always gets a fresh token, never one the client chose.
            start = rt.tables_file.starting_balance
            return store.create_player(body.name, fresh, start, rt.clock.now()), True
        holder = store.player_by_token(body.token) if body.token else None
        if holder is None or holder.id != owner.id:
            raise NameTakenError(
                f"name: {body.name!r} belongs to another account; sign in with its token "
                "(kept by the browser that created it) or choose another name",
                field="name",
            )
        return owner, False

    fresh = secrets.token_urlsafe(32)
    player, created = await rt.worker.call(sign_in_once)
    token = fresh if created else body.token
    if created or not rt.reservations.knows(player.id):
        rt.reservations.set_balance(player.id, player.balance)
    response.status_code = 201 if created else 200
    return {"player": player_json(player, rt), "token": token}


@router.get("/api/me", tags=["players"], response_model=PlayerOut, responses=errors(401))
async def me(player: Player, rt: Rt) -> dict[str, Any]:
    """The signed-in player and the balance available to bet."""
    return player_json(player, rt)
