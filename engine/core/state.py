"""The base every ruleset's state derives from (modelled on python-chess's Board).

A state is a mutable position: `push`/`play` change it, `copy` gives a
preview. Subclasses fill in the rules; this class holds what is the same for
every game: turn checks, the order parse -> check -> apply, the view envelope.
"""

from __future__ import annotations

import pickle
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

from engine.core.errors import EngineError, IllegalMove
from engine.core.message_texts import TURN_ORDER
from engine.core.messages import Message
from engine.core.options import Option, resolve_options
from engine.core.rng import SeededRandom, seed_commitment
from engine.core.textboard import TextBoard
from engine.core.vocabulary import Vocabulary, english_in, said_in

Move = Hashable
M = TypeVar("M", bound=Hashable)  # a ruleset's move: parsed, judged, applied, written
T = TypeVar("T")


@dataclass(frozen=True)
class Result:
    """How a finished game ended: seats ranked best first, ties grouped."""

    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[Mapping[str, Any], ...]
    reason: str
    unranked: tuple[int, ...] = field(default=())

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    def to_json(self) -> dict[str, Any]:
        return {
            "ranking": [list(group) for group in self.ranking],
            "winners": list(self.winners),
            "unranked": list(self.unranked),
            "scores": [dict(s) for s in self.scores],
            "reason": self.reason,
        }


