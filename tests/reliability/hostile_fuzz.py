"""Hostile input, fuzzed with hypothesis, at every REST operation of the OpenAPI schema and every
socket message (the game socket and the live board): Unicode digits, NUL and other control
characters, lone surrogates, invisible and bidi characters, huge and deeply nested JSON, invalid
UTF-8, and every field of every body and query given every other JSON type. Not one answer may be
a 5xx (no outage is injected here: tests/reliability/test_faults.py does that), every REST error is
JSON with a `detail`, and every socket frame gets exactly one answer.

Bounded for `make test`: REST_EXAMPLES per operation, SOCKET_EXAMPLES batches per socket,
derandomized (the same cases every run); the figures are printed (`-s`) and quoted in
docs/reliability.md. tests/reliability/test_api_fuzz_*.py fuzz the same API from its schema with
schemathesis (valid-looking requests); this one is about hostile values.

The fuzz itself, run by three test files so that worksteal gives them to three workers:
test_hostile_fuzz.py and test_hostile_fuzz_more.py (every other REST operation each),
test_hostile_fuzz_sockets.py (the two sockets).
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.play.helpers import client_for, start_custom, winnable_code
from tripeaks.config.asgi import application

REST_EXAMPLES = 40
SOCKET_EXAMPLES = 50

# --------------------------------------------------------------------------- hostile values

NASTY_STRINGS = [
    "²",  # superscript two: str.isdigit(), yet int() refuses it
    "٣",  # Arabic-Indic three: int() takes it
    "７",  # fullwidth seven
    "𝟗",  # mathematical bold nine
    "\x00",
    "a\x00b",
    "\x01\x02\x1b[31m\x7f",
    "\u202eevil",
    "line\u2028sep",
    "\u3164",
    "\ufeff",
    "\u200b",
    "💥" * 20,
    "1e3",
    "-0",
    "NaN",
    "Infinity",
    "0x10",
    "9" * 400,
    "../../etc/passwd",
    "%00",
    "' OR 1=1 --",
    "{{7*7}}",
    "<script>alert(1)</script>",
    " ",
    "",
    "wrap-closed",
    "classic",
    "daily",
    "play",
    "draw",
]
SPECIAL_NUMBERS = [0, -1, 1, 51, 52, 2**31, 2**63, 2**64, 10**30, -(2**63) - 1, 0.5, 1e308, -0.0]

nasty_text = st.one_of(
    st.sampled_from(NASTY_STRINGS),
    st.text(max_size=40),
    st.text(
        alphabet=st.characters(codec="utf-8", categories=("Cc", "Cf", "Zl", "Zp", "Nd", "No")),
        max_size=10,
    ),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(SPECIAL_NUMBERS),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    nasty_text,
)
# Sentinels replaced in the JSON text after dumping (json.dumps cannot write them).
DEEP = "\x00DEEP{}\x00"
HUGE = "\x00HUGE{}\x00"
SURROGATE = "\x00SURROGATE\x00"
specials = st.one_of(
    st.integers(33, 100_000).map(DEEP.format),
    st.sampled_from([10_000, 1_000_000]).map(HUGE.format),
    st.just(SURROGATE),
)
values = st.recursive(
    scalars | specials,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(nasty_text, children, max_size=4)
    ),
    max_leaves=8,
)


def to_json(value: Any) -> bytes:
    """JSON text of `value`, with the sentinels turned into what json.dumps cannot write."""
    text = json.dumps(value)

    def deep(match: re.Match[str]) -> str:
        depth = int(match.group(1))
        return "[" * depth + "]" * depth

    text = re.sub(r'"\\u0000DEEP(\d+)\\u0000"', deep, text)
    text = re.sub(r'"\\u0000HUGE(\d+)\\u0000"', lambda m: json.dumps("x" * int(m.group(1))), text)
    text = text.replace('"\\u0000SURROGATE\\u0000"', '"\\ud800 lone"')
    return text.encode()


# A valid value for every body field the API has: a body made of these, with one field swapped for a
# hostile value of any type, reaches the validation of that one field.
VALID = {
    "username": "fuzzy_one",
    "password": "a long password 77",
    "display_name": "Fuzzy",
    "mode": "daily",
    "rules": {"wrap": True, "open": False},
    "layout": "classic",
    "number": 7,
    "deal": "AH 2H",
    "seq": 0,
    "action": "draw",
    "position": 0,
    "reason": "fuzz",
}


def one_swapped(fields: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """A valid body with one field (or one nested rules field) given a hostile value."""
    template = {name: VALID.get(name, "x") for name in fields}

    def swap(name: str, value: Any) -> dict[str, Any]:
        body = dict(template)
        if name.startswith("rules.") and "rules" in body:
            body["rules"] = {**VALID["rules"], name.split(".", 1)[1]: value}
        else:
            body[name] = value
        return body

    names = fields + (["rules.wrap", "rules.open", "rules.start"] if "rules" in fields else [])
    return st.builds(swap, st.sampled_from(names), values)


raw_bodies = st.one_of(
    st.binary(max_size=64),  # often invalid UTF-8
    st.integers(33, 200_000).map(lambda depth: b"[" * depth + b"]" * depth),
    st.integers(33, 50_000).map(lambda depth: b'{"a":' * depth + b"1" + b"}" * depth),
    st.just(b'{"seq": 1, "seq": "2"}'),
    st.just(b'"\\ud800"'),
    st.just(b"[" + b"1," * 400_000 + b"1]"),  # 800 kB of numbers
    st.just(b"x" * 3_000_000),  # over Django's 2.5 MB body limit
    st.just(b"NaN"),
)


# --------------------------------------------------------------------------- the REST API


def operations() -> list[dict[str, Any]]:
    """Every operation of the OpenAPI schema: method, path template, parameters, body fields."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    found = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            fields: list[str] = []
            if body:
                ref = body["schema"]["$ref"].rsplit("/", 1)[1]
                fields = list(components[ref].get("properties", {}))
            found.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "path_params": [
                        p["name"] for p in operation.get("parameters", []) if p["in"] == "path"
                    ],
                    "query": [
                        p["name"] for p in operation.get("parameters", []) if p["in"] == "query"
                    ],
                    "fields": fields,
                }
            )
    return found


