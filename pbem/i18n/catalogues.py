"""The catalogues: where they live, how they are compiled and checked.

`pbem translations update` extracts the strings of every area from the
sources and adds new ones to each language's `.po` file; the translator fills
them in, and `pbem translations check` lists what is still missing.
Compiling happens at start-up (and so in every test), so no `.mo` file is
kept in the repository or forgotten.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import NullTranslations, Translations

SOURCE = Path(__file__).resolve().parent.parent / "translations"
PROJECT_ROOT = SOURCE.parent.parent
DOMAIN = "messages"
# pages: the site; mail: every mail, text board and picture legend; rules: the
# engine's refusals. Each area's `babel.cfg` says which sources it reads.
AREAS = ("pages", "mail", "rules")
TRANSLATED = ("fr", "cs")
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "lazy_ngettext": (1, 2), "phrase": None}


class CatalogueError(ValueError):
    """A catalogue that would show players broken text (a placeholder missing
    or misspelt in a translation): refused at start-up rather than at use."""


@dataclass(frozen=True)
class Entry:
    area: str
    language: str
    msgid: str
    problem: str


def po_files(source: Path = SOURCE) -> Iterator[tuple[str, str, Path]]:
    for area in AREAS:
        for language in TRANSLATED:
            path = source / area / language / "LC_MESSAGES" / f"{DOMAIN}.po"
            if path.exists():
                yield area, language, path


def read_catalogue(path: Path, language: str) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language)


@cache
def plain_translations(area: str, language: str) -> NullTranslations:
    """An area's catalogue of a language read straight from its `.po`, for code
    that translates outside any app (pictures drawn by a script or a task);
    no translation for English or a language without a catalogue."""
    path = SOURCE / area / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language not in TRANSLATED or not path.exists():
        return NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, read_catalogue(path, language))
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def compile_catalogues(source: Path, target: Path) -> None:
    """Compile each `.po` newer than its `.mo`; atomic, so processes starting
    together never read half a file."""
    for area, language, po in po_files(source):
        mo = target / area / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        catalogue = read_catalogue(po, language)
        problems = [
            f"{message.id!r}: {error}" for message, errors in catalogue.check() for error in errors
        ]
        if problems:
            raise CatalogueError(f"{po.relative_to(source)}: " + "; ".join(problems))
        mo.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=mo.parent, suffix=".tmp")
        with os.fdopen(handle, "wb") as file:
            write_mo(file, catalogue)
        os.replace(temporary, mo)


def extracted(area: str, root: Path = PROJECT_ROOT) -> Catalog:
    """Every translatable string the area's sources hold now."""
    with (SOURCE / area / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    catalogue = Catalog(domain=DOMAIN)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root), method_map, options_map, keywords=KEYWORDS
    ):
        catalogue.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalogue


def untranslated(root: Path = PROJECT_ROOT) -> list[Entry]:
    """Strings of the sources that some language lacks, or has only fuzzily."""
    missing = []
    for area in AREAS:
        if not (SOURCE / area / "babel.cfg").exists():
            continue
        wanted = extracted(area, root)
        for language in TRANSLATED:
            path = SOURCE / area / language / "LC_MESSAGES" / f"{DOMAIN}.po"
            have = read_catalogue(path, language) if path.exists() else Catalog(locale=language)
            for message in wanted:
                if not message.id:
                    continue
                known = have.get(message.id, message.context)
                if known is None:
                    problem = "missing"
                elif known.fuzzy:
                    problem = "fuzzy"
                elif not (all(known.string) if isinstance(known.string, tuple) else known.string):
                    problem = "empty"
                else:
                    continue
                msgid = message.id if isinstance(message.id, str) else message.id[0]
                missing.append(Entry(area, language, msgid, problem))
    return missing


def update(root: Path = PROJECT_ROOT) -> None:
    """Add the sources' new strings to every `.po` file (old ones turn obsolete)."""
    for area in AREAS:
        if not (SOURCE / area / "babel.cfg").exists():
            continue
        template = extracted(area, root)
        for language in TRANSLATED:
            path = SOURCE / area / language / "LC_MESSAGES" / f"{DOMAIN}.po"
            if path.exists():
                catalogue = read_catalogue(path, language)
            else:
                catalogue = Catalog(
                    locale=language,
                    domain=DOMAIN,
                    project="pbem",
                    fuzzy=False,
                    copyright_holder="pbem contributors",
                )
            catalogue.update(template, no_fuzzy_matching=True)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as file:
                write_po(file, catalogue, width=100, omit_header=False, sort_output=False)
