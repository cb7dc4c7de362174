"""The published contracts (issue 8, item 5): the JSON Schemas in docs/ are generated
from the pydantic models, and the models and the schemas agree with the documents.

- ``docs/settle.schema.json``: the ``uth settle`` contract (``uth.cli.settle_io``);
- ``docs/protocol.schema.json``: the WebSocket messages (``uth.server.messages``).
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from uth.cli import settle_io
from uth.cli.main import app
from uth.server.messages import ClientMessage, ServerMessage, protocol_schema_text

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
runner = CliRunner()

DEAL: dict[str, Any] = {
    "rules": "casino",
    "board": ["Ah", "Kd", "7c", "7s", "2h"],
    "dealer": ["Qc", "Qd"],
    "hands": [
        {"id": "seat1", "hole": ["As", "Ad"], "wagers": {"ante": 10, "blind": 10, "trips": 5},
         "play": 4},
        {"id": "seat2", "hole": ["9c", "8c"], "wagers": {"ante": 7.5, "blind": 7.5}, "play": 0},
    ],
}  # fmt: skip


def _validator(path: Path, ref: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(path.read_text("utf-8"))
    return jsonschema.Draft202012Validator({**schema, "$ref": ref})


def test_committed_schemas_are_the_generated_ones() -> None:
    assert (DOCS / "settle.schema.json").read_text("utf-8") == settle_io.contract_schema_text()
    assert (DOCS / "protocol.schema.json").read_text("utf-8") == protocol_schema_text()
    spec = importlib.util.spec_from_file_location("schemas_tool", ROOT / "tools" / "schemas.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert sorted(tool.SCHEMAS) == ["docs/protocol.schema.json", "docs/settle.schema.json"]
    assert tool.main(["--check"]) == 0


def test_uth_settle_schema_prints_the_published_schema() -> None:
    result = runner.invoke(app, ["settle", "--schema"])
    assert result.exit_code == 0
    assert result.stdout == (DOCS / "settle.schema.json").read_text("utf-8")


# --- uth settle ------------------------------------------------------------------------


def test_settle_input_and_output_follow_the_schema() -> None:
    schema = DOCS / "settle.schema.json"
    _validator(schema, "#/input").validate(DEAL)
    out = settle_io.settle_json(DEAL)
    assert out["banker"] == {"kind": "house", "net": -105}  # seat1 +120, seat2 folds -15
    assert out["hands"][0]["wagers"]["ante"] == {
        "stake": 7.5, "result": "lose", "net": -7.5,
        "capped": 0, "uncovered": 0, "uncovered_winnings": 0,
    }  # fmt: skip
    output = _validator(schema, "#/output")
    output.validate(out)
    output.validate(settle_io.settle_json({"rules": "casino"}))
    assert settle_io.settle_json({"rules": "casino"}) == {"error": "board: required"}


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"extra": 1}, "extra"),
        ({"board": "Ah Kd 7c 7s 2h"}, "board"),
        ({"hands": []}, "hands"),
        ({"rules": 7}, "rules"),
    ],
)
def test_the_settle_schema_refuses_what_the_contract_refuses(
    change: dict[str, Any], path: str
) -> None:
    deal = {**DEAL, **change}
    errors = list(_validator(DOCS / "settle.schema.json", "#/input").iter_errors(deal))
    assert errors
    assert settle_io.settle_json(deal)["error"].startswith(f"{path}: ")


def test_a_hand_without_wagers_is_refused_by_schema_and_contract() -> None:
    hand = {"id": "x", "hole": ["2c", "3c"], "play": 1}
    deal = {**DEAL, "hands": [hand]}
    assert list(_validator(DOCS / "settle.schema.json", "#/input").iter_errors(deal))
    assert settle_io.settle_json(deal) == {"error": "hands[0].wagers: required"}


# --- the WebSocket protocol ------------------------------------------------------------

COMMANDS = {"auth", "place_bet", "undo", "double", "repeat", "decide", "leave", "snapshot",
            "trainer", "sit", "answer_offer"}  # fmt: skip


def _doc_examples() -> list[dict[str, Any]]:
    """Every JSON object of docs/protocol.md's ``json`` blocks that has a ``type``,
    except the one whose fields are elided (``"...": "..."``).
    """
    text = (DOCS / "protocol.md").read_text("utf-8")
    decoder = json.JSONDecoder()
    found = []
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        at = 0
        while block[at:].strip():
            at += len(block[at:]) - len(block[at:].lstrip())
            value, at = decoder.raw_decode(block, at)
            if isinstance(value, dict) and "type" in value and '"..."' not in json.dumps(value):
                found.append(value)
    return found


EXAMPLES = _doc_examples()


def test_the_protocol_document_has_an_example_of_most_messages() -> None:
    types = {m["type"] for m in EXAMPLES}
    assert len(EXAMPLES) == 54
    assert types >= COMMANDS
    assert {"accepted", "error", "snapshot", "settlement", "trainer_review"} <= types
    assert {"offer", "banker", "no_banker", "seats", "bank_left"} <= types  # the card room


@pytest.mark.parametrize("message", EXAMPLES, ids=[m["type"] for m in EXAMPLES])
def test_every_example_of_the_protocol_document_fits_its_model(message: dict[str, Any]) -> None:
    schema = json.loads((DOCS / "protocol.schema.json").read_text("utf-8"))
    text = json.dumps(message)
    client = message["type"] in COMMANDS and "table" not in message  # not the snapshot reply
    model = ClientMessage if client else ServerMessage
    model.model_validate_json(text)
    ref = "#/$defs/ClientMessage" if client else "#/$defs/ServerMessage"
    jsonschema.Draft202012Validator({**schema, "$ref": ref}).validate(message)


STATE = {
    "phase": "betting", "balance": 980,
    "bets": {"ante": 10, "blind": 10, "trips": 0, "bad_beat": 0, "play": 0},
    "total_bet": 20, "legal_actions": [], "can_undo": True, "can_double": True,
    "can_repeat": False, "decisions": [], "hand": None,
}  # fmt: skip


@pytest.mark.parametrize(
    ("balance", "error"),
    [
        ("980", "Input should be a valid integer"),  # a string: not the protocol's money
        (980.0, "a whole amount is sent as an integer, got 980.0"),
        (979.999, "amounts have at most two decimal places, got 979.999"),
    ],
)
def test_money_leaves_the_server_as_a_json_number(balance: Any, error: str) -> None:
    assert ServerMessage.model_validate_json(json.dumps({"type": "state", "state": STATE}))
    assert ServerMessage.model_validate_json(
        json.dumps({"type": "state", "state": {**STATE, "balance": 979.5}})
    )
    bad = {"type": "state", "state": {**STATE, "balance": balance}}
    with pytest.raises(ValidationError) as info:
        ServerMessage.model_validate_json(json.dumps(bad))
    assert error in str(info.value)


def test_an_unknown_field_or_message_breaks_the_models() -> None:
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        ServerMessage.model_validate_json(json.dumps({"type": "state", "state": STATE, "x": 1}))
    with pytest.raises(ValidationError, match="does not match any of the expected tags"):
        ServerMessage.model_validate_json('{"type": "hello"}')
