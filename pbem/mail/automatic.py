"""Recognising mail no person wrote: auto-replies, out-of-office notes and
bounces. Such mail is never read as moves and never answered, so two
automatic responders cannot keep writing to each other (no backscatter)."""

from __future__ import annotations

import re
import unicodedata
from email.message import EmailMessage

AUTOMATIC_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
AUTOREPLY_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress")
# What out-of-office replies put in the subject when they send none of the
# headers above, written without accents (subjects are compared without them).
AUTOREPLY_SUBJECT = re.compile(
    r"\b(?:"
    r"out of (?:the )?office|automatic reply|automated reply|auto[- ]?reply|auto[- ]?response"
    r"|absence|absent du bureau|on vacation|on holiday|reponse automatique"
    r"|abwesen\w*|automatische antwort|nicht im buro"
    r"|nepritomnost\w*|mimo kancelar\w*|automaticka odpove\w*"
    r"|respuesta automatica|fuera de la oficina|ausencia"
    r"|risposta automatica|fuori ufficio|fuori sede"
    r"|automatisch antwoord|afwezig\w*"
    r"|odpowiedz automatyczna|automatyczna odpowiedz|poza biurem|nieobecnosc"
    r"|autosvar|automatiskt svar|franvaro|fravaer|fravær"
    r"|resposta automatica|fora do escritorio|automaattinen vastaus"
    r")\b"
)


def is_automatic(message: EmailMessage, envelope_from: str | None) -> bool:
    """RFC 3834 Auto-Submitted, Precedence, vacation headers and subjects,
    bounces and the null sender."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    precedence = str(message.get("Precedence", "")).strip().lower()
    return (
        auto != "no"
        or precedence in AUTOMATIC_PRECEDENCE
        or any(name in message for name in AUTOREPLY_HEADERS)
        or has_autoreply_subject(str(message.get("Subject", "")))
        or message.get_content_type() == "multipart/report"
        or envelope_from == ""
        or str(message.get("Return-Path", "")).strip() == "<>"
    )


def has_autoreply_subject(subject: str) -> bool:
    return AUTOREPLY_SUBJECT.search(_plain(subject)) is not None


def _plain(text: str) -> str:
    """Lower case without accents: 'Réponse' and 'reponse' read alike."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
