"""Preset rule sets and loading rule sets from TOML files."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
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


def resolve(
    preset_or_path: str | Path,
    *,
    overrides: Mapping[str, Any] | None = None,
    base_dir: Path | None = None,
    source: str | None = None,
) -> RuleSet:
    """The one loader of rule sets: a preset by name, or a rule-set TOML file by path,
    with ``overrides`` applied.

    Used by every ``--rules`` option of the CLI and by the server's tables file
    (``rules`` and ``overrides`` of a table).

    Args:
        preset_or_path: a preset name (``casino``, ``california``,
            ``california-bad-beat``, ``live``) or the path of a rule-set TOML file
            (a name ending in ``.toml``, or any existing file).
        overrides: rule-set keys applied over the loaded rule set, as in a file that
            ``extends`` it: tables (``ante``) merge key by key, a pay table
            (``*_pays``) is replaced whole. Amounts must be exact: ``int``, ``str`` or
            ``Decimal`` (a TOML file read with ``parse_float=Decimal``).
        base_dir: the directory a relative path is read from (the tables file's).
        source: the name errors about ``overrides`` start with (``table live-1``).

    Raises:
        InvalidRulesError: an unknown preset (the message lists the presets), a file
            that cannot be read or is invalid, or a bad override; the message names
            the field and the value.

    """
    if isinstance(preset_or_path, str) and preset_or_path in PRESET_NAMES:
        rules = preset(preset_or_path)
    else:
        path = Path(preset_or_path)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        if path.suffix.lower() != ".toml" and not path.exists():
            # raises: unknown preset, naming the presets
            return preset(str(preset_or_path))
        rules = load_rules(path)
    if not overrides:
        return rules
    data = merge_rules_data(rules.model_dump(mode="json"), dict(overrides))
    return rules_from_data(data, source=source or "overrides")
