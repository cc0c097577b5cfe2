"""A test client that finds every operation in the app's OpenAPI document and
checks each answer against the schema the document gives for its status."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from flask.testing import FlaskClient
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate
from werkzeug.test import TestResponse

METHODS = {"get", "post", "put", "patch", "delete"}


@cache
def _read(text: str) -> tuple[dict[str, Any], dict[str, tuple[str, str, Any]]]:
    """The document, checked, and its operations by id: once per text, since
    checking the whole document took a twentieth of the web tests' time."""
    document = json.loads(text)
    validate(document)
    operations = {
        operation["operationId"]: (path, method.upper(), operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }
    return document, operations


class OpenApiClient:
    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.document, self.operations = _read(
            client.get("/api/openapi.json").get_data(as_text=True)
        )
        self.called: set[str] = set()

    def call(
        self,
        operation_id: str,
        token: str | None = None,
        json: Any = None,
        query: dict[str, Any] | None = None,
        **params: Any,
    ) -> TestResponse:
        path, method, operation = self.operations[operation_id]
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.client.open(
            path.format(**params), method=method, json=json, headers=headers, query_string=query
        )
        self._check(operation_id, operation, response)
        self.called.add(operation_id)
        return response

    def _check(self, operation_id: str, operation: dict, response: TestResponse) -> None:
        status = str(response.status_code)
        assert status in operation["responses"], (
            f"{operation_id} answered {status}, which its document does not list: "
            f"{response.get_data(as_text=True)}"
        )
        documented = self._resolve(operation["responses"][status])
        schema = documented.get("content", {}).get("application/json", {}).get("schema")
        if schema is not None:
            OAS31Validator(self._resolve(schema)).validate(response.get_json())

    def _resolve(self, node: Any) -> Any:
        """The node with every $ref replaced by what it points at (no cycles here)."""
        if isinstance(node, dict):
            if "$ref" in node:
                target: Any = self.document
                for part in node["$ref"].removeprefix("#/").split("/"):
                    target = target[part]
                return self._resolve(target)
            return {key: self._resolve(value) for key, value in node.items()}
        if isinstance(node, list):
            return [self._resolve(item) for item in node]
        return node
