"""``uth replay``: re-run stored rounds through the engine and confirm their result and
ledger entries (an auditor's game recall, GLI-19).

``uth replay GAME_NUMBER`` checks one round, ``uth replay --all`` every round of the
database (``--database-url URL``, alias ``--database``; ``uth serve``'s database by
default, ``UTH_DATABASE_URL`` or ``sqlite:///uth.db``). Replay only reads: a SQLite
file that does not exist is refused, never created. The check itself is
:mod:`uth.server.replay`. Exit status: 0 when every round checked matches (open
rounds are skipped); 1 when one differs (the first difference is printed) or the
round is not finished; 2 for a bad argument, an unknown game number, a missing
SQLite file or a database that cannot be read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

#: Exit status when a stored round differs from its replay.
EXIT_DIFFERS = 1
#: Exit status for a bad argument, an unknown game number or an unreadable database.
EXIT_BAD_ARGUMENT = 2


def replay_command(
    game_number: Annotated[
        str | None, typer.Argument(help="The round's game number, e.g. 20261129-233015-0007.")
    ] = None,
    all_rounds: Annotated[
        bool, typer.Option("--all", help="Replay every stored round, oldest first.")
    ] = False,
    database: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            "--database",
            help="SQLAlchemy URL; uth serve's database by default (UTH_DATABASE_URL). "
            "A SQLite file must exist: replay never creates one.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of lines.")] = False,
) -> None:
    """Replay stored rounds and confirm their result and ledger entries, or name the
    first difference.
    """
    from uth.server.replay import check_all, check_round
    from uth.server.storage import SqlStore, make_engine

    if game_number is None and not all_rounds:
        _fail("game_number: give a game number or --all", as_json)
    if game_number is not None and all_rounds:
        _fail("game_number: give one game number or --all, not both", as_json)
    url = _database(database, as_json)
    engine = make_engine(url)
    try:
        store = SqlStore(engine)
        if game_number is not None:
            try:
                check = check_round(store, store, game_number)
            except Exception as exc:
                _fail(_message(exc), as_json)
            if as_json:
                typer.echo(json.dumps(check.to_json(), indent=2))
            else:
                typer.echo(check.message())
            if check.outcome not in ("match", "unrecorded"):
                raise typer.Exit(EXIT_DIFFERS)
            return
        try:
            checks = check_all(store, store)
        except Exception as exc:
            _fail(_message(exc), as_json)
    finally:
        engine.dispose()
    counts = {o: sum(c.outcome == o for c in checks) for o in ("match", "differs", "open")}
    unrecorded = sum(c.outcome == "unrecorded" for c in checks)
    summary = (
        f"{len(checks)} rounds: {counts['match']} replayed and matched, "
        f"{unrecorded} voided before a record was kept (net zero), "
        f"{counts['open']} open (skipped), {counts['differs']} differ"
    )
    if as_json:
        out = {
            "rounds": [c.to_json() for c in checks],
            "matched": counts["match"],
            "unrecorded": unrecorded,
            "open": counts["open"],
            "differ": counts["differs"],
        }
        typer.echo(json.dumps(out, indent=2))
    else:
        for check in checks:
            typer.echo(check.message())
        typer.echo(summary)
    if counts["differs"]:
        raise typer.Exit(EXIT_DIFFERS)


def _database(database: str | None, as_json: bool) -> str:
    """The database URL, checked to hold uth's schema at the latest revision."""
    from uth.server.config import Settings
    from uth.server.runner import redact, startup_error
    from uth.server.storage import current_revision, is_empty
    from uth.server.storage.migrate import head_revision

    url = database or Settings().database_url
    missing = _missing_sqlite_file(url)
    if missing is not None:
        _fail(f"--database-url: no database at {missing}", as_json)
    try:
        empty = is_empty(url)
        revision = None if empty else current_revision(url)
    except Exception as exc:
        message = startup_error(exc)
        if message is None:
            raise
        _fail(message, as_json)
    if empty:
        _fail(f"database: {redact(url)} holds no uth database", as_json)
    if revision != head_revision():
        _fail(
            f"database: {redact(url)} is at revision {revision}, not {head_revision()}; "
            "run `uth db upgrade` (rounds stored before revision 0004 have no record)",
            as_json,
        )
    return url


def _missing_sqlite_file(url: str) -> str | None:
    """The file of a SQLite ``url`` when it does not exist (connecting would create
    it), else None (the file exists, an in-memory database, another backend, or a URL
    that does not parse: connecting reports that).
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    path = parsed.database
    if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:":
        return None
    if path.startswith("file:") or Path(path).exists():
        return None
    return path


def _message(exc: Exception) -> str:
    from uth.errors import UthError
    from uth.server.runner import startup_error

    if isinstance(exc, UthError):
        return str(exc)
    message = startup_error(exc)
    if message is None:
        raise exc
    return message


def _fail(message: str, as_json: bool) -> typer.Exit:
    """Print a one-line error (JSON on stdout with ``--json``) and stop with status 2."""
    if as_json:
        typer.echo(json.dumps({"error": message}))
    else:
        typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_BAD_ARGUMENT)
