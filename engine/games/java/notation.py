"""Java moves as frozen dataclasses, and their text (docs/notation/java.md).

One move is one action, written in one line that a player can type in an
email: `triple F4 F5 G5 village=F5`, `move F4 H6`, `build G5 4`, `end`.
Parsing here only reads the text; the state judges the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.errors import IllegalMove
from engine.core.vocabulary import Vocabulary
from engine.games.java import cards
from engine.games.java import messages as m
from engine.games.java.board import SPACES, sort_spaces
from engine.games.java.tiles import DOUBLE, PALACE_VALUES, RICE, TILE_SIZE, TRIPLE, VILLAGE


@dataclass(frozen=True)
class PlaceTile:
    kind: str
    cells: tuple[str, ...]
    village: str | None = None


@dataclass(frozen=True)
class Enter:
    cell: str


@dataclass(frozen=True)
class Leave:
    cell: str


@dataclass(frozen=True)
class MoveDeveloper:
    source: str
    target: str


@dataclass(frozen=True)
class Build:
    cell: str
    value: int


@dataclass(frozen=True)
class Enlarge:
    cell: str
    value: int


@dataclass(frozen=True)
class Irrigate:
    cell: str


FACEUP, DECK = "faceup", "deck"


@dataclass(frozen=True)
class Draw:
    source: str


@dataclass(frozen=True)
class TakeToken:
    pass


@dataclass(frozen=True)
class Festival:
    cell: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class PlayCards:
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Agree:
    pass


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class EndTurn:
    pass


Move = (
    PlaceTile
    | Enter
    | Leave
    | MoveDeveloper
    | Build
    | Enlarge
    | Irrigate
    | Draw
    | TakeToken
    | Festival
    | PlayCards
    | Agree
    | Pass
    | EndTurn
)

_SYNTAX = m.SYNTAX
# The words of the French and Czech rulebooks (terrain triple, rizière,
# bâtir, agrandir; trojdílné území, nasadit, stáhnout, postavit...); English
# is canonical and is what the record keeps.
VERBS = Vocabulary(
    {
        TRIPLE: {"fr": ("triple",), "cs": ("trojdílné", "trojdíl")},
        DOUBLE: {"fr": ("double",), "cs": ("dvojdílné", "dvojdíl")},
        RICE: {"fr": ("rizière",), "cs": ("rýže", "rýžové")},
        VILLAGE: {"fr": ("village",), "cs": ("vesnice",)},
        "enter": {"fr": ("entrer",), "cs": ("nasadit",)},
        "leave": {"fr": ("sortir",), "cs": ("stáhnout",)},
        "move": {"fr": ("déplacer",), "cs": ("pohnout",)},
        "build": {"fr": ("bâtir",), "cs": ("postavit",)},
        "enlarge": {"fr": ("agrandir",), "cs": ("rozšířit",)},
        "irrigate": {"fr": ("irriguer", "bassin"), "cs": ("nádrž", "zavlažit")},
        "draw": {"fr": ("piocher",), "cs": ("vzít",)},
        "token": {"fr": ("jeton",), "cs": ("žeton",)},
        "festival": {"fr": ("fête",), "cs": ("slavnost",)},
        "play": {"fr": ("jouer",), "cs": ("vyložit",)},
        "agree": {"fr": ("accepter",), "cs": ("souhlasit",)},
        "pass": {"fr": ("passer",), "cs": ("pas",)},
        "end": {"fr": ("fin",), "cs": ("konec",)},
    }
)
OTHER_WORDS = Vocabulary(
    {
        FACEUP: {"fr": ("visible",), "cs": ("odkrytá",)},
        DECK: {"fr": ("pioche",), "cs": ("balík",)},
        "to": {"fr": ("vers",), "cs": ("na",)},
        VILLAGE: {"fr": ("village",), "cs": ("vesnice",)},
    }
)
_CARD_WORDS = {name: letter for letter, name in cards.SYMBOL_NAMES.items()}
# The festival cards' symbols by name, in French and Czech too ("masque+tambour").
CARD_WORDS = Vocabulary(
    {
        "mask": {"fr": ("masque",), "cs": ("maska",)},
        "drum": {"fr": ("tambour",), "cs": ("buben",)},
        "puppet": {"fr": ("marionnette",), "cs": ("loutka",)},
    }
)


def _space(word: str) -> str:
    sid = word.upper()
    if sid not in SPACES:
        raise IllegalMove.of("java.not_a_space", rule=_SYNTAX, word=word)
    return sid


def _card(word: str) -> str:
    named = CARD_WORDS.english(word)
    if "+" in word or named is not None:
        parts = [CARD_WORDS.english(p) or p for p in word.split("+")]
    else:
        parts = list(word.upper())
    letters = [_CARD_WORDS.get(p, p.upper()) for p in parts]
    if not letters or any(p not in cards.SYMBOLS for p in letters) or len(set(letters)) > 2:
        raise IllegalMove.of("java.not_a_card", rule=_SYNTAX, word=word)
    card = cards.canonical(letters)
    if len(card) != len(letters):
        raise IllegalMove.of("java.symbol_twice", rule=_SYNTAX, word=word)
    return card


def _cards(words: list[str]) -> tuple[str, ...]:
    if not words:
        raise IllegalMove.of("java.name_cards", rule=_SYNTAX)
    return cards.sort_cards(_card(w) for w in words)


def _value(word: str) -> int:
    if not word.isdigit() or int(word) not in PALACE_VALUES:
        raise IllegalMove.of("java.palace_values", rule=_SYNTAX, word=word)
    return int(word)


def _tile(kind: str, words: list[str]) -> PlaceTile:
    size = TILE_SIZE[kind]
    village = None
    spaces = []
    for word in words:
        key, sep, val = word.partition("=")
        if sep:
            if OTHER_WORDS.english(key) != VILLAGE or village is not None:
                raise IllegalMove.of("java.village_once", rule=_SYNTAX, word=word)
            village = _space(val)
        else:
            spaces.append(_space(word))
    if len(spaces) != size or len(set(spaces)) != size:
        raise IllegalMove.of("java.tile_spaces", rule=_SYNTAX, kind=kind, size=size)
    if kind in (TRIPLE, DOUBLE):
        if village is None:
            raise IllegalMove.of("java.which_village", rule=_SYNTAX, kind=kind)
        if village not in spaces:
            raise IllegalMove.of("java.village_not_on_tile", rule=_SYNTAX, space=village)
    elif village is not None:
        raise IllegalMove.of("java.single_no_village", rule=_SYNTAX, kind=kind)
    return PlaceTile(kind, sort_spaces(spaces), village)


def _arity(words: list[str], n: int, usage: str) -> None:
    if len(words) != n:
        raise IllegalMove.of("java.write", rule=_SYNTAX, usage=usage)


def parse(text: str) -> Move:
    words = re.split(r"[\s,;]+", text.strip())
    words = [w for w in words if w]
    if not words:
        raise IllegalMove.of("java.empty_move", rule=_SYNTAX)
    verb, args = VERBS.english(words[0]) or words[0].lower(), words[1:]
    if verb in (TRIPLE, DOUBLE, RICE, VILLAGE):
        return _tile(verb, args)
    if verb == "enter":
        _arity(args, 1, "enter F3")
        return Enter(_space(args[0]))
    if verb == "leave":
        _arity(args, 1, "leave F3")
        return Leave(_space(args[0]))
    if verb == "move":
        if len(args) == 3 and OTHER_WORDS.english(args[1]) == "to":
            args = [args[0], args[2]]
        _arity(args, 2, "move F3 G5")
        return MoveDeveloper(_space(args[0]), _space(args[1]))
    if verb in ("build", "enlarge"):
        _arity(args, 2, f"{verb} G5 4")
        cls = Build if verb == "build" else Enlarge
        return cls(_space(args[0]), _value(args[1]))
    if verb == "irrigate":
        _arity(args, 1, "irrigate F5")
        return Irrigate(_space(args[0]))
    if verb == "draw":
        _arity(args, 1, "draw faceup' or 'draw deck")
        source = OTHER_WORDS.english(args[0]) or args[0].lower()
        if source not in (FACEUP, DECK):
            raise IllegalMove.of("java.draw_from", rule=_SYNTAX)
        return Draw(source)
    if verb == "token":
        _arity(args, 0, "token")
        return TakeToken()
    if verb == "festival":
        if len(args) < 2:
            raise IllegalMove.of("java.festival_usage", rule=_SYNTAX)
        return Festival(_space(args[0]), _cards(args[1:]))
    if verb == "play":
        return PlayCards(_cards(args))
    for word, plain in (("agree", Agree), ("pass", Pass), ("end", EndTurn)):
        if verb == word:
            _arity(args, 0, word)
            return plain()
    raise IllegalMove.of("java.unknown_move", rule=_SYNTAX, word=words[0])


def format_move(move: Move) -> str:
    match move:
        case PlaceTile(kind, cells_, village):
            text = f"{kind} {' '.join(cells_)}"
            return f"{text} village={village}" if village else text
        case Enter(cell):
            return f"enter {cell}"
        case Leave(cell):
            return f"leave {cell}"
        case MoveDeveloper(source, target):
            return f"move {source} {target}"
        case Build(cell, value):
            return f"build {cell} {value}"
        case Enlarge(cell, value):
            return f"enlarge {cell} {value}"
        case Irrigate(cell):
            return f"irrigate {cell}"
        case Draw(source):
            return f"draw {source}"
        case TakeToken():
            return "token"
        case Festival(cell, played):
            return f"festival {cell} {' '.join(played)}"
        case PlayCards(played):
            return f"play {' '.join(played)}"
        case Agree():
            return "agree"
        case Pass():
            return "pass"
        case EndTurn():
            return "end"
    raise TypeError(f"not a Java move: {move!r}")
