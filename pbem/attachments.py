"""Files to save, for the pages and the API alike: both channels answer
league exports, and neither may import the other."""

from __future__ import annotations

from flask import Response


def attachment(body: str | bytes, mimetype: str, filename: str) -> Response:
    """A file to save (an export, a record), named for the browser's download."""
    response = Response(body, mimetype=mimetype)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    return response
