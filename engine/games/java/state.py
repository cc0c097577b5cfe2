"""The Java ruleset: setup, action-point turns, the festival auction, the end.

Every action is one move. `check` names the rule a move breaks; `apply`
carries it out with its automatic effects (pond scoring, auction seats moved
on, the turn's end after a festival, each player's final scoring).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, assert_never

from engine.core.errors import IllegalMove
from engine.core.messages import Message, words
from engine.core.registry import register
from engine.core.rng import SeededRandom
from engine.core.state import Result, State
from engine.core.textboard import TextBoard
from engine.games.java import cards, legal, notation, picture, view
from engine.games.java import messages as m
from engine.games.java.board import SPACES, edge_cost
from engine.games.java.festival import Auction, FestivalHeld, festival_points
from engine.games.java.land import Land, Palace
from engine.games.java.notation import (
    DECK,
    FACEUP,
    Agree,
    Build,
    Draw,
    EndTurn,
    Enlarge,
    Enter,
    Festival,
    Irrigate,
    Leave,
    Move,
    MoveDeveloper,
    Pass,
    PlaceTile,
    PlayCards,
    TakeToken,
)
from engine.games.java.positions import strict_winner
from engine.games.java.scoring import POND_POINTS_PER_SPACE, final_scoring, pond_scorer
from engine.games.java.tiles import (
    ACTION_TOKENS,
    AP_PER_TURN,
    CARDS_PER_TURN,
    DEVELOPERS,
    HAND_SIZE,
    IRRIGATION_TILES,
    OWN_TILES,
    PALACES,
    TRIPLE,
    TRIPLES,
)

EDGE_MESSAGES = {"enter": "java.edge_enter", "leave": "java.edge_leave"}

# How a game ends, as its result says it (game words: a server translates them).
LAST_TRIPLE, LAND_GONE = words("last triple tile placed", "no land tile fits any more")


@register
class JavaState(State[Move]):
    name = "java"
    version = 1
    title = "Java"
    min_players = 2
    max_players = 4
    # Every other action costs at least 1 AP (6, one more with the token);
    # then the token itself and `end` or a festival. A walk that changes no
    # colour is free: allow each developer two of them (before and after tiles).
    max_turn_moves = (AP_PER_TURN + 1) + 1 + 1 + 2 * DEVELOPERS
    vocabularies = (notation.VERBS, notation.OTHER_WORDS, notation.CARD_WORDS)
    opening_words = (notation.VERBS,)

    def __init__(self, players: int, seed: str, options: Mapping[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.rng = SeededRandom(seed, "festival cards")
        deck = cards.full_deck()
        self.rng.shuffle(deck)
        self.hands: list[list[str]] = [
            list(cards.sort_cards(deck.pop() for _ in range(HAND_SIZE))) for _ in range(players)
        ]
        self.faceup: str | None = deck.pop()
        self.deck: list[str] = deck  # top card last; never shown
        self.discards: list[str] = []
        self.land = Land()
        self.triples = TRIPLES
        self.triples_set_aside = 0
        self.irrigation_left = IRRIGATION_TILES
        self.palace_supply = dict(PALACES)
        self.own_tiles = [dict(OWN_TILES) for _ in range(players)]
        self.off_board = [DEVELOPERS] * players
        self.tokens = [ACTION_TOKENS] * players
        self.scores = [0] * players
        self.current = SeededRandom(seed, "start player").randbelow(players)
        self.turn_number = 1
        self.ap_left = AP_PER_TURN
        self.tile_placed = False
        self.cards_drawn = 0
        self.token_used = False
        self.auction: Auction | None = None
        self.festivals: list[FestivalHeld] = []  # every auction's end, in order
        self.final_scored: list[int] = []
        self.events: list[str] = []

    # -- turn facts -------------------------------------------------------

    @property
    def final_round(self) -> bool:
        """No triple left: each player's last turn, without the tile duty."""
        return self.triples == 0

    @property
    def duty_pending(self) -> bool:
        return not self.tile_placed and not self.final_round

    @property
    def budget(self) -> int:
        """AP other actions may spend: one stays for the mandatory land tile."""
        return self.ap_left - (1 if self.duty_pending else 0)

    def has_tile(self, seat: int, kind: str) -> bool:
        if kind == TRIPLE:
            return self.triples > 0
        return self.own_tiles[seat][kind] > 0

    # -- State interface --------------------------------------------------

    def to_act(self) -> frozenset[int]:
        if len(self.final_scored) == self.players:
            return frozenset()
        if self.auction is not None:
            return frozenset({self.auction.current})
        return frozenset({self.current})

    def turn_goes_on(self, seat: int) -> bool:
        """Every action of a turn spends AP or marks the turn (tile, cards, token)."""
        fresh = (self.ap_left, self.tile_placed, self.cards_drawn, self.token_used) == (
            AP_PER_TURN,
            False,
            0,
            False,
        )
        return self.auction is None and seat == self.current and not fresh and not self.is_over()

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        return legal.moves(self, seat)

    def spends_reserve(self, seat: int, move: Move) -> bool:
        """What a Java player saves for the turns of their choice: the action
        tokens (an extra AP, three a game), the festival cards gathered over
        turns (opening a festival or bidding spends them; agreeing or passing
        does not) and the own land tiles (ten a game, for the right place),
        while a triple from the common supply would do the turn's duty."""
        match move:
            case TakeToken() | Festival() | PlayCards():
                return True
            case PlaceTile(kind=kind):
                return kind != TRIPLE and legal.triple_fits(self)
        return False

    def parse_syntax(self, seat: int, text: str) -> Move:
        return notation.parse(text)

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def check(self, seat: int, move: Move) -> None:
        in_auction = isinstance(move, PlayCards | Agree | Pass)
        if in_auction and self.auction is None:
            raise IllegalMove.of("java.no_auction", rule=m.FESTIVAL)
        if not in_auction and self.auction is not None:
            raise IllegalMove.of("java.auction_on", rule=m.FESTIVAL)
        match move:
            case PlaceTile():
                self._check_PlaceTile(seat, move)
            case Enter():
                self._check_Enter(seat, move)
            case Leave():
                self._check_Leave(seat, move)
            case MoveDeveloper():
                self._check_MoveDeveloper(seat, move)
            case Build():
                self._check_Build(seat, move)
            case Enlarge():
                self._check_Enlarge(seat, move)
            case Irrigate():
                self._check_Irrigate(seat, move)
            case Draw():
                self._check_Draw(seat, move)
            case TakeToken():
                self._check_TakeToken(seat, move)
            case Festival():
                self._check_Festival(seat, move)
            case PlayCards():
                self._check_PlayCards(seat, move)
            case Agree():
                self._check_Agree(seat, move)
            case Pass():
                self._check_Pass(seat, move)
            case EndTurn():
                self._check_EndTurn(seat, move)
            case _:
                assert_never(move)

    def apply(self, seat: int, move: Move) -> None:
        match move:
            case PlaceTile():
                self._apply_PlaceTile(seat, move)
            case Enter():
                self._apply_Enter(seat, move)
            case Leave():
                self._apply_Leave(seat, move)
            case MoveDeveloper():
                self._apply_MoveDeveloper(seat, move)
            case Build():
                self._apply_Build(seat, move)
            case Enlarge():
                self._apply_Enlarge(seat, move)
            case Irrigate():
                self._apply_Irrigate(seat, move)
            case Draw():
                self._apply_Draw(seat, move)
            case TakeToken():
                self._apply_TakeToken(seat, move)
            case Festival():
                self._apply_Festival(seat, move)
            case PlayCards():
                self._apply_PlayCards(seat, move)
            case Agree():
                self._apply_Agree(seat, move)
            case Pass():
                self._apply_Pass(seat, move)
            case EndTurn():
                self._apply_EndTurn(seat, move)
            case _:
                assert_never(move)

    def announcements(self, seats: Sequence[str]) -> list[Message]:
        """Every festival auction's outcome: the seats it dropped automatically
        were not asked again, and the others may have been away."""
        return [held.told(seats) for held in self.festivals]

    def explained(
        self, error: IllegalMove, seat: int, text: str, seats: Sequence[str]
    ) -> IllegalMove:
        """An answer to an auction that has ended says how it ended: a seat
        the auction dropped because it could not match was never asked again."""
        if self.auction is not None or not self.festivals:
            return error
        try:
            move = self.parse_syntax(seat, text)
        except IllegalMove:
            return error
        if not isinstance(move, PlayCards | Agree | Pass):
            return error
        outcome = self.festivals[-1].told(seats)
        return IllegalMove.of("java.auction_over", rule=m.FESTIVAL, outcome=outcome)

    def result(self) -> Result | None:
        if len(self.final_scored) < self.players:
            return None
        order = sorted(set(self.scores), reverse=True)
        ranking = tuple(
            tuple(s for s in range(self.players) if self.scores[s] == points) for points in order
        )
        reason = LAND_GONE if self.triples_set_aside else LAST_TRIPLE
        return Result(ranking, tuple({"points": p} for p in self.scores), reason)

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        return view.seat_view(self, seat)

    def text_board(self, seat: int | None) -> TextBoard:
        return picture.text_board(self, seat)

    def redeal_unseen(self, seat: int, rng: SeededRandom) -> None:
        """The deck and the other hands are one face-down pool to the seat
        (the face-up card and the discards are public); the deck's later
        reshuffles follow a stream drawn from `rng`."""
        others = [s for s in range(self.players) if s != seat]
        pool = list(cards.sort_cards([*self.deck, *(c for s in others for c in self.hands[s])]))
        rng.shuffle(pool)
        for s in others:
            size = len(self.hands[s])
            self.hands[s] = list(cards.sort_cards(pool[:size]))
            del pool[:size]
        self.deck = pool
        self.rng = SeededRandom(str(rng.randbelow(1 << 62)), "festival cards")

    # -- costs shared by check and legal ----------------------------------

    def action_points(self, seat: int) -> int | None:
        if self.auction is not None or seat != self.current or self.is_over():
            return None
        return self.ap_left

    def action_cost(self, move: Move) -> int:
        """AP a checked move spends: what its apply takes (the token gives one)."""
        match move:
            case PlaceTile(cells=cells):
                return self.tile_cost(cells)
            case Enter(cell=cell) | Leave(cell=cell):
                return edge_cost(cell) or 0
            case MoveDeveloper(source=source, target=target):
                return self.land.move_costs(source)[target]
            case Build() | Enlarge() | Irrigate() | Draw():
                return 1
            case TakeToken():
                return -1
        return 0

    def tile_cost(self, cells: tuple[str, ...]) -> int:
        return 1 + self.land.overhang(cells)

    def _spend(self, cost: int, budget: int, what: Message) -> None:
        if cost > budget:
            code = "java.over_budget_reserve" if self.duty_pending else "java.over_budget"
            raise IllegalMove.of(code, rule=m.ACTION_POINTS, what=what, cost=cost, budget=budget)

    # -- land tiles -------------------------------------------------------

    def _check_PlaceTile(self, seat: int, move: PlaceTile) -> None:
        irrigated = self.land.irrigation_problem(move.cells)
        if irrigated:  # printed irrigation is no land space: say what it is
            raise irrigated
        size = len(move.cells)
        fps = legal.footprint_set(size)
        if move.cells not in fps:
            shape = {1: "java.shape_single", 2: "java.shape_double", 3: "java.shape_triple"}[size]
            raise IllegalMove.of(
                shape, rule=m.TILE_SHAPE, kind=move.kind, spaces=" ".join(move.cells)
            )
        if not self.has_tile(seat, move.kind):
            raise IllegalMove.of("java.no_tile_left", rule=m.SUPPLY, kind=move.kind)
        problem = self.land.tile_problem(move.cells)
        if problem:
            raise problem
        self._spend(self.tile_cost(move.cells), self.ap_left, Message("java.cost_tile"))
        if self.land.joins_cities(move.kind, move.cells, move.village):
            raise IllegalMove.of("java.joins_cities", rule=m.CITIES, spaces=" ".join(move.cells))

    def _apply_PlaceTile(self, seat: int, move: PlaceTile) -> None:
        self.ap_left -= self.action_cost(move)
        if move.kind == TRIPLE:
            self.triples -= 1
        else:
            self.own_tiles[seat][move.kind] -= 1
        self.land.lay(move.kind, move.cells, move.village)
        self.tile_placed = True
        self._score_ponds(move.cells)

    def _score_ponds(self, near: tuple[str, ...]) -> None:
        for pond in self.land.closed_ponds(near):
            self.land.scored_ponds |= pond
            spaces = " ".join(sorted(pond))
            winner = pond_scorer(self.land, pond)
            if winner is None:
                self.events.append(f"pond {spaces} closed: no highest position, no points")
                continue
            points = POND_POINTS_PER_SPACE * len(pond)
            self.scores[winner] += points
            self.events.append(f"pond {spaces} closed: seat {winner + 1} scores {points}")

    # -- developers -------------------------------------------------------

    def _check_Enter(self, seat: int, move: Enter) -> None:
        if self.off_board[seat] == 0:
            raise IllegalMove.of("java.all_on_board", rule=m.DEVELOPERS)
        cost = self._edge(move.cell, "enter")
        if not self.land.free_for_developer(move.cell):
            raise IllegalMove.of("java.taken", rule=m.ONE_PER_SPACE, space=move.cell)
        self._spend(cost, self.budget, Message("java.cost_enter", {"space": move.cell}))

    def _apply_Enter(self, seat: int, move: Enter) -> None:
        self.ap_left -= self.action_cost(move)
        self.off_board[seat] -= 1
        self.land.developers[move.cell] = seat

    def _check_Leave(self, seat: int, move: Leave) -> None:
        if self.land.developers.get(move.cell) != seat:
            raise IllegalMove.of("java.no_developer", rule=m.DEVELOPERS, space=move.cell)
        self._spend(
            self._edge(move.cell, "leave"),
            self.budget,
            Message("java.cost_leave", {"space": move.cell}),
        )

    def _apply_Leave(self, seat: int, move: Leave) -> None:
        self.ap_left -= self.action_cost(move)
        self.off_board[seat] += 1
        del self.land.developers[move.cell]

    def _edge(self, cell: str, verb: str) -> int:
        cost = self.land.entry_cost(cell)
        if cost is None:
            where = "java.where_tile" if cell not in self.land.level else "java.where_edge"
            raise IllegalMove.of(
                EDGE_MESSAGES[verb], rule=m.ENTER_LEAVE, space=cell, where=Message(where)
            )
        return cost

    def _check_MoveDeveloper(self, seat: int, move: MoveDeveloper) -> None:
        if self.land.developers.get(move.source) != seat:
            raise IllegalMove.of("java.no_developer", rule=m.DEVELOPERS, space=move.source)
        if move.target == move.source:
            raise IllegalMove.of("java.same_space", rule=m.MOVEMENT)
        if move.target not in self.land.level:
            raise IllegalMove.of("java.no_land_tile", rule=m.MOVEMENT, space=move.target)
        if not self.land.free_for_developer(move.target):
            raise IllegalMove.of("java.taken", rule=m.ONE_PER_SPACE, space=move.target)
        cost = self.land.move_costs(move.source).get(move.target)
        if cost is None:
            raise IllegalMove.of(
                "java.no_path", rule=m.MOVEMENT, source=move.source, target=move.target
            )
        self._spend(cost, self.budget, Message("java.cost_move", {"changes": cost}))

    def _apply_MoveDeveloper(self, seat: int, move: MoveDeveloper) -> None:
        self.ap_left -= self.action_cost(move)
        del self.land.developers[move.source]
        self.land.developers[move.target] = seat

    # -- palaces ----------------------------------------------------------

    def _check_palace_value(self, seat: int, value: int, area: set[str], cell: str) -> None:
        if value > len(area):
            raise IllegalMove.of(
                "java.palace_too_big", rule=m.PALACE_VALUE, value=value, space=cell, size=len(area)
            )
        if self.palace_supply[value] == 0:
            raise IllegalMove.of("java.no_palace_left", rule=m.SUPPLY, value=value)
        if strict_winner(self.land.positions(area)) != seat:
            raise IllegalMove.of("java.not_highest", rule=m.HIGHEST_POSITION, space=cell)
        self._spend(1, self.budget, Message("java.cost_palace"))

    def _check_Build(self, seat: int, move: Build) -> None:
        if not self.land.is_village(move.cell):
            raise IllegalMove.of("java.not_village", rule=m.PALACE, space=move.cell)
        if not self.land.free_for_developer(move.cell):
            raise IllegalMove.of("java.not_empty", rule=m.PALACE, space=move.cell)
        area = self.land.village_area(move.cell)
        existing = self.land.palace_of(area)
        if existing:
            raise IllegalMove.of("java.has_palace", rule=m.ONE_PALACE, space=existing)
        self._check_palace_value(seat, move.value, area, move.cell)

    def _apply_Build(self, seat: int, move: Build) -> None:
        self.ap_left -= self.action_cost(move)
        self.land.palaces[move.cell] = Palace([move.value], changed_turn=self.turn_number)
        self._take_palace(seat, move.value)

    def _check_Enlarge(self, seat: int, move: Enlarge) -> None:
        palace = self.land.palaces.get(move.cell)
        if palace is None:
            raise IllegalMove.of("java.no_palace", rule=m.PALACE, space=move.cell)
        if move.value <= palace.value:
            raise IllegalMove.of(
                "java.palace_worth", rule=m.PALACE_VALUE, space=move.cell, value=palace.value
            )
        if palace.changed_turn == self.turn_number:
            raise IllegalMove.of("java.palace_changed", rule=m.ONCE_PER_TURN, space=move.cell)
        self._check_palace_value(seat, move.value, self.land.village_area(move.cell), move.cell)

    def _apply_Enlarge(self, seat: int, move: Enlarge) -> None:
        self.ap_left -= self.action_cost(move)
        palace = self.land.palaces[move.cell]
        palace.values.append(move.value)
        palace.festival = False
        palace.changed_turn = self.turn_number
        self._take_palace(seat, move.value)

    def _take_palace(self, seat: int, value: int) -> None:
        self.palace_supply[value] -= 1
        self.scores[seat] += value // 2

    # -- irrigation, cards, token -----------------------------------------

    def _check_Irrigate(self, seat: int, move: Irrigate) -> None:
        space = SPACES[move.cell]
        if space.ring or space.border:
            raise IllegalMove.of("java.irrigation_edge", rule=m.IRRIGATION, space=move.cell)
        if move.cell in self.land.irrigation:
            raise IllegalMove.of("java.already_irrigation", rule=m.IRRIGATION, space=move.cell)
        if move.cell in self.land.level:
            raise IllegalMove.of("java.irrigation_on_tile", rule=m.IRRIGATION, space=move.cell)
        if self.irrigation_left == 0:
            raise IllegalMove.of("java.no_irrigation_left", rule=m.SUPPLY)
        self._spend(1, self.budget, Message("java.cost_irrigation"))

    def _apply_Irrigate(self, seat: int, move: Irrigate) -> None:
        self.ap_left -= self.action_cost(move)
        self.irrigation_left -= 1
        self.land.irrigation.add(move.cell)
        self._score_ponds((move.cell,))

    def _check_Draw(self, seat: int, move: Draw) -> None:
        if self.cards_drawn >= CARDS_PER_TURN:
            raise IllegalMove.of("java.two_cards", rule=m.CARDS)
        if move.source == FACEUP and self.faceup is None:
            raise IllegalMove.of("java.no_faceup", rule=m.CARDS)
        if move.source == DECK and not (self.deck or self.discards):
            raise IllegalMove.of("java.deck_empty", rule=m.CARDS)
        self._spend(1, self.budget, Message("java.cost_card"))

    def _apply_Draw(self, seat: int, move: Draw) -> None:
        self.ap_left -= self.action_cost(move)
        self.cards_drawn += 1
        if move.source == FACEUP:
            drawn, self.faceup = self.faceup, self._top_card()
        else:
            drawn = self._top_card()
        assert drawn is not None
        self.hands[seat] = list(cards.sort_cards([*self.hands[seat], drawn]))

    def _top_card(self) -> str | None:
        """The deck's top card; an empty deck is first refilled from the discards."""
        if not self.deck:
            self.deck, self.discards = self.discards, []
            self.rng.shuffle(self.deck)
        return self.take_hidden(self.deck, cards.UNKNOWN) if self.deck else None

    def _check_TakeToken(self, seat: int, move: TakeToken) -> None:
        if self.token_used:
            raise IllegalMove.of("java.one_token", rule=m.ACTION_TOKEN)
        if self.tokens[seat] == 0:
            raise IllegalMove.of("java.no_token", rule=m.ACTION_TOKEN)

    def _apply_TakeToken(self, seat: int, move: TakeToken) -> None:
        self.tokens[seat] -= 1
        self.token_used = True
        self.ap_left -= self.action_cost(move)

    # -- festival ---------------------------------------------------------

    def _check_cards(self, seat: int, played: tuple[str, ...], at_least: int) -> None:
        if self.faceup is None:
            raise IllegalMove.of("java.no_requirement", rule=m.FESTIVAL)
        hand = list(self.hands[seat])
        for card in played:
            if card not in hand:
                raise IllegalMove.of("java.card_not_held", rule=m.FESTIVAL_CARDS, card=card)
            hand.remove(card)
            if cards.value(card, self.faceup) == 0:
                raise IllegalMove.of(
                    "java.card_useless", rule=m.FESTIVAL_CARDS, card=card, faceup=self.faceup
                )
        worth = cards.total(played, self.faceup)
        if worth < at_least:
            raise IllegalMove.of(
                "java.cards_worth", rule=m.FESTIVAL_AUCTION, worth=worth, needed=at_least
            )

    def _check_Festival(self, seat: int, move: Festival) -> None:
        palace = self.land.palaces.get(move.cell)
        if palace is None:
            raise IllegalMove.of("java.no_palace", rule=m.FESTIVAL, space=move.cell)
        if palace.festival:
            raise IllegalMove.of("java.festival_held", rule=m.FESTIVAL_ONCE, space=move.cell)
        if self.duty_pending:
            raise IllegalMove.of("java.festival_ends_turn", rule=m.LAND_TILE_DUTY)
        if seat not in self.land.positions(self.land.village_area(move.cell)):
            raise IllegalMove.of("java.not_in_city", rule=m.FESTIVAL, space=move.cell)
        self._check_cards(seat, move.cards, 1)

    def _apply_Festival(self, seat: int, move: Festival) -> None:
        city = self.land.village_area(move.cell)
        present = self.land.positions(city)
        order = [
            s
            for s in ((seat + k) % self.players for k in range(self.players))
            if s == seat or (s in present and cards.best_total(self.hands[s], self.faceup) > 0)
        ]
        self.auction = Auction(
            move.cell, seat, order, dict.fromkeys(order, 0), list(order), current=seat
        )
        self._play(seat, move.cards)

    def _play(self, seat: int, played: tuple[str, ...]) -> None:
        assert self.auction is not None and self.faceup is not None
        for card in played:
            self.hands[seat].remove(card)
        self.auction.play(seat, played, self.faceup)
        self._advance()

    def _advance(self) -> None:
        auction = self.auction
        assert auction is not None
        auction.advance(lambda s, worth: cards.best_total(self.hands[s], self.faceup) >= worth)
        if auction.winners is None:
            return
        palace = self.land.palaces[auction.palace]
        shared = len(auction.winners) > 1
        points = festival_points(palace.value, shared)
        for s in auction.winners:
            self.scores[s] += points
        palace.festival = True
        self.festivals.append(
            FestivalHeld(auction.palace, tuple(auction.winners), points, tuple(auction.unable))
        )
        self.discards.extend(auction.played)
        how = "shared by seats" if shared else "held alone by seat"
        self.events.append(
            f"festival at {auction.palace} {how} {', '.join(str(w + 1) for w in auction.winners)}: "
            f"{points} points each"
        )
        self.auction = None
        self._end_turn()

    def _check_PlayCards(self, seat: int, move: PlayCards) -> None:
        assert self.auction is not None
        self._check_cards(seat, move.cards, self.auction.needed(seat))

    def _apply_PlayCards(self, seat: int, move: PlayCards) -> None:
        self._play(seat, move.cards)

    def _check_Agree(self, seat: int, move: Agree) -> None:
        assert self.auction is not None
        if not self.auction.is_level(seat):
            raise IllegalMove.of(
                "java.below_highest", rule=m.FESTIVAL_AUCTION, highest=self.auction.highest
            )

    def _apply_Agree(self, seat: int, move: Agree) -> None:
        assert self.auction is not None
        self.auction.agree(seat)
        self._advance()

    def _check_Pass(self, seat: int, move: Pass) -> None:
        assert self.auction is not None
        if self.auction.is_level(seat):
            raise IllegalMove.of("java.level_highest", rule=m.FESTIVAL_AUCTION)

    def _apply_Pass(self, seat: int, move: Pass) -> None:
        assert self.auction is not None
        self.auction.drop(seat)
        self._advance()

    # -- end of turn and game ---------------------------------------------

    def _check_EndTurn(self, seat: int, move: EndTurn) -> None:
        if self.duty_pending and legal.tile_moves(self, seat):
            raise IllegalMove.of("java.tile_duty", rule=m.LAND_TILE_DUTY)

    def _apply_EndTurn(self, seat: int, move: EndTurn) -> None:
        self._end_turn()

    def _end_turn(self) -> None:
        if not self.final_round and legal.land_frozen(self):
            self._set_triples_aside()
        if self.final_round:
            self._final_scoring(self.current)
            if len(self.final_scored) == self.players:
                return
        self.current = (self.current + 1) % self.players
        self.turn_number += 1
        self.ap_left = AP_PER_TURN
        self.tile_placed = False
        self.cards_drawn = 0
        self.token_used = False

    def _set_triples_aside(self) -> None:
        """No land tile can ever be laid again: the end begins as if this turn
        had laid the last triple, so the game cannot go on for ever."""
        self.triples_set_aside, self.triples = self.triples, 0
        self.events.append(
            f"no land tile fits anywhere any more: the {self.triples_set_aside} triple tiles "
            f"left are set aside and the final turns begin"
        )

    def _final_scoring(self, seat: int) -> None:
        scored = final_scoring(self.land, seat)
        total = sum(s.points for s in scored)
        self.scores[seat] += total
        self.final_scored.append(seat)
        detail = ", ".join(f"{s.palace} {s.points}" for s in scored) or "no city"
        self.events.append(f"final scoring of seat {seat + 1}: {total} points ({detail})")