class State(ABC, Generic[M]):
    """One position of one game; subclasses implement a ruleset version, typed
    by their move (`JavaState(State[java.Move])`), so that mypy follows a move
    from its text to the rule that judges it."""

    name: ClassVar[str]
    version: ClassVar[int]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_spec: ClassVar[tuple[Option, ...]] = ()
    # The most moves one seat can make in one go (one turn): servers refuse a
    # longer submission before judging it. None: the ruleset sets no bound.
    max_turn_moves: ClassVar[int | None] = None
    # The words the ruleset reads in French and Czech besides English.
    vocabularies: ClassVar[tuple[Vocabulary, ...]] = ()
    # Those of them a move's text begins with (its verb, a tile it plays).
    opening_words: ClassVar[tuple[Vocabulary, ...]] = ()
    # The seats that keep their reserves in this position (keep_reserves);
    # a class default, so a state pickled before it was set reads as none.
    reserves_kept: frozenset[int] = frozenset()

    def __init__(self, players: int, seed: str, options: Mapping[str, Any]) -> None:
        self.players = players
        self.seed = seed
        self.options = dict(options)
        self.hidden_draws = 0  # items taken from face-down sources so far
        self.concealing = False  # a trial: such items stay unknown

    @classmethod
    def new(cls, players: int, seed: str, options: Mapping[str, Any] | None = None) -> Self:
        """Set up a game after checking the player count and the options."""
        if not cls.min_players <= players <= cls.max_players:
            raise EngineError.of(
                "options.player_count",
                game=cls.title,
                least=cls.min_players,
                most=cls.max_players,
                players=players,
            )
        resolved = resolve_options(cls.option_spec, options)
        cls.check_options(players, resolved)
        return cls(players, str(seed), resolved)

    @classmethod
    def check_options(cls, players: int, options: Mapping[str, Any]) -> None:
        """Refuse option combinations that do not fit the player count."""
        return None

    # -- what each ruleset implements -------------------------------------

    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """Seats that may move now; empty once the game is over."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[M]:
        """Every legal move of `seat`, in a stable order; empty if it may not act."""

    @abstractmethod
    def parse_syntax(self, seat: int, text: str) -> M:
        """Read a move's text without judging it; IllegalMove when malformed."""

    @abstractmethod
    def check(self, seat: int, move: M) -> None:
        """Raise IllegalMove naming the rule and the space when `move` breaks a rule."""

    @abstractmethod
    def apply(self, seat: int, move: M) -> None:
        """Carry out a move already known to be legal, with its automatic effects."""

    @abstractmethod
    def format_move(self, move: M) -> str:
        """The canonical text of a move: parse_syntax(format_move(m)) == m."""

    def explained(
        self, error: IllegalMove, seat: int, text: str, seats: Sequence[str]
    ) -> IllegalMove:
        """The refusal of the seat's `text` as its player should read it: a
        ruleset may say more than its check did, naming the seats (the game
        knows their names, the state does not). Here, as it is."""
        return error

    def announcements(self, seats: Sequence[str]) -> list[Message]:
        """What the rules did by themselves that the players should hear of
        (a festival auction's outcome), naming the seats, in order; the list
        only grows, so a server tells each once. None here."""
        return []

    def opens_move(self, word: str) -> bool:
        """Whether a move's text may begin with `word`, in any language the
        ruleset reads ("tile", "tuile", "dílek"): a line that begins so is a
        move, perhaps mistyped, where a server tells moves from prose."""
        return any(vocabulary.knows(word) for vocabulary in self.opening_words)

    def canonical_word(self, word: str) -> str | None:
        """The canonical form of one word of a move as a player of any
        language may type it ("tuile" -> "tile"), None when it is none of the
        ruleset's words (a space, a number)."""
        return english_in(word, self.vocabularies)

    @classmethod
    def said_move(cls, text: str, language: str) -> str:
        """A move's text (canonical, or as the history shows it) in the words
        of `language` ("en", "fr", "cs"), as a player of it would type it;
        the ruleset's words alone, so no position is needed."""
        return said_in(text, cls.vocabularies, language)

    def spends_reserve(self, seat: int, move: M) -> bool:
        """Whether the legal `move` spends what the seat's player keeps for
        turns of their own choosing (Java's action tokens) rather than the
        turn's normal means; never when the rules leave the turn no other
        way on. A stand-in leaves such moves alone (keep_reserves). None here."""
        return False

    def keep_reserves(self, seat: int) -> None:
        """From now on `seat` spends none of its reserves (spends_reserve) in
        this position and those that follow it: a stand-in playing an absent
        player's timed-out turn plays it within the turn's normal means, and
        its bot's legal moves, the rulesets' lists, leave such moves out."""
        self.reserves_kept = self.reserves_kept | {seat}

    def kept_back(self, seat: int, move: M) -> bool:
        """Whether `move` spends a reserve that `seat` keeps."""
        return seat in self.reserves_kept and self.spends_reserve(seat, move)

    @abstractmethod
    def result(self) -> Result | None:
        """The result once over, None while the game goes on."""

    @abstractmethod
    def seat_view(self, seat: int | None) -> dict[str, Any]:
        """Game-specific JSON for one seat (None: a spectator), secrets removed."""

    @abstractmethod
    def text_board(self, seat: int | None) -> TextBoard:
        """A board picture in text, with that seat's private information."""

    def text_picture(self, seat: int | None) -> str:
        """The text board in English (a server translates `text_board`'s lines)."""
        return self.text_board(seat).text()

    def turn_goes_on(self, seat: int) -> bool:
        """True when `seat`, having moved, must act again to go on with the same
        turn (a Taluva build after the tile, more Java actions) rather than
        being handed a new one. Rulesets whose turns are single moves keep this."""
        return False

    def action_points(self, seat: int) -> int | None:
        """Points `seat` has left to spend on this turn's actions, in rulesets
        that count them (a page shows them as a turn is built); None here."""
        return None

    def action_cost(self, move: M) -> int | None:
        """The action points a legal `move` spends (negative: it gives some);
        None in rulesets without them."""
        return None

    def redeal_unseen(self, seat: int, rng: SeededRandom) -> None:
        """Re-deal in place everything `seat` cannot see: face-down piles and
        decks, other seats' hands and secret picks, and the chance still to
        come. The unseen items are pooled in a fixed order before `rng`
        shuffles them, so the result depends only on what `seat` has seen and
        on `rng`: bots search such re-dealt copies (`engine.bots.hidden`)."""
        raise NotImplementedError(f"{self.name} does not say what a seat cannot see")

    # -- shared behaviour -------------------------------------------------

    def is_over(self) -> bool:
        return self.result() is not None

    def require_turn(self, seat: int) -> None:
        if not 0 <= seat < self.players:
            raise IllegalMove.of("turn.no_seat", seat=seat)
        if self.is_over():
            raise IllegalMove.of("turn.game_over")
        if seat not in self.to_act():
            raise IllegalMove.of("turn.not_your_turn", rule=TURN_ORDER)

    def parse_move(self, seat: int, text: str) -> M:
        """Read and judge a move's text; the move returned is legal now."""
        self.require_turn(seat)
        move = self.parse_syntax(seat, text)
        self.judge(seat, move)
        return move

    def push(self, seat: int, move: M) -> None:
        self.require_turn(seat)
        self.judge(seat, move)
        self.apply(seat, move)

    def judge(self, seat: int, move: M) -> None:
        """The ruleset's check, then the reserves the seat keeps."""
        self.check(seat, move)
        if self.kept_back(seat, move):
            raise IllegalMove.of("turn.reserve_kept", move=self.format_move(move))

    def play(self, seat: int, text: str) -> M:
        move = self.parse_move(seat, text)
        self.apply(seat, move)
        return move

    def history_text(self, text: str, mover: int, viewer: int | None) -> str:
        """A past move, by its canonical text, as `viewer` may see it now;
        games with secret moves override."""
        return text

    def view(self, seat: int | None) -> dict[str, Any]:
        """The JSON a seat (None: a spectator) may see; the seed only at the end."""
        result = self.result()
        envelope: dict[str, Any] = {
            "ruleset": self.name,
            "version": self.version,
            "players": self.players,
            "viewer": seat,
            "options": dict(self.options),
            "to_act": sorted(self.to_act()),
            "over": result is not None,
            "result": result.to_json() if result else None,
            "seed_commitment": seed_commitment(self.seed),
            "state": self.seat_view(seat),
        }
        if result is not None:
            envelope["seed"] = self.seed
        return envelope

    # -- chance -----------------------------------------------------------

    def conceal_chance(self) -> None:
        """Make this position a trial: from now on every draw from a face-down
        source yields a placeholder, so nothing chance would reveal reaches it."""
        self.concealing = True

    def take_hidden(self, source: list[T], placeholder: T, index: int = -1) -> T:
        """Take an item from a face-down source (a deck, a pile, a stack).

        In a trial the item stays unknown: the placeholder comes instead, and
        what is left of the source turns into placeholders too, since which
        items remain would tell which one was taken.
        """
        self.hidden_draws += 1
        item = source.pop(index)
        if not self.concealing:
            return item
        source[:] = [placeholder] * len(source)
        return placeholder

    def copy(self) -> Self:
        """A deep copy; pickling is several times faster than copy.deepcopy."""
        clone: Self = pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))
        return clone

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(self) == vars(other)
