"""schemathesis against the app's own OpenAPI document (issue 7, "Done when"): on
SQLite and PostgreSQL, no 5xx and no answer outside the document (status codes,
content types, bodies), for valid requests and for invalid ones.

Bounded and reproducible: :data:`EXAMPLES` cases per operation and generation mode,
derandomized (the same cases every run), no example database, no shrinking.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from helpers import OPERATOR_TOKEN, live_server
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

#: Cases per operation and generation mode (11 operations, 2 modes).
EXAMPLES = 10
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


#: The operations with no invalid request at all (no body, no security, no
#: constrained value): schemathesis' negative mode has nothing to generate for them.
NOTHING_INVALID = {"GET /healthz", "GET /api/tables", "GET /api/tables/{table_id}"}


def _fuzz(
    client: Any,
    op: Any,
    mode: GenerationMode,
    auth: dict[str, str],
    failures: dict[str, str],
    statuses: Counter[tuple[str, int]],
) -> None:
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=op.as_strategy(mode))
    def check(case: Any) -> None:
        kwargs = case.as_transport_kwargs(base_url="http://testserver", headers=auth)
        if "data" in kwargs:
            kwargs["content"] = kwargs.pop("data")
        if not kwargs.get("cookies"):
            kwargs.pop("cookies", None)
        response = client.request(**kwargs)
        statuses[(op.label, response.status_code)] += 1
        try:
            case.validate_response(response, checks=CHECKS)
        except BaseException as exc:  # schemathesis' FailureGroup
            failures.setdefault(f"{op.label} ({mode.value})", str(exc)[:2000])

    check()


def test_the_app_answers_within_its_openapi_document(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        schema = schemathesis.openapi.from_dict(srv.client.app.openapi())  # type: ignore[attr-defined]
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) == 13  # 11 routes, and pause and resume (004 malfunction)
        failures: dict[str, str] = {}
        statuses: Counter[tuple[str, int]] = Counter()
        nothing_invalid = set()
        for op in operations:
            token = OPERATOR_TOKEN if op.path.startswith("/api/operator/") else alice.token
            for mode in GenerationMode:
                try:
                    _fuzz(
                        srv.client,
                        op,
                        mode,
                        {"Authorization": f"Bearer {token}"},
                        failures,
                        statuses,
                    )
                except Unsatisfiable:
                    assert mode is GenerationMode.NEGATIVE
                    nothing_invalid.add(op.label)
        assert failures == {}, "\n\n".join(f"{k}: {v}" for k, v in failures.items())
        assert nothing_invalid == NOTHING_INVALID
        assert {label for label, _ in statuses} == {op.label for op in operations}
        assert sum(statuses.values()) >= 8 * EXAMPLES, statuses
        assert [key for key in statuses if key[1] >= 500] == []
        # Nothing the generated requests did broke the ledger of the one known player.
        srv.assert_consistent(alice)


@pytest.mark.parametrize(
    ("path", "statuses"),
    [
        # 201 a new account, 200 the name's account resumed with its token.
        ("/api/players", {"200", "201", "400", "409", "422"}),
        ("/api/operator/rounds/{game_number}/pause", {"200", "400", "401", "404", "422"}),
        (
            "/api/operator/rounds/{game_number}/resume",
            {"200", "400", "401", "404", "409", "422"},
        ),
        ("/api/operator/players/{player_id}/adjust", {"200", "400", "401", "404", "409", "422"}),
        ("/api/operator/rounds/{game_number}/void", {"200", "400", "401", "404", "409", "422"}),
        ("/api/history/{game_number}", {"200", "401", "404", "422"}),
        ("/api/me", {"200", "401"}),
    ],
)
def test_the_document_declares_every_answer(tmp_path: Path, path: str, statuses: set[str]) -> None:
    with live_server(f"sqlite:///{tmp_path / 'uth.db'}", tmp_path) as srv:
        doc = srv.client.get("/openapi.json").json()
    (operation,) = doc["paths"][path].values()
    assert set(operation["responses"]) == statuses
    for status in statuses - {"200", "201"}:
        ref = operation["responses"][status]["content"]["application/json"]["schema"]["$ref"]
        assert ref == (
            "#/components/schemas/" + ("Unauthorized" if status == "401" else "ErrorBody")
        )
    assert set(doc["components"]["securitySchemes"]) == {"player", "operator"}
