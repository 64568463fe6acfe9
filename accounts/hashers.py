"""Django's PBKDF2 password hasher, its work factor a setting (``PASSWORD_HASH_ITERATIONS``).

The default is Django's own count, at which one hash costs 0.23 s of CPU here. A lower one is for
throwaway stacks only: the fault tests' private servers, which sign dozens of players up at once.
The algorithm's name is Django's, so hashes stay checkable either way, and a password hashed
with another count is hashed again with the setting's at its next sign-in.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher


class ConfiguredPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    @property
    def iterations(self) -> int:  # type: ignore[override]
        configured: int | None = settings.PASSWORD_HASH_ITERATIONS
        return configured or PBKDF2PasswordHasher.iterations
