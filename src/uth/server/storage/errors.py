"""Errors of the storage layer (the shared ones live in :mod:`uth.server.ports`)."""

from __future__ import annotations

from uth.errors import UthError
from uth.server.ports import DuplicateError, RoundNotOpenError


class ServerLockedError(UthError):
    """Another uth server process is already running on this database."""

    code = "server_locked"


__all__ = ["DuplicateError", "RoundNotOpenError", "ServerLockedError"]
