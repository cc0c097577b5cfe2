"""Chat: one service for every channel (the game page, the API and the mail
command `chat TEXT`). A message is kept with its game and relayed by mail to
the other players; bots read nothing, and the writer is told so."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import ChatMessage, Game, Seat
from pbem.services import notifications
from pbem.services.errors import Invalid


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


def post(session: Session, seat: Seat, text: str, channel: str, max_chars: int) -> Sent:
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
    readers = [other for other in seat.game.seats if other.id != seat.id and _reads_chat(other)]
    notifications.notify_chat(session, seat, readers, text)
    session.flush()
    return Sent(message, len(readers))


def _reads_chat(seat: Seat) -> bool:
    """A person who still plays: not an open seat, a bot or a resigned player."""
    return seat.user_id is not None and seat.bot is None and seat.resigned_at is None


def messages(session: Session, game: Game) -> list[ChatMessage]:
    """The game's chat, oldest first."""
    return list(
        session.scalars(
            select(ChatMessage).where(ChatMessage.game_id == game.id).order_by(ChatMessage.id)
        )
    )
