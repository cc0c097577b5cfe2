"""Java: the fixed board with stacked rice and village tiles, irrigation,
palaces, developers in seat colours, and the viewer's festival cards.

The board's shape is the same in every game, so it comes from the ruleset's
map; everything that changes comes from the view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.games.java.board import SPACES
from engine.games.java.cards import UNKNOWN
from pbem.render.colours import (
    CARD,
    EDGE,
    FESTIVAL,
    INK,
    JAVA_BOARD,
    JAVA_FACE,
    MUTED,
    PALACE,
    ink_on,
    shade,
)
from pbem.render.hexdraw import HexLayout, neighbour
from pbem.render.lastturn import highlight, outlines
from pbem.render.panel import PAD, SMALL, WIDTH, Panel, PanelWriter
from pbem.render.surface import Colour, Point, Surface
from pbem.render.words import Words

MAX_WIDTH, MAX_HEIGHT = 1180, 1000
MAX_HEX = 44
MARGIN = 18
BY_HEX = {(s.q, s.r): sid for sid, s in SPACES.items()}


def layout(view: Mapping[str, Any]) -> HexLayout:
    return HexLayout(BY_HEX, MAX_WIDTH, MAX_HEIGHT, MAX_HEX, MARGIN)


def centres(view: Mapping[str, Any]) -> dict[str, Point]:
    lay = layout(view)
    return {sid: lay.centre((s.q, s.r)) for sid, s in SPACES.items()}


def space_colour(view: Mapping[str, Any], space: str) -> Colour:
    """Water, the face of the top tile, or the bare board."""
    kind = _kind(view, space)
    return JAVA_FACE[kind] if kind in JAVA_FACE else JAVA_BOARD[kind]


def _level(view: Mapping[str, Any], space: str) -> int:
    covered = view["state"]["spaces"].get(space)
    return covered["level"] if covered else 0


def _kind(view: Mapping[str, Any], space: str) -> str:
    """What covers a space, as space_colour tells it apart."""
    state = view["state"]
    if space in state["irrigation"] or SPACES[space].kind == "irrigation":
        return "irrigation"
    covered = state["spaces"].get(space)
    return covered["face"] if covered is not None else SPACES[space].kind


def space_name(view: Mapping[str, Any], space: str, words: Words) -> str:
    """What a screen reader says of a space: what covers it, its height, palace, developer."""
    state = view["state"]
    said = [_kind_name(_kind(view, space), words)]
    if _level(view, space):
        said.append(words.gettext("level %(level)d", level=_level(view, space)))
    palace = state["palaces"].get(space)
    if palace is not None:
        said.append(words.gettext("palace %(value)d", value=palace["values"][-1]))
        if palace["festival"]:
            said.append(words.gettext("festival held"))
    if space in state["developers"]:
        owner = view["seats"][state["developers"][space]]
        said.append(words.gettext("developer of %(player)s", player=owner))
    return words.gettext("%(space)s: %(details)s", space=space, details=", ".join(said))


def _kind_name(kind: str, words: Words) -> str:
    names = {
        "irrigation": words.gettext("irrigation"),
        "rice": words.gettext("rice field"),
        "village": words.gettext("village"),
        "land": words.gettext("bare land"),
        "mountain": words.gettext("mountain"),
        "lowland": words.gettext("lowland"),
    }
    return names[kind]


def card_name(card: str, words: Words) -> str:
    """`MD` -> `mask + drum`; a preview's unknown card as the engine says it."""
    if card == UNKNOWN:
        return card
    symbols = {"M": words.gettext("mask"), "D": words.gettext("drum"), "P": words.gettext("puppet")}
    return " + ".join(symbols[symbol] for symbol in card)


# -- board ---------------------------------------------------------------


