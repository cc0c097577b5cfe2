"""Numbers and times on the pages as their reader writes them (12.5 in English,
12,5 in French and Czech), formatted by Babel in the page's language."""

from __future__ import annotations

from fractions import Fraction

from flask import Flask
from flask_babel import format_decimal

from pbem.i18n.times import wall_clock

# Exact fractions as people write them in every one of our languages.
VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


def init_app(app: Flask) -> None:
    app.jinja_env.filters["decimal"] = one_decimal
    app.jinja_env.filters["signed_decimal"] = signed_one_decimal
    app.jinja_env.filters["points"] = points_words
    app.jinja_env.filters["wall_clock"] = wall_clock


def one_decimal(value: float) -> str:
    """A rating: one digit after the decimal point."""
    return format_decimal(value, format="#,##0.0")


def signed_one_decimal(value: float) -> str:
    """A rating change, with its sign even when it is a gain: +1.2, -0.4."""
    return format_decimal(value, format="+#,##0.0;-#,##0.0")


def points_words(points: Fraction) -> str:
    """League points exactly, as people write them: 1½, ⅔, 2 2/5."""
    whole, part = divmod(points, 1)
    number = format_decimal(whole) if whole else ""
    if not part:
        return number or "0"
    shown = VULGAR.get(part) or (f" {part}" if whole else str(part))
    return f"{number}{shown}"
