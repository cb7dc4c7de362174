"""Command-line usage errors in the project's one line (``error: <field>: <what>,
got <value>``, exit status 2), not Typer's framed usage box.

Typer (Click) checks the options before a command runs: a value of the wrong type
or outside its range (``uth play --computers 0``, ``uth simulate --hands abc``), an
unknown option, a missing argument. :class:`Commands`, the ``uth`` command group,
reports each of them as the commands report their own errors (``uth.cli.main``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import Any

import typer
from typer.core import TyperGroup

#: Click's usage error (vendored by Typer, or Click's own): the base of BadParameter.
_UsageError: type[Exception] = typer.BadParameter.__bases__[0]
#: Exit status when a command-line argument is bad (as ``uth.cli.main``).
EXIT_BAD_ARGUMENT = 2
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_SHOW_MAX = 40

#: pydantic's error types, as Typer reports a value it cannot take, in our words.
_WORDS = {
    "int_parsing": "expected a whole number",
    "int_from_float": "expected a whole number",
    "float_parsing": "expected a number",
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be more than {gt}",
    "less_than_equal": "must be at most {le}",
    "less_than": "must be less than {lt}",
}


#: How alike a mistyped option and a real one must be for the real one to be
#: suggested (difflib's ratio: ``--balanse`` and ``--balance`` 0.89, ``--rounds``
#: and ``--hands`` 0.67; ``--hands`` and ``--bank`` 0.62, not suggested).
_CLOSE = 0.65


def shown(value: str) -> str:
    """A value as typed: a number bare (``0``), anything else quoted (``'abc'``)."""
    text = value if _NUMBER.fullmatch(value) else repr(value)
    return text if len(text) <= _SHOW_MAX else text[: _SHOW_MAX - 3] + "..."


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:].rstrip(".")


def _option_name(param: Any) -> str:
    """An option's long name (``--computers``), else an argument's metavar (``CARD``)."""
    opts = [o for o in getattr(param, "opts", ()) if o.startswith("--")]
    if opts and getattr(param, "param_type_name", "") == "option":
        return str(max(opts, key=len))
    return str(getattr(param, "metavar", None) or str(param.name).upper())


def _typed(opts: Sequence[str], args: Sequence[str]) -> str | None:
    """The value typed after one of ``opts`` in ``args`` (the last one), or None."""
    found = None
    for i, arg in enumerate(args):
        name, eq, value = arg.partition("=")
        if name in opts and eq:
            found = value
        elif arg in opts and i + 1 < len(args):
            found = args[i + 1]
    return found


def usage_message(exc: Exception, args: Sequence[str]) -> str:
    """One line for a usage error ``exc`` of a command line ``args``, without
    ``error:``: the option and what is wrong with its value, and the value as typed.
    """
    param = getattr(exc, "param", None)
    kind = type(exc).__name__
    if kind == "MissingParameter" and param is not None:
        return f"{_option_name(param)}: required"
    if isinstance(exc, typer.BadParameter) and param is not None:
        name = _option_name(param)
        what = _lower_first(exc.message)
        cause = exc.__cause__
        errors = getattr(cause, "errors", None)
        value = _typed(getattr(param, "opts", ()), args)
        if callable(errors) and errors():
            first = errors()[0]
            what = _WORDS.get(first["type"], what).format(**first.get("ctx", {}))
            if isinstance(first.get("input"), str):
                value = first["input"]
        return f"{name}: {what}" + ("" if value is None else f", got {shown(value)}")
    option = getattr(exc, "option_name", None)
    if kind == "NoSuchOption":  # Click's "Possible options", only the close ones
        possible = [
            p
            for p in getattr(exc, "possibilities", None) or ()
            if SequenceMatcher(None, str(option), p).ratio() >= _CLOSE
        ]
        hint = f" (possible options: {', '.join(sorted(possible))})" if possible else ""
        return f"{option}: no such option{hint}"
    what = _lower_first(str(getattr(exc, "message", exc)))
    if option:  # "Option '--json' does not take a value."
        return f"{option}: {what.removeprefix(f'option {option!r} ')}"
    return what


class Commands(TyperGroup):
    """The ``uth`` command group: Click's usage errors become the project's one-line
    error on stderr, ``error: --computers: must be at least 1, got 0``, exit status
    2 (:func:`usage_message`). A command group called without a command still shows
    its help.
    """

    _args: Sequence[str] = ()

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        """Run the command line ``args`` (``sys.argv[1:]`` when None)."""
        self._args = list(sys.argv[1:] if args is None else args)
        return super().main(args, *rest, **extra)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse the group's own options; a usage error is reported in one line."""
        try:
            return super().parse_args(ctx, args)
        except _UsageError as exc:
            raise self._fail(exc) from None

    def invoke(self, ctx: Any) -> Any:
        """Run the command; a usage error of its options is reported in one line."""
        try:
            return super().invoke(ctx)
        except _UsageError as exc:
            raise self._fail(exc) from None

    def _fail(self, exc: Exception) -> Exception:
        if type(exc).__name__ == "NoArgsIsHelpError":  # a group without a command
            return exc
        typer.echo(f"error: {usage_message(exc, self._args)}", err=True)
        return typer.Exit(EXIT_BAD_ARGUMENT)
