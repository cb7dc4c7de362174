"""Rule sets: pay tables, limits and options as validated data.

A :class:`RuleSet` is immutable. Presets (``casino``, ``california``,
``california-bad-beat``, ``live``) are TOML files shipped in
``uth/rules/presets/``; a custom rule set is a TOML file of the same shape, which
may start from a preset with ``extends = "casino"``. See RULES.md, "Presets".
:func:`rules_json` writes a rule set as canonical JSON, :func:`rules_fingerprint`
hashes it and :func:`rules_from_json` reads it back (stored rounds).
"""

from uth.rules.canonical import rules_fingerprint, rules_from_json, rules_json
from uth.rules.model import (
    Limit,
    Odds,
    PayoutCap,
    PlayMultiples,
    RuleSet,
)
from uth.rules.presets import (
    PRESET_NAMES,
    load_rules,
    merge_rules_data,
    preset,
    resolve,
    rules_from_data,
)

__all__ = [
    "PRESET_NAMES",
    "Limit",
    "Odds",
    "PayoutCap",
    "PlayMultiples",
    "RuleSet",
    "load_rules",
    "merge_rules_data",
    "preset",
    "resolve",
    "rules_fingerprint",
    "rules_from_data",
    "rules_from_json",
    "rules_json",
]
