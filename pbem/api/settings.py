"""The signed-in user's own settings through the API."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from flask_smorest.error_handler import ErrorSchema
from webargs.flaskparser import abort

from pbem.api.auth import api_user
from pbem.api.schemas import SettingsSchema
from pbem.db import request_session
from pbem.models import User
from pbem.services import accounts
from pbem.services.errors import Invalid

blp = Blueprint("api_settings", __name__, description="Your own settings")


@blp.route("")
class Settings(MethodView):
    @blp.doc(operationId="getSettings")
    @blp.response(200, SettingsSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    def get(self) -> User:
        """Your name, time zone, language, which mails you get and when"""
        return api_user()

    @blp.doc(operationId="updateSettings")
    @blp.arguments(SettingsSchema)
    @blp.response(200, SettingsSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    @blp.alt_response(422, schema=ErrorSchema, description="A value is not allowed")
    def patch(self, body: dict[str, Any]) -> User:
        """Change some of your settings; the others stay as they are"""
        user = api_user()
        try:
            accounts.update_settings(request_session(), user, **body)
        except Invalid as exc:
            abort(422, message=str(exc))
        request_session().commit()
        return user


@blp.route("/calendar")
class CalendarAddress(MethodView):
    @blp.doc(operationId="newCalendarAddress")
    @blp.response(200, SettingsSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    def post(self) -> User:
        """A new secret address for your calendar feed; the old one stops working"""
        user = api_user()
        accounts.new_calendar_token(user)
        request_session().commit()
        return user
