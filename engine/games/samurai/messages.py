"""Samurai's messages to players: every refusal's English template by id, and
the rules and words they name (see `engine.core.messages`)."""

from __future__ import annotations

from engine.core.messages import define, words
from engine.games.samurai.tiles import HAND_SIZE, UNKNOWN

(
    EMPTY_SPACES,
    NO_TILES_ON_SETTLEMENTS,
    SHIPS_AT_SEA,
    FROM_HAND,
    ONE_NORMAL_TILE,
    TOKEN_REPLACES,
    TOKEN_MOVES,
    FIGURE_EXCHANGE,
    NO_TWO_EQUAL,
    ON_SETTLEMENTS,
    EDO_FIRST,
    FIGURE_SUPPLY,
    SLOTS,
    CITIES_FIRST,
    TWO_DIFFERENT,
    COMPLETABLE,
    GAME_PHASE,
    ONE_TILE_PER_TURN,
    OPENING_CHOICE,
    EXCHANGE_TILES,
) = words(
    "tiles go on empty spaces",
    "no tiles on settlements",
    "ships only at sea",
    "tiles from your hand",
    "one normal tile per turn",
    "token exchange replaces one of your tiles",
    "token exchange moves a tile",
    "figure exchange",
    "no two equal figures in a city or Edo",
    "figures go on settlements",
    "Edo is set up first",
    "figure supply",
    "settlement slots",
    "cities before villages",
    "two different figures in a city",
    "the setup must stay completable",
    "game phase",
    "at least one tile per turn",
    "opening choice",
    "exchange tiles",
)
# Figures and tile types appear as parameters, and so does a preview's tile
# not drawn yet.
words("helmet", "buddha", "rice", "samurai", "ronin", "ship", "token-exchange", "figure-exchange")
words(UNKNOWN)
# Another seat's opening choice, as the history shows it until the game is
# over: one word of the game, translated whole.
(SECRET_CHOICE,) = words(f"choose {HAND_SIZE} tiles (secret)")
# The words of a result's score (its keys, spaced: "outside_shogunate").
words("total", "shogun", "outside shogunate")

define(
    {
        # notation
        "samurai.no_space": "there is no space '%(word)s' in play (a space is a column letter "
        "and a row number as on the board, e.g. %(edo)s for Edo)",
        "samurai.not_a_figure": "'%(word)s' is not a figure (figures: %(figures)s)",
        "samurai.not_a_tile": "'%(word)s' is not a tile (tiles: %(tiles)s)",
        "samurai.write": "write '%(shape)s'",
        "samurai.empty_move": "empty move: write a tile and a space, e.g. 'helmet4 N12', or 'end'",
        "samurai.choose_count": "choose exactly %(count)s tiles, e.g. 'choose %(example)s'",
        # phases
        "samurai.phase": "this is %(phase)s",
        "samurai.phase_choose": "the opening: 'choose' five of your tiles",
        "samurai.phase_figures": "the setup: place a figure, e.g. 'figure helmet O10'",
        "samurai.phase_play": "play: lay tiles, e.g. 'helmet4 N12', then 'end'",
        "samurai.play_a_tile": "play at least one tile before ending your turn",
        "samurai.choice": "choose %(count)s of your 20 tiles (a colour has only %(counts)s)",
        "samurai.colour_count": "%(count)s %(tile)s",
        "samurai.exchange_syntax": "write the %(tile)s as in '%(tile)s ...' with its spaces "
        "(see the notation)",
        # tiles
        "samurai.space_taken": "%(space)s already holds a tile",
        "samurai.on_settlement": "%(space)s is a settlement; no tile ever goes on one",
        "samurai.ship_on_land": "%(space)s is land; a ship goes on sea",
        "samurai.land_tile_at_sea": "%(space)s is sea; only ships go on sea",
        "samurai.not_in_hand": "you have no %(tile)s behind your screen",
        "samurai.one_normal": "you already played %(tile)s this turn; only ships, ronin and "
        "figure exchanges may join it",
        "samurai.not_your_tile": "%(space)s holds no tile of yours",
        "samurai.same_space": "the lifted tile must go to another space",
        "samurai.same_settlement": "the two figures must be in different settlements",
        "samurai.no_figure_there": "%(space)s holds no %(figure)s",
        "samurai.two_equal": "%(space)s would hold two %(figure)s figures",
        # setup
        "samurai.not_settlement": "%(space)s is not a settlement",
        "samurai.edo_set": "Edo got one of each figure at the start",
        "samurai.no_figure_left": "no %(figure)s is left to place",
        "samurai.full": "%(space)s is full",
        "samurai.cities_first": "villages come after every city is full (still open: %(spaces)s)",
        "samurai.figure_twice": "%(space)s already holds a %(figure)s",
        "samurai.not_completable": "a %(figure)s on %(space)s would leave too few different "
        "figures to fill the cities",
        # the text board (the letters are the board's symbols, alike in every language)
        "samurai.board_phase": "phase: %(phase)s, turn %(turn)s",
        "samurai.board_phase_choose": "opening choice",
        "samurai.board_phase_figures": "placing figures",
        "samurai.board_phase_play": "play",
        "samurai.board_phase_over": "over",
        "samurai.board_to_place": "figures to place: %(figures)s",
        "samurai.board_set_aside": "set aside: %(figures)s",
        "samurai.board_seat": "seat %(seat)s: tiles in hand %(hand)s, in pile %(pile)s",
        "samurai.board_screen": "seat %(seat)s: tiles in hand %(hand)s, in pile %(pile)s; "
        "hand %(tiles)s; captured %(captured)s",
        # a tile behind the screen, by its name ("helmet4"), a word of the game
        "samurai.board_tile": "%(tile)s",
        "samurai.board_no_tiles": "no tiles",
    }
)
