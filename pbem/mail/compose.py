"""Turning an outbox row into a mail: plain text and HTML, the board inline,
threading headers and the seat's secret Reply-To."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from datetime import datetime
from email.message import EmailMessage
from email.utils import formatdate
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext, ngettext
from sqlalchemy.orm import Session

from pbem.config import base_url
from pbem.i18n import current_language, in_language
from pbem.i18n.games import game_title
from pbem.i18n.notation_pages import notation_path
from pbem.i18n.phrases import written
from pbem.i18n.rules import describe_refusal
from pbem.i18n.times import local_time
from pbem.leagues.seasons import named
from pbem.mail import addresses
from pbem.mail.clock_text import clock_text
from pbem.mail.command_help import command_word, commands_line, short_help
from pbem.mail.game_text import SeatPicture, result_text, seed_text
from pbem.mail.game_views import GameViews
from pbem.mail.league_text import LEAGUE_WRITERS
from pbem.mail.message import Mail
from pbem.mail.quiet_hours import SINCE, kind_now
from pbem.mail.unread_lines import not_read
from pbem.models import Game, Outbox, Seat, User
from pbem.services import notifications
from pbem.services.bots import level_words
from pbem.services.game_lists import seats_to_act
from pbem.services.links import picture_url
from pbem.services.names import player_name
from pbem.services.notifications import KINDS, Reader, Speaks
from pbem.services.time_control import TIMEOUT_WORDS, time_control_words

Payload = Mapping[str, Any]
# One writer per kind of notice (pbem.services.notifications.KINDS), of the
# shape its reader needs; each fills in a Mail and returns the subject.
# A seat's: (mail, payload, the game as the seat sees it, the seat) -> the
# subject's phrase, around which _game_mail adds the clock, the board, the
# help and the thread.
SeatWriter = Callable[[Mail, Payload, SeatPicture, Seat], str]
# Anyone else's, from the row alone: (session, mail, row, settings) -> subject.
RowWriter = Callable[[Session, Mail, Outbox, Mapping[str, Any]], str]
ABANDONED = lazy_gettext("This game was abandoned by its organiser: it ended without a result.")
# The subjects of answers, as the mail pipeline and the services store them.
ANSWER_SUBJECTS = {"answer": lazy_gettext("answer"), "new address": lazy_gettext("new address")}


def compose(
    session: Session, row: Outbox, config: Mapping[str, Any], views: GameViews | None = None
) -> EmailMessage:
    """The row's mail in its recipient's language; `views` is shared by the
    rows of one batch, so each game is replayed and each board drawn once for
    all of them."""
    with in_language(recipient_language(row)):
        return _composed(session, row, config, views)


def recipient_language(row: Outbox) -> str | None:
    """The language the recipient chose; else the one of the page the mail
    was asked from (a sign-in, an invitation) or of the sender's own mail
    (a refusal), kept in the payload; else none (English). An invitation was
    asked from the inviter's page: it speaks for an invitee who has never
    signed in, not for one who reads their mail in English already."""
    recipient = row.recipient
    if recipient is not None and recipient.language:
        return recipient.language
    known = recipient is not None and recipient.signed_in_at is not None
    if known and KINDS[row.kind].speaks is Speaks.INVITER:
        return None
    return row.payload.get("language")


def _composed(
    session: Session, row: Outbox, config: Mapping[str, Any], views: GameViews | None
) -> EmailMessage:
    if KINDS[row.kind].reader is Reader.SEAT:
        message = _game_mail(session, row, config, views or GameViews())
    else:
        mail = Mail()
        message = mail.message(ROW_WRITERS[row.kind](session, mail, row, config))
    domain = config["PBEM_MAIL_DOMAIN"]
    message["From"] = config["PBEM_MAIL_FROM"]
    message["To"] = (
        addresses.formatted(row.recipient.name, row.recipient.email)
        if row.recipient is not None
        else row.to_address
    )
    message["Date"] = formatdate(localtime=False)
    # RFC 3834: automatic mail; well-behaved responders do not answer it.
    refusal = row.kind == notifications.REFUSAL
    message["Auto-Submitted"] = "auto-replied" if refusal else "auto-generated"
    if "Message-ID" not in message:
        message["Message-ID"] = f"<pbem.mail.{row.id}@{domain}>"
    if refusal and row.payload.get("in_reply_to"):
        message["In-Reply-To"] = row.payload["in_reply_to"]
    return message


def _sign_in(_session: Session, mail: Mail, row: Outbox, _config: Mapping[str, Any]) -> str:
    mail.para(_("Use this link to sign in to pbem. It works once and expires soon."))
    mail.link(_("Sign in"), row.payload["link"])
    mail.para(_("If you did not ask to sign in, ignore this mail."))
    return _("Sign in to pbem")


def _delete_account(_session: Session, mail: Mail, row: Outbox, _config: Mapping[str, Any]) -> str:
    mail.para(
        _(
            "You asked to delete your pbem account. Your address, name, settings, tokens,"
            " chat lines and mail will be erased; games under way go on with a bot in your"
            " seat, and finished games keep their records under the name of a former player."
            " This cannot be undone."
        )
    )
    mail.link(_("Delete my account"), row.payload["link"])
    mail.para(_("If you did not ask for this, ignore this mail: nothing changes."))
    return _("Delete your pbem account?")


def _invite(session: Session, mail: Mail, row: Outbox, _config: Mapping[str, Any]) -> str:
    """To an open seat, or (`replaces`) to take over a seat of a game under way."""
    payload = row.payload
    if payload.get("replaces"):
        mail.para(
            _(
                "%(name)s invites you to take over the seat of %(player)s in a %(game)s game "
                "under way on pbem. The seat is yours now: its hand and its turn come with "
                "it, and its mails come to you.",
                name=payload["from"],
                player=payload["replaces"],
                game=game_title(payload["ruleset"]),
            )
        )
        _invited_to(session, mail, row)
        mail.link(_("Take over the seat"), payload["link"])
        return _("%(name)s invites you to take over a seat", name=payload["from"])
    mail.para(_("%(name)s invites you to a game on pbem.", name=payload["from"]))
    _invited_to(session, mail, row)
    mail.link(_("Join the game"), payload["link"])
    return _("%(name)s invites you to a game", name=payload["from"])


def _organiser_timeout(session: Session, mail: Mail, row: Outbox, config: Mapping[str, Any]) -> str:
    payload = row.payload
    mail.para(
        _(
            "%(name)s ran out of time in your %(title)s game %(game)s. The game waits for "
            "you: extend the deadline, hand the seat to a bot, give it to another player, "
            "or abandon the game.",
            name=payload["name"],
            title=game_title(payload["ruleset"]),
            game=_game_named(session, row),
        )
    )
    mail.link(_("Game page"), f"{base_url(config)}/games/{payload['game']}")
    return _("Timeout in %(game)s: you decide", game=_game_named(session, row))


def _organiser_notice(session: Session, mail: Mail, row: Outbox, _config: Mapping[str, Any]) -> str:
    mail.para(written(row.payload["text"]))
    return f"{_game_named(session, row)}: {written(row.payload['headline'])}"


def _webhook_off(_session: Session, mail: Mail, row: Outbox, config: Mapping[str, Any]) -> str:
    mail.para(
        _(
            "Your webhook to %(url)s failed %(count)d times in a row, so pbem stopped"
            " sending to it. The last answer: %(error)s",
            url=row.payload["url"],
            count=row.payload["failures"],
            error=row.payload["error"],
        )
    )
    mail.para(_("Once its receiver works again, send it a test from your settings page."))
    mail.link(_("Settings"), f"{base_url(config)}/settings")
    return _("Your webhook is switched off")


def _refusal_mail(_session: Session, mail: Mail, row: Outbox, _config: Mapping[str, Any]) -> str:
    mail.para(
        _(
            "We could not accept your message. Nothing was done. If you play a game "
            "here, reply to the latest mail about it from the address you play with."
        )
    )
    if row.payload.get("reason"):
        mail.para(row.payload["reason"])
    return _("Your message was not accepted")


def _invited_to(session: Session, mail: Mail, row: Outbox) -> None:
    """The game an invitation is to, as it is now: its title, who else sits
    at its table (bots with their level, seats not taken yet) and its clock.
    Rows from before a game was kept with them name only its game."""
    if row.game_id is None:
        return
    game = session.get_one(Game, row.game_id)
    mail.para(
        _("The game: %(title)s (%(game)s).", title=named(game), game=game_title(game.ruleset))
    )
    others = [seat for seat in game.seats if seat.position != row.payload["seat"]]
    table = [
        f"{player_name(s.name, s.user)} ({level_words(s.bot)})"
        if s.bot
        else player_name(s.name, s.user)
        for s in others
        if not s.is_open
    ]
    still_open = sum(s.is_open for s in others)
    if still_open:
        table.append(
            ngettext("%(num)d seat not taken yet", "%(num)d seats not taken yet", still_open)
        )
    mail.para(_("At the table with you: %(players)s.", players=", ".join(table)))
    mail.para(_("Time control: %(control)s.", control=time_control_words(game)))


def _game_named(session: Session, row: Outbox) -> str:
    """The game an account mail is about, by its name (rows from before kept only its id)."""
    if row.game_id is None:
        return f"{game_title(row.payload['ruleset'])} {row.payload['game']}"
    return named(session.get_one(Game, row.game_id))


def _digest(session: Session, mail: Mail, row: Outbox, config: Mapping[str, Any]) -> str:
    """Every game waiting for the user as it stands when the mail is written,
    the soonest deadline first, each with a link to its page."""
    user = row.recipient
    assert user is not None  # a digest is queued for a player
    seats = seats_to_act(session, user)
    for seat in seats:
        game = seat.game
        mail.link(f"{named(game)}, {_due(seat, user)}", _game_url(config, game))
    if not seats:
        mail.para(_("Nothing waits for you any more: you have moved in every game since."))
    mail.para(
        _(
            "You get this list once a day instead of a mail for each turn; reply to the"
            " mail of a game, or play on its page."
        )
    )
    mail.link(_("Change your settings"), f"{base_url(config)}/settings")
    return ngettext("Your move in %(num)d game", "Your move in %(num)d games", len(seats))


def _due(seat: Seat, user: User) -> str:
    if seat.timeout_at is not None:
        return _("due %(time)s", time=local_time(seat.timeout_at, user.time_zone))
    if seat.game.paused_at is not None:
        return _("paused")
    return _("no deadline")


def _game_url(config: Mapping[str, Any], game: Game) -> str:
    return f"{base_url(config)}/games/{game.public_id}"


def _game_mail(
    session: Session, row: Outbox, config: Mapping[str, Any], views: GameViews
) -> EmailMessage:
    assert row.game_id is not None  # the kinds that come here are each about a game
    game = views.game(session, row.game_id)
    seat = next(s for s in game.seats if s.position == row.payload["seat"])
    picture = views.picture(game, seat.position)
    mail = Mail()
    if game.abandoned_at is not None:  # over, though the rules would go on
        picture = dataclasses.replace(picture, to_act=[])  # a copy: others share the picture
        if row.kind != notifications.ORGANISER_EVENT:  # that one says so itself
            mail.para(str(ABANDONED))
    kind = kind_now(row, picture)
    entry = KINDS[kind]
    phrase = SEAT_WRITERS[kind](mail, row.payload, picture, seat)
    zone = row.recipient.time_zone if row.recipient is not None else "UTC"
    clock = clock_text(seat, zone, deadline=kind != notifications.REMINDER)
    if clock:
        mail.para(clock)
    bots = bots_at_table(game)
    if bots:
        mail.para(bots)
    if entry.board or row.payload.get("board"):
        news = kind != notifications.SINCE_YOU_HEARD  # that mail lists the news itself
        _board(mail, picture, views.board(game, picture), news)
        mail.png_url = picture_url(config, seat, picture.ply)
        mail.domain = config["PBEM_MAIL_DOMAIN"]
        mail.link(_("The board picture at full size"), mail.png_url)
    # No moves to send any more: the game is over, or the reader resigned.
    done = picture.result is not None or game.abandoned_at is not None or seat.has_left
    mail.para(short_help() if entry.short or done else commands_line(base_url(config)))
    mail.link(_("Game page"), _game_url(config, game))
    notation = notation_path(game.ruleset, current_language())
    if notation is not None:
        mail.link(_("How to write moves"), f"{base_url(config)}{notation}")
    if picture.result is not None:  # the seed is out: the record may go with it
        mail.link(_("Game record"), f"{_game_url(config, game)}/record.json")
    if kind == notifications.MOVED:
        mail.link(_("Fewer mails? Change your settings"), f"{base_url(config)}/settings")
    name = named(game)
    # A reply's subject names the move it answers (addresses.SUBJECT_MOVE reads the
    # word for "move" in every language), should its threading headers be lost.
    message = mail.message(
        _("%(name)s, move %(move)s: %(phrase)s", name=name, move=picture.ply + 1, phrase=phrase)
    )
    _thread_headers(message, game, seat, picture.ply, row, config)
    return message


def bots_at_table(game: Game) -> str | None:
    """The seats bots play, each with its level ("Bot 2 (strong)"); None: no bot."""
    seats = [f"{seat.name} ({level_words(seat.bot)})" for seat in game.seats if seat.bot]
    return _("Played by bots: %(seats)s.", seats=", ".join(seats)) if seats else None


def _your_turn(_mail: Mail, _payload: Payload, picture: SeatPicture, _seat: Seat) -> str:
    if picture.my_turn:
        return _("your turn")
    if picture.to_act and picture.result is None:
        return _("waiting for %(players)s", players=picture.waiting_for())
    return _("game over")  # while the mail waited: nobody is left to wait for


def _game_over(_mail: Mail, _payload: Payload, _picture: SeatPicture, _seat: Seat) -> str:
    return _("game over")  # the board part says who won and shows the seed


def _rejected(mail: Mail, payload: Payload, picture: SeatPicture, _seat: Seat) -> str:
    if payload.get("played"):
        mail.para(_("Your turn was accepted in part: %(reason)s.", reason=_refusal(payload)))
        mail.para(_("The moves played stand; send the rest of your turn again if you like."))
        subject = _("accepted in part")
    else:
        mail.para(_("Your turn was not accepted: %(reason)s", reason=_refusal(payload)))
        mail.para(picture.what_to_send())
        subject = _("not accepted")
    _set_aside(mail, payload)
    return subject


def _accepted(mail: Mail, payload: Payload, picture: SeatPicture, _seat: Seat) -> str:
    accepted = [picture.say(move) for move in payload["moves"]]
    mail.listing(_("Accepted and played:"), [*accepted, *picture.told_of_last_turn()])
    _set_aside(mail, payload)
    return _("accepted")


def _set_aside(mail: Mail, payload: Payload) -> None:
    """The lines of the player's mail that were not read as moves (a greeting,
    a signature): said in the answer to the turn, not in a mail of their own."""
    if payload.get("aside"):
        mail.para(not_read(payload["aside"]))


def _mail_answer(mail: Mail, payload: Payload, _picture: SeatPicture, _seat: Seat) -> str:
    # Answers the mail pipeline wrote are in the language already; a text
    # the services stored in English is read through the catalogue.
    mail.pre(written(payload["text"]))
    subject = payload.get("subject") or "answer"
    return str(ANSWER_SUBJECTS.get(subject, subject))


def _chat(mail: Mail, payload: Payload, _picture: SeatPicture, _seat: Seat) -> str:
    mail.para(_("%(name)s writes:", name=payload["from"]))
    mail.pre(payload["text"])
    return _("message from %(name)s", name=payload["from"])


def _timeout(mail: Mail, payload: Payload, picture: SeatPicture, _seat: Seat) -> str:
    late = picture.seats[payload["late"]]
    outcome = written(payload["outcome"])  # pbem.services.time_control.OUTCOMES
    if payload["late"] == picture.position:
        mail.para(_("Timeout: You ran out of time. %(outcome)s", outcome=outcome))
        if payload.get("moves"):
            mail.listing(_("The bot played:"), [picture.say(m) for m in payload["moves"]])
    else:
        mail.para(_("Timeout: %(name)s ran out of time. %(outcome)s", name=late, outcome=outcome))
    return _("timeout of %(name)s", name=late)


def _organiser_event(mail: Mail, payload: Payload, _picture: SeatPicture, _seat: Seat) -> str:
    mail.para(written(payload["text"]))
    return written(payload["headline"])


def _seat_resigned(mail: Mail, payload: Payload, _picture: SeatPicture, _seat: Seat) -> str:
    mail.para(_("%(name)s resigned. A bot plays their seat to the end.", name=payload["name"]))
    return _("%(name)s resigned", name=payload["name"])


def _refusal(payload: Mapping[str, Any]) -> str:
    """The refusal in the mail's language (English for rows from before)."""
    return describe_refusal(payload.get("refusal"), payload["reason"], current_language())


