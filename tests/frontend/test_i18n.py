"""German and Nepali besides English: chosen from Accept-Language, changed with the language form
(remembered in a cookie), <html lang> set, the JavaScript catalog served (and gzipped), every
message of the catalogs translated and compiled."""

from __future__ import annotations

import gettext
import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

LOCALE = Path(__file__).resolve().parents[2] / "locale"


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found
    return found.group(1)


def test_the_language_comes_from_accept_language() -> None:
    client = Client()
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="en-US").content.decode()) == "en"
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()
    assert lang_of(page) == "de" and "Bestenlisten" in page and "So wird gespielt" in page
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ne-NP").content.decode()
    assert lang_of(page) == "ne" and "कसरी खेल्ने" in page
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR").content.decode()) == "en"


def test_the_chosen_language_is_remembered_in_a_cookie() -> None:
    client = Client()
    response = client.post(
        "/i18n/setlang/", {"language": "ne", "next": "/#/stats"}, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 302 and response["Location"] == "/#/stats"
    assert response.cookies["django_language"].value == "ne"
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()) == "ne"
    # A language we do not have changes nothing.
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert lang_of(client.get("/").content.decode()) == "ne"


def test_the_javascript_catalog_speaks_the_language_and_travels_gzipped() -> None:
    client = Client()
    german = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 200 and "Neues Spiel" in german.content.decode()
    packed = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ne", HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    body = gzip.decompress(packed.content).decode()
    assert "\\u0928\\u092f\\u093e\\u0901 \\u0921\\u093f\\u0932" in body or "नयाँ डिल" in body


def test_the_catalog_is_the_same_bytes_at_every_load() -> None:
    """No random padding (frontend/catalog.py): with it, the Nepali cold game page weighed
    99,961-99,995 B on the wire in six runs, against test_e2e_wire's limit of 100,000."""
    client = Client()
    loads = [
        client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ne", HTTP_ACCEPT_ENCODING="gzip, br")
        for _ in range(3)
    ]
    assert all(load["Content-Encoding"] == "gzip" for load in loads)
    assert loads[0].content == loads[1].content == loads[2].content
    assert "Accept-Encoding" in loads[0]["Vary"]
    plain = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ne")
    assert not plain.has_header("Content-Encoding")
    assert plain.content == gzip.decompress(loads[0].content)
    german = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="de", HTTP_ACCEPT_ENCODING="gzip")
    assert "Neues Spiel" in gzip.decompress(german.content).decode()


def test_hostile_languages_do_not_grow_the_catalogs_cache() -> None:
    """The catalog is kept once a language (frontend/catalog.py): a visitor naming languages the
    site does not have, by header or cookie, gets one of the site's three, and adds nothing."""
    from django.conf import settings

    from frontend import catalog

    client = Client()
    for i in range(40):
        client.cookies["django_language"] = f"x{i}-evil"
        answer = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE=f"zz-{i}, q{i};q=0.9")
        assert answer.status_code == 200
    languages = {code for code, _ in settings.LANGUAGES}
    assert {language for language, _, _ in catalog._made} <= languages


def test_the_api_machine_fields_stay_english() -> None:
    body = Client().get("/api/today", HTTP_ACCEPT_LANGUAGE="de").json()
    assert [r["key"] for r in body["rule_sets"]][:1] == ["wrap-closed"]
    assert body["time_zone"] == "Asia/Kathmandu"


def msgids(po: Path) -> list[str]:
    ids = []
    for match in re.finditer(r'^msgid ((?:".*"\n)+)', po.read_text(), re.M):
        quoted = "".join(re.findall(r'"(.*)"', match.group(1)))
        text = re.sub(r'\\(["\\n])', lambda m: "\n" if m.group(1) == "n" else m.group(1), quoted)
        if text:
            ids.append(text)
    return ids


# Words some language writes as English does (German months among them).
SAME_IN_TRANSLATION = {"API", "Par", "live", "April", "August", "September", "November"}


