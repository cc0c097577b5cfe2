"""Taluva: the island from the seat's view, levels and tile borders readable,
buildings in seat colours, and the tile in hand for the player who drew it."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from pbem.render.colours import (
    BACKGROUND,
    EDGE,
    INK,
    LAVA,
    MUTED,
    TALUVA_TERRAIN,
    ink_on,
    shade,
)
from pbem.render.hexdraw import HexLayout, neighbour
from pbem.render.lastturn import highlight, last_turn, outlines
from pbem.render.panel import PAD, SMALL, Panel, PanelWriter
from pbem.render.surface import Colour, Point, Surface
from pbem.render.words import Words

MAX_WIDTH, MAX_HEIGHT = 1120, 1000
MIN_WIDTH, MIN_HEIGHT = 700, 700
MAX_HEX = 46
MARGIN = 20
OPEN_GROUND = shade(BACKGROUND, 0.95)
CAPTION = 18  # the empty table's words, in pixels
Hex = tuple[int, int]


def layout(view: Mapping[str, Any], around: Iterable[Hex] = ()) -> HexLayout:
    """Where the board goes (with the open ground `around` it, where the board
    is played by clicking); tests use it to find the pixel of a space."""
    hexes = [(cell["q"], cell["r"]) for cell in view["state"]["board"]] + list(around)
    return HexLayout(hexes, MAX_WIDTH, MAX_HEIGHT, MAX_HEX, MARGIN, MIN_WIDTH, MIN_HEIGHT)


def play_layout(view: Mapping[str, Any]) -> HexLayout:
    return layout(view, open_ground(view))


def open_ground(view: Mapping[str, Any]) -> list[Hex]:
    """The empty spaces a tile the viewer lays now could cover: two steps
    around the island (a tile touching it with one hex reaches one further),
    or 0,0 and around it on an empty table; none when the viewer lays no tile."""
    if view["state"]["phase"] != "tile" or view["viewer"] not in view["to_act"]:
        return []
    island = {(cell["q"], cell["r"]) for cell in view["state"]["board"]}
    if not island:
        return sorted({(0, 0)} | {neighbour((0, 0), d) for d in range(6)})
    ground: set[Hex] = set()
    for _step in range(2):
        ground |= {neighbour(h, d) for h in island | ground for d in range(6)} - island
    return sorted(ground)


def draw_open_ground(
    canvas: Surface, lay: HexLayout, view: Mapping[str, Any], words: Words
) -> None:
    """Faint hexes on the open ground, each a space to click like the island's."""
    for h in open_ground(view):
        name = f"{h[0]},{h[1]}"
        with canvas.item(words.gettext("%(space)s: open ground", space=name), space=name):
            canvas.polygon(lay.corners(h), fill=OPEN_GROUND, outline=shade(OPEN_GROUND, 0.85))
            canvas.text(lay.centre(h), name, lay.size * 0.22, MUTED)


