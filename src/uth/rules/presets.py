"""Preset rule sets and loading rule sets from TOML files."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from uth.errors import InvalidRulesError
from uth.rules.model import RuleSet

#: The presets, each following one seed (RULES.md, "Presets").
PRESET_NAMES: tuple[str, ...] = ("casino", "california", "california-bad-beat", "live")


def _preset_data(name: str) -> dict[str, Any]:
    if name not in PRESET_NAMES:
        raise InvalidRulesError(
            f"rules: unknown preset {name!r} (one of {', '.join(PRESET_NAMES)})", field="rules"
        )
    text = resources.files("uth.rules").joinpath(f"presets/{name}.toml").read_text("utf-8")
    return tomllib.loads(text, parse_float=Decimal)


@cache
def _cached_preset(name: str) -> RuleSet:
    return rules_from_data(_preset_data(name), source=f"preset {name}")


def preset(name: str) -> RuleSet:
    """The preset rule set called ``name``: ``casino`` (001), ``california`` (000),
    ``california-bad-beat`` (002) or ``live`` (004).

    Raises:
        InvalidRulesError: no preset has that name.

    Each call returns its own copy, so that changing one (its pay tables are
    dicts) cannot change the preset for other callers.
    """
    return _cached_preset(name).model_copy(deep=True)


def merge_rules_data(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Rule-set data with ``over`` applied to ``base``: tables (``ante``) merge key by
    key, a pay table (``*_pays``) is replaced whole; neither input is changed.
    """
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and not key.endswith("_pays"):
            out[key] = merge_rules_data(out[key], value)
        else:
            out[key] = value
    return out


def rules_from_data(data: dict[str, Any], *, source: str = "rules") -> RuleSet:
    """Build a rule set from a mapping (parsed TOML or JSON).

    ``extends = "PRESET"`` starts from that preset: the mapping's keys replace the
    preset's (tables such as ``ante`` merge key by key; a pay table is replaced whole).

    Raises:
        InvalidRulesError: a field is missing or invalid; the message names the field
            and the value.

    """
    if not isinstance(data, dict):
        raise InvalidRulesError(f"{source}: expected a table of rules, got {data!r}", field="rules")
    body = dict(data)
    base = body.pop("extends", None)
    if base is not None:
        if not isinstance(base, str):
            raise InvalidRulesError(
                f"extends: expected a preset name, got {base!r}", field="extends"
            )
        body = merge_rules_data(_preset_data(base), body)
    try:
        return RuleSet.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        msg = err["msg"].removeprefix("Value error, ")
        loc = ".".join(str(part) for part in err["loc"])
        if not loc:  # a rule across fields names its field first: "bank: ..."
            head, sep, rest = msg.partition(": ")
            loc, msg = (head, rest) if sep and head.isidentifier() else ("rules", msg)
        value = err.get("input")
        text = str(value) if isinstance(value, Decimal) else repr(value)
        shown = f" (got {text})"
        if isinstance(value, dict) or value is None or text in msg:
            shown = ""
        raise InvalidRulesError(f"{source}: {loc}: {msg}{shown}", field=loc) from None


def load_rules(path: str | Path) -> RuleSet:
    """Load a rule set from a TOML file (same keys as the preset files).

    A file that ``extends`` a preset and sets no ``name`` is named after the file
    (``my-table.toml`` gives ``my-table``, titled "my-table: custom rules based on
    the casino preset").

    Raises:
        InvalidRulesError: the file cannot be read, is not TOML, or a field is invalid.

    """
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text("utf-8"), parse_float=Decimal)
    except OSError as exc:
        raise InvalidRulesError(f"{p}: cannot read: {exc.strerror}", field="file") from None
    except UnicodeDecodeError:
        raise InvalidRulesError(f"{p}: not UTF-8 text", field="file") from None
    except tomllib.TOMLDecodeError as exc:
        raise InvalidRulesError(f"{p}: not valid TOML: {exc}", field="file") from None
    if "extends" in data and "name" not in data:
        # A custom rule set is not the preset it starts from: it is named after its
        # file, and its title says where it comes from.
        data["name"] = p.stem
        if "title" not in data and isinstance(data["extends"], str):
            data["title"] = f"{p.stem}: custom rules based on the {data['extends']} preset"
    return rules_from_data(data, source=str(p))
