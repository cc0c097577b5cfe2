"""The game page of a seated player: board, private information, legal moves,
move entry with a preview, and the fate of what was sent.

A move goes through the one door of every channel (pbem.services.turns):
checked at once on a copy (so a bad move is refused with the engine's reason
and nothing is stored), then stored as a submission that a worker judges
under the game lock. The form carries the ply it was drawn at: a stale page
or a second click sends a move at most once.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select

import engine
from pbem.i18n import current_language, page_language
from pbem.i18n.boards import board_text
from pbem.i18n.games import game_title, said_move
from pbem.models import Channel, Game, GameStatus, Seat, Submission
from pbem.numbers import whole_number
from pbem.render.lastturn import moves_since
from pbem.services import chat, pictures
from pbem.services import games as game_service
from pbem.services.errors import BadForm, Conflict, NotFound
from pbem.services.events import events_by_ply, events_of
from pbem.services.names import as_read
from pbem.services.notifications import notify_new_address
from pbem.services.replay import moves_stored
from pbem.services.resign import resign
from pbem.services.seat_address import renew_address
from pbem.services.submissions import pending_submission, submission_lines
from pbem.services.turns import RefusalReason, TurnRefused, accept_turn, try_turn
from pbem.web.common import db, me, page_blueprint, refusal_reason, signed_in, signed_in_user
from pbem.web.lobby import titles
from pbem.web.move_groups import FULL_LIST, as_choice, group_moves, lone_moves
from pbem.web.positions import Position, ply_argument, position_at, private_information
from pbem.web.turn import NOTHING, NextMoves, next_moves

bp = page_blueprint("play")


def _my_seat(game_id: str) -> Seat:
    """The signed-in user's seat; for anybody else the game does not exist."""
    return game_service.seat_of(db(), game_id, me())


@bp.route("/games/<game_id>")
@signed_in
def game_page(game_id: str) -> ResponseReturnValue:
    user = signed_in_user()
    game = game_service.visible_game(db(), game_id, user)
    if game.status == GameStatus.OPEN:
        joinable = bool(game_service.open_seats_for(game, user))
        return render_template(
            "open_game.html", game=game, user=user, titles=titles(), joinable=joinable
        )
    if not any(seat.user_id == user.id for seat in game.seats):  # its organiser, not playing
        args: dict[str, Any] = request.args.to_dict()
        return redirect(url_for("spectate.watch", game_id=game_id, **args))
    seat = _my_seat(game_id)
    shown = _shown_submission(seat, request.args.get("submission"))
    return render_game_page(seat, ply_argument(request.args.get("ply")), shown=shown)


def _shown_submission(seat: Seat, raw: str | None) -> Submission | None:
    if not raw:
        return None
    number = whole_number(raw)
    found = db().get(Submission, number) if number is not None else None
    if found is None or found.seat_id != seat.id:
        raise NotFound(_("no such submission"))
    return found


def render_game_page(
    seat: Seat,
    ply: int | None,
    *,
    shown: Submission | None = None,
    moves: str = "",
    error: str | None = None,
    chat_error: str | None = None,
    chat_text: str = "",
    status: int = 200,
) -> tuple[str, int]:
    """The game page as the seat's player sees it at `ply` (None: now)."""
    game = seat.game
    # The version first, then pending, then the shown submission and the
    # log: whatever the worker commits in between shows as applied, or
    # changes the version the page polls, so the page never waits for news
    # that has already come. With nothing pending the shown submission is
    # judged, so a page that offers the next move never polls (a reload
    # would take the turn being built from under the player's clicks).
    version = db().scalar(select(Game.lock_version).where(Game.id == game.id))
    pending = pending_submission(db(), seat)
    if shown is not None:
        db().refresh(shown)  # its verdict, if committed since the request began
    position = position_at(game, ply)
    played = position.played
    may_move = (
        position.is_now
        and game.status == GameStatus.ACTIVE
        and not seat.has_left
        and seat.position in played.state.to_act()
        and pending is None
    )
    turn = next_moves(played.state, seat.position) if may_move else NOTHING
    view = as_read(game, played.view(seat.position))
    board_svg, board_panel = pictures.inline_board(game, view, current_language())
    choice = as_choice(turn.moves)
    page = render_template(
        "game.html",
        game=game,
        seat=seat,
        title=game_title(game.ruleset),
        position=position,
        view=view,
        board_svg=board_svg,
        board_panel=board_panel,
        picture=board_text(played.state, seat.position, current_language()),
        private=private_information(played, seat.position),
        choice=choice,
        move_listing=None if choice else legal_listing(game, turn, view),
        since=since_your_last_turn(view["history"], seat.position),
        may_move=may_move,
        pending=pending,
        shown=shown,
        shown_reason=_reason(shown),
        moves=moves,
        error=error,
        waiting=_waiting(game, seat, pending, position),
        version=version,
        chat=chat.messages(db(), game),
        events=events_by_ply(events_of(db(), game)),
        chat_error=chat_error,
        chat_text=chat_text,
        chat_summary=_chat_summary(request.args.get("chat")),
        chat_max_chars=current_app.config["PBEM_CHAT_MAX_CHARS"],
    )
    return page, status