def draw_board(
    canvas: Surface,
    lay: HexLayout,
    view: Mapping[str, Any],
    colours: Sequence[Colour],
    words: Words,
) -> dict[str, Point]:
    state = view["state"]
    s = lay.size
    for sid, space in SPACES.items():
        h = (space.q, space.r)
        fill = space_colour(view, sid)
        with canvas.item(space_name(view, sid, words), space=sid):
            canvas.polygon(lay.corners(h), fill=fill)
            for ring in range(1, min(_level(view, sid), 6)):
                canvas.outline(lay.corners(h, 0.92 - 0.08 * ring), shade(fill, 0.72), s * 0.04)
    _height_steps(canvas, lay, view)
    for sid, seat in outlines(view, SPACES).items():
        highlight(canvas, lay, (SPACES[sid].q, SPACES[sid].r), colours[seat])
    for sid, space in SPACES.items():
        cx, cy = lay.centre((space.q, space.r))
        fill = space_colour(view, sid)
        canvas.text((cx, cy - s * 0.6), sid, s * 0.25, ink_on(fill))
        level = _level(view, sid)
        if level:
            badge = shade((255, 255, 255), 1 - 0.1 * (level - 1))
            canvas.circle((cx, cy + s * 0.6), s * 0.17, fill=badge, outline=EDGE, width=s * 0.025)
            canvas.text((cx, cy + s * 0.6), str(level), s * 0.22, ink_on(badge), bold=True)
    for sid, palace in state["palaces"].items():
        cx, cy = lay.centre((SPACES[sid].q, SPACES[sid].r))
        _palace(canvas, (cx, cy + s * 0.02), palace, s)
    for sid, seat in state["developers"].items():
        cx, cy = lay.centre((SPACES[sid].q, SPACES[sid].r))
        developer(canvas, (cx, cy + s * 0.02), colours[seat], s)
    return {sid: lay.centre((sp.q, sp.r)) for sid, sp in SPACES.items()}


def _height_steps(canvas: Surface, lay: HexLayout, view: Mapping[str, Any]) -> None:
    """Thin lines between spaces of one height, thick ones where the height
    changes (tiles are not told apart in the view, heights are)."""
    thick = []
    for sid, space in SPACES.items():
        h = (space.q, space.r)
        for direction in range(6):
            other = BY_HEX.get(neighbour(h, direction))
            edge = lay.edge(h, direction)
            if other is not None and _level(view, other) == _level(view, sid):
                if sid < other:  # an edge two spaces share is drawn once
                    canvas.line(edge, (90, 90, 90), lay.size * 0.025)
            elif other is None or _level(view, sid) > _level(view, other):
                thick.append(edge)
    for edge in thick:
        canvas.line(edge, EDGE, lay.size * 0.08)


def developer(canvas: Surface, centre: Point, colour: Colour, s: float) -> None:
    """A pawn: round head over a wide base."""
    x, y = centre
    body = [(x - s * 0.26, y + s * 0.32), (x - s * 0.12, y - s * 0.04)]
    body += [(x + s * 0.12, y - s * 0.04), (x + s * 0.26, y + s * 0.32)]
    canvas.polygon(body, fill=colour, outline=EDGE, width=s * 0.04)
    canvas.circle((x, y - s * 0.16), s * 0.15, fill=colour, outline=EDGE, width=s * 0.04)


def _palace(canvas: Surface, centre: Point, palace: Mapping[str, Any], s: float) -> None:
    """A roofed palace with its value; a red frame once it held a festival."""
    x, y = centre
    roof = [(x - s * 0.42, y - s * 0.12), (x, y - s * 0.36), (x + s * 0.42, y - s * 0.12)]
    frame = FESTIVAL if palace["festival"] else EDGE
    canvas.rounded_rect((x - s * 0.3, y - s * 0.14, x + s * 0.3, y + s * 0.32), s * 0.04, PALACE)
    canvas.rounded_rect(
        (x - s * 0.3, y - s * 0.14, x + s * 0.3, y + s * 0.32), s * 0.04, None, frame, s * 0.06
    )
    canvas.polygon(roof, fill=shade(PALACE, 0.75), outline=frame, width=s * 0.05)
    canvas.text((x, y + s * 0.1), str(palace["values"][-1]), s * 0.3, INK, bold=True)


# -- panel ---------------------------------------------------------------


