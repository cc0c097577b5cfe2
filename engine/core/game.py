"""A game: seats, seed and options plus the move log, replayed through a State."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core.errors import EngineError, IllegalMove, ReplayError
from engine.core.message_texts import TURN_ORDER
from engine.core.record import LoggedMove, Record
from engine.core.registry import get_ruleset
from engine.core.state import Result, State
from engine.core.trial import PartlyPlayed, Trial


class Game:
    """The unit everything outside the engine works with: replayable, recordable."""

    def __init__(
        self,
        ruleset: type[State[Any]],
        seats: Sequence[str],
        seed: str,
        options: Mapping[str, Any] | None = None,
        withdrawn: Sequence[int] = (),
    ) -> None:
        self.ruleset = ruleset
        self.seats = tuple(seats)
        self.seed = str(seed)
        self.withdrawn = tuple(withdrawn)
        self.state = ruleset.new(len(self.seats), self.seed, options)
        self.log: list[LoggedMove] = []

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.state.options)

    def seat_index(self, seat: int | str) -> int:
        """A seat by number (0-based) or by name."""
        if isinstance(seat, int) or (isinstance(seat, str) and seat.isdigit()):
            index = int(seat)
            if 0 <= index < len(self.seats):
                return index
        elif seat in self.seats:
            return self.seats.index(seat)
        raise EngineError(f"no seat {seat!r} (seats: {', '.join(self.seats)})")

    def play(self, seat: int, text: str) -> Any:
        """Parse, check and apply one move, logging its canonical text."""
        try:
            move = self.state.play(seat, text)
        except IllegalMove as exc:
            raise self._explained(exc, seat, text) from None
        self._log(seat, move)
        return move

    def _explained(self, exc: IllegalMove, seat: int, text: str) -> IllegalMove:
        """A refusal as the ruleset explains it with the seats' names; one
        for turn order names the seats the game waits for."""
        exc = self.state.explained(exc, seat, text, self.seats)
        if exc.rule == TURN_ORDER and not self.state.is_over():
            waiting = ", ".join(self.seats[s] for s in sorted(self.state.to_act()))
            return IllegalMove.of("turn.waiting_for", rule=exc.rule, seats=waiting)
        return exc

    def push(self, seat: int, move: Any) -> None:
        self.state.push(seat, move)
        self._log(seat, move)

    def _log(self, seat: int, move: Any) -> None:
        self.log.append(LoggedMove(seat, self.state.format_move(move)))

    def play_all(self, seat: int, texts: Iterable[str]) -> list[Any]:
        """Several moves of one seat as one submission: all are applied or none."""
        trial = self.copy()
        moves = [trial.play(seat, text) for text in texts]
        self.state, self.log = trial.state, trial.log
        return moves

    def trial(self, seat: int, texts: Iterable[str]) -> Trial:
        """The seat's moves on a copy where chance is concealed; IllegalMove says
        why one is refused. Every move up to the first draw from a face-down
        source is judged; later ones are only read (whose turn, the notation),
        since their legality may hang on what is drawn."""
        trial = self.copy()
        trial.state.conceal_chance()
        draws = trial.state.hidden_draws
        checked: list[str] = []
        unchecked: list[str] = []
        for text in texts:
            if trial.state.hidden_draws == draws:
                trial.play(seat, text)
                checked.append(trial.log[-1].text)
                continue
            try:
                trial.state.require_turn(seat)
                move = trial.state.parse_syntax(seat, text)
            except IllegalMove as exc:
                raise trial._explained(exc, seat, text) from None
            unchecked.append(trial.state.format_move(move))
        concealed = trial.state.hidden_draws - draws
        return Trial(trial, seat, tuple(checked), tuple(unchecked), concealed)

    def play_submission(self, seat: int, texts: Sequence[str]) -> PartlyPlayed | None:
        """Play a submission of one seat: all its moves or none (IllegalMove),
        as its trial judges them; but a draw cannot be taken back. When a move
        the trial could not judge fails, the moves up to the last draw before
        it are played and the rest refused: the PartlyPlayed returned says so."""
        self.trial(seat, texts)
        attempt = self.copy()
        last_draw: int | None = None
        for index, text in enumerate(texts):
            draws = attempt.state.hidden_draws
            try:
                attempt.play(seat, text)
            except IllegalMove as exc:
                if last_draw is None:
                    raise
                first_new = len(self.log)
                self.play_all(seat, texts[: last_draw + 1])
                played = tuple(entry.text for entry in self.log[first_new:])
                return PartlyPlayed(played, text, exc, tuple(texts[last_draw + 1 :]))
            if attempt.state.hidden_draws > draws:
                last_draw = index
        self.state, self.log = attempt.state, attempt.log
        return None

    def copy(self) -> Game:
        clone = object.__new__(Game)
        clone.ruleset, clone.seats, clone.seed = self.ruleset, self.seats, self.seed
        clone.withdrawn = self.withdrawn
        clone.state = self.state.copy()
        clone.log = list(self.log)
        return clone

    def result(self) -> Result | None:
        """The rules' result, with the seats that left the game ranked last
        (the one that left first at the very bottom); None while it goes on."""
        result = self.state.result()
        if result is None or not self.withdrawn:
            return result
        gone = [seat for seat in self.withdrawn if 0 <= seat < len(self.seats)]
        stayed = [
            kept for group in result.ranking if (kept := tuple(s for s in group if s not in gone))
        ]
        ranking = (*stayed, *((seat,) for seat in reversed(dict.fromkeys(gone))))
        return replace(result, ranking=tuple(ranking))

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's view plus seat names and the move history it may see."""
        view = self.state.view(seat)
        if self.withdrawn and (result := self.result()) is not None:
            view["result"] = result.to_json()
        view["seats"] = list(self.seats)
        view["history"] = [
            {"seat": entry.seat, "move": self.state.history_text(entry.text, entry.seat, seat)}
            for entry in self.log
        ]
        return view

    def to_record(self) -> Record:
        return Record(
            ruleset=self.ruleset.name,
            version=self.ruleset.version,
            seats=list(self.seats),
            seed=self.seed,
            options=self.options,
            moves=list(self.log),
            withdrawn=list(self.withdrawn),
        )

    @classmethod
    def new(
        cls,
        name: str,
        seats: Sequence[str],
        seed: str,
        options: Mapping[str, Any] | None = None,
        version: int | None = None,
    ) -> Game:
        return cls(get_ruleset(name, version), seats, seed, options)

    @classmethod
    def resume(cls, record: Record, state: State[Any]) -> Game:
        """The game at `state`, which the caller vouches is where all of
        `record`'s moves lead (a stored snapshot): no replay."""
        game = object.__new__(cls)
        game.ruleset = get_ruleset(record.ruleset, record.version)
        if type(state) is not game.ruleset:
            raise EngineError(f"a {type(state).__name__} is not a state of {game.ruleset.name}")
        game.seats, game.seed = tuple(record.seats), str(record.seed)
        game.withdrawn = tuple(record.withdrawn)
        game.state = state
        game.log = list(record.moves)
        return game

    @classmethod
    def from_record(cls, record: Record) -> Game:
        """Replay a record under its own ruleset version; ReplayError on a bad move."""
        game = cls(
            get_ruleset(record.ruleset, record.version),
            record.seats,
            record.seed,
            record.options,
            record.withdrawn,
        )
        game.replay(record.moves)
        return game

    def replay(self, moves: Iterable[LoggedMove]) -> None:
        """Play logged moves on from this position; ReplayError names the first
        that fails, by its ply in the whole log."""
        for entry in moves:
            try:
                self.play(entry.seat, entry.text)
            except IllegalMove as exc:
                name = self.seats[entry.seat] if 0 <= entry.seat < len(self.seats) else "?"
                raise ReplayError(
                    len(self.log) + 1, entry.seat, name, entry.text, str(exc)
                ) from None
