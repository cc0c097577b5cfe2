"""The signed-in user's vacation through the API: days left this year,
starting one (every clock of theirs stops) and coming back early."""

from __future__ import annotations

from typing import Any, NoReturn

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from flask_smorest.error_handler import ErrorSchema
from webargs.flaskparser import abort

from pbem.api.auth import api_user
from pbem.api.schemas import VacationSchema, VacationStartSchema
from pbem.db import request_session
from pbem.models import utcnow
from pbem.services import vacation
from pbem.services.errors import Conflict, ServiceError

blp = Blueprint("api_vacation", __name__, description="Your vacation: your clocks stop")


def _status() -> vacation.VacationStatus:
    allowance = current_app.config["PBEM_VACATION_DAYS"]
    return vacation.status(request_session(), api_user(), allowance, utcnow())


def _refused(error: ServiceError) -> NoReturn:
    request_session().rollback()
    abort(409 if isinstance(error, Conflict) else 422, message=str(error))


@blp.route("")
class Vacation(MethodView):
    @blp.doc(operationId="getVacation")
    @blp.response(200, VacationSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    def get(self) -> vacation.VacationStatus:
        """Your vacation days this year and the vacation you are on, if any"""
        return _status()

    @blp.doc(operationId="startVacation")
    @blp.arguments(VacationStartSchema)
    @blp.response(201, VacationSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    @blp.alt_response(409, schema=ErrorSchema, description="You are on vacation already")
    @blp.alt_response(422, schema=ErrorSchema, description="More days than you have left")
    def post(self, body: dict[str, Any]) -> vacation.VacationStatus:
        """Start a vacation now: your clocks stop in every game for that many days"""
        allowance = current_app.config["PBEM_VACATION_DAYS"]
        try:
            vacation.start(request_session(), api_user(), body["days"], allowance, utcnow())
        except ServiceError as exc:
            _refused(exc)
        request_session().commit()
        return _status()

    @blp.doc(operationId="endVacation")
    @blp.response(200, VacationSchema)
    @blp.alt_response(401, schema=ErrorSchema, description="No valid API token")
    @blp.alt_response(409, schema=ErrorSchema, description="You are not on vacation")
    def delete(self) -> vacation.VacationStatus:
        """Come back now: your clocks run again"""
        try:
            vacation.end(request_session(), api_user(), utcnow())
        except ServiceError as exc:
            _refused(exc)
        request_session().commit()
        return _status()