def write_panel(
    view: Mapping[str, Any], colours: Sequence[Colour], words: Words, out: PanelWriter
) -> None:
    state = view["state"]
    panel = Panel(view, colours, words, out)
    details = words.gettext("turn %(turn)s", turn=state["turn"])
    if state["final_round"]:
        details += " · " + words.gettext("final round")
    panel.header(words.gettext("Java"), details)
    if not view.get("over") and state["auction"] is None:
        turn = [
            words.ngettext(
                "%(num)s action point left", "%(num)s action points left", state["ap_left"]
            ),
            words.gettext("tile laid") if state["tile_placed"] else words.gettext("no tile yet"),
            words.ngettext("%(num)s card drawn", "%(num)s cards drawn", state["cards_drawn"]),
        ]
        if state["token_used"]:
            turn.append(words.gettext("token used"))
        panel.line(f"{panel.name(state['current'])}: " + " · ".join(turn), size=SMALL)
    players = state["players"]

    def seat_details(seat: int) -> list[str]:
        entry = players[seat]
        tiles = " · ".join(f"{words.word(kind)} {n}" for kind, n in entry["tiles"].items())
        points = words.ngettext("%(num)s point", "%(num)s points", entry["score"])
        lines = [f"{points} · " + words.gettext("tiles left: %(tiles)s", tiles=tiles)]
        off_board = entry["developers_off_board"]
        lines.append(
            " · ".join(
                [
                    words.ngettext(
                        "%(num)s developer off board", "%(num)s developers off board", off_board
                    ),
                    words.ngettext("%(num)s token", "%(num)s tokens", entry["action_tokens"]),
                    words.ngettext("%(num)s card", "%(num)s cards", entry["hand_size"]),
                ]
            )
        )
        if entry["final_scored"]:
            lines.append(words.gettext("final scoring done"))
        return lines

    panel.seats(seat_details)
    supply = state["supply"]
    panel.heading(words.gettext("Supply"))
    triples = words.ngettext("%(num)s triple tile", "%(num)s triple tiles", supply["triples"])
    irrigation = words.gettext("irrigation %(num)s", num=supply["irrigation"])
    panel.line(f"{triples} · {irrigation}", size=SMALL)
    palaces = " · ".join(f"{n}×{value}" for value, n in supply["palaces"].items())
    panel.line(words.gettext("palaces: %(palaces)s", palaces=palaces), size=SMALL)
    panel.line(
        words.gettext(
            "face-up card: %(card)s · deck %(deck)s · discards %(discards)s",
            card=_card(state["faceup"], words) if state["faceup"] else "–",
            deck=state["deck_size"],
            discards=len(state["discards"]),
        ),
        size=SMALL,
    )
    if state.get("hand") is not None:
        _hand(panel, state["hand"])
    if state["auction"] is not None:
        _auction(panel, state["auction"])
    if state["events"]:
        panel.heading(words.gettext("Scoring"))
        for event in state["events"][-6:]:
            panel.line(event, size=SMALL)
    panel.last_turn()
    panel.gap(6)
    panel.line(words.gettext("cards: M mask · D drum · P puppet"), MUTED, 12)


def _card(card: str, words: Words) -> str:
    """A card's letters; a preview's card from the deck is not known yet."""
    return words.gettext("not known yet") if card == UNKNOWN else card


def _hand(panel: Panel, hand: Sequence[str]) -> None:
    words = panel.words
    panel.heading(words.gettext("Your festival cards"))
    if not hand:
        panel.line(words.gettext("(none)"), MUTED, SMALL)
        return
    width, height, gap = 46, 62, 8
    seat = str(panel.view.get("viewer"))
    # As many cards to a row as the panel holds; a bigger hand goes on in rows below.
    per_row = (WIDTH - 2 * PAD + gap) // (width + gap)
    rows = -(-len(hand) // per_row)

    def draw(canvas: Surface, top: float) -> None:
        for i, card in enumerate(hand):
            row, column = divmod(i, per_row)
            x, y = PAD + column * (width + gap), top + row * (height + gap)
            with canvas.item(card_name(card, words), card=card, seat=seat):
                canvas.rounded_rect((x, y, x + width, y + height), 6, CARD, EDGE, 1.5)
                label = "?" if card == UNKNOWN else card  # a preview's card from the deck
                canvas.text((x + width / 2, y + height / 2), label, 18, INK, bold=True)

    panel.drawing(rows * height + (rows - 1) * gap, words.gettext("Your festival cards"), draw)
    panel.gap(8)
    if UNKNOWN in hand:
        unknown = words.gettext("?: a card from the deck, known once the move is sent")
        panel.line(unknown, MUTED, SMALL)


def _auction(panel: Panel, auction: Mapping[str, Any]) -> None:
    words = panel.words
    panel.heading(words.gettext("Festival at %(space)s", space=auction["palace"]))
    organiser = panel.name(auction["organiser"])
    panel.line(words.gettext("held by %(name)s", name=organiser), size=SMALL)
    totals = {int(s): t for s, t in auction["totals"].items()}
    for seat in auction["seats"]:
        total = words.gettext(
            "%(name)s: total %(total)s", name=panel.name(seat), total=totals.get(seat, 0)
        )
        panel.line(total, size=SMALL)
    still_in = ", ".join(panel.name(s) for s in auction["still_in"])
    panel.line(words.gettext("still in: %(names)s", names=still_in), size=SMALL)
    if auction["agreed"]:
        agreed = ", ".join(panel.name(s) for s in auction["agreed"])
        panel.line(words.gettext("agreed to share: %(names)s", names=agreed), size=SMALL)
    if auction["to_decide"] is not None:
        deciding = words.gettext("%(name)s decides", name=panel.name(auction["to_decide"]))
        panel.line(deciding, size=SMALL, bold=True)
    if auction["cards_played"]:
        played = " ".join(map(str, auction["cards_played"]))
        panel.line(words.gettext("cards played: %(cards)s", cards=played), size=SMALL)
