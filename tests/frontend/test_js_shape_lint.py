"""`make lint` keeps the front end's modules apart and small: ESLint, with the project's own
config (eslint.config.js) copied beside modules made for it, names every module of an import
circle (static, or through a page's dynamic `import()` of its sub-page, however long) and a
function over 60 lines (blank and comment lines count, as in the Python check), and passes the
same modules without the circle and a function of 60 lines."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
JS = Path("frontend/static/frontend/js")
ESLINT = NODE_MODULES / ".bin" / "eslint"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not ESLINT.exists(),
    reason="needs Node.js and node_modules (make node_modules/.installed)",
)


def function_of(lines: int) -> str:
    """A function `lines` lines long, first and last line included; a blank and a comment
    line among them."""
    body = ["  let n = 0;", "", "  // a comment counts too"]
    body += ["  n += 1;"] * (lines - 2 - len(body) - 1)
    return "\n".join(["export function long() {", *body, "  return n;", "}", ""])


def sub(tmp_path: Path, name: str) -> Path:
    (tmp_path / name).mkdir()
    return tmp_path / name


def lint(tmp_path: Path, modules: dict[str, str]) -> set[tuple[str, str]]:
    """(module, rule) for each message ESLint gives on `modules` under the project's config."""
    shutil.copy(ROOT / "eslint.config.js", tmp_path / "eslint.config.js")
    shutil.copy(ROOT / "package.json", tmp_path / "package.json")
    (tmp_path / "node_modules").symlink_to(NODE_MODULES, target_is_directory=True)
    for name, text in modules.items():
        path = tmp_path / JS / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    done = subprocess.run(
        [str(ESLINT), "--format", "json", str(JS)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return {
        (str(Path(f["filePath"]).relative_to(tmp_path / JS)), m["ruleId"])
        for f in json.loads(done.stdout)
        for m in f["messages"]
    }


def test_a_static_circle_fails_in_each_of_its_modules(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        {
            "a.js": "import { b } from './b.js';\nexport const a = () => b;\n",
            "b.js": "import { a } from './a.js';\nexport const b = () => a;\n",
        },
    )
    assert found == {("a.js", "import-x/no-cycle"), ("b.js", "import-x/no-cycle")}


def test_a_page_loading_its_sub_page_that_imports_it_back_fails(tmp_path: Path) -> None:
    # The circles the race and arena pages had: the lobby loads one race on demand, and the race
    # imported the lobby's words.
    found = lint(
        tmp_path,
        {
            "pages/races.js": (
                "export const words = () => 'race';\n"
                "export async function mount() { return (await import('./race.js')).mount(); }\n"
            ),
            "pages/race.js": (
                "import { words } from './races.js';\nexport const mount = () => words();\n"
            ),
        },
    )
    assert found == {
        ("pages/races.js", "import-x/no-cycle"),
        ("pages/race.js", "import-x/no-cycle"),
    }


def test_a_long_circle_fails_and_shared_words_in_their_own_module_pass(tmp_path: Path) -> None:
    three = {
        "a.js": "import { b } from './b.js';\nexport const a = () => b;\n",
        "b.js": "import { c } from './c.js';\nexport const b = () => c;\n",
        "c.js": "import { a } from './a.js';\nexport const c = () => a;\n",
    }
    assert {rule for _, rule in lint(sub(tmp_path, "circle"), three)} == {"import-x/no-cycle"}
    apart = {
        "words.js": "export const words = () => 'race';\n",
        "pages/races.js": (
            "export async function mount() { return (await import('./race.js')).mount(); }\n"
        ),
        "pages/race.js": "import { words } from '../words.js';\nexport const mount = () => words();\n",
    }
    assert lint(sub(tmp_path, "apart"), apart) == set()


def test_a_function_of_61_lines_fails_and_one_of_60_passes(tmp_path: Path) -> None:
    assert function_of(61).count("\n") == 61
    assert lint(sub(tmp_path, "long"), {"long.js": function_of(61)}) == {
        ("long.js", "max-lines-per-function")
    }
    assert lint(sub(tmp_path, "fits"), {"fits.js": function_of(60)}) == set()
