"""Chat: one service for every channel (the game page, the API and the mail
command `chat TEXT`). A message is kept with its game and relayed by mail to
the other players; bots read nothing, and the writer is told so."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.db import lock_game
from pbem.models import Channel, ChatMessage, Game, Seat, User, utcnow
from pbem.services import notifications
from pbem.services.errors import Forbidden, Invalid, NotFound
from pbem.services.game_organisers import organises


@dataclass(frozen=True)
class Sent:
    message: ChatMessage
    readers: int  # other players it was mailed to

    @property
    def summary(self) -> str:
        return summary(self.readers)


def summary(readers: int) -> str:
    """What the writer is told: plainly, when nobody will read it."""
    if readers == 0:
        return _(
            "Kept with the game, but nobody else reads it: every other seat is"
            " played by a bot, and bots do not read chat."
        )
    return ngettext("Sent to %(num)s other player.", "Sent to %(num)s other players.", readers)


def post(session: Session, seat: Seat, text: str, channel: Channel, max_chars: int) -> Sent:
    """Keep the message and queue a mail to each other player; the caller commits."""
    text = text.strip()
    if not text:
        raise Invalid(_("a chat message needs some text, e.g. chat Good luck!"))
    if len(text) > max_chars:
        raise Invalid(
            ngettext(
                "a chat message holds at most %(num)s character, not %(given)s",
                "a chat message holds at most %(num)s characters, not %(given)s",
                max_chars,
                given=len(text),
            )
        )
    message = ChatMessage(game_id=seat.game_id, seat_id=seat.id, text=text, channel=channel)
    session.add(message)
    # A person who still plays reads it: not an open seat, a bot or a resigned player.
    readers = [other for other in seat.game.seats if other.id != seat.id and other.is_playing]
    notifications.notify_chat(session, seat, readers, text)
    session.flush()
    return Sent(message, len(readers))


def messages(session: Session, game: Game) -> list[ChatMessage]:
    """The game's chat, oldest first."""
    return list(
        session.scalars(
            select(ChatMessage).where(ChatMessage.game_id == game.id).order_by(ChatMessage.id)
        )
    )


def may_remove(game: Game, user: User | None) -> bool:
    """A game's organisers (its creator, a league game's league organisers)
    and the server's administrators moderate its chat."""
    return user is not None and (user.is_admin or organises(game, user))


def remove(session: Session, game: Game, message_id: int, by: User) -> ChatMessage:
    """Erase a chat line's text; the line stays in its place, shown as
    removed, so the talk around it still reads. Under the game's lock, as
    every change of a game. The caller commits."""
    game = lock_game(session, game.id)
    if not may_remove(game, by):
        raise Forbidden(_("only the game's organisers or an administrator may remove a chat line"))
    message = session.get(ChatMessage, message_id)
    if message is None or message.game_id != game.id:
        raise NotFound(_("no such chat line in this game"))
    if message.removed_at is None:
        message.text, message.removed_at = "", utcnow()
    return message
