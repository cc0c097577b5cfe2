"""The language of the page a mail was asked from, kept with the mail for a
recipient who has chosen none: a sign-in link asked for on a French page
comes in French, and so does an invitation sent from one to someone who
has never signed in (whoever invites in French most likely invites someone
who reads it); an invitee who has, and chose no language, reads English. Mails the recipient
did not ask for (a turn, a move) never take another player's page language.
A language the recipient chose always wins (pbem.mail.compose)."""

from __future__ import annotations

from flask import Flask, has_request_context
from sqlalchemy import event
from sqlalchemy.orm import Session

from pbem.i18n import current_language
from pbem.leagues import notices
from pbem.models import Outbox
from pbem.services import notifications

# Asked from another person's page: the invitee's own language comes first.
INVITER_PAGE = {notifications.INVITE, notices.LEAGUE_INVITE}
ASKED_FROM_A_PAGE = {notifications.SIGN_IN, *INVITER_PAGE}


def remember_page_language(app: Flask) -> None:
    """Every such row any session of the app adds in a request is stamped before it is written."""
    sessions = app.extensions["pbem.db"].sessionmaker

    @event.listens_for(sessions, "before_flush")
    def _stamp(session: Session, _context: object, _instances: object) -> None:
        if not has_request_context():
            return
        for row in session.new:
            if isinstance(row, Outbox) and row.kind in ASKED_FROM_A_PAGE:
                row.payload = {"language": current_language(), **row.payload}
