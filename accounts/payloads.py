"""The shapes accounts' API takes and sends beyond its serializers' own."""

from __future__ import annotations

from typing import TypedDict


class SignUp(TypedDict):
    """A sign-up's validated fields (`SignUpSerializer`, its email taken out)."""

    username: str
    password: str
    display_name: str
