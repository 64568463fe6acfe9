"""The page's ES modules as a graph, so a route's modules are asked for at once.

A module's imports are found only once it has arrived, so the game page came in seven waves
(app.js, its imports, pages/play.js, its imports, ...): on a line with 150 ms of latency that
was over a second before the last module was asked for. ``route_modules()`` gives each route's
page module and everything it imports (statically, through any depth), and what app.js imports;
the home page's head asks for those of the route in its hash as soon as it is parsed
(``{% module_preloads %}``, ``<link rel="modulepreload">``), each by the URL the page will import
it by (the hashed name once collected: frontend/storage.py).

The graph is read from the source files (static imports: ``import ... from './x.js';``,
``import './x.js';``, ``export ... from``; a dynamic ``import()`` is a module loaded later, on
demand), once per process. One kind of dynamic import is asked for at once too, after the route's
own modules: a page's part that the page module itself imports on demand (``pages/play.js``
draws its first card, then ``import('./play/live.js')`` makes it live), with its static imports:
the first screen waits for none of them, and they are on their way when it is drawn.
"""

from __future__ import annotations

import functools
import posixpath
import re
from typing import TypedDict

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.files.storage import storages
from django.templatetags.static import static

JS = "frontend/js/"
APP = JS + "app.js"
STATIC_IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["'](\.{1,2}/[^"']+)["']"""
)
DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*["'](\./[^"']+)["']\s*\)""")


class RouteModules(TypedDict):
    base: str  # the URL every module's URL starts with
    urls: list[str]  # the modules' URLs after `base`
    app: list[int]  # what app.js imports (indices into urls)
    routes: dict[str, list[int]]  # a route's page module and its imports, less app.js's
    later: dict[str, list[int]]  # the page's own parts it imports on demand, less the above


def imports_of(name: str, pattern: re.Pattern[str] = STATIC_IMPORT) -> list[str]:
    """The static files `name` (a static path, "frontend/js/app.js") imports statically (or,
    with DYNAMIC_IMPORT, on demand)."""
    path = finders.find(name)
    if not path:
        return []
    with open(str(path), encoding="utf-8") as source:
        text = source.read()
    here = posixpath.dirname(name)
    return [posixpath.normpath(posixpath.join(here, rel)) for rel in pattern.findall(text)]


def parts_later(page: str) -> list[str]:
    """What the page module `page` imports on demand from its own folder (pages/<page>/), with
    everything those import statically."""
    module = f"{JS}pages/{page}.js"
    own = f"{JS}pages/{page}/"
    parts = [m for m in imports_of(module, DYNAMIC_IMPORT) if m.startswith(own)]
    return list(dict.fromkeys(m for part in parts for m in closure(part)))


def closure(name: str) -> list[str]:
    """`name` and everything it imports, at any depth, each once (depth first)."""
    seen: dict[str, None] = {}
    stack = [name]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen[current] = None
        stack.extend(reversed(imports_of(current)))
    return list(seen)


def page_names() -> list[str]:
    """The route pages: frontend/js/pages/<route>.js."""
    found: set[str] = set()
    for finder in finders.get_finders():
        for path, _storage in finder.list(["CVS", ".*", "*~"]):
            name = path.replace("\\", "/")
            if name.startswith(JS + "pages/") and name.count("/") == 3 and name.endswith(".js"):
                found.add(name[len(JS + "pages/") : -len(".js")])
    return sorted(found)


def route_modules() -> RouteModules:
    """Worked out once per static storage (a process's settings may change it: a test server
    forked from a test process that had asked with the tests' plain storage)."""
    return _route_modules(storages["staticfiles"])


@functools.lru_cache(maxsize=4)
def _route_modules(storage: object) -> RouteModules:
    base = settings.STATIC_URL + JS
    app = closure(APP)[1:]  # app.js itself is in the page already
    routes = {
        page: [m for m in closure(f"{JS}pages/{page}.js") if m not in app] for page in page_names()
    }
    later = {
        page: [m for m in parts_later(page) if m not in app and m not in routes[page]]
        for page in routes
    }
    every = [*app, *(m for modules in [*routes.values(), *later.values()] for m in modules)]
    names = list(dict.fromkeys(every))
    urls = [static(name) for name in names]
    index = {name: i for i, name in enumerate(names)}
    return {
        "base": base,
        "urls": [url.removeprefix(base) for url in urls],
        "app": [index[m] for m in app],
        "routes": {page: [index[m] for m in modules] for page, modules in routes.items()},
        "later": {page: [index[m] for m in modules] for page, modules in later.items() if modules},
    }
