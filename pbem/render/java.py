"""Java: the fixed board with stacked rice and village tiles, irrigation,
palaces, developers in seat colours, and the viewer's festival cards.

The board's shape is the same in every game, so it comes from the ruleset's
map; everything that changes comes from the view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext

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
from pbem.render.hexdraw import Colour, HexLayout, Point, neighbour
from pbem.render.lastturn import highlight, last_turn, spaces_named
from pbem.render.panel import PAD, SMALL, WIDTH, Panel, PanelWriter, count
from pbem.render.surface import Surface

MAX_WIDTH, MAX_HEIGHT = 1180, 1000
MAX_HEX = 44
MARGIN = 18
BY_HEX = {(s.q, s.r): sid for sid, s in SPACES.items()}
CARD_LEGEND = "cards: M mask · D drum · P puppet"
SPACE_KINDS = {
    "irrigation": lazy_gettext("irrigation"),
    "rice": lazy_gettext("rice field"),
    "village": lazy_gettext("village"),
    "land": lazy_gettext("bare land"),
    "mountain": lazy_gettext("mountain"),
    "lowland": lazy_gettext("lowland"),
}
CARD_SYMBOLS = {"M": lazy_gettext("mask"), "D": lazy_gettext("drum"), "P": lazy_gettext("puppet")}


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


def space_name(view: Mapping[str, Any], space: str) -> str:
    """What a screen reader says of a space: what covers it, its height, palace, developer."""
    state = view["state"]
    said = [str(SPACE_KINDS[_kind(view, space)])]
    if _level(view, space):
        said.append(_("level %(level)d", level=_level(view, space)))
    palace = state["palaces"].get(space)
    if palace is not None:
        said.append(_("palace %(value)d", value=palace["values"][-1]))
        if palace["festival"]:
            said.append(_("festival held"))
    if space in state["developers"]:
        said.append(_("developer of %(player)s", player=view["seats"][state["developers"][space]]))
    return _("%(space)s: %(details)s", space=space, details=", ".join(said))


def card_name(card: str) -> str:
    """`MD` -> `mask + drum`; a preview's unknown card as the engine says it."""
    if card == UNKNOWN:
        return card
    return " + ".join(str(CARD_SYMBOLS[symbol]) for symbol in card)


# -- board ---------------------------------------------------------------


def draw_board(
    canvas: Surface, lay: HexLayout, view: Mapping[str, Any], colours: Sequence[Colour]
) -> dict[str, Point]:
    state = view["state"]
    s = lay.size
    for sid, space in SPACES.items():
        h = (space.q, space.r)
        fill = space_colour(view, sid)
        with canvas.item(space_name(view, sid), space=sid):
            canvas.polygon(lay.corners(h), fill=fill)
            for ring in range(1, min(_level(view, sid), 6)):
                canvas.outline(lay.corners(h, 0.92 - 0.08 * ring), shade(fill, 0.72), s * 0.04)
    _height_steps(canvas, lay, view)
    _, moves = last_turn(view.get("history", []))
    for sid in spaces_named(moves, SPACES):
        highlight(canvas, lay, (SPACES[sid].q, SPACES[sid].r))
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


def write_panel(view: Mapping[str, Any], colours: Sequence[Colour], out: PanelWriter) -> None:
    state = view["state"]
    panel = Panel(view, colours, out)
    details = f"turn {state['turn']}" + (" · final round" if state["final_round"] else "")
    panel.header("Java", details)
    if not view.get("over") and state["auction"] is None:
        turn = [
            f"{state['ap_left']} AP left",
            "tile laid" if state["tile_placed"] else "no tile yet",
        ]
        turn.append(f"{count(state['cards_drawn'], 'card')} drawn")
        if state["token_used"]:
            turn.append("token used")
        panel.line(f"{panel.name(state['current'])}: " + " · ".join(turn), size=SMALL)
    players = state["players"]

    def seat_details(seat: int) -> list[str]:
        entry = players[seat]
        tiles = " · ".join(f"{n} {kind}" for kind, n in entry["tiles"].items())
        lines = [f"{count(entry['score'], 'point')} · tiles left: {tiles}"]
        lines.append(
            f"{entry['developers_off_board']} developers off board · "
            f"{count(entry['action_tokens'], 'token')} · {count(entry['hand_size'], 'card')}"
        )
        if entry["final_scored"]:
            lines.append("final scoring done")
        return lines

    panel.seats(seat_details)
    supply = state["supply"]
    panel.heading("Supply")
    panel.line(
        f"{count(supply['triples'], 'triple tile')} · {supply['irrigation']} irrigation", size=SMALL
    )
    palaces = " · ".join(f"{n}×{value}" for value, n in supply["palaces"].items())
    panel.line(f"palaces: {palaces}", size=SMALL)
    panel.line(
        f"face-up card: {state['faceup'] or '–'} · deck {state['deck_size']} · "
        f"discards {len(state['discards'])}",
        size=SMALL,
    )
    if state.get("hand") is not None:
        _hand(panel, state["hand"])
    if state["auction"] is not None:
        _auction(panel, state["auction"])
    if state["events"]:
        panel.heading("Scoring")
        for event in state["events"][-6:]:
            panel.line(event, size=SMALL)
    panel.last_turn()
    panel.gap(6)
    panel.line(CARD_LEGEND, MUTED, 12)


def _hand(panel: Panel, hand: Sequence[str]) -> None:
    panel.heading("Your festival cards")
    if not hand:
        panel.line("(none)", MUTED, SMALL)
        return
    width, height = 46, 62
    seat = str(panel.view.get("viewer"))

    def draw(canvas: Surface, top: float) -> None:
        for i, card in enumerate(hand):
            x = PAD + i * (width + 8)
            if x + width > WIDTH - PAD:
                break
            with canvas.item(card_name(card), card=card, seat=seat):
                canvas.rounded_rect((x, top, x + width, top + height), 6, CARD, EDGE, 1.5)
                label = "?" if card == UNKNOWN else card  # a preview's card from the deck
                canvas.text((x + width / 2, top + height / 2), label, 18, INK, bold=True)

    panel.drawing(height, _("Your festival cards"), draw)
    panel.gap(8)
    if UNKNOWN in hand:
        panel.line(f"?: {UNKNOWN}, known once the move is sent", MUTED, SMALL)


def _auction(panel: Panel, auction: Mapping[str, Any]) -> None:
    panel.heading(f"Festival at {auction['palace']}")
    panel.line(f"held by {panel.name(auction['organiser'])}", size=SMALL)
    totals = {int(s): t for s, t in auction["totals"].items()}
    for seat in auction["seats"]:
        panel.line(f"{panel.name(seat)}: total {totals.get(seat, 0)}", size=SMALL)
    panel.line("still in: " + ", ".join(panel.name(s) for s in auction["still_in"]), size=SMALL)
    if auction["agreed"]:
        panel.line(
            "agreed to share: " + ", ".join(panel.name(s) for s in auction["agreed"]), size=SMALL
        )
    if auction["to_decide"] is not None:
        panel.line(f"{panel.name(auction['to_decide'])} decides", size=SMALL, bold=True)
    if auction["cards_played"]:
        panel.line("cards played: " + " ".join(map(str, auction["cards_played"])), size=SMALL)
