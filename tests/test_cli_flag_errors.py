"""``uth db upgrade``, ``uth serve`` and ``uth simulate``: a bad argument is one line
naming the flag as typed (not an internal field or a ``UTH_*`` variable), exit 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
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
            f"error: --revision: no migration '{revision}' (known: 0001, 0002, 0003, 0004, 0005, 0006, head)\n",
        )
    assert not (tmp_path / "x.db").exists()
    assert _run("db", "upgrade", "--database-url", url, "--revision", "0003") == (
        0,
        f"database {url} at revision 0003\n",
    )


def test_serve_names_the_flag_given_and_the_variable_set(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _run("serve", "--port", "99999") == (
        2,
        "error: --port: Input should be less than or equal to 65535 (got 99999)\n",
    )
    monkeypatch.setenv("UTH_PORT", "99999")
    assert _run("serve") == (
        2,
        "error: UTH_PORT: Input should be less than or equal to 65535 (got '99999')\n",
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "0"], "--hands: at least 2, got 0"),
        (
            ["--rules", "california", "--bank", "50"],
            "--bank: the bank must be between 100.00 and 100000.00, got 50.00",
        ),
        (["--seats", "0"], "--seats: rule set 'casino' has 7 seats, got 0"),
        (["--workers", "0", "--hands", "10"], "--workers: at least 1, got 0"),
        (
            ["--bankroll", "100", "--sessions", "0"],
            "--sessions/--session-hands: at least 2 sessions of 1 hand, got 0 of 200",
        ),
    ],
)
def test_simulate_names_the_flag(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert (result.exit_code, result.output) == (2, f'{{"error": "{message}"}}\n')
