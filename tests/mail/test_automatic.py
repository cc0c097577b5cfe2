"""Out-of-office replies are known by their subject when they lack the
automatic-reply headers; a player's own subject is not mistaken for one."""

from __future__ import annotations

import pytest

from pbem.mail.automatic import has_autoreply_subject


@pytest.mark.parametrize(
    "subject",
    [
        "Out of office",
        "Out of the Office: Re: Taluva abc, move 3: your turn",
        "Automatic reply: Taluva abc, move 3: your turn",
        "Autoreply",
        "AUTO-REPLY: away",
        "Absence",
        "Abwesenheit",
        "Abwesenheitsnotiz: Java xyz, move 9: your turn",
        "Réponse automatique : Samurai q, move 2: your turn",
        "Reponse automatique",
        "Nepřítomnost",
        "Mimo kancelář",
        "Automatická odpověď: Taluva abc, move 3: your turn",
        "Respuesta automática",
        "Fuori ufficio",
        "Afwezig",
        "Poza biurem",
        "Autosvar",
    ],
)
def test_out_of_office_subjects_are_automatic(subject):
    assert has_autoreply_subject(subject)


@pytest.mark.parametrize(
    "subject",
    [
        "Re: Taluva abc, move 3: your turn",
        "Re: Java xyz, move 12: Office moved",  # a player named Office
        "AW: Samurai q, move 2: message from Ann",
        "moves",
        "",
    ],
)
def test_a_players_subject_is_not_automatic(subject):
    assert not has_autoreply_subject(subject)