def legal_listing(game: Game, turn: NextMoves, view: dict[str, Any]) -> Markup:
    """The legal moves grouped by kind and space (pbem.web.move_groups), with
    what each costs: the game and preview pages show it, the turn builder
    swaps it in after each line."""
    return Markup(
        render_template(
            "_legal_moves.html",
            game=game,
            turn=turn,
            lone=lone_moves(turn.moves),
            kinds=group_moves(turn.moves, pictures.board_spaces(view)),
            all_moves=len(turn.moves) <= FULL_LIST,
            open_group=request.args.get("moves", ""),
        )
    )


def since_your_last_turn(
    history: list[dict[str, Any]], me: int
) -> list[tuple[int, list[tuple[int, str]]]]:
    """The other players' moves since the seat last moved, by player in the
    order they moved: (seat, [(ply, move), ...])."""
    by_seat: dict[int, list[tuple[int, str]]] = {}
    for ply, entry in moves_since(history, me):
        by_seat.setdefault(entry["seat"], []).append((ply, entry["move"]))
    return list(by_seat.items())


def _chat_summary(raw: str | None) -> str | None:
    """After a chat message: ?chat= holds how many players it was mailed to."""
    readers = whole_number(raw)
    return chat.summary(readers) if readers is not None else None


def _waiting(game: Game, seat: Seat, pending: Submission | None, position: Position) -> bool:
    """Whether the page should look for news by itself: something is being
    judged, or others must move (never while the player may be typing)."""
    if not position.is_now or game.status != GameStatus.ACTIVE:
        return False
    return pending is not None or seat.position not in position.played.state.to_act()


def _form() -> tuple[str, int]:
    """The move text and the ply the page was drawn at. A pick form (the
    things of a `Choice` ticked) is written as the one move it stands for,
    which the engine then judges like a typed one."""
    ply = whole_number(request.form.get("ply"))
    if ply is None:
        raise BadForm(_("the form lacks the position it was made for"))
    head = request.form.get("choice")
    if head and not request.form.get("moves"):
        return " ".join([head, *request.form.getlist("pick")]), ply
    return request.form.get("moves", "").replace("\r\n", "\n"), ply


def _check(seat: Seat, text: str, drawn_at: int) -> engine.Trial:
    """The moves tried on a copy that conceals chance; TurnRefused says why
    not, naming a position that moved on since the page was drawn."""
    trial = try_turn(seat, text, drawn_at)
    assert trial is not None  # tried in full
    return trial


@bp.route("/games/<game_id>/preview", methods=["POST"])
@signed_in
def preview_page(game_id: str) -> ResponseReturnValue:
    seat = _my_seat(game_id)
    text, drawn_at = _form()
    try:
        trial = _check(seat, text, drawn_at)
    except TurnRefused as refusal:
        return _refused(seat, text, refusal)
    board_svg, board_panel = pictures.inline_board(seat.game, trial.view(), current_language())
    return render_template(
        "preview.html",
        game=seat.game,
        seat=seat,
        title=game_title(seat.game.ruleset),
        moves=text,
        trial=trial,
        drawn_at=moves_stored(seat.game),
        picture=board_text(trial.game.state, trial.seat, current_language()),
        private=private_information(trial.game, seat.position),
        board_svg=board_svg,
        board_panel=board_panel,
        move_listing=legal_listing(seat.game, _following(trial), trial.view()),
    )


