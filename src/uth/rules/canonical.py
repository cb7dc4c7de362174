"""A rule set as canonical JSON, and its fingerprint.

The canonical JSON of a rule set is its full content (``RuleSet.model_dump(mode=
"json")``: amounts as two-place strings, pay tables as ``"win:per"``) written with
sorted keys, no blanks and UTF-8 text; two rule sets are equal exactly when their
canonical JSON is. A stored round keeps it (:mod:`uth.engine.history`) so that the
round can be replayed under the very rules it was played by, whatever the presets
become. The fingerprint is the SHA-256 of that text (64 hex digits); it is not the
analysis fingerprint (:func:`uth.analysis.fingerprint`, the fields that change the
math only).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from uth.errors import InvalidRulesError
from uth.rules.model import RuleSet
from uth.rules.presets import rules_from_data


def canonical_json(data: Any) -> str:
    """JSON-ready data as canonical text: sorted keys, no blanks, UTF-8 (not escaped)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def rules_json(rules: RuleSet) -> str:
    """The full rule set as canonical JSON text."""
    return canonical_json(rules.model_dump(mode="json"))


def rules_fingerprint(rules: RuleSet) -> str:
    """The SHA-256 of the rule set's canonical JSON, as 64 lower-case hex digits."""
    return hashlib.sha256(rules_json(rules).encode("utf-8")).hexdigest()


def rules_from_json(text: str, *, source: str = "rules") -> RuleSet:
    """Rebuild a rule set from its JSON text (canonical or not).

    Raises:
        InvalidRulesError: the text is not JSON, or not a valid rule set; the message
            names ``source`` and the field.

    """
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise InvalidRulesError(f"{source}: not JSON ({exc})", field=source) from None
    return rules_from_data(data, source=source)