@pytest.mark.parametrize("lang", ["de", "ne"])
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_message_is_translated_and_compiled(lang: str, domain: str) -> None:
    po = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    with (po.with_suffix(".mo")).open("rb") as mo:
        catalog = gettext.GNUTranslations(mo)
    ids = msgids(po)
    assert ids
    untranslated = [i for i in ids if catalog.gettext(i) == i and i not in SAME_IN_TRANSLATION]
    assert untranslated == [], "not translated, or the .mo is older than the .po"


# Each page's <h1> in German and Nepali: the account pages and the fair-play page.
ANONYMOUS_HEADINGS = {
    "/accounts/guest/": {"de": "Als Gast spielen", "ne": "अतिथिका रूपमा खेल्नुहोस्"},
    "/accounts/login/": {"de": "Anmelden", "ne": "साइन इन"},
    "/accounts/signup/": {"de": "Konto anlegen", "ne": "खाता खोल्नुहोस्"},
    "/accounts/password/reset/": {"de": "Passwort vergessen?", "ne": "पासवर्ड बिर्सनुभयो?"},
    "/accounts/password/reset/done/": {"de": "Schau in dein Postfach", "ne": "आफ्नो इमेल हेर्नुहोस्"},
    "/accounts/reset/done/": {"de": "Passwort gesetzt", "ne": "पासवर्ड राखियो"},
    "/fair-play/": {"de": "Fairplay", "ne": "निष्पक्ष खेल"},
}
SIGNED_IN_HEADINGS = {
    "/accounts/": {"de": "Dein Konto", "ne": "तपाईंको खाता"},
    "/accounts/email/": {"de": "E-Mail-Adresse", "ne": "इमेल ठेगाना"},
    "/accounts/password/": {"de": "Passwort ändern", "ne": "पासवर्ड बदल्नुहोस्"},
    "/accounts/sessions/": {"de": "Deine Sitzungen", "ne": "तपाईंका सत्रहरू"},
    "/accounts/delete/": {"de": "Konto löschen", "ne": "खाता मेटाउनुहोस्"},
}


def heading_of(html: str) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    assert found
    return found.group(1).strip()


@pytest.mark.parametrize("lang", ["de", "ne"])
@pytest.mark.parametrize("url", ANONYMOUS_HEADINGS)
def test_the_account_and_fair_play_pages_speak_the_language(url: str, lang: str) -> None:
    response = Client().get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    page = response.content.decode()
    assert lang_of(page) == lang
    assert heading_of(page) == ANONYMOUS_HEADINGS[url][lang]


@pytest.mark.parametrize("lang", ["de", "ne"])
@pytest.mark.parametrize("url", SIGNED_IN_HEADINGS)
def test_the_signed_in_account_pages_speak_the_chosen_language(
    url: str, lang: str, user: Any
) -> None:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = lang  # the language form's cookie beats Accept-Language
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    page = response.content.decode()
    assert lang_of(page) == lang
    assert heading_of(page) == SIGNED_IN_HEADINGS[url][lang]


def test_the_sign_up_form_speaks_the_language_and_english_stays_english() -> None:
    german = Client().get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Benutzername" in german and "Anzeigename" in german
    assert "3 bis 30 Zeichen" in german and "characters" not in german
    # Django's Nepali catalog lacks some of its own password words: ours carries them.
    nepali = Client().get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="ne").content.decode()
    assert "तपाईंको पासवर्डमा अङ्क मात्र हुन सक्दैन।" in nepali and "Your password" not in nepali
    english = Client().get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "3 to 30 characters: letters, digits, underscores and hyphens." in english
    assert "Display name" in english


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("de", "Gib einen gültigen Benutzernamen ein: 3 bis 30 Zeichen"),
        ("ne", "मान्य प्रयोगकर्ता नाम लेख्नुहोस्: ३ देखि ३० अक्षर"),  # the numbers in Devanagari
        (
            "en",
            "Enter a valid username: 3 to 30 characters: letters, digits, underscores and hyphens.",
        ),
    ],
)
def test_a_refused_sign_up_says_why_in_the_language(lang: str, said: str) -> None:
    form = {"username": "a!", "password1": "x", "password2": "x", "display_name": ""}
    response = Client().post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    assert said in response.content.decode()
