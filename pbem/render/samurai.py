"""Samurai: the map with sea, land and settlements, tiles in seat colours with
their symbol and strength, figures on the settlements, and the viewer's screen."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.games.samurai.tiles import UNKNOWN
from pbem.render.colours import EDGE, INK, MUTED, SAMURAI_FIGURE, SAMURAI_SPACE, ink_on, shade
from pbem.render.hexdraw import HexLayout
from pbem.render.lastturn import highlight, outlines
from pbem.render.panel import PAD, SMALL, WIDTH, Panel, PanelWriter
from pbem.render.surface import Colour, Point, Surface
from pbem.render.words import Words

MAX_WIDTH, MAX_HEIGHT = 1180, 1400
MIN_WIDTH, MIN_HEIGHT = 700, 700
MAX_HEX = 40
MARGIN = 16

# The notation's picture abbreviations (docs/notation/samurai.md).
SYMBOLS = {
    "helmet": "H",
    "buddha": "B",
    "rice": "R",
    "samurai": "S",
    "ronin": "Ro",
    "ship": "Sh",
    "token-exchange": "TX",
    "figure-exchange": "FX",
}
FIGURE_LETTERS = {"helmet": "H", "buddha": "B", "rice": "R"}


def tile_label(code: str) -> str:
    """`helmet4` -> `H4`, `ronin` -> `Ro`, as in the text picture; `?` for a
    preview's tile from the pile."""
    if code == UNKNOWN:
        return "?"
    kind, strength = _kind_and_strength(code)
    if kind == "ronin":
        return "Ro"
    return SYMBOLS.get(kind, kind[:2]) + strength


def _kind_and_strength(code: str) -> tuple[str, str]:
    """`helmet4` -> ("helmet", "4"), `ronin` -> ("ronin", "")."""
    found = re.fullmatch(r"([a-z-]+?)(\d*)", code)
    if found is None:
        raise ValueError(f"no Samurai tile {code!r}")
    return found[1], found[2]


def tile_name(code: str, words: Words) -> str:
    """`helmet4` -> `helmet 4`, in the rulebook's words, as is a preview's
    tile not drawn yet."""
    if code == UNKNOWN:
        return words.word(code)
    kind, strength = _kind_and_strength(code)
    return f"{words.word(kind)} {strength}".rstrip()


def space_name(space: Mapping[str, Any], view: Mapping[str, Any], words: Words) -> str:
    """What a screen reader says of a space: its kind, its figures, the tile on it."""
    state = view["state"]
    said = [_kind_name(space["kind"], words)]
    figures = state["figures"].get(space["name"], [])
    if figures:
        said.append(", ".join(words.word(figure) for figure in figures))
    placed = state["tiles"].get(space["name"])
    if placed is not None:
        said.append(
            words.gettext(
                "tile %(tile)s of %(player)s",
                tile=tile_name(placed["tile"], words),
                player=view["seats"][placed["seat"]],
            )
        )
    return words.gettext("%(space)s: %(details)s", space=space["name"], details=", ".join(said))


def _kind_name(kind: str, words: Words) -> str:
    names = {
        "sea": words.gettext("sea"),
        "land": words.gettext("land"),
        "village": words.gettext("village"),
        "city": words.gettext("city"),
        "edo": words.gettext("Edo"),
    }
    return names[kind]


def layout(view: Mapping[str, Any]) -> HexLayout:
    hexes = [(s["q"], s["r"]) for s in view["state"]["spaces"]]
    return HexLayout(hexes, MAX_WIDTH, MAX_HEIGHT, MAX_HEX, MARGIN, MIN_WIDTH, MIN_HEIGHT)


def centres(view: Mapping[str, Any]) -> dict[str, Point]:
    lay = layout(view)
    return {s["name"]: lay.centre((s["q"], s["r"])) for s in view["state"]["spaces"]}


# -- board ---------------------------------------------------------------


