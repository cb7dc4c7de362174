"""Usage errors of the command line (uth.cli.usage): a value Typer refuses for an
option, an unknown option, a missing argument are one line naming the option and
the value, exit status 2, like the commands' own errors; no framed usage box.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from uth.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--computers", "0"], "--computers: must be at least 1, got 0"),
        (["play", "--computers=7"], "--computers: must be at most 6, got 7"),
        (["play", "--computers", "two"], "--computers: expected a whole number, got 'two'"),
        (["play", "--seed", "1.5"], "--seed: expected a whole number, got 1.5"),
        (["simulate", "--hands", "abc"], "--hands: expected a whole number, got 'abc'"),
        (["analyze", "--threads", "0"], "--threads: must be at least 1, got 0"),
        (
            ["simulate", "--rounds", "5"],
            "--rounds: no such option (possible options: --hands, --rules)",
        ),
        (["--bogus"], "--bogus: no such option"),
        (["play", "--hands", "5"], "--hands: no such option"),  # not --bank: too far
        (
            ["play", "--balanse", "5"],
            "--balanse: no such option (possible options: --balance, --bank)",
        ),
        (["rules", "show"], "PRESET|FILE: required"),
        (["eval", "--json=yes"], "--json: does not take a value"),
        (["play", "--rules"], "--rules: requires an argument"),
    ],
)
def test_a_bad_option_is_one_line_naming_it_and_the_value(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: {message}\n")


def test_a_group_without_its_command_still_shows_its_help() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 2
    assert "Show a rule set" in result.stdout
    assert "error:" not in result.stderr
