"""How the mails name the commands: each in the reader's language beside its
English word (both work, whatever the settings say), taken from
COMMAND_WORDS so the help never lists a word the reader would not."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext

from pbem.i18n import current_language
from pbem.i18n.command_words import COMMAND_WORDS, own_all_word, own_word

# What follows a command's word; the order is the help's.
ARGUMENTS = {"chat": lazy_gettext("TEXT"), "vacation": "N"}
# The whole help's lines and the short list every game mail carries.
DESCRIPTIONS = {
    "legal": lazy_gettext("your legal moves now, by kind when there are many"),
    "board": lazy_gettext("the board as it is now"),
    "history": lazy_gettext("every move of the game so far"),
    "chat": lazy_gettext("send TEXT to the other players"),
    "resign": lazy_gettext("leave the game (alone in its mail); a bot plays your seat on"),
    "newaddress": lazy_gettext("a new secret address for your seat; the old one stops working"),
    "vacation": lazy_gettext("a vacation of N days from now: your clocks stop in every game"),
    "back": lazy_gettext("end your vacation now: your clocks run again"),
    "help": lazy_gettext("this text"),
}
SHORT_DESCRIPTIONS = {
    "legal": lazy_gettext("all your legal moves"),
    "board": lazy_gettext("the board now"),
    "history": lazy_gettext("all moves"),
    "chat": lazy_gettext("a message to the other players"),
    "resign": lazy_gettext("leave the game; a bot plays your seat on"),
    "vacation": lazy_gettext("your clocks stop in every game for N days"),
    "back": lazy_gettext("they run again"),
}


def command_word(command: str) -> str:
    """'board' in English; 'plateau/board' in French: the reader's word first."""
    english, own = COMMAND_WORDS["en"][command][0], own_word(command)
    return english if own == english else f"{own}/{english}"


def _with_argument(command: str) -> str:
    argument = ARGUMENTS.get(command)
    return f"{command_word(command)} {argument}" if argument else command_word(command)


def help_link(site: str) -> str:
    """The help page in the language the mail is written in, whatever the
    browser that opens the link asks for."""
    return f"{site}/help?lang={current_language()}"


def help_text(site: str) -> str:
    """The answer to `help`: how to write moves, every command, the help page."""
    lines = [_with_argument(command) for command in DESCRIPTIONS]
    width = max(len(line) for line in lines) + 3
    listed = "\n".join(
        f"  {line:<{width}}{description}"
        for line, description in zip(lines, DESCRIPTIONS.values(), strict=True)
    )
    return "\n\n".join(
        [
            _(
                "Write one move per line, in the notation of the game (the mails list some "
                "of your legal moves; %(legal)s lists more). All the moves of one mail "
                "are played together, or none of them if one is not allowed.",
                legal=command_word("legal"),
            ),
            _("Commands, one per line:") + "\n" + listed,
            _(
                "After %(legal)s, a space or the first word of a move (a kind of move) keeps "
                "only the moves that name it, both keep those that name both, and %(all)s "
                "lists every legal move however many there are.",
                legal=command_word("legal"),
                all=own_all_word(),
            ),
            _("How to play by mail: %(link)s", link=help_link(site)),
        ]
    )


def commands_line(site: str) -> str:
    """The paragraph at the foot of a game mail."""
    listed = ", ".join(
        f"{_with_argument(command)} ({description})"
        for command, description in SHORT_DESCRIPTIONS.items()
    )
    return "\n".join(
        [
            _("Reply to this mail with your moves, one per line, above the quoted text."),
            _(
                "Commands, one per line: %(commands)s, %(help)s.",
                commands=listed,
                help=command_word("help"),
            ),
            _("How to play by mail: %(link)s", link=help_link(site)),
        ]
    )


def short_help() -> str:
    """The one line a short mail ('X moved') carries instead."""
    return _(
        "Reply %(board)s for the board now, %(history)s for all moves, %(help)s for the commands.",
        board=command_word("board"),
        history=command_word("history"),
        help=command_word("help"),
    )
