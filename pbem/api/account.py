"""The signed-in user's account as a whole: everything pbem holds about them."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint
from flask_smorest.error_handler import ErrorSchema

from pbem.accounts.export import export_account
from pbem.api.auth import api_user
from pbem.db import request_session

blp = Blueprint("api_account", __name__, description="Your account and your data")


class AccountExportSchema(ma.Schema):
    """Each kind of data under its own key, as the privacy page (/privacy) lists them."""

    format = ma.fields.String()
    version = ma.fields.Integer()
    exported_at = ma.fields.String()
    account = ma.fields.Dict()
    settings = ma.fields.Dict()
    api_tokens = ma.fields.List(ma.fields.Dict(), metadata={"description": "labels, never tokens"})
    sign_ins = ma.fields.List(
        ma.fields.Dict(), metadata={"description": "the browsers signed in: when, never secrets"}
    )
    vacations = ma.fields.List(ma.fields.Dict())
    games = ma.fields.List(ma.fields.Dict(), metadata={"description": "your seats, moves, chat"})
    games_organised = ma.fields.List(ma.fields.String())
    turns_sent = ma.fields.List(ma.fields.Dict())
    mails_to_you = ma.fields.List(ma.fields.Dict())
    mails_from_you = ma.fields.List(ma.fields.Dict())
    ratings = ma.fields.List(ma.fields.Dict())
    rating_changes = ma.fields.List(ma.fields.Dict())
    leagues = ma.fields.Dict()
    notices = ma.fields.Dict(
        metadata={"description": "webhooks (not their secrets), browsers, choices per game"}
    )


@blp.route("/export")
class Export(MethodView):
    @blp.doc(operationId="exportAccount")
    @blp.response(200, AccountExportSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    def get(self) -> dict[str, Any]:
        """Everything pbem holds about you, as one JSON document"""
        return export_account(request_session(), api_user())
