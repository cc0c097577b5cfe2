"""Taluva's messages to players: every refusal's English template by id, and
the rules and words they name (see `engine.core.messages`)."""

from __future__ import annotations

from engine.core.messages import define, words

# Rules named in refusals; a refusal about a temple or tower names that rule.
(
    BUILDING,
    BUILDING_STOCK,
    NEW_SETTLEMENT,
    EXTENSION,
    FIRST_TILE,
    EXTENDING_ISLAND,
    NO_GAP,
    VOLCANO_ON_VOLCANO,
    VOLCANO_DIRECTION,
    COVERING_BUILDINGS,
    WHOLE_SETTLEMENT,
    HANDEDNESS,
    TILE_THEN_BUILD,
) = words(
    "building",
    "building stock",
    "new settlement",
    "extension",
    "first tile",
    "extending the island",
    "eruption: no gap",
    "eruption: volcano on volcano",
    "eruption: volcano direction",
    "eruption: covering buildings",
    "eruption: whole settlement",
    "tile handedness",
    "turn: tile, then build",
)
# Terrains and buildings appear as parameters.
words("volcano", "jungle", "clearing", "sand", "rock", "lake", "hut", "temple", "tower")
# A trial's drawn tile, whose terrains are not known before the move is sent.
words("unknown")
# A result's score marks a seat out of the game.
words("eliminated")

define(
    {
        # options
        "taluva.tiles_option": "the tiles option is for 2 players; %(players)s use all they need",
        "taluva.teams_option": "the team variant is for 4 players",
        "taluva.teams_and_ranking": "the team and ranking variants do not combine",
        # notation
        "taluva.not_a_space": "'%(word)s' is not a space: spaces are written q,r like 2,-1",
        "taluva.empty_move": "the move is empty: %(help)s",
        "taluva.unknown_move": "unknown move '%(verb)s': %(help)s",
        "taluva.syntax_help": "write one of: 'tile V L R' (volcano, left terrain, right terrain "
        "spaces), 'hut S', 'temple S', 'tower S', 'extend S TERRAIN' — spaces as q,r like 2,-1",
        "taluva.tile_takes_three": "'tile' takes three spaces: volcano, left terrain, "
        "right terrain",
        "taluva.build_takes_one": "'%(verb)s' takes one space, like '%(verb)s 2,-1'",
        "taluva.extend_takes_two": "'extend' takes a space of the settlement and a terrain",
        "taluva.not_a_terrain": "'%(word)s' is not a terrain: jungle, clearing, sand, rock or lake",
        # the turn
        "taluva.tile_laid": "you have laid your tile this turn: now build",
        "taluva.tile_first": "first lay your tile, then build",
        # tiles
        "taluva.not_one_tile": "%(volcano)s, %(left)s and %(right)s are not the three spaces "
        "of one tile: each must touch the other two",
        "taluva.turned_over": "a tile cannot be turned over: seen from the volcano, the left "
        "terrain's space comes just before the right one going clockwise; "
        "'tile %(volcano)s %(right)s %(left)s' covers the same spaces with the terrains the "
        "other way round",
        "taluva.first_tile": "the first tile sets the coordinates: put its volcano on 0,0",
        "taluva.not_touching": "a tile on the table must touch the island by at least one side",
        "taluva.gap_under": "no space may be left empty under a tile: nothing lies under "
        "%(spaces)s",
        "taluva.volcano_on_volcano": "the volcano must lie on a volcano, and %(space)s is "
        "%(terrain)s",
        "taluva.uneven": "all three spaces under a tile must be at one level (%(levels)s)",
        "taluva.level_of": "%(space)s level %(level)s",
        "taluva.volcano_direction": "the volcano on %(space)s must point another way than the "
        "tile it covers",
        "taluva.covers_building": "a %(building)s stands on %(space)s: temples and towers are "
        "never covered",
        "taluva.covers_settlement": "this would cover the whole settlement on %(spaces)s",
        # building
        "taluva.no_land": "there is no land on %(space)s",
        "taluva.on_volcano": "%(space)s is a volcano: nobody builds on a volcano",
        "taluva.occupied": "%(space)s already holds a %(building)s",
        "taluva.none_left": "you have no %(building)s left",
        "taluva.temple_not_next": "a temple must stand next to one of your settlements, and "
        "%(space)s does not",
        "taluva.tower_not_next": "a tower must stand next to one of your settlements, and "
        "%(space)s does not",
        "taluva.temple_settlement": "a temple needs one of your settlements of at least "
        "%(size)s spaces with no temple next to %(space)s",
        "taluva.tower_level": "a tower stands on level %(least)s or higher, and %(space)s is "
        "level %(level)s",
        "taluva.tower_taken": "every settlement of yours next to %(space)s already has a tower",
        "taluva.settlement_level": "a new settlement starts on level 1, and %(space)s is "
        "level %(level)s",
        "taluva.settlement_alone": "%(space)s touches one of your buildings: a new settlement "
        "must stand alone (to grow a settlement, extend it)",
        "taluva.no_settlement": "you have no settlement on %(space)s to extend",
        "taluva.nothing_to_extend": "there is no empty %(terrain)s next to your settlement on "
        "%(space)s",
        "taluva.huts_short": "extending onto %(terrain)s needs %(needed)s huts (%(spaces)s, "
        "one per level) and you have %(huts)s",
        # the text board (the letters are the board's symbols, alike in every language)
        "taluva.board_key": "terrain+level: V volcano, J jungle, C clearing, S sand, R rock, "
        "L lake; buildings: seat number + h hut (count), T temple, W tower",
        "taluva.board_empty": "no tile on the table yet: the first volcano goes on 0,0",
        "taluva.board_pile": "tiles left in the pile: %(tiles)s",
        "taluva.board_seat": "%(marker)s seat %(seat)s in stock: huts %(huts)s, temples "
        "%(temples)s, towers %(towers)s",
        "taluva.board_eliminated": "  seat %(seat)s is eliminated",
        "taluva.board_finished": "  seat %(seat)s has finished (placed two whole kinds)",
        "taluva.board_to_lay": "seat %(seat)s to lay a tile",
        "taluva.board_to_build": "seat %(seat)s to build",
        "taluva.board_your_tile": "your tile: volcano, %(left)s, %(right)s",
        "taluva.board_left": "%(terrain)s on the left",
        "taluva.board_right": "%(terrain)s on the right",
    }
)