def _reminder(mail: Mail, payload: Payload, _picture: SeatPicture, seat: Seat) -> str:
    zone = seat.user.time_zone if seat.user else "UTC"
    due = local_time(datetime.fromisoformat(payload["timeout_at"]), zone)
    mail.para(_("Reminder: your move is due by %(time)s.", time=due))
    if seat.game.on_timeout in TIMEOUT_WORDS:
        outcome = TIMEOUT_WORDS[seat.game.on_timeout]
        mail.para(_("If it is not made by then, %(outcome)s.", outcome=outcome))
    return _("reminder")


def _moved(mail: Mail, payload: Payload, picture: SeatPicture, _seat: Seat) -> str:
    """Who moved and what, as the recipient may see it (secret moves stay hidden),
    and who must act now."""
    mover = picture.seats[payload["mover"]]
    history = picture.view["history"]
    plies = range(payload["first_ply"], payload["last_ply"] + 1)
    moves = picture.with_told(
        (ply, f"{ply}. {picture.say(history[ply - 1]['move'])}") for ply in plies
    )
    mail.listing(_("%(name)s moved:", name=mover), moves)
    if picture.result is not None:
        mail.para(result_text(picture.result, picture.seats))
    else:
        acting = [_("you") if s == picture.position else picture.seats[s] for s in picture.to_act]
        mail.para(_("Now to move: %(players)s.", players=", ".join(acting)))
    return _("%(name)s moved", name=mover)


