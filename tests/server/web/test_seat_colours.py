"""One palette: a seat's dot on the page is the colour the board picture draws
for that seat, and the mail shows the page's very picture."""

from __future__ import annotations

import io
import re

from PIL import Image
from sqlalchemy import select

from pbem.mail.compose import compose
from pbem.models import Outbox
from tests.mail.helpers import board_png
from tests.render.helpers import cut_in_two
from tests.server.pipeline_helpers import start_game

DOT = re.compile(r'class="dot" style="background: ([^"]+)"')


def pixel_counts(png: bytes) -> dict[str, int]:
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    return {
        "#{:02x}{:02x}{:02x}".format(*colour): count
        for count, colour in picture.getcolors(picture.width * picture.height)
    }


def test_page_dots_picture_and_mail_use_one_colour_per_seat(app, session, make_user, signed_in_as):
    ann, bob, cy = make_user("Ann"), make_user("Bob"), make_user("Cy")
    game = start_game(app, session, "taluva", [ann, bob, cy])
    browser = signed_in_as(ann)
    # A dot per seat by each name, and again in the side panel beside the board.
    dots = set(DOT.findall(browser.get(f"/games/{game.public_id}").get_data(as_text=True)))
    page_png = browser.get(f"/games/{game.public_id}/board.png?seat=0").get_data()
    counts = pixel_counts(page_png)
    assert len(dots) == 3
    for colour in dots:  # each seat's swatch in the picture's panel, at least
        assert re.fullmatch(r"#[0-9a-f]{6}", colour) and counts.get(colour, 0) >= 100, colour
    row = session.scalar(
        select(Outbox).where(Outbox.game_id == game.id, Outbox.recipient_id == ann.id)
    )
    assert board_png(compose(session, row, app.config)) == cut_in_two(page_png)[0]
