"""The OpenAPI schema validates and the docs page serves its assets locally."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.test import Client
from openapi_spec_validator import validate

pytestmark = pytest.mark.django_db


def test_schema_generates_without_warnings_and_validates(tmp_path: Path) -> None:
    out = tmp_path / "schema.yml"

    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(out), stderr=StringIO()
    )

    schema = yaml.safe_load(out.read_text())
    validate(schema)
    assert schema["openapi"].startswith("3.")


def test_schema_endpoint_serves_a_valid_openapi_document(client: Client) -> None:
    response = client.get("/api/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    schema = response.json()
    validate(schema)
    paths = schema["paths"]
    for path in [
        "/api/auth/signup",
        "/api/auth/token",
        "/api/auth/login",
        "/api/auth/logout",
        "/api/me",
    ]:
        assert path in paths, path
    assert "tokenAuth" in schema["components"]["securitySchemes"]


def test_docs_page_renders_with_local_assets_only(client: Client) -> None:
    response = client.get("/api/docs")

    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    assert "cdn." not in html and "unpkg" not in html