def _since_you_heard(mail: Mail, payload: Payload, picture: SeatPicture, _seat: Seat) -> str:
    """The others' moves played while the reader's mail was held, as they may
    see them, in one mail; the board and who must act follow."""
    first_ply = payload[SINCE]
    played = enumerate(picture.view["history"][first_ply - 1 :], start=first_ply)
    moves = picture.with_told(
        (ply, f"{ply}. {picture.seats[entry['seat']]}: {picture.say(entry['move'])}")
        for ply, entry in played
        if entry["seat"] != picture.position
    )
    mail.listing(_("Since you last heard:"), moves, css_class="news")
    return _("since you last heard")


def _board(mail: Mail, picture: SeatPicture, board: tuple[bytes, bytes], news: bool = True) -> None:
    mail.board = board
    if picture.result is not None:
        mail.para(result_text(picture.result, picture.seats))
        mail.para(seed_text(picture.view))
    if news and picture.news:
        mail.listing(_("Since your last turn:"), picture.news, css_class="news")
    mail.pre(picture.picture)
    if picture.my_turn:
        mail.listing(_legal_title(picture), picture.legal_sample)
    elif picture.result is None and picture.to_act:
        mail.para(_("Waiting for %(players)s.", players=picture.waiting_for()))


def _legal_title(picture: SeatPicture) -> str:
    """The title of the legal moves listed: some of them, or all when they all fit."""
    shown, total = len(picture.legal_sample), picture.legal_total
    if shown == total:
        return ngettext(
            "Your turn. Your legal move:", "Your turn. Your %(num)d legal moves:", total
        )
    return _(
        "Your turn. Some of your legal moves (%(shown)s of %(total)s; reply %(legal)s to "
        "see more):",
        shown=shown,
        total=total,
        legal=command_word("legal"),
    )


