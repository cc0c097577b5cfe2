"""Mail commands are read in English, French and Czech, whatever the case
and with or without accents; lines that name no command stay moves."""

from __future__ import annotations

import pytest

from pbem.i18n.command_words import COMMAND_WORDS, command_named
from pbem.mail.commands import _COMMANDS, VACATION_DAYS, read_commands


def test_every_language_names_every_command():
    for language, table in COMMAND_WORDS.items():
        assert set(table) == set(_COMMANDS), language


@pytest.mark.parametrize(
    ("word", "command"),
    [
        ("coups", "legal"),
        ("Plateau", "board"),
        ("HISTORIQUE", "history"),
        ("abandonner", "resign"),
        ("aide", "help"),
        ("vacances", "vacation"),
        ("retour", "back"),
        ("message", "chat"),
        ("nouvelle-adresse", "newaddress"),
        ("tahy", "legal"),
        ("deska", "board"),
        ("historie", "history"),
        ("vzdát", "resign"),
        ("vzdat", "resign"),
        ("VZDÁT", "resign"),
        ("nápověda", "help"),
        ("napoveda", "help"),
        ("zprava", "chat"),
        ("dovolena", "vacation"),
        ("zpět", "back"),
        ("novaadresa", "newaddress"),
        ("legal", "legal"),
        ("Help", "help"),
    ],
)
def test_a_command_word_of_any_language_names_its_command(word, command):
    assert command_named(word) == command


def test_lines_in_three_languages_become_commands_and_moves():
    reading = read_commands("Coups\nzpráva Ahoj všichni\nhut 1,0\nvacances 7 jours\naide\n")
    assert reading.commands == [
        ("legal", ""),
        ("chat", "Ahoj všichni"),
        ("vacation", "7 jours"),
        ("help", ""),
    ]
    assert reading.moves == ["hut 1,0"]


@pytest.mark.parametrize("days", ["7", "7 days", "7 jours", "7 dní", "3 dny", "5 dnů", "1 den"])
def test_vacation_days_are_read_in_each_language(days):
    assert VACATION_DAYS.fullmatch(days) is not None