def draw_board(
    canvas: Surface,
    lay: HexLayout,
    view: Mapping[str, Any],
    colours: Sequence[Colour],
    words: Words,
) -> dict[str, Point]:
    state = view["state"]
    spaces = {s["name"]: s for s in state["spaces"]}
    s = lay.size
    for space in spaces.values():
        fill = SAMURAI_SPACE[space["kind"]]
        with canvas.item(space_name(space, view, words), space=space["name"]):
            canvas.polygon(lay.corners(_hex(space)), fill, shade(fill, 0.55), s * 0.05)
    for name, seat in outlines(view, spaces).items():
        highlight(canvas, lay, _hex(spaces[name]), colours[seat])
    for name, space in spaces.items():
        cx, cy = lay.centre(_hex(space))
        canvas.text((cx, cy - s * 0.62), name, s * 0.27, ink_on(SAMURAI_SPACE[space["kind"]]))
        if space["slots"]:
            figures = state["figures"].get(name, [])
            _settlement(canvas, (cx, cy + s * 0.12), space, figures, s)
    for name, placed in state["tiles"].items():
        cx, cy = lay.centre(_hex(spaces[name]))
        tile_chip(canvas, (cx, cy + s * 0.1), placed["tile"], colours[placed["seat"]], s * 0.7)
    return {name: lay.centre(_hex(space)) for name, space in spaces.items()}


def _hex(space: Mapping[str, Any]) -> tuple[int, int]:
    return space["q"], space["r"]


def tile_chip(canvas: Surface, centre: Point, code: str, colour: Colour, size: float) -> None:
    """A square tile in its owner's colour with symbol and strength."""
    x, y = centre
    half = size / 2
    box = (x - half, y - half, x + half, y + half)
    canvas.rounded_rect(box, size * 0.16, colour, EDGE, size * 0.06)
    label = tile_label(code)
    canvas.text(
        (x, y), label, size * (0.46 if len(label) <= 2 else 0.38), ink_on(colour), bold=True
    )


def _settlement(
    canvas: Surface, centre: Point, space: Mapping[str, Any], figures: Sequence[str], s: float
) -> None:
    """A band as wide as the settlement's figure places, each figure a disc."""
    slots = max(space["slots"], len(figures), 1)
    step, radius = s * 0.46, s * 0.2
    fill = shade(SAMURAI_SPACE[space["kind"]], 0.78)
    x, y = centre
    half = (slots * step + s * 0.1) / 2
    box = (x - half, y - s * 0.28, x + half, y + s * 0.28)
    canvas.rounded_rect(box, s * 0.28, fill, EDGE, s * (0.09 if space["kind"] == "edo" else 0.05))
    x0 = x - step * (slots - 1) / 2
    for i in range(slots):
        spot = (x0 + i * step, y)
        if i < len(figures):
            figure_disc(canvas, spot, figures[i], radius)
        else:
            canvas.circle(spot, radius * 0.7, outline=shade(fill, 0.6), width=s * 0.03)


def figure_disc(canvas: Surface, centre: Point, figure: str, radius: float) -> None:
    colour = SAMURAI_FIGURE[figure]
    canvas.circle(centre, radius, fill=colour, outline=EDGE, width=radius * 0.16)
    canvas.text(centre, FIGURE_LETTERS[figure], radius * 1.25, ink_on(colour), bold=True)


# -- panel ---------------------------------------------------------------


def _phase(phase: str, turn: int, words: Words) -> str:
    if phase == "choose":
        return words.gettext("opening: every seat chooses 5 tiles")
    if phase == "figures":
        return words.gettext("setup: placing figures")
    if phase == "play":
        return words.gettext("turn %(turn)s", turn=turn)
    return words.gettext("game over")


def write_panel(
    view: Mapping[str, Any], colours: Sequence[Colour], words: Words, out: PanelWriter
) -> None:
    state = view["state"]
    panel = Panel(view, colours, words, out)
    panel.header(words.gettext("Samurai"), _phase(state["phase"], state["turn"], words))
    seats = state["seats"]

    def seat_details(seat: int) -> list[str]:
        entry = seats[seat]
        lines = [
            words.gettext(
                "hand %(hand)s · pile %(pile)s · figure exchanges played %(exchanges)s",
                hand=entry["hand_size"],
                pile=entry["pile_size"],
                exchanges=entry["figure_exchanges_played"],
            )
        ]
        if state["phase"] == "choose":
            if entry["chosen"]:
                lines.append(words.gettext("has chosen"))
            else:
                lines.append(words.gettext("still choosing"))
        if seat in state.get("passed", []):
            lines.append(words.gettext("passed"))
        return lines

    panel.seats(seat_details)
    _figures_off_board(panel, state)
    for seat, entry in enumerate(seats):
        if "hand" in entry:
            _screen(panel, seat, entry, colours[seat])
    if state.get("played_this_turn"):
        played = ", ".join(state["played_this_turn"])
        panel.line(words.gettext("Played this turn: %(moves)s", moves=played), size=SMALL)
    _resolution(panel, state.get("last_resolution", []))
    panel.last_turn()
    panel.gap(6)
    # The figure exchange is never on the board, but it shows behind a screen.
    legend = words.gettext(
        "H helmet · B buddha · R rice · S samurai · Ro ronin · Sh ship · TX token exchange"
        " · FX figure exchange"
    )
    panel.line(legend, MUTED, 12)


