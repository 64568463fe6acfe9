"""The password hasher's work factor is a setting: Django's count unless set, hashes stay
checkable across counts, and a hash of another count is redone at the next check."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher, check_password, make_password

CONFIGURED = "accounts.hashers.ConfiguredPBKDF2PasswordHasher"


@pytest.fixture
def configured(settings: Any) -> Any:
    settings.PASSWORD_HASHERS = [CONFIGURED]
    return settings


def iterations_of(encoded: str) -> int:
    algorithm, iterations, _salt, _hash = encoded.split("$")
    assert algorithm == "pbkdf2_sha256"
    return int(iterations)


def test_unset_it_is_djangos_count(configured: Any) -> None:
    configured.PASSWORD_HASH_ITERATIONS = None
    assert iterations_of(make_password("s3cret words")) == PBKDF2PasswordHasher.iterations


def test_a_lower_count_hashes_and_checks(configured: Any) -> None:
    configured.PASSWORD_HASH_ITERATIONS = 1000
    encoded = make_password("s3cret words")
    assert iterations_of(encoded) == 1000
    assert check_password("s3cret words", encoded)
    assert not check_password("s3cret wordz", encoded)


def test_a_hash_of_another_count_is_redone_when_checked(configured: Any) -> None:
    configured.PASSWORD_HASH_ITERATIONS = 1000
    encoded = make_password("s3cret words")
    configured.PASSWORD_HASH_ITERATIONS = 2000
    redone: list[str] = []
    assert check_password("s3cret words", encoded, setter=redone.append)
    assert redone == ["s3cret words"]
    assert iterations_of(make_password("s3cret words")) == 2000
