"""The browser table: serves the static front end in ``uth/web/`` (issue 4).

``mount_web(app)`` adds two things to the FastAPI app:

* ``GET /`` (and ``/index.html``): the single page, ``uth/web/index.html``;
* ``/static/...``: its assets (ES modules, CSS), ``uth/web/static/``.

The files are found next to this package (``importlib.resources``), so the same
code serves them from a source checkout and from an installed wheel (pyproject
ships ``web/**/*`` as package data). There is no build step: the modules are
plain JavaScript served as they are.
"""

from __future__ import annotations

import mimetypes
import os
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from starlette.responses import Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Scope

# Some systems map .js to text/plain; browsers refuse ES modules served so.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/css", ".css")
mimetypes.add_type("image/svg+xml", ".svg")

#: Sent with every page and asset: the front end and the server ship together, so a
#: browser must never run a module from an older version against a newer server.
_NO_CACHE = {"Cache-Control": "no-cache"}


def web_root() -> Path:
    """The folder holding ``index.html`` and ``static/``."""
    return Path(str(resources.files("uth").joinpath("web")))


class _Static(StaticFiles):
    """StaticFiles that asks browsers to revalidate (ETag) instead of caching blindly."""

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file (or 304), marked ``no-cache``."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.update(_NO_CACHE)
        return response


def mount_web(app: FastAPI) -> None:
    """Serve the browser table: ``/`` is the page, ``/static/`` its assets.

    Call it after the API routes are added (the page's routes do not shadow them).
    """
    root = web_root()
    index = root / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, media_type="text/html; charset=utf-8", headers=_NO_CACHE)

    app.add_api_route("/", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/index.html", page, methods=["GET"], include_in_schema=False)
    app.mount("/static", _Static(directory=root / "static"), name="static")