def _figure_counts(counts: Mapping[str, int], words: Words) -> str:
    return ", ".join(f"{words.word(figure)} {n}" for figure, n in counts.items())


def _figures_off_board(panel: Panel, state: Mapping[str, Any]) -> None:
    words = panel.words
    panel.heading(words.gettext("Figures"))
    if any(state["figure_supply"].values()):
        supply = _figure_counts(state["figure_supply"], words)
        panel.line(words.gettext("still to place: %(figures)s", figures=supply), size=SMALL)
    set_aside = _figure_counts(state["set_aside"], words)
    panel.line(words.gettext("set aside: %(figures)s", figures=set_aside), size=SMALL)


def _screen(panel: Panel, seat: int, entry: Mapping[str, Any], colour: Colour) -> None:
    """What lies behind a screen the view opens: the hand as tiles, the rest as text."""
    words = panel.words
    if seat == panel.view.get("viewer"):
        panel.heading(words.gettext("Behind your screen"))
    else:
        panel.heading(words.gettext("Behind %(name)s's screen", name=panel.name(seat)))
    hand = words.ngettext("hand: %(num)s tile", "hand: %(num)s tiles", len(entry["hand"]))
    panel.line(hand, INK, SMALL)
    chip = 44

    def draw(canvas: Surface, top: float) -> None:
        for i, code in enumerate(entry["hand"]):
            x = PAD + chip / 2 + i * (chip + 8)
            if x + chip / 2 > WIDTH - PAD:
                break
            with canvas.item(tile_name(code, words), tile=code, seat=str(seat)):
                tile_chip(canvas, (x, top + chip / 2), code, colour, chip)

    if entry["hand"]:
        hand_of = words.gettext("hand of %(player)s", player=panel.name(seat))
        panel.drawing(chip, hand_of, draw)
        panel.gap(8)
    if entry.get("choice"):
        choice = _tiles_text(entry["choice"], words)
        panel.line(words.gettext("opening choice: %(tiles)s", tiles=choice), INK, SMALL)
    pile = _pile_text(entry["pile_tiles"], words)
    panel.line(words.gettext("pile holds: %(tiles)s", tiles=pile), INK, SMALL)
    captured = _figure_counts(entry["captured"], words)
    panel.line(words.gettext("captured: %(figures)s", figures=captured), INK, SMALL)


def _tiles_text(codes: Sequence[str], words: Words) -> str:
    """`helmet4 buddha3` as the reader's rulebook names the tiles (`přilba4 buddha3`)."""
    return " ".join(words.word(code) for code in codes)


def _pile_text(pile: Sequence[str], words: Words) -> str:
    """The pile's tiles; after a preview's draw, only how many are left."""
    unknown = pile.count(UNKNOWN)
    known = [code for code in pile if code != UNKNOWN]
    parts = [_tiles_text(known, words)] if known else []
    if unknown:
        parts.append(
            words.ngettext(
                "%(num)s tile not known before the draw",
                "%(num)s tiles not known before the draw",
                unknown,
            )
        )
    return ", ".join(parts) or words.gettext("nothing")


def _resolution(panel: Panel, events: Sequence[Mapping[str, Any]]) -> None:
    if not events:
        return
    words = panel.words
    panel.heading(words.gettext("Last resolution"))
    for event in events:
        where, figure = event["settlement"], words.word(event["figure"])
        if event["set_aside"]:
            fate = words.gettext("%(space)s: %(figure)s set aside", space=where, figure=figure)
        elif "taken_by" in event:
            fate = words.gettext(
                "%(space)s: %(figure)s taken by %(name)s",
                space=where,
                figure=figure,
                name=panel.name(event["taken_by"]),
            )
        else:
            fate = words.gettext("%(space)s: %(figure)s taken", space=where, figure=figure)
        panel.line(fate, size=SMALL)
