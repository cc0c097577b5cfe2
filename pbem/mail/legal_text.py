"""What the `legal` command answers: the seat's legal moves, narrowed.

A Java seat has over two thousand legal moves at the start: listed whole they
made a mail of 179 KB. Without a word a long list is answered by kind, with
the likeliest moves and how to narrow it; `legal G5` keeps the moves that
name that space, `legal triple` those of that kind (in any language the
game reads, `legal trojdílné` too), `legal triple G5` both, and `legal all`
lists every one."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

import engine
from pbem.i18n import current_language
from pbem.i18n.command_words import means_all, own_all_word, own_word
from pbem.mail.game_text import SHORT_LIST_MAX, kind_of, likely_first, short_list
from pbem.services.pictures import board_centres

# A list of more moves than this is answered by kind rather than whole.
LEGAL_WHOLE = 50
# Even `legal all` stops here.
LEGAL_LIMIT = 3000


def legal_text(played: engine.Game, seat: int, argument: str) -> str:
    """The answer to `legal ARGUMENT` for a seat that may act, in the
    language being written."""
    state, language = played.state, current_language()
    centres = board_centres(played.view(seat))
    ranked = likely_first(state, seat, centres)
    listing = Listing(
        ranked,
        [state.format_move(m) for m in state.legal_moves(seat)],
        lambda text: state.said_move(text, language),
        example_space(state, ranked[:SHORT_LIST_MAX]),
    )
    words = argument_words(argument)
    if len(words) == 1 and means_all(words[0]):
        return listing.whole(listing.moves)
    if not words:
        if len(listing.moves) <= LEGAL_WHOLE:
            return listing.whole(listing.moves)
        return "\n\n".join([listing.counts(), listing.sample(), listing.how()])
    wanted = [state.canonical_word(word) or word for word in words]
    found = [text for text in listing.moves if all(matches(text, w) for w in wanted)]
    if not found:
        nothing = ngettext(
            "None of your %(num)d legal move matches %(words)s.",
            "None of your %(num)d legal moves matches %(words)s.",
            len(listing.moves),
            words=argument.strip(),
        )
        return "\n\n".join([nothing, listing.counts(), listing.how()])
    title = ngettext(
        "Your %(num)d legal move with %(words)s:",
        "Your %(num)d legal moves with %(words)s:",
        len(found),
        words=argument.strip(),
    )
    answer = title + "\n" + "\n".join(listing.say(text) for text in found[:LEGAL_LIMIT])
    return answer if len(found) <= LEGAL_WHOLE else answer + "\n\n" + listing.how()


def example_space(state: engine.State[Any], moves: list[str]) -> str | None:
    """A space the first of `moves` name, for the examples: the first word
    after a move's kind that is none of the game's words nor a number."""
    for text in moves:
        for word in text.split()[1:]:
            value = word.split("=")[-1]
            if state.canonical_word(value) is None and not value.isdigit():
                return value
    return None


def argument_words(argument: str) -> list[str]:
    """The words after `legal`; a space written "2, -1" or "(2,-1)" is one."""
    return re.sub(r"\s*,\s*", ",", argument).replace("(", " ").replace(")", " ").split()


def matches(move: str, wanted: str) -> bool:
    """Whether a move's text is of kind `wanted` (its first word, or that
    word without its number: "helmet" for "helmet4") or names it (a space,
    a source: the value of "village=F5" too)."""
    kind, *rest = move.split()
    if wanted in (kind, kind.rstrip("0123456789")):
        return True
    return any(word.split("=")[-1].casefold() == wanted.casefold() for word in rest)


@dataclass(frozen=True)
class Listing:
    """A seat's legal moves as `legal` answers them: `ranked` likeliest
    first, `moves` in the engine's order, each `say`d in the reader's words;
    `space`: one the likeliest name, for the examples (None: they name none)."""

    ranked: list[str]
    moves: list[str]
    say: Callable[[str], str]
    space: str | None

    def whole(self, moves: list[str]) -> str:
        if len(moves) > LEGAL_LIMIT:
            title = _(
                "Your %(count)s legal moves (the first %(shown)s):",
                count=len(moves),
                shown=LEGAL_LIMIT,
            )
        else:
            title = ngettext("Your %(num)d legal move:", "Your %(num)d legal moves:", len(moves))
        return title + "\n" + "\n".join(self.say(text) for text in moves[:LEGAL_LIMIT])

    def counts(self) -> str:
        """How many moves of each kind, in the engine's order."""
        counts = Counter(kind_of(text) for text in self.moves)
        title = ngettext(
            "You have %(num)d legal move; by kind:",
            "You have %(num)d legal moves; by kind:",
            len(self.moves),
        )
        return title + "\n" + "\n".join(f"{self.say(k)}: {n}" for k, n in counts.items())

    def sample(self) -> str:
        """The likeliest few of each kind, as the 'your turn' mail lists them."""
        listed = short_list(self.ranked)
        return _("Some you might consider:") + "\n" + "\n".join(map(self.say, listed))

    def how(self) -> str:
        """How to ask for fewer moves, or for every one, with examples taken
        from the likeliest moves."""
        kind, space = self.say(kind_of(self.ranked[0])), self.space
        legal, every = own_word("legal"), own_all_word()
        if space is None:
            return _(
                "Reply %(legal)s and a kind of move (%(legal)s %(kind)s) for those moves only, "
                "or %(legal)s %(all)s for every one of them.",
                legal=legal,
                kind=kind,
                all=every,
            )
        return _(
            "Reply %(legal)s and a space (%(legal)s %(space)s) or a kind of move "
            "(%(legal)s %(kind)s), or both, for those moves only, or %(legal)s %(all)s for "
            "every one of them.",
            legal=legal,
            space=space,
            kind=kind,
            all=every,
        )
