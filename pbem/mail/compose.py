"""Turning an outbox row into a mail: plain text and HTML, the board inline,
threading headers and the seat's secret Reply-To."""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Mapping
from datetime import datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

import css_inline
from sqlalchemy.orm import Session

import engine
from pbem.clock.display import local_time
from pbem.clock.time_control import TIMEOUT_WORDS, time_control_words
from pbem.config import base_url
from pbem.i18n.rules import describe_refusal
from pbem.mail import addresses
from pbem.mail.clock_text import clock_text
from pbem.mail.game_text import SeatPicture, result_text, seed_text
from pbem.mail.game_views import GameViews
from pbem.mail.league_text import LEAGUE_KINDS, league_mail
from pbem.models import Game, Outbox, Seat, User
from pbem.services import notifications
from pbem.services.game_lists import seats_to_act

COMMANDS_HELP = (
    "Reply to this mail with your moves, one per line, above the quoted text.\n"
    "Commands, one per line: legal (all your legal moves), board (the board now), "
    "history (all moves), chat TEXT (a message to the other players), "
    "resign (leave the game; a bot plays your seat on), vacation N (your clocks stop "
    "in every game for N days), back (they run again), help."
)
STYLE = """
body { font-family: sans-serif; color: #222; }
pre { font-family: monospace; font-size: 12px; background: #f6f6f6; padding: 8px; }
.moves li { font-family: monospace; }
.note { color: #666; font-size: 12px; }
"""
BOARD_KINDS = {"your_turn", "game_over", "submission_rejected"}
# Mails about the account rather than a seat: an invitation names a game that
# has not started, so it cannot be written from the game's board.
ACCOUNT_KINDS = {
    notifications.SIGN_IN,
    notifications.INVITE,
    notifications.ORGANISER_TIMEOUT,
    notifications.ORGANISER_NOTICE,
    notifications.DIGEST,
    "refusal",
}
# Short mails: no board picture (a PNG of up to half a megabyte after every move
# would not be short) and one line of help instead of the whole list.
SHORT_KINDS = {notifications.MOVED}
ABANDONED = "This game was abandoned by its organiser: it ended without a result."
SHORT_HELP = "Reply board for the board now, history for all moves, help for the commands."


