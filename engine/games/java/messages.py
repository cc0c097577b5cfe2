"""Java's messages to players: every refusal's English template by id, and
the rules and words they name (see `engine.core.messages`)."""

from __future__ import annotations

from engine.core.messages import define, words

(
    SYNTAX,
    FESTIVAL,
    ACTION_POINTS,
    TILE_SHAPE,
    SUPPLY,
    CITIES,
    STACKING,
    DEVELOPERS,
    ONE_PER_SPACE,
    ENTER_LEAVE,
    MOVEMENT,
    PALACE_VALUE,
    HIGHEST_POSITION,
    PALACE,
    ONE_PALACE,
    ONCE_PER_TURN,
    IRRIGATION,
    CARDS,
    ACTION_TOKEN,
    FESTIVAL_CARDS,
    FESTIVAL_AUCTION,
    FESTIVAL_ONCE,
    LAND_TILE_DUTY,
) = words(
    "move syntax",
    "festival",
    "action points",
    "tile shape",
    "supply",
    "cities",
    "stacking",
    "developers",
    "one developer per space",
    "enter and leave",
    "movement",
    "palace value",
    "highest position",
    "palace",
    "one palace per city",
    "once per palace per turn",
    "irrigation",
    "cards",
    "action token",
    "festival cards",
    "festival auction",
    "festival once per palace level",
    "mandatory land tile",
)
# Tile kinds appear as parameters; a result's score names its points.
words("triple", "double", "rice", "village")
words("points")

