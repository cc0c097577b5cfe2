"""Player colours and board palettes, chosen to stay apart from every terrain."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.render.surface import Colour

# The one palette: pictures, pages and mails resolve a seat's colour name here.
NAMED_COLOURS: dict[str, Colour] = {
    "red": (214, 40, 57),
    "blue": (30, 80, 220),
    "white": (250, 246, 232),
    "purple": (130, 50, 190),
    "orange": (240, 140, 20),
    "black": (20, 20, 24),
    "green": (30, 150, 70),
    "yellow": (245, 205, 30),
    "brown": (130, 80, 40),
}
# What new games' seats get, in seat order: the colours apart from every terrain
# (green and yellow, kept for older games, are close to jungle and sand).
SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "white", "purple", "orange", "black")
PLAYER_COLOURS: tuple[Colour, ...] = tuple(NAMED_COLOURS[name] for name in SEAT_COLOURS)

BACKGROUND: Colour = (246, 243, 236)
PANEL: Colour = (255, 255, 255)
INK: Colour = (28, 28, 32)
MUTED: Colour = (105, 105, 115)
EDGE: Colour = (40, 36, 32)

TALUVA_TERRAIN: dict[str, Colour] = {
    "volcano": (92, 78, 74),
    "jungle": (56, 132, 64),
    "clearing": (152, 204, 96),
    "sand": (236, 212, 132),
    "rock": (168, 166, 160),
    "lake": (110, 178, 226),
}
LAVA: Colour = (232, 84, 36)

SAMURAI_SPACE: dict[str, Colour] = {
    "sea": (150, 196, 230),
    "land": (214, 222, 160),
    "village": (226, 200, 150),
    "city": (214, 176, 120),
    "edo": (200, 150, 96),
}
SAMURAI_FIGURE: dict[str, Colour] = {
    "helmet": (90, 96, 112),
    "buddha": (226, 172, 40),
    "rice": (248, 246, 228),
}


def parse_colour(value: str | Colour) -> Colour:
    """A seat colour from the server: a name, "#rrggbb", or already a triple."""
    if isinstance(value, tuple):
        return value
    text = value.strip().lower()
    if text in NAMED_COLOURS:
        return NAMED_COLOURS[text]
    if len(text) == 7 and text.startswith("#"):
        return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)
    raise ValueError(f"unknown colour {value!r}")


def css_colour(value: str | Colour) -> str:
    """A seat colour as CSS "#rrggbb", the very colour the pictures draw."""
    return "#{:02x}{:02x}{:02x}".format(*parse_colour(value))


def seat_colours(players: int, chosen: Sequence[str | Colour] | None = None) -> list[Colour]:
    if chosen is not None:
        if len(chosen) != players:
            raise ValueError(f"{len(chosen)} colours given for {players} seats")
        return [parse_colour(c) for c in chosen]
    return [PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i in range(players)]


def ink_on(colour: Colour) -> Colour:
    """Black or white text, whichever reads on `colour`."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def shade(colour: Colour, factor: float) -> Colour:
    """Darker below 1, lighter above 1 (towards white)."""

    def channel(c: int) -> int:
        return round(c * factor) if factor <= 1 else round(c + (255 - c) * (factor - 1))

    red, green, blue = colour
    return channel(red), channel(green), channel(blue)


JAVA_BOARD: dict[str, Colour] = {
    "land": (236, 230, 210),  # central Java not yet covered
    "mountain": (150, 138, 126),
    "lowland": (188, 206, 152),
    "irrigation": (84, 154, 222),
}
JAVA_FACE: dict[str, Colour] = {
    "rice": (104, 168, 74),
    "village": (204, 136, 84),
}
PALACE: Colour = (238, 196, 64)
FESTIVAL: Colour = (200, 30, 40)
CARD: Colour = (252, 248, 236)
