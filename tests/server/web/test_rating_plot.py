"""The rating history plot: an inline SVG polyline drawn by hand."""

from __future__ import annotations

import re

from pbem.web.rating_plot import rating_plot


def test_the_plot_draws_one_point_per_value_highest_at_the_top():
    svg = str(rating_plot([0.0, 2.0, 1.0], "Ann's <Toy> rating"))
    points = re.search(r'points="([^"]+)"', svg).group(1).split()
    assert len(points) == 3
    heights = [float(point.split(",")[1]) for point in points]
    assert heights[1] < heights[2] < heights[0]
    assert "<title>Ann&#39;s &lt;Toy&gt; rating</title>" in svg
    assert str(rating_plot([], "none")) == ""