define(
    {
        # notation
        "java.not_a_space": "'%(word)s' is not a space of the board (spaces look like F3)",
        "java.not_a_card": "'%(word)s' is not a festival card (write M, D, P, MD, MP or DP)",
        "java.symbol_twice": "'%(word)s' names a symbol twice",
        "java.name_cards": "name the cards you play, e.g. 'play M MD'",
        "java.palace_values": "a palace is worth 2, 4, 6, 8 or 10, not '%(word)s'",
        "java.village_once": "write village=SPACE once, not '%(word)s'",
        "java.tile_spaces": "a %(kind)s tile covers %(size)s different spaces",
        "java.which_village": "say which space of the %(kind)s is the village: village=F4",
        "java.village_not_on_tile": "the village %(space)s is not one of the tile's spaces",
        "java.single_no_village": "a single %(kind)s tile takes no village=",
        "java.write": "write '%(usage)s'",
        "java.empty_move": "empty move",
        "java.draw_from": "draw from 'faceup' or 'deck'",
        "java.festival_usage": "write 'festival G5 M MD': the palace and your opening cards",
        "java.unknown_move": "unknown move '%(word)s' (moves: triple, double, rice, village, "
        "enter, leave, move, build, enlarge, irrigate, draw, token, festival, play, agree, "
        "pass, end)",
        # the turn and its action points
        "java.no_auction": "there is no festival auction going on",
        "java.auction_over": "the festival auction is over: %(outcome)s",
        "java.festival_alone": "the festival at %(space)s went to %(winner)s alone, scoring "
        "%(points)s",
        "java.festival_shared": "the festival at %(space)s was shared by %(winners)s, scoring "
        "%(points)s each",
        "java.festival_unable": "%(outcome)s; %(seats)s could not match the highest total",
        "java.auction_on": "a festival auction is going on: play cards, agree or pass",
        "java.over_budget": "%(what)s costs %(cost)s AP and you have %(budget)s to spend",
        "java.over_budget_reserve": "%(what)s costs %(cost)s AP and you have %(budget)s to "
        "spend (1 AP stays for your land tile)",
        "java.cost_tile": "this tile",
        "java.cost_enter": "entering at %(space)s",
        "java.cost_leave": "leaving from %(space)s",
        "java.cost_move": "this move (%(changes)s colour changes)",
        "java.cost_palace": "a palace",
        "java.cost_irrigation": "irrigation",
        "java.cost_card": "a card",
        # land tiles
        "java.shape_single": "a %(kind)s tile covers one land space of central Java (single "
        "tiles never overhang), not %(spaces)s",
        "java.shape_double": "a %(kind)s tile covers two adjacent spaces, one at least in "
        "central Java, not %(spaces)s",
        "java.shape_triple": "a %(kind)s tile covers three mutually adjacent spaces, one at "
        "least in central Java, not %(spaces)s",
        "java.no_tile_left": "you have no %(kind)s tile left",
        "java.joins_cities": "the tile at %(spaces)s would join two cities",
        "java.irrigation_covered": "%(space)s is irrigation, which is never covered",
        "java.developer_under": "a developer stands on %(space)s",
        "java.palace_under": "a palace stands on %(space)s",
        "java.not_flat": "the tile would not lie flat on %(spaces)s (levels %(levels)s)",
        "java.same_size_under": "the tile would lie exactly on a tile of the same size at "
        "%(spaces)s",
        # developers
        "java.all_on_board": "all your developers are on the board",
        "java.taken": "%(space)s is taken",
        "java.no_developer": "you have no developer on %(space)s",
        "java.edge_enter": "developers enter only on a land tile at the edge of central Java "
        "or on an overhanging tile; %(space)s is not %(where)s",
        "java.edge_leave": "developers leave only on a land tile at the edge of central Java "
        "or on an overhanging tile; %(space)s is not %(where)s",
        "java.where_tile": "a land tile",
        "java.where_edge": "the edge of central Java",
        "java.same_space": "a move must end on another space",
        "java.no_land_tile": "developers move only on land tiles, %(space)s has none",
        "java.no_path": "no path from %(source)s to %(target)s over land tiles avoiding "
        "palaces and opponents' developers",
        # palaces
        "java.palace_too_big": "a palace of %(value)s needs a village of %(value)s spaces; "
        "%(space)s's has %(size)s",
        "java.no_palace_left": "no palace of %(value)s is left",
        "java.not_highest": "you do not hold the highest position in %(space)s's village",
        "java.not_village": "palaces stand on village spaces; %(space)s is not one",
        "java.not_empty": "%(space)s is not empty",
        "java.has_palace": "this city already has its palace on %(space)s (enlarge it instead)",
        "java.no_palace": "there is no palace on %(space)s",
        "java.palace_worth": "the palace on %(space)s is already worth %(value)s",
        "java.palace_changed": "the palace on %(space)s was already built or enlarged this turn",
        # irrigation
        "java.irrigation_edge": "irrigation goes inside central Java, not on the edge (%(space)s)",
        "java.already_irrigation": "%(space)s is already irrigation",
        "java.irrigation_on_tile": "irrigation lies on the board, never on a tile (%(space)s)",
        "java.no_irrigation_left": "no irrigation tile is left",
        # cards and tokens
        "java.two_cards": "you may draw at most 2 cards per turn",
        "java.no_faceup": "there is no face-up card",
        "java.deck_empty": "the deck and the discards are empty",
        "java.one_token": "one action token per turn",
        "java.no_token": "you have no action token left",
        # festivals
        "java.no_requirement": "no face-up card sets a requirement",
        "java.card_not_held": "you do not hold the card %(card)s",
        "java.card_useless": "%(card)s shares no symbol with the face-up card %(faceup)s",
        "java.cards_worth": "your cards are worth %(worth)s; you need %(needed)s",
        "java.festival_held": "the palace on %(space)s has had its festival; enlarge it first",
        "java.festival_ends_turn": "a festival ends your turn: place your land tile first",
        "java.not_in_city": "you have no developer in %(space)s's city",
        "java.below_highest": "you are below the highest total %(highest)s: play cards or pass",
        "java.level_highest": "you are level with the highest total: agree or raise",
        "java.tile_duty": "you must place at least one land tile this turn",
        # the text board (the letters are the board's symbols, alike in every language)
        "java.board_key": "key: level and r rice / v village; #N developer of seat N; PV palace "
        "of value V (* festival held); ~ irrigation; ^^^ mountains; ___ lowlands",
        "java.board_seat": "%(marker)s seat %(seat)s: points %(points)s; tiles %(tiles)s; "
        "developers off board %(developers)s, action tokens %(tokens)s, cards %(cards)s",
        "java.board_supply": "supply: triples %(triples)s, irrigation %(irrigation)s; face-up "
        "card %(faceup)s, deck %(deck)s; action points left %(ap)s",
        "java.board_hand": "your hand: %(cards)s",
        "java.board_no_hand": "your hand: (empty)",
        "java.board_hand_drawn": "your hand: %(cards)s; cards drawn from the deck, known once "
        "the move is sent: %(drawn)s",
        "java.board_festival": "festival at %(space)s: %(bids)s; seat %(seat)s decides",
        "java.board_bid": "seat %(seat)s %(total)s",
        "java.board_card_unknown": "not known before the move is sent",
    }
)
