"""``uth db upgrade`` and ``uth serve``: bad arguments give one line naming the flag, exit 2."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from uth.cli.main import app

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_db_upgrade_to_an_unknown_revision_names_the_flag(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    for revision in ("0099", "abc"):
        assert _run("db", "upgrade", "--database-url", url, "--revision", revision) == (
            2,
            f"error: --revision: no migration '{revision}' (known: 0001, 0002, 0003, 0004, head)\n",
        )
    assert not (tmp_path / "x.db").exists()
    assert _run("db", "upgrade", "--database-url", url, "--revision", "0003") == (
        0,
        f"database {url} at revision 0003\n",
    )
