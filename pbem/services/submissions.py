"""Storing a submission: the first step for every channel (API, pages, mail, bots)."""

from __future__ import annotations

from flask import current_app
from flask_babel import lazy_gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine
from pbem import signals
from pbem.i18n.refusal_texts import SIZE_RULE, TURN_ORDER
from pbem.models import Channel, Seat, Submission, SubmissionStatus
from pbem.services.errors import Conflict
from pbem.services.replay import engine_game

STILL_WAITING = lazy_gettext("your previous submission is still being processed")


def submission_lines(raw_text: str) -> list[str]:
    """One move per line; blank lines and lines starting with '#' are ignored."""
    lines = (line.strip() for line in raw_text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def most_moves(seat: Seat) -> int:
    """How many moves one submission may hold: the ruleset's most in one go,
    never more than the server's PBEM_MAX_SUBMISSION_MOVES."""
    ceiling = current_app.config["PBEM_MAX_SUBMISSION_MOVES"]
    rules = engine.get_ruleset(seat.game.ruleset, seat.game.ruleset_version)
    return min(ceiling, rules.max_turn_moves or ceiling)


def check_size(seat: Seat, lines: list[str]) -> None:
    """Refuse, before any judging, more moves than one turn holds or an
    overlong move (PBEM_MAX_MOVE_CHARS); IllegalMove says which."""
    most = most_moves(seat)
    if len(lines) > most:
        raise engine.IllegalMove.of(
            "pbem.too_many_moves", rule=SIZE_RULE, count=len(lines), most=most
        )
    longest = current_app.config["PBEM_MAX_MOVE_CHARS"]
    for line in lines:
        if len(line) > longest:
            raise engine.IllegalMove.of(
                "pbem.move_too_long",
                rule=SIZE_RULE,
                length=len(line),
                start=line[:20],
                most=longest,
            )


def preview(seat: Seat, raw_text: str, played: engine.Game | None = None) -> engine.Trial:
    """The submission tried as the seat may know it; IllegalMove says why not.
    `played`: the seat's game now, when the caller has built it already.

    Pages, the API and mail call this first to answer at once. The trial
    conceals what a draw would give, so the answer never tells a card; moves
    after a draw are left to the worker, which judges the stored submission
    again under the game lock.
    """
    if seat.game.abandoned_at is not None:  # the rules would go on; the game does not
        raise engine.IllegalMove.of("pbem.abandoned", rule=TURN_ORDER)
    lines = submission_lines(raw_text)
    if not lines:
        raise engine.IllegalMove.of("pbem.no_move")
    check_size(seat, lines)
    if played is None:
        played = engine_game(seat.game)
    return played.trial(seat.position, lines)


def pending_submission(session: Session, seat: Seat) -> Submission | None:
    return session.scalar(
        select(Submission)
        .where(Submission.seat_id == seat.id, Submission.status == SubmissionStatus.PENDING)
        .limit(1)
    )


def submit(
    session: Session, seat: Seat, raw_text: str, channel: Channel, author_id: int | None = None
) -> Submission:
    """Store what was sent for the seat, unjudged, for its holder now; only
    pbem.services.turns calls this, after its checks. Once the caller
    commits, the submission is handed to a worker (pbem.dispatch)."""
    channel = Channel(channel)  # ValueError for an unknown one
    submission = Submission(
        game_id=seat.game_id,
        seat_id=seat.id,
        raw_text=raw_text,
        channel=channel,
        author_id=author_id,
        sent_for_id=seat.user_id,
    )
    try:
        with session.begin_nested():
            session.add(submission)
    except IntegrityError:
        # Another request of this seat stored its turn first (a unique index
        # over the waiting submissions of the pages and the API).
        raise Conflict(str(STILL_WAITING)) from None
    signals.announce(
        session,
        signals.submission_stored,
        submission_id=submission.id,
        game_id=seat.game_id,
        channel=channel,
    )
    return submission
