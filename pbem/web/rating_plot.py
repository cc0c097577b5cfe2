"""A rating's history as a small inline SVG line: drawn by hand, as a
polyline, so profiles need no plotting library and no extra request."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

WIDTH, HEIGHT, MARGIN = 240, 60, 4


def rating_plot(values: Sequence[float], label: str) -> Markup:
    """The values, oldest first, left to right, the highest at the top; a lone
    value is a dot. `label` names the plot for screen readers."""
    if not values:
        return Markup("")
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * MARGIN) / max(len(values) - 1, 1)
    points = [
        (MARGIN + i * step, MARGIN + (high - value) / span * (HEIGHT - 2 * MARGIN))
        for i, value in enumerate(values)
    ]
    coordinates = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    last_x, last_y = points[-1]
    return Markup(
        f'<svg class="rating-plot" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}">'
        f"<title>{escape(label)}</title>"
        f'<polyline fill="none" stroke="currentColor" stroke-width="1.5" points="{coordinates}"/>'
        f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="2.5" fill="currentColor"/>'
        "</svg>"
    )
