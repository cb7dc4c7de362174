"""Write the published JSON Schemas from their pydantic models (issue 8, item 5).

- ``docs/protocol.schema.json``: the WebSocket messages, both ways
  (:func:`uth.server.messages.protocol_schema`), beside ``docs/protocol.md``;
- ``docs/settle.schema.json``: the ``uth settle`` contract, input and output
  (:func:`uth.cli.settle_io.contract_schema`; also ``uth settle --schema``).

Usage, from the repository root::

    .venv/bin/python tools/schemas.py           # write the files
    .venv/bin/python tools/schemas.py --check   # exit 1 when a file is out of date

``tests/test_schemas.py`` fails when a committed file differs from what this writes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from uth.cli.settle_io import contract_schema_text
from uth.server.messages import protocol_schema_text

ROOT = Path(__file__).resolve().parent.parent
#: Each published file and the function that generates its text.
SCHEMAS: dict[str, Callable[[], str]] = {
    "docs/protocol.schema.json": protocol_schema_text,
    "docs/settle.schema.json": contract_schema_text,
}


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check``, compare) every schema file; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    stale = []
    for name, generate in SCHEMAS.items():
        path = ROOT / name
        text = generate()
        if args.check:
            if not path.exists() or path.read_text("utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, "utf-8")
            print(f"wrote {name}")
    for name in stale:
        print(f"{name} is out of date: run python tools/schemas.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
