"""marshmallow's own messages for the fields our API uses, so the catalogues
hold them: a refused body's summary (`message`) is in the reader's language,
while `errors` keeps marshmallow's English for programs."""

from __future__ import annotations

from flask_babel import lazy_gettext

MARSHMALLOW_MESSAGES = (
    lazy_gettext("Missing data for required field."),
    lazy_gettext("Unknown field."),
    lazy_gettext("Field may not be null."),
    lazy_gettext("Invalid input type."),
    lazy_gettext("Invalid type."),
    lazy_gettext("Invalid value."),
    lazy_gettext("Not a valid string."),
    lazy_gettext("Not a valid utf-8 string."),
    lazy_gettext("Not a valid integer."),
    lazy_gettext("Not a valid number."),
    lazy_gettext("Number too large."),
    lazy_gettext("Special numeric values (nan or infinity) are not permitted."),
    lazy_gettext("Not a valid boolean."),
    lazy_gettext("Not a valid list."),
    lazy_gettext("Not a valid mapping type."),
    lazy_gettext("Not a valid datetime."),
)
