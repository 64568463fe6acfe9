"""A real SMTP server for the tests (aiosmtpd on loopback) and Django pointed at it."""

from __future__ import annotations

import re
import threading
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests.ports import free_port


class Inbox:
    """What the server received: each message with its envelope recipients."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []
        self._lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        with self._lock:
            self.messages.append((list(envelope.rcpt_tos), message))  # type: ignore[arg-type]
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for rcpt, m in self.messages if address in rcpt]

    def link(self, address: str, path: str) -> str:
        """The one link to `path...` in the one message with such links sent to `address`."""
        found = []
        for message in self.to(address):
            body = message.get_body(preferencelist=("plain",))
            assert body is not None
            links = re.findall(rf"https?://\S+{re.escape(path)}\S*", body.get_content())
            if links:
                found.append(links)
        assert len(found) == 1 and len(found[0]) == 1, found
        return str(found[0][0])


def start(settings: Any) -> tuple[Inbox, Controller]:
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    return inbox, controller