class Mail:
    """A message being written: text paragraphs and their HTML, plus headers."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.html: list[str] = []
        self.png: bytes | None = None  # the board, shown inline

    def para(self, text: str) -> None:
        self.text.append(text)
        self.html.append(f"<p>{html.escape(text).replace(chr(10), '<br>')}</p>")

    def listing(self, title: str, lines: list[str], css_class: str = "moves") -> None:
        self.text.append("\n".join([title, *(f"  {line}" for line in lines)]))
        items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
        self.html.append(f"<p>{html.escape(title)}</p><ul class='{css_class}'>{items}</ul>")

    def pre(self, text: str) -> None:
        self.text.append(text)
        self.html.append(f"<pre>{html.escape(text)}</pre>")

    def link(self, title: str, url: str) -> None:
        self.text.append(f"{title}: {url}")
        self.html.append(f"<p><a href='{html.escape(url)}'>{html.escape(title)}</a></p>")

    def message(self, subject: str) -> EmailMessage:
        message = EmailMessage()
        message["Subject"] = subject
        message.set_content("\n\n".join(self.text) + "\n")
        cid = make_msgid("board")
        image = f"<p><img src='cid:{cid[1:-1]}' alt='the board'></p>" if self.png else ""
        body = image + "".join(self.html)
        page = f"<html><head><style>{STYLE}</style></head><body>{body}</body></html>"
        message.add_alternative(css_inline.inline(page), subtype="html")
        if self.png:
            html_part = message.get_payload()[1]
            html_part.add_related(
                self.png, "image", "png", cid=cid, filename="board.png", disposition="inline"
            )
        return message


def compose(
    session: Session, row: Outbox, config: Mapping[str, Any], views: GameViews | None = None
) -> EmailMessage:
    """The row's mail; `views` is shared by the rows of one batch, so each
    game is replayed and each board drawn once for all of them."""
    if row.kind in LEAGUE_KINDS:
        league = Mail()
        message = league.message(league_mail(session, league, row, config))
    elif row.kind in ACCOUNT_KINDS:
        message = _account_mail(session, row, config)
    else:
        message = _game_mail(session, row, config, views or GameViews())
    domain = config["PBEM_MAIL_DOMAIN"]
    message["From"] = config["PBEM_MAIL_FROM"]
    message["To"] = (
        addresses.formatted(row.recipient.name, row.recipient.email)
        if row.recipient is not None
        else row.to_address
    )
    message["Date"] = formatdate(localtime=False)
    # RFC 3834: automatic mail; well-behaved responders do not answer it.
    message["Auto-Submitted"] = "auto-replied" if row.kind == "refusal" else "auto-generated"
    if "Message-ID" not in message:
        message["Message-ID"] = f"<pbem.mail.{row.id}@{domain}>"
    if row.kind == "refusal" and row.payload.get("in_reply_to"):
        message["In-Reply-To"] = row.payload["in_reply_to"]
    return message


def _account_mail(session: Session, row: Outbox, config: Mapping[str, Any]) -> EmailMessage:
    mail = Mail()
    payload = row.payload
    if row.kind == notifications.DIGEST:
        return _digest(session, mail, row.recipient, config)
    if row.kind == notifications.SIGN_IN:
        mail.para("Use this link to sign in to pbem. It works once and expires soon.")
        mail.link("Sign in", payload["link"])
        mail.para("If you did not ask to sign in, ignore this mail.")
        return mail.message("Sign in to pbem")
    if row.kind == notifications.INVITE and payload.get("replaces"):
        mail.para(
            f"{payload['from']} invites you to take over the seat of {payload['replaces']} "
            f"in a {payload['ruleset']} game under way on pbem. The seat is yours now: "
            "its hand and its turn come with it, and its mails come to you."
        )
        mail.link("Take over the seat", payload["link"])
        return mail.message(f"{payload['from']} invites you to take over a seat")
    if row.kind == notifications.INVITE:
        mail.para(f"{payload['from']} invites you to a game on pbem.")
        if row.game_id is not None:  # the clock the invitee would play with
            game = session.get_one(Game, row.game_id)
            mail.para(f"Time control: {time_control_words(game)}.")
        mail.link("Join the game", payload["link"])
        return mail.message(f"{payload['from']} invites you to a game")
    if row.kind == notifications.ORGANISER_TIMEOUT:
        mail.para(
            f"{payload['name']} ran out of time in your {payload['ruleset']} game "
            f"{payload['game']}. The game waits for you: extend the deadline, hand "
            "the seat to a bot, give it to another player, or abandon the game."
        )
        mail.link("Game page", f"{base_url(config)}/games/{payload['game']}")
        return mail.message(f"Timeout in {payload['game']}: you decide")
    if row.kind == notifications.ORGANISER_NOTICE:
        mail.para(payload["text"])
        return mail.message(f"{payload['ruleset']} {payload['game']}: {payload['headline']}")
    if row.kind == "refusal":
        mail.para(
            "We could not accept your message. Nothing was done. If you play a game "
            "here, reply to the latest mail about it from the address you play with."
        )
        if payload.get("reason"):
            mail.para(payload["reason"])
        return mail.message("Your message was not accepted")
    raise ValueError(f"no mail for outbox kind {row.kind!r}")


def _digest(session: Session, mail: Mail, user: User, config: Mapping[str, Any]) -> EmailMessage:
    """Every game waiting for the user as it stands when the mail is written,
    the soonest deadline first, each with a link to its page."""
    seats = seats_to_act(session, user)
    for seat in seats:
        game = seat.game
        title = engine.get_ruleset(game.ruleset, game.ruleset_version).title
        mail.link(f"{title} {game.public_id}, {_due(seat, user)}", _game_url(config, game))
    if not seats:
        mail.para("Nothing waits for you any more: you have moved in every game since.")
    mail.para(
        "You get this list once a day instead of a mail for each turn; reply to the"
        " mail of a game, or play on its page."
    )
    mail.link("Change your settings", f"{base_url(config)}/settings")
    count = len(seats)
    return mail.message(f"Your move in {count} game{'s' if count != 1 else ''}")


def _due(seat: Seat, user: User) -> str:
    if seat.timeout_at is not None:
        return f"due {local_time(seat.timeout_at, user.time_zone)}"
    if seat.game.paused_at is not None:
        return "paused"
    return "no deadline"


def _game_url(config: Mapping[str, Any], game: Game) -> str:
    return f"{base_url(config)}/games/{game.public_id}"


def _game_mail(
    session: Session, row: Outbox, config: Mapping[str, Any], views: GameViews
) -> EmailMessage:
    game = session.get_one(Game, row.game_id)
    seat = next(s for s in game.seats if s.position == row.payload["seat"])
    picture = views.picture(game, seat.position)
    mail = Mail()
    if game.abandoned_at is not None:  # over, though the rules would go on
        picture = dataclasses.replace(picture, to_act=[])  # a copy: others share the picture
        if row.kind != notifications.ORGANISER_EVENT:  # that one says so itself
            mail.para(ABANDONED)
    phrase = _write_kind(mail, row, picture, seat)
    zone = row.recipient.time_zone if row.recipient is not None else "UTC"
    clock = clock_text(seat, zone, deadline=row.kind != notifications.REMINDER)
    if clock:
        mail.para(clock)
    if row.kind in BOARD_KINDS or row.payload.get("board"):
        _board(mail, picture, views.png(session, game, picture))
    mail.para(SHORT_HELP if row.kind in SHORT_KINDS else COMMANDS_HELP)
    mail.link("Game page", _game_url(config, game))
    if picture.result is not None:  # the seed is out: the record may go with it
        mail.link("Game record", f"{_game_url(config, game)}/record.json")
    if row.kind == notifications.MOVED:
        mail.link("Fewer mails? Change your settings", f"{base_url(config)}/settings")
    # Games made before titles (migration 0011) have none: the ruleset and id name them.
    name = game.title or f"{views.played(game).ruleset.title} {game.public_id}"
    message = mail.message(f"{name}, move {picture.ply + 1}: {phrase}")
    _thread_headers(message, game, seat, picture.ply, row, config)
    return message


def _write_kind(mail: Mail, row: Outbox, picture: SeatPicture, seat: Seat) -> str:
    """The kind's own opening paragraphs; returns the subject's phrase."""
    payload = row.payload
    if row.kind == "your_turn":
        return "your turn" if picture.my_turn else f"waiting for {picture.waiting_for()}"
    if row.kind == "game_over":  # the board part says who won and shows the seed
        return "game over"
    if row.kind == "submission_rejected" and payload.get("played"):
        mail.para(f"Your turn was accepted in part: {_refusal(payload, seat)}.")
        mail.para("The moves played stand; send the rest of your turn again if you like.")
        return "accepted in part"
    if row.kind == "submission_rejected":
        mail.para(f"Your turn was not accepted: {_refusal(payload, seat)}")
        mail.para("Nothing of it was applied. Please send the whole turn again.")
        return "not accepted"
    if row.kind == "submission_accepted":
        mail.listing("Accepted and played:", payload["moves"])
        return "accepted"
    if row.kind == "mail_answer":
        mail.pre(payload["text"])
        return payload.get("subject") or "answer"
    if row.kind == notifications.CHAT:
        mail.para(f"{payload['from']} writes:")
        mail.pre(payload["text"])
        return f"message from {payload['from']}"
    if row.kind == notifications.MOVED:
        return _moved(mail, payload, picture)
    if row.kind == notifications.REMINDER:
        return _reminder(mail, payload, seat)
    if row.kind == notifications.TIMEOUT:
        late = picture.seats[payload["late"]]
        who = "You" if payload["late"] == picture.position else late
        mail.para(f"Timeout: {who} ran out of time. {payload['outcome']}")
        return f"timeout of {late}"
    if row.kind == notifications.ORGANISER_EVENT:
        mail.para(payload["text"])
        return payload["headline"]
    if row.kind == notifications.SEAT_RESIGNED:
        mail.para(f"{payload['name']} resigned. A bot plays their seat to the end.")
        return f"{payload['name']} resigned"
    raise ValueError(f"no mail for outbox kind {row.kind!r}")


def _refusal(payload: Mapping[str, Any], seat: Seat) -> str:
    """The refusal in the recipient's language (English for rows from before)."""
    language = seat.user.language if seat.user else None
    return describe_refusal(payload.get("refusal"), payload["reason"], language)