OPERATIONS = operations()


def request_for(operation: dict[str, Any], game_id: str) -> st.SearchStrategy[dict[str, Any]]:
    path_values = st.one_of(nasty_text, st.just(game_id), st.sampled_from(["7", "fuzzer", "wins"]))
    path = st.fixed_dictionaries(dict.fromkeys(operation["path_params"], path_values))
    query = st.dictionaries(
        st.sampled_from(operation["query"] or ["x"]),
        st.one_of(nasty_text, scalars.map(str)),
        max_size=len(operation["query"]) + 1,
    )
    field_values = values if operation["fields"] else st.nothing()
    body = st.one_of(
        st.dictionaries(
            st.sampled_from(operation["fields"] or ["x"]), field_values, max_size=6
        ).map(to_json),
        values.map(to_json),
        raw_bodies,
    )
    return st.fixed_dictionaries({"path": path, "query": query, "body": body})


def url_of(operation: dict[str, Any], path_values: dict[str, str], query: dict[str, str]) -> str:
    from urllib.parse import quote, urlencode

    url = operation["path"]
    for name, value in path_values.items():
        url = url.replace(
            "{" + name + "}", quote(str(value).encode("utf-8", "surrogatepass"), safe="")
        )
    if query:
        url += "?" + urlencode({k: v.encode("utf-8", "surrogatepass") for k, v in query.items()})
    return url


def staff_player() -> tuple[Client, str]:
    """A staff player (so staff operations read their bodies too) with a token and a game."""
    from rest_framework.authtoken.models import Token

    user = get_user_model().objects.create_user(
        username="fuzzboss", password="a long password 77", is_staff=True
    )
    code, _ = winnable_code()
    game = start_custom(client_for(user), code)
    token, _ = Token.objects.get_or_create(user=user)
    return Client(HTTP_AUTHORIZATION=f"Token {token.key}"), game["id"]


@contextlib.contextmanager
def noticing_revoked_tokens() -> Iterator[list[bool]]:
    """A flag set when any token row is deleted (DELETE /api/auth/token, a password change, an
    account deleted): the app revokes tokens only through the ORM (accounts/services/access.py),
    whose delete sends post_delete for each row, cascades included, while a receiver listens."""
    from django.db.models.signals import post_delete
    from rest_framework.authtoken.models import Token

    revoked = [False]

    def notice(**_: Any) -> None:
        revoked[0] = True

    post_delete.connect(notice, sender=Token, weak=False)
    try:
        yield revoked
    finally:
        post_delete.disconnect(notice, sender=Token)


def keep_the_token(client: Client, revoked: list[bool]) -> None:
    """The fuzz revokes the token now and then (DELETE /api/auth/token): put it back, so that
    every case is signed in. Looked up only after a token was deleted (`noticing_revoked_tokens`),
    not before each of a file's 1,280 cases (a query each: 17% of a profiled run's wall time)."""
    from rest_framework.authtoken.models import Token

    if not revoked[0]:
        return
    revoked[0] = False
    key = client.defaults["HTTP_AUTHORIZATION"].split()[1]
    if not Token.objects.filter(key=key).exists():
        Token.objects.create(key=key, user=get_user_model().objects.get(username="fuzzboss"))


