"""The game page's data is light: one layout by name, the picker's outline form, JSON gzipped
where no secret rides along (BREACH), the pages themselves never compressed."""

from __future__ import annotations

import gzip
import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_one_layout_by_name_is_what_the_table_needs() -> None:
    response = Client().get("/api/layouts/pyramid")
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "pyramid" and len(body["slots"]) == body["size"]
    assert set(body["slots"][0]) == {"position", "x", "y", "z", "covered_by"}


def test_an_unknown_layout_is_a_clear_404() -> None:
    response = Client().get("/api/layouts/no-such-layout")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_the_pickers_outline_form_is_a_fraction_of_the_full_list() -> None:
    client = Client()
    full = client.get("/api/layouts").content
    outline = client.get("/api/layouts?form=outline")
    body = outline.json()
    assert len(body["layouts"]) >= 54
    classic = body["layouts"][0]
    assert classic["name"] == "classic" and classic["slots"][0] == [3, 0, 0]
    assert len(outline.content) < len(full) / 2


def test_game_api_json_is_gzipped() -> None:
    response = Client().get("/api/layouts", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(response.content))["default"] == "classic"


def test_answers_that_carry_secrets_are_never_compressed() -> None:
    client = Client()
    page = client.get("/", HTTP_ACCEPT_ENCODING="gzip")
    assert page.status_code == 200 and "Content-Encoding" not in page
    csrf = client.get("/api/auth/csrf", HTTP_ACCEPT_ENCODING="gzip")
    assert "Content-Encoding" not in csrf