def _reminder(mail: Mail, payload: Mapping[str, Any], seat: Seat) -> str:
    zone = seat.user.time_zone if seat.user else "UTC"
    due = local_time(datetime.fromisoformat(payload["timeout_at"]), zone)
    mail.para(f"Reminder: your move is due by {due}.")
    if seat.game.on_timeout in TIMEOUT_WORDS:
        mail.para(f"If it is not made by then, {TIMEOUT_WORDS[seat.game.on_timeout]}.")
    return "reminder"


def _moved(mail: Mail, payload: Mapping[str, Any], picture: SeatPicture) -> str:
    """Who moved and what, as the recipient may see it (secret moves stay hidden),
    and who must act now."""
    mover = picture.seats[payload["mover"]]
    history = picture.view["history"]
    plies = range(payload["first_ply"], payload["last_ply"] + 1)
    mail.listing(f"{mover} moved:", [f"{ply}. {history[ply - 1]['move']}" for ply in plies])
    if picture.result is not None:
        mail.para(result_text(picture.result, picture.seats))
    else:
        acting = ["you" if s == picture.position else picture.seats[s] for s in picture.to_act]
        mail.para(f"Now to move: {', '.join(acting)}.")
    return f"{mover} moved"


def _board(mail: Mail, picture: SeatPicture, png: bytes) -> None:
    mail.png = png
    if picture.result is not None:
        mail.para(result_text(picture.result, picture.seats))
        mail.para(seed_text(picture.view))
    if picture.news:
        mail.listing("Since your last turn:", picture.news, css_class="news")
    mail.pre(picture.picture)
    if picture.my_turn:
        shown = len(picture.legal_sample)
        mail.listing(
            f"Your turn. Some of your legal moves ({shown} of {picture.legal_total}; "
            "reply legal for all of them):",
            picture.legal_sample,
        )
    elif picture.result is None and picture.to_act:
        mail.para(f"Waiting for {picture.waiting_for()}.")


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
