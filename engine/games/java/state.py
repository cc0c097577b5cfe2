"""The Java ruleset: setup, action-point turns, the festival auction, the end.

Every action is one move. `check` names the rule a move breaks; `apply`
carries it out with its automatic effects (pond scoring, auction seats moved
on, the turn's end after a festival, each player's final scoring).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import IllegalMove
from engine.core.registry import register
from engine.core.rng import SeededRandom
from engine.core.state import Result, State
from engine.games.java import cards, legal, notation, picture, view
from engine.games.java.board import SPACES, edge_cost
from engine.games.java.festival import Auction, festival_points
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


@register
class JavaState(State):
    name = "java"
    version = 1
    title = "Java"
    min_players = 2
    max_players = 4
    # Every other action costs at least 1 AP (6, one more with the token);
    # then the token itself and `end` or a festival. A walk that changes no
    # colour is free: allow each developer two of them (before and after tiles).
    max_turn_moves = (AP_PER_TURN + 1) + 1 + 1 + 2 * DEVELOPERS

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

    def parse_syntax(self, seat: int, text: str) -> Move:
        return notation.parse(text)

    def format_move(self, move: Move) -> str:
        return notation.format_move(move)

    def check(self, seat: int, move: Move) -> None:
        in_auction = isinstance(move, PlayCards | Agree | Pass)
        if in_auction and self.auction is None:
            raise IllegalMove("there is no festival auction going on", rule="festival")
        if not in_auction and self.auction is not None:
            raise IllegalMove(
                "a festival auction is going on: play cards, agree or pass", rule="festival"
            )
        checker = getattr(self, f"_check_{type(move).__name__}")
        checker(seat, move)

    def apply(self, seat: int, move: Move) -> None:
        getattr(self, f"_apply_{type(move).__name__}")(seat, move)

    def result(self) -> Result | None:
        if len(self.final_scored) < self.players:
            return None
        order = sorted(set(self.scores), reverse=True)
        ranking = tuple(
            tuple(s for s in range(self.players) if self.scores[s] == points) for points in order
        )
        reason = "last triple tile placed"
        if self.triples_set_aside:
            reason = "no land tile fits any more"
        return Result(ranking, tuple({"points": p} for p in self.scores), reason)

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        return view.seat_view(self, seat)

    def text_picture(self, seat: int | None) -> str:
        return picture.text_picture(self, seat)

    # -- costs shared by check and legal ----------------------------------

    def tile_cost(self, cells: tuple[str, ...]) -> int:
        return 1 + self.land.overhang(cells)

    def _spend(self, cost: int, budget: int, what: str) -> None:
        if cost > budget:
            reserve = " (1 AP stays for your land tile)" if self.duty_pending else ""
            raise IllegalMove(
                f"{what} costs {cost} AP and you have {budget} to spend{reserve}",
                rule="action points",
            )

    # -- land tiles -------------------------------------------------------

    def _check_PlaceTile(self, seat: int, move: PlaceTile) -> None:
        irrigated = self.land.irrigation_problem(move.cells)
        if irrigated:  # printed irrigation is no land space: say what it is
            raise IllegalMove(irrigated.reason, rule=irrigated.rule)
        size = len(move.cells)
        fps = legal.footprint_set(size)
        if move.cells not in fps:
            shape = {
                1: "one land space of central Java (single tiles never overhang)",
                2: "two adjacent spaces, one at least in central Java",
                3: "three mutually adjacent spaces, one at least in central Java",
            }[size]
            raise IllegalMove(
                f"a {move.kind} tile covers {shape}, not {' '.join(move.cells)}",
                rule="tile shape",
            )
        if not self.has_tile(seat, move.kind):
            raise IllegalMove(f"you have no {move.kind} tile left", rule="supply")
        problem = self.land.tile_problem(move.cells)
        if problem:
            raise IllegalMove(problem.reason, rule=problem.rule)
        self._spend(self.tile_cost(move.cells), self.ap_left, "this tile")
        if self.land.joins_cities(move.kind, move.cells, move.village):
            raise IllegalMove(
                f"the tile at {' '.join(move.cells)} would join two cities", rule="cities"
            )

    def _apply_PlaceTile(self, seat: int, move: PlaceTile) -> None:
        self.ap_left -= self.tile_cost(move.cells)
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
            raise IllegalMove("all your developers are on the board", rule="developers")
        cost = self._edge(move.cell, "enter")
        if not self.land.free_for_developer(move.cell):
            raise IllegalMove(f"{move.cell} is taken", rule="one developer per space")
        self._spend(cost, self.budget, f"entering at {move.cell}")

    def _apply_Enter(self, seat: int, move: Enter) -> None:
        self.ap_left -= edge_cost(move.cell) or 0
        self.off_board[seat] -= 1
        self.land.developers[move.cell] = seat

    def _check_Leave(self, seat: int, move: Leave) -> None:
        if self.land.developers.get(move.cell) != seat:
            raise IllegalMove(f"you have no developer on {move.cell}", rule="developers")
        self._spend(self._edge(move.cell, "leave"), self.budget, f"leaving from {move.cell}")

    def _apply_Leave(self, seat: int, move: Leave) -> None:
        self.ap_left -= edge_cost(move.cell) or 0
        self.off_board[seat] += 1
        del self.land.developers[move.cell]

    def _edge(self, cell: str, verb: str) -> int:
        cost = self.land.entry_cost(cell)
        if cost is None:
            where = "a land tile" if cell not in self.land.level else "the edge of central Java"
            raise IllegalMove(
                f"developers {verb} only on a land tile at the edge of central Java or on an "
                f"overhanging tile; {cell} is not {where}",
                rule="enter and leave",
            )
        return cost

    def _check_MoveDeveloper(self, seat: int, move: MoveDeveloper) -> None:
        if self.land.developers.get(move.source) != seat:
            raise IllegalMove(f"you have no developer on {move.source}", rule="developers")
        if move.target == move.source:
            raise IllegalMove("a move must end on another space", rule="movement")
        if move.target not in self.land.level:
            raise IllegalMove(
                f"developers move only on land tiles, {move.target} has none", rule="movement"
            )
        if not self.land.free_for_developer(move.target):
            raise IllegalMove(f"{move.target} is taken", rule="one developer per space")
        cost = self.land.move_costs(move.source).get(move.target)
        if cost is None:
            raise IllegalMove(
                f"no path from {move.source} to {move.target} over land tiles avoiding palaces "
                "and opponents' developers",
                rule="movement",
            )
        self._spend(cost, self.budget, f"this move ({cost} colour changes)")

    def _apply_MoveDeveloper(self, seat: int, move: MoveDeveloper) -> None:
        self.ap_left -= self.land.move_costs(move.source)[move.target]
        del self.land.developers[move.source]
        self.land.developers[move.target] = seat

    # -- palaces ----------------------------------------------------------

    def _check_palace_value(self, seat: int, value: int, area: set[str], cell: str) -> None:
        if value > len(area):
            raise IllegalMove(
                f"a palace of {value} needs a village of {value} spaces; {cell}'s has {len(area)}",
                rule="palace value",
            )
        if self.palace_supply[value] == 0:
            raise IllegalMove(f"no palace of {value} is left", rule="supply")
        if strict_winner(self.land.positions(area)) != seat:
            raise IllegalMove(
                f"you do not hold the highest position in {cell}'s village",
                rule="highest position",
            )
        self._spend(1, self.budget, "a palace")

    def _check_Build(self, seat: int, move: Build) -> None:
        if not self.land.is_village(move.cell):
            raise IllegalMove(
                f"palaces stand on village spaces; {move.cell} is not one", rule="palace"
            )
        if not self.land.free_for_developer(move.cell):
            raise IllegalMove(f"{move.cell} is not empty", rule="palace")
        area = self.land.village_area(move.cell)
        existing = self.land.palace_of(area)
        if existing:
            raise IllegalMove(
                f"this city already has its palace on {existing} (enlarge it instead)",
                rule="one palace per city",
            )
        self._check_palace_value(seat, move.value, area, move.cell)

    def _apply_Build(self, seat: int, move: Build) -> None:
        self.land.palaces[move.cell] = Palace([move.value], changed_turn=self.turn_number)
        self._take_palace(seat, move.value)

    def _check_Enlarge(self, seat: int, move: Enlarge) -> None:
        palace = self.land.palaces.get(move.cell)
        if palace is None:
            raise IllegalMove(f"there is no palace on {move.cell}", rule="palace")
        if move.value <= palace.value:
            raise IllegalMove(
                f"the palace on {move.cell} is already worth {palace.value}", rule="palace value"
            )
        if palace.changed_turn == self.turn_number:
            raise IllegalMove(
                f"the palace on {move.cell} was already built or enlarged this turn",
                rule="once per palace per turn",
            )
        self._check_palace_value(seat, move.value, self.land.village_area(move.cell), move.cell)

    def _apply_Enlarge(self, seat: int, move: Enlarge) -> None:
        palace = self.land.palaces[move.cell]
        palace.values.append(move.value)
        palace.festival = False
        palace.changed_turn = self.turn_number
        self._take_palace(seat, move.value)

    def _take_palace(self, seat: int, value: int) -> None:
        self.palace_supply[value] -= 1
        self.ap_left -= 1
        self.scores[seat] += value // 2

    # -- irrigation, cards, token -----------------------------------------

    def _check_Irrigate(self, seat: int, move: Irrigate) -> None:
        space = SPACES[move.cell]
        if space.ring or space.border:
            raise IllegalMove(
                f"irrigation goes inside central Java, not on the edge ({move.cell})",
                rule="irrigation",
            )
        if move.cell in self.land.irrigation:
            raise IllegalMove(f"{move.cell} is already irrigation", rule="irrigation")
        if move.cell in self.land.level:
            raise IllegalMove(
                f"irrigation lies on the board, never on a tile ({move.cell})", rule="irrigation"
            )
        if self.irrigation_left == 0:
            raise IllegalMove("no irrigation tile is left", rule="supply")
        self._spend(1, self.budget, "irrigation")

    def _apply_Irrigate(self, seat: int, move: Irrigate) -> None:
        self.ap_left -= 1
        self.irrigation_left -= 1
        self.land.irrigation.add(move.cell)
        self._score_ponds((move.cell,))

    def _check_Draw(self, seat: int, move: Draw) -> None:
        if self.cards_drawn >= CARDS_PER_TURN:
            raise IllegalMove("you may draw at most 2 cards per turn", rule="cards")
        if move.source == FACEUP and self.faceup is None:
            raise IllegalMove("there is no face-up card", rule="cards")
        if move.source == DECK and not (self.deck or self.discards):
            raise IllegalMove("the deck and the discards are empty", rule="cards")
        self._spend(1, self.budget, "a card")

    def _apply_Draw(self, seat: int, move: Draw) -> None:
        self.ap_left -= 1
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
            raise IllegalMove("one action token per turn", rule="action token")
        if self.tokens[seat] == 0:
            raise IllegalMove("you have no action token left", rule="action token")

    def _apply_TakeToken(self, seat: int, move: TakeToken) -> None:
        self.tokens[seat] -= 1
        self.token_used = True
        self.ap_left += 1

    # -- festival ---------------------------------------------------------

    def _check_cards(self, seat: int, played: tuple[str, ...], at_least: int) -> None:
        if self.faceup is None:
            raise IllegalMove("no face-up card sets a requirement", rule="festival")
        hand = list(self.hands[seat])
        for card in played:
            if card not in hand:
                raise IllegalMove(f"you do not hold the card {card}", rule="festival cards")
            hand.remove(card)
            if cards.value(card, self.faceup) == 0:
                raise IllegalMove(
                    f"{card} shares no symbol with the face-up card {self.faceup}",
                    rule="festival cards",
                )
        worth = cards.total(played, self.faceup)
        if worth < at_least:
            raise IllegalMove(
                f"your cards are worth {worth}; you need {at_least}", rule="festival auction"
            )

    def _check_Festival(self, seat: int, move: Festival) -> None:
        palace = self.land.palaces.get(move.cell)
        if palace is None:
            raise IllegalMove(f"there is no palace on {move.cell}", rule="festival")
        if palace.festival:
            raise IllegalMove(
                f"the palace on {move.cell} has had its festival; enlarge it first",
                rule="festival once per palace level",
            )
        if self.duty_pending:
            raise IllegalMove(
                "a festival ends your turn: place your land tile first", rule="mandatory land tile"
            )
        if seat not in self.land.positions(self.land.village_area(move.cell)):
            raise IllegalMove(f"you have no developer in {move.cell}'s city", rule="festival")
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
            raise IllegalMove(
                f"you are below the highest total {self.auction.highest}: play cards or pass",
                rule="festival auction",
            )

    def _apply_Agree(self, seat: int, move: Agree) -> None:
        assert self.auction is not None
        self.auction.agree(seat)
        self._advance()

    def _check_Pass(self, seat: int, move: Pass) -> None:
        assert self.auction is not None
        if self.auction.is_level(seat):
            raise IllegalMove(
                "you are level with the highest total: agree or raise", rule="festival auction"
            )

    def _apply_Pass(self, seat: int, move: Pass) -> None:
        assert self.auction is not None
        self.auction.drop(seat)
        self._advance()

    # -- end of turn and game ---------------------------------------------

    def _check_EndTurn(self, seat: int, move: EndTurn) -> None:
        if self.duty_pending and legal.tile_moves(self, seat):
            raise IllegalMove(
                "you must place at least one land tile this turn", rule="mandatory land tile"
            )

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
