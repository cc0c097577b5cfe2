"""The render version: a digest of everything that decides how a board picture
looks, so a stored picture is never served after the drawing changed.

A digest rather than a constant to bump by hand: a forgotten bump would serve
stale pictures, a digest cannot be forgotten. It covers the engine too (the
views pictures are drawn from) and Pillow's version (its encoder)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import PIL

import engine
import pbem.render

SOURCE_SUFFIXES = {".py", ".json", ".ttf", ".txt"}


def sources_digest(roots: Iterable[Path], extra: str = "") -> str:
    """Digest of the source files under `roots` (names and bytes, in a fixed order)."""
    digest = hashlib.sha256(extra.encode())
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def render_version() -> str:
    roots = [Path(pbem.render.__file__).parent, Path(engine.__file__).parent]
    return sources_digest(roots, extra=f"Pillow {PIL.__version__}")
