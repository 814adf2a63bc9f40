"""Holds answers to the live OpenAPI document: the schema it gives the path, method and status
(OpenAPI 3.0 semantics: nullable, strict objects) must accept the body. Used by the API tests
and by the tournament tests' Desk, so every answer those tests see is checked."""

from __future__ import annotations

import re
from typing import Any

from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource


class Documented:
    """Checks answers against the live document of `client`'s app."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.doc = client.get("/api/v1/openapi.json").get_json()
        self.registry = Registry().with_resource("doc", Resource.opaque(self.doc))
        self.checked: set[tuple[str, str, str]] = set()

    def _template(self, path: str) -> str:
        for template in sorted(self.doc["paths"], key=lambda t: t.count("{")):  # literal segments first
            if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path):
                return template
        raise AssertionError(f"{path} is not in the document")

    def call(self, method: str, path: str, **kw: Any) -> Any:
        r = getattr(self.client, method)(path, **kw)
        self.check(method, path, r)
        return r

    def check(self, method: str, path: str, r: Any) -> None:
        """Check an answer already received (not JSON, such as an export: only its status)."""
        template = self._template(path.split("?")[0])
        responses = self.doc["paths"][template][method]["responses"]
        code = str(r.status_code)
        assert code in responses, f"{method.upper()} {template} answered {code}, which the document does not list"
        content = responses[code].get("content", {})
        if "application/json" not in content:
            return
        schema = content["application/json"]["schema"]
        validator = OAS30Validator({**schema, "$ref": "doc" + schema["$ref"]} if "$ref" in schema else schema,
                                   registry=self.registry)
        errors = sorted(validator.iter_errors(r.get_json()), key=str)
        assert not errors, f"{method.upper()} {template} {code}: {errors[0].message} at {list(errors[0].path)}"
        self.checked.add((method, template, code))
