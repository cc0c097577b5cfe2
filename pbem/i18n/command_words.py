"""The words that name each mail command, in every language players write;
the mails and the pages (which tell how to do by mail what they do) name
them alike.

English always works, beside French and Czech, so a player never needs to
know which language their settings say. Case and accents do not matter
(`vzdat` is `vzdát`), as phones and keyboards often drop them.
"""

from __future__ import annotations

import unicodedata

from pbem.i18n import current_language

# command -> its words, per language; the English word is the command's name.
COMMAND_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "legal": ("legal",),
        "board": ("board",),
        "history": ("history",),
        "resign": ("resign",),
        "chat": ("chat",),
        "newaddress": ("newaddress",),
        "vacation": ("vacation",),
        "back": ("back",),
        "help": ("help",),
    },
    "fr": {
        "legal": ("coups",),
        "board": ("plateau",),
        "history": ("historique",),
        "resign": ("abandonner",),
        "chat": ("message",),
        "newaddress": ("nouvelleadresse", "nouvelle-adresse"),
        "vacation": ("vacances",),
        "back": ("retour",),
        "help": ("aide",),
    },
    "cs": {
        "legal": ("tahy",),
        "board": ("deska",),
        "history": ("historie",),
        "resign": ("vzdát",),
        "chat": ("zpráva",),
        "newaddress": ("nováadresa", "nová-adresa"),
        "vacation": ("dovolená",),
        "back": ("zpět",),
        "help": ("nápověda",),
    },
}


# The word after `legal` that asks for every legal move, however many.
ALL_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("all",),
    "fr": ("tous", "tout"),
    "cs": ("vše", "všechny"),
}


def own_all_word() -> str:
    """The reader's word for every legal move (tous, vše, all)."""
    return ALL_WORDS.get(current_language(), ALL_WORDS["en"])[0]


def means_all(word: str) -> bool:
    """Whether `word`, in any language, asks for every legal move."""
    return any(folded(word) == folded(own) for words in ALL_WORDS.values() for own in words)


def own_word(command: str) -> str:
    """The reader's word for a command (vacances, dovolená, vacation)."""
    return COMMAND_WORDS.get(current_language(), COMMAND_WORDS["en"])[command][0]


def folded(word: str) -> str:
    """The word without case and accents, as commands are compared."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _by_word() -> dict[str, str]:
    found: dict[str, str] = {}
    for table in COMMAND_WORDS.values():
        for command, words in table.items():
            for word in words:
                key = folded(word)
                if found.setdefault(key, command) != command:
                    raise ValueError(f"the command word {word!r} names two commands")
    return found


_COMMAND_OF = _by_word()


def command_named(word: str) -> str | None:
    """The command (its English name) a word names in any language, or None."""
    return _COMMAND_OF.get(folded(word))
