"""A seat's secret mail address (`play+<seat token>@domain`), renewed when its
player asks: whoever learns the address could write to it under the player's
name, so the old one stops working at once and mail from the new one follows."""

from __future__ import annotations

from sqlalchemy.orm import Session

from pbem.db import lock_game
from pbem.i18n.phrases import phrase
from pbem.models import Seat, seat_token

NEW_ADDRESS = phrase(
    "Your seat in this game has a new secret mail address: the Reply-To of this mail. "
    "Reply to this mail (or any later one) to play. The old address no longer works; "
    "mail to it is refused. Keep the address to yourself."
)


def renew_address(session: Session, seat: Seat) -> None:
    """A new token for the seat, under its game's lock (like every write of
    the game's rows); the caller commits and tells the player."""
    lock_game(session, seat.game_id)
    seat.token = seat_token()