def centres(view: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    lay = layout(view)
    return {cell["space"]: lay.centre((cell["q"], cell["r"])) for cell in view["state"]["board"]}


# -- board ---------------------------------------------------------------


def draw_board(
    canvas: Surface,
    lay: HexLayout,
    view: Mapping[str, Any],
    colours: Sequence[Colour],
    words: Words,
) -> dict[str, tuple[float, float]]:
    cells = {(c["q"], c["r"]): c for c in view["state"]["board"]}
    if not cells:
        empty = words.gettext("No tile on the table yet: the first volcano goes on 0,0")
        canvas.text(_caption_spot(lay, view), empty, CAPTION, MUTED)
        return {}
    s = lay.size
    for h, cell in cells.items():
        with canvas.item(space_name(cell, view["seats"], words), space=cell["space"]):
            terrain_hex(canvas, lay, h, cell["terrain"], cell["level"])
    _tile_borders(canvas, lay, cells)
    by_name = {cell["space"]: h for h, cell in cells.items()}
    for name, seat in _outlined_spaces(view, by_name).items():
        highlight(canvas, lay, by_name[name], colours[seat])
    for h, cell in cells.items():
        cx, cy = lay.centre(h)
        ink = ink_on(TALUVA_TERRAIN[cell["terrain"]])
        canvas.text((cx, cy - s * 0.6), cell["space"], s * 0.23, ink)
        _level_badge(canvas, (cx, cy + s * 0.6), cell["level"], s)
        if cell["building"]:
            _building(canvas, (cx, cy + s * 0.02), cell, colours[cell["owner"]], s)
    return {cell["space"]: lay.centre(h) for h, cell in cells.items()}


def _caption_spot(lay: HexLayout, view: Mapping[str, Any]) -> Point:
    """Where the empty table's caption goes: under the open ground a player
    clicks to lay the first tile, so it covers none of it; else the middle."""
    ground = open_ground(view)
    if not ground:
        return lay.width / 2, lay.height / 2
    lowest = max(lay.centre(h)[1] for h in ground) + lay.size * math.sqrt(3) / 2
    return lay.width / 2, lowest + CAPTION * 1.5


def space_name(cell: Mapping[str, Any], seats: Sequence[str], words: Words) -> str:
    """What a screen reader says of a space: terrain, level, building."""
    said = words.gettext(
        "%(space)s: %(terrain)s, level %(level)d",
        space=cell["space"],
        terrain=words.word(cell["terrain"]),
        level=cell["level"],
    )
    if cell["building"]:
        said += ", " + _building_name(cell, seats[cell["owner"]], words)
    return said


def _building_name(cell: Mapping[str, Any], owner: str, words: Words) -> str:
    if cell["building"] == "hut":
        return words.ngettext(
            "%(num)d hut of %(player)s", "%(num)d huts of %(player)s", cell["huts"], player=owner
        )
    if cell["building"] == "temple":
        return words.gettext("temple of %(player)s", player=owner)
    return words.gettext("tower of %(player)s", player=owner)


def _outlined_spaces(view: Mapping[str, Any], names: Collection[str]) -> dict[str, int]:
    """The tiles' spaces and, for the last turn, where its build went: an
    extension names a space of the old settlement, so its new huts come from
    the view instead (which keeps only the last build's)."""
    touched = outlines(view, names, kinds=("tile",))
    last = last_turn(view.get("history", []))
    if last is not None:
        for name in view["state"].get("last_built", []):  # emptied when a tile is laid
            touched[name] = last.seat
    return touched


def terrain_hex(
    canvas: Surface, lay: HexLayout, h: tuple[int, int], terrain: str, level: int
) -> None:
    """The hex's colour, one contour ring per level above the first, a volcano's cone."""
    colour = TALUVA_TERRAIN[terrain]
    canvas.polygon(lay.corners(h), fill=colour)
    for ring in range(1, min(level, 6)):
        canvas.outline(lay.corners(h, 0.92 - 0.08 * ring), shade(colour, 0.72), lay.size * 0.04)
    if terrain == "volcano":
        cx, cy = lay.centre(h)
        s = lay.size
        cone = [(cx - s * 0.44, cy + s * 0.3), (cx - s * 0.1, cy - s * 0.3)]
        cone += [(cx + s * 0.1, cy - s * 0.3), (cx + s * 0.44, cy + s * 0.3)]
        canvas.polygon(cone, fill=(58, 48, 46))
        crater = [(cx - s * 0.1, cy - s * 0.3), (cx + s * 0.1, cy - s * 0.3)]
        crater += [
            (cx + s * 0.18, cy - s * 0.14),
            (cx, cy - s * 0.04),
            (cx - s * 0.18, cy - s * 0.14),
        ]
        canvas.polygon(crater, fill=LAVA)


def _tile_borders(canvas: Surface, lay: HexLayout, cells: Mapping[tuple[int, int], Any]) -> None:
    """Thin lines inside a tile, thick ones where two tiles (or the sea) meet."""
    thick = []
    for h, cell in cells.items():
        for direction in range(6):
            other = cells.get(neighbour(h, direction))
            edge = lay.edge(h, direction)
            if other is not None and other["tile"] == cell["tile"]:
                canvas.line(edge, (60, 60, 60), lay.size * 0.025)
            else:
                thick.append(edge)
    for edge in thick:
        canvas.line(edge, EDGE, lay.size * 0.09)


def _level_badge(canvas: Surface, centre: tuple[float, float], level: int, s: float) -> None:
    fill = shade((255, 255, 255), 1 - 0.12 * (level - 1))
    canvas.circle(centre, s * 0.17, fill=fill, outline=EDGE, width=s * 0.025)
    canvas.text(centre, str(level), s * 0.22, ink_on(fill), bold=True)


def _building(
    canvas: Surface, centre: tuple[float, float], cell: Mapping[str, Any], colour: Colour, s: float
) -> None:
    x, y = centre
    line = s * 0.04
    if cell["building"] == "hut":
        house = [(x - s * 0.26, y + s * 0.3), (x - s * 0.26, y - s * 0.04), (x, y - s * 0.32)]
        house += [(x + s * 0.26, y - s * 0.04), (x + s * 0.26, y + s * 0.3)]
        canvas.polygon(house, fill=colour, outline=EDGE, width=line)
        canvas.text((x, y + s * 0.12), str(cell["huts"]), s * 0.26, ink_on(colour), bold=True)
    elif cell["building"] == "temple":
        canvas.circle((x, y - s * 0.08), s * 0.24, fill=colour, outline=EDGE, width=line)
        base = [(x - s * 0.34, y + s * 0.32), (x - s * 0.34, y + s * 0.02)]
        base += [(x + s * 0.34, y + s * 0.02), (x + s * 0.34, y + s * 0.32)]
        canvas.polygon(base, fill=colour, outline=EDGE, width=line)
        canvas.line([(x, y - s * 0.32), (x, y - s * 0.44)], EDGE, line)
        canvas.text((x, y + s * 0.17), "T", s * 0.22, ink_on(colour), bold=True)
    else:
        w, top, bottom, notch = s * 0.2, y - s * 0.22, y + s * 0.34, s * 0.1
        tower = [(x - w, bottom)]
        for left, right in ((-1, -0.6), (-0.2, 0.2), (0.6, 1)):  # three merlons
            tower += [(x + left * w, top), (x + left * w, top - notch)]
            tower += [(x + right * w, top - notch), (x + right * w, top)]
        tower.append((x + w, bottom))
        canvas.polygon(tower, fill=colour, outline=EDGE, width=line)
        canvas.text((x, y + s * 0.08), "W", s * 0.2, ink_on(colour), bold=True)


# -- panel ---------------------------------------------------------------


def write_panel(
    view: Mapping[str, Any], colours: Sequence[Colour], words: Words, out: PanelWriter
) -> None:
    state = view["state"]
    panel = Panel(view, colours, words, out)
    left = state["tiles_left"]
    details = words.ngettext(
        "%(num)s tile left in the pile", "%(num)s tiles left in the pile", left
    )
    panel.header(words.gettext("Taluva"), details)
    if not view.get("over") and state.get("current") is not None:
        name = panel.name(state["current"])
        if state["phase"] == "tile":
            panel.line(words.gettext("%(name)s to lay a tile", name=name), size=SMALL)
        else:
            panel.line(words.gettext("%(name)s to build", name=name), size=SMALL)
    players = state["players"]

    def seat_details(seat: int) -> list[str]:
        lines = [
            words.gettext("in stock: %(pieces)s", pieces=_pieces(players[seat]["stock"], words)),
            words.gettext("built: %(pieces)s", pieces=_pieces(players[seat]["built"], words)),
        ]
        if players[seat]["eliminated"]:
            lines.append(words.gettext("eliminated"))
        if players[seat]["finished"]:
            lines.append(words.gettext("finished (placed two whole kinds)"))
        return lines

    panel.seats(seat_details)
    if state.get("teams"):
        teams = [" + ".join(panel.name(s) for s in team) for team in state["teams"]]
        panel.line(words.gettext("Teams: %(teams)s", teams=" – ".join(teams)), size=SMALL)
    hand = state.get("tile_in_hand")
    if hand:
        panel.heading(words.gettext("Your tile"))
        _tile_in_hand(panel, hand)
    panel.last_turn()


def _pieces(pieces: Mapping[str, int], words: Words) -> str:
    """`3 huts · 1 temple · 0 towers` in the reader's language."""
    return " · ".join(
        [
            words.ngettext("%(num)s hut", "%(num)s huts", pieces["hut"]),
            words.ngettext("%(num)s temple", "%(num)s temples", pieces["temple"]),
            words.ngettext("%(num)s tower", "%(num)s towers", pieces["tower"]),
        ]
    )


def _tile_in_hand(panel: Panel, hand: Mapping[str, str]) -> None:
    """The drawn tile as it lies: volcano, then left and right clockwise from it."""
    tile = {(0, 0): "volcano", (1, -1): hand["left"], (1, 0): hand["right"]}
    seat = str(panel.view.get("viewer"))
    words = panel.words
    left, right = words.word(hand["left"]), words.word(hand["right"])
    name = words.gettext("volcano, %(left)s, %(right)s", left=left, right=right)

    def draw(canvas: Surface, top: float) -> None:
        lay = _hand_layout(tile)
        lay.shift(PAD, top)
        with canvas.item(name, tile=" ".join(tile.values()), seat=seat):
            for h, terrain in tile.items():
                terrain_hex(canvas, lay, h, terrain, 1)
                canvas.outline(lay.corners(h), EDGE, 2)
        x = PAD + lay.width + 12
        said_left = words.gettext("left: %(terrain)s", terrain=left)
        said_right = words.gettext("right: %(terrain)s", terrain=right)
        canvas.text((x, top + 24), said_left, 15, INK, anchor="la")
        canvas.text((x, top + 48), said_right, 15, INK, anchor="la")

    panel.drawing(_hand_layout(tile).height, words.gettext("Your tile"), draw)
    panel.gap(6)


def _hand_layout(tile: Iterable[tuple[int, int]]) -> HexLayout:
    return HexLayout(tile, 120, 110, 34, 2)