def fuzz_rest(operations: list[dict[str, Any]]) -> None:
    """REST_EXAMPLES hostile requests at each of `operations` (of OPERATIONS) by a staff player
    with a game: not one 5xx, every error JSON with a `detail`."""
    client, game_id = staff_player()
    with noticing_revoked_tokens() as revoked:
        _fuzz_each(operations, client, game_id, revoked)


def _fuzz_each(
    operations: list[dict[str, Any]], client: Client, game_id: str, revoked: list[bool]
) -> None:
    statuses: Counter[int] = Counter()
    started = time.monotonic()

    def fuzz(operation: dict[str, Any]) -> None:
        @settings(
            max_examples=REST_EXAMPLES,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
        @given(request_for(operation, game_id))
        def hostile(case: dict[str, Any]) -> None:
            keep_the_token(client, revoked)
            url = url_of(operation, case["path"], case["query"])
            response = client.generic(
                operation["method"], url, data=case["body"], content_type="application/json"
            )
            statuses[response.status_code] += 1
            where = f"{operation['method']} {url[:200]} body {case['body'][:200]!r} -> {response.status_code}"
            assert response.status_code < 500, where + f": {response.content[:300]!r}"
            if response.status_code >= 400:
                assert response["Content-Type"].startswith("application/json"), where
                body = json.loads(response.content)
                assert isinstance(body.get("detail"), str) and body["detail"].strip(), where

        hostile()

    for operation in operations:
        fuzz(operation)
    print(
        f"\nhostile REST fuzz: {len(operations)} operations of {len(OPERATIONS)},"
        f" {sum(statuses.values())} requests in {time.monotonic() - started:.1f} s,"
        f" statuses {dict(sorted(statuses.items()))}"
    )
    assert len(OPERATIONS) >= 20 and sum(statuses.values()) >= len(operations) * REST_EXAMPLES


# --------------------------------------------------------------------------- the sockets

moves = st.fixed_dictionaries(
    {},
    optional={
        "type": st.one_of(st.sampled_from(["sync", "new", "move", ""]), values),
        "seq": values,
        "action": st.one_of(st.sampled_from(["play", "draw", "undo", "hint", "resign"]), values),
        "position": values,
        "mode": st.one_of(st.sampled_from(["daily", "random", "numbered", "custom"]), values),
        "number": values,
        "rules": values,
        "layout": values,
        "code": values,
    },
)
GAME_MESSAGES = [
    {"seq": 0, "action": "draw"},
    {"seq": 0, "action": "play", "position": 0},
    {"type": "sync"},
    {"type": "new", "mode": "daily", "rules": {"wrap": True, "open": False}, "layout": "classic"},
    {"type": "new", "mode": "numbered", "number": 7},
]


def swapped_message() -> st.SearchStrategy[dict[str, Any]]:
    def swap(message: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
        return {**message, name: value}

    return st.sampled_from(GAME_MESSAGES).flatmap(
        lambda message: st.builds(
            swap, st.just(message), st.sampled_from([*message, "extra"]), values
        )
    )


frames = st.one_of(
    swapped_message().map(lambda move: ("text", to_json(move).decode()[:6000])),
    swapped_message().map(lambda move: ("text", to_json(move).decode()[:6000])),
    moves.map(lambda move: ("text", to_json(move).decode()[:6000])),
    values.map(lambda value: ("text", to_json(value).decode()[:6000])),
    st.integers(33, 3000).map(lambda depth: ("text", "[" * depth + "]" * depth)),
    st.sampled_from(NASTY_STRINGS).map(lambda text: ("text", text)),
    st.just(("text", '{"type": "sync", "x": "\\ud800"}')),
    st.binary(max_size=64).map(lambda data: ("bytes", data)),
)


async def drive(path: str, user: Any, batch: list[tuple[str, Any]], answers: Counter[str]) -> None:
    socket = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost")])
    socket.scope["user"] = user
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_json_from(timeout=10)
    assert first["type"] in ("view", "board"), first
    for kind, data in batch:
        await socket.send_input({"type": "websocket.receive", kind: data})
        reply = await socket.receive_json_from(timeout=10)
        assert reply["type"] in ("view", "error", "board", "started"), reply
        if reply["type"] == "error":
            assert isinstance(reply["detail"], str) and reply["detail"], reply
        answers[reply.get("code", reply["type"])] += 1
    await socket.send_json_to({"type": "sync"})  # still usable
    assert (await socket.receive_json_from(timeout=10))["type"] in ("view", "board")
    await socket.disconnect()
