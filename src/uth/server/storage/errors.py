"""Errors of the storage layer beyond those of :mod:`uth.server.ports`."""

from __future__ import annotations

from uth.errors import UthError


class RoundNotOpenError(UthError):
    """A round that is settled or voided cannot be debited, settled or voided again."""

    code = "round_not_open"


class DuplicateError(UthError):
    """A game number or session token that is already in use."""

    code = "duplicate"


class ServerLockedError(UthError):
    """Another uth server process is already running on this database."""

    code = "server_locked"
