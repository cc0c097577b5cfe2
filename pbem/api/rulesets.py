"""Which games the server can run, with their options."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

import engine
from pbem.api.schemas import RulesetSchema

blp = Blueprint("api_rulesets", __name__, description="The games this server runs")


@blp.route("")
class Rulesets(MethodView):
    @blp.doc(operationId="listRulesets", security=[])
    @blp.response(200, RulesetSchema(many=True))
    def get(self) -> list[type[engine.State[Any]]]:
        """Every ruleset and version, with its options"""
        return engine.rulesets()
