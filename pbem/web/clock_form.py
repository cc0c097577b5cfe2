"""The new-game form's time control: its fields, their defaults, and reading
them into a TimeControl, with a clear refusal for anything else."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext

from pbem.models import OnTimeout
from pbem.numbers import whole_number
from pbem.services.errors import Invalid
from pbem.services.time_control import BANK_DAYS, DAYS_PER_MOVE, TIMEOUT_WORDS, TimeControl

# What the fieldset offers (templates/_time_control_fieldset.html).
CLOCK_FIELDS = {"days": DAYS_PER_MOVE, "bank": BANK_DAYS, "timeouts": TIMEOUT_WORDS}
# A new form offers a clock: correspondence games without one tend to stall.
CLOCK_DEFAULTS = {
    "clock": "on",
    "days-per-move": "3",
    "bank-days": "0",
    "on-timeout": OnTimeout.BOT.value,
}
# What a field that is no whole number in range is told, by field.
REFUSALS = {
    "days-per-move": lazy_gettext("days per move must be a whole number from %(low)s to %(high)s"),
    "bank-days": lazy_gettext("bank days must be a whole number from %(low)s to %(high)s"),
}


def time_control_from_form(form: Mapping[str, Any]) -> TimeControl | None:
    """The clock the form asks for; None for "no clock" (or a form without the fieldset)."""
    if form.get("clock") != "on":
        return None
    return TimeControl(
        days_per_move=_whole_number(form, "days-per-move", DAYS_PER_MOVE),
        bank_days=_whole_number(form, "bank-days", BANK_DAYS),
        weekends_off=bool(form.get("weekends-off")),
        on_timeout=form.get("on-timeout", OnTimeout.BOT.value),
    )


def _whole_number(form: Mapping[str, Any], field: str, allowed: range) -> int:
    raw = str(form.get(field, "")).strip()
    number = whole_number(raw)
    if number is None:
        refusal = str(REFUSALS[field]) % {"low": allowed.start, "high": allowed.stop - 1}
        if raw:
            refusal = _("%(refusal)s, not %(given)s", refusal=refusal, given=repr(raw))
        raise Invalid(refusal)
    return number
