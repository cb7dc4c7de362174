"""``python -m uth.server``: run the live table server with settings from ``UTH_*``.

The same server as ``uth serve`` without the command line (see
:class:`uth.server.config.Settings`). An empty database is migrated at start-up,
and every round a previous process left unfinished is voided and refunded.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Run the server until interrupted; 2 on bad settings."""
    from uth.server.config import Settings
    from uth.server.runner import serve, startup_error

    try:
        serve(Settings())
    except Exception as exc:
        message = startup_error(exc)
        if message is None:
            raise
        print(f"error: {message}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