def _following(trial: engine.Trial) -> NextMoves:
    """What may follow the tried moves; nothing is known after a concealed draw."""
    if trial.unchecked:
        return NOTHING
    return next_moves(trial.game.state, trial.seat)


@bp.route("/games/<game_id>/follow")
@signed_in
def what_follows(game_id: str) -> ResponseReturnValue:
    """The turn builder's question (static/play.js): after these lines, which
    moves may follow, and how does the board look? A refused line comes back
    explained in the reader's language; nothing is stored."""
    seat = _my_seat(game_id)
    text = request.args.get("moves", "")
    drawn_at = whole_number(request.args.get("ply"))
    if drawn_at is None:
        raise BadForm(_("the form lacks the position it was made for"))
    note = ""
    if submission_lines(text):
        try:
            trial = _check(seat, text, drawn_at)
        except TurnRefused as refusal:
            return {"error": refusal.said(page_language())}, refusal.status
        turn, view = _following(trial), trial.view()
        if trial.unchecked:
            note = (
                _(
                    "These moves come after a draw, so they are judged with what you draw"
                    " when you send them:"
                )
                + " "
                + "; ".join(
                    said_move(seat.game.ruleset, text, current_language())
                    for text in trial.unchecked
                )
            )
        elif not turn.moves:
            note = _("Your turn is complete: preview it or submit it.")
    else:
        played = position_at(seat.game, None).played
        turn, view = next_moves(played.state, seat.position), played.view(seat.position)
    board_svg, board_panel = pictures.inline_board(seat.game, view, current_language())
    return {
        "legal": legal_listing(seat.game, turn, view),
        "board": str(board_svg),
        "panel": str(board_panel),
        "note": note,
    }


def _reason(shown: Submission | None) -> str | None:
    return None if shown is None else refusal_reason(shown)


def _refused(seat: Seat, text: str, refusal: TurnRefused) -> tuple[str, int]:
    """The game page again with the moves as typed and why they were refused."""
    return render_game_page(
        seat, None, moves=text, error=refusal.said(page_language()), status=refusal.status
    )


@bp.route("/games/<game_id>/submit", methods=["POST"])
@signed_in
def submit(game_id: str) -> ResponseReturnValue:
    seat = _my_seat(game_id)
    text, drawn_at = _form()
    try:
        submission = accept_turn(db(), seat, signed_in_user().id, text, Channel.WEB, drawn_at)
    except TurnRefused as refusal:
        db().rollback()
        if refusal.earlier is not None:
            # The same form sent twice (a double click, a reload, two tabs
            # racing) leads to the first one's submission: a no-op.
            return redirect(_game_url(seat, submission=refusal.earlier, again=1))
        if refusal.why == RefusalReason.NOT_HOLDER:
            raise NotFound(str(refusal)) from None
        return _refused(seat, text, refusal)
    except Conflict as conflict:
        db().rollback()
        return render_game_page(seat, None, moves=text, error=str(conflict), status=409)
    db().commit()
    return redirect(_game_url(seat, submission=submission.id))


@bp.route("/games/<game_id>/new-address", methods=["POST"])
@signed_in
def new_address(game_id: str) -> ResponseReturnValue:
    """A new secret mail address for the seat; a mail from it tells the player."""
    seat = _my_seat(game_id)
    renew_address(db(), seat)
    notify_new_address(db(), seat)
    db().commit()
    return redirect(_game_url(seat, new_address=1))


def _game_url(seat: Seat, **values: Any) -> str:
    return url_for("play.game_page", game_id=seat.game.public_id, **values)


@bp.route("/games/<game_id>/resign", methods=["GET", "POST"])
@signed_in
def resign_page(game_id: str) -> ResponseReturnValue:
    """GET asks to confirm; only the confirmation's POST resigns."""
    seat = _my_seat(game_id)
    title = game_title(seat.game.ruleset)
    if request.method == "GET":
        return render_template("resign.html", game=seat.game, title=title)
    resign(db(), seat)
    db().commit()
    return redirect(_game_url(seat))


@bp.route("/games/<game_id>/version")
def version(game_id: str) -> ResponseReturnValue:
    """What the pages poll: changes whenever anything happens in the game.
    Public like the spectator view."""
    game = db().scalar(select(Game).where(Game.public_id == game_id))
    if game is None:
        raise NotFound(_("no such game"))
    return {"version": game.lock_version}