def _thread_headers(
    message: EmailMessage,
    game: Game,
    seat: Seat,
    ply: int,
    row: Outbox,
    config: Mapping[str, Any],
) -> None:
    domain = config["PBEM_MAIL_DOMAIN"]
    root = addresses.thread_root_id(game.public_id, seat.position, domain)
    message["Message-ID"] = addresses.message_id(
        game.public_id, seat.position, ply, str(row.id), domain
    )
    answered = row.payload.get("in_reply_to")
    message["In-Reply-To"] = answered or root
    message["References"] = f"{root} {answered}" if answered else root
    message["Reply-To"] = addresses.reply_address(
        config["PBEM_MAIL_REPLY_LOCALPART"], seat.token, domain
    )
    message["X-Pbem-Game"] = game.public_id
    message["X-Pbem-Move"] = str(ply + 1)


SEAT_WRITERS: dict[str, SeatWriter] = {
    notifications.YOUR_TURN: _your_turn,
    notifications.GAME_OVER: _game_over,
    notifications.REJECTED: _rejected,
    notifications.ACCEPTED: _accepted,
    notifications.MAIL_ANSWER: _mail_answer,
    notifications.CHAT: _chat,
    notifications.TIMEOUT: _timeout,
    notifications.ORGANISER_EVENT: _organiser_event,
    notifications.SEAT_RESIGNED: _seat_resigned,
    notifications.REMINDER: _reminder,
    notifications.MOVED: _moved,
    notifications.SINCE_YOU_HEARD: _since_you_heard,
}
ROW_WRITERS: dict[str, RowWriter] = {
    notifications.SIGN_IN: _sign_in,
    notifications.DELETE_ACCOUNT: _delete_account,
    notifications.INVITE: _invite,
    notifications.ORGANISER_TIMEOUT: _organiser_timeout,
    notifications.ORGANISER_NOTICE: _organiser_notice,
    notifications.WEBHOOK_OFF: _webhook_off,
    notifications.REFUSAL: _refusal_mail,
    notifications.DIGEST: _digest,
    **LEAGUE_WRITERS,
}
