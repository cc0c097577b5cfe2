"""The English templates of the messages every game shares: turns, records,
options. Ids start with the area; parameters are `%(name)s` (gettext's
python-format), so catalogues take the templates as their msgids."""

from __future__ import annotations

from engine.core.messages import define, words

TURN_ORDER = "turn order"
words(TURN_ORDER)

define(
    {
        # turns
        "turn.no_seat": "there is no seat %(seat)s in this game",
        "turn.game_over": "the game is over",
        "turn.not_your_turn": "it is not your turn",
        "turn.waiting_for": "it is not your turn (waiting for %(seats)s)",
        "turn.reserve_kept": "a stand-in keeps the player's reserves: not %(move)s",
        "turn.partly_played": "played %(played)s (a draw cannot be taken back); not played "
        "%(not_played)s, because '%(failed)s': %(error)s",
        # a refusal quoted in another: with its rule, or a text made elsewhere
        "turn.with_rule": "%(reason)s [%(rule)s]",
        "turn.plain": "%(text)s",
        # records
        "record.not_a_record": "not a game record (expected format '%(format)s')",
        "record.malformed": "malformed game record: %(problem)s",
        "record.not_json": "game record is not valid JSON: %(problem)s",
        "record.unreadable": "cannot read %(path)s: %(problem)s",
        "record.unknown_game": "unknown game '%(game)s' (games: %(games)s)",
        "record.unknown_version": "%(game)s has no rules version %(version)s "
        "(versions: %(versions)s)",
        # options and players
        "options.player_count": "%(game)s takes %(least)s to %(most)s players, not %(players)s",
        "options.yes_or_no": "option %(option)s takes yes or no, not '%(value)s'",
        "options.whole_number": "option %(option)s takes a whole number, not '%(value)s'",
        "options.wrong_type": "option %(option)s takes a %(kind)s, not '%(value)s'",
        "options.not_a_choice": "option %(option)s must be one of %(choices)s, not '%(value)s'",
        "options.unknown": "unknown option '%(option)s' (options: %(options)s)",
        # text boards: how many of a kind (a tile, a figure) there are
        "board.count": "%(kind)s %(count)s",
    }
)
