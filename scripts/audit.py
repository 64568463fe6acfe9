"""Dependency audit: the versions pinned in pyproject.toml against the vulnerability data the
package index publishes, and whether each pin is the newest release. `make audit` runs it.

What it asks PyPI's JSON API (https://pypi.org/pypi/NAME/json, the index this machine reaches):

- the project's newest release (`info.version`) and the known vulnerabilities of that newest
  release (`vulnerabilities`, from the PyPA advisory database / OSV);
- the pinned version's own JSON (https://pypi.org/pypi/NAME/VERSION/json), whose
  `vulnerabilities` list is exact for the pin, where the index serves it.

So a pin's known vulnerabilities are exact when the per-version JSON answers, or when the pin is
the newest release (then the project JSON's list is the pin's). A pin that is older than the
newest release, where the per-version JSON is not served, is reported as *unknown*, never as
clean: upgrade it or audit it where the full database is reachable.

Then it runs `pip-audit` over every installed distribution (pins and their dependencies) when
pip-audit's databases (PyPI's per-version JSON, or api.osv.dev) answer; otherwise it says so and
why. Exit status: 1 when a known vulnerability affects a pin (or pip-audit found one), else 0.

    python scripts/audit.py [--pyproject pyproject.toml] [--no-pip-audit] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tomllib
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

INDEX = "https://pypi.org/pypi"
OSV = "https://api.osv.dev/v1/query"
PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*==\s*([^\s;,]+)")
TIMEOUT = 20


@dataclass
class Pin:
    name: str
    version: str
    newest: str | None = None
    is_newest: bool | None = None
    vulnerabilities: list[dict[str, Any]] = field(default_factory=list)
    # "exact (per-version JSON)", "exact (pin is the newest release)", or "unknown (...)"
    coverage: str = ""
    error: str | None = None


def pins(pyproject: Path) -> list[Pin]:
    project = tomllib.loads(pyproject.read_text())["project"]
    requirements = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        requirements.extend(extra)
    found = {}
    for requirement in requirements:
        match = PIN.match(requirement)
        if match is None:
            raise SystemExit(f"not an exact pin: {requirement!r} (pyproject pins every version)")
        found[match.group(1).lower()] = Pin(match.group(1), match.group(3))
    return sorted(found.values(), key=lambda pin: pin.name.lower())


def get_json(url: str) -> tuple[int, Any]:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, None


def affected(vulnerability: dict[str, Any], version: str) -> bool:
    """Whether a vulnerability listed for another release says this version is affected: the
    list is for the newest release, so it matters to the pin only if it is not fixed yet."""
    return not vulnerability.get("withdrawn") and version not in vulnerability.get("fixed_in", [])


def check(pin: Pin) -> Pin:
    try:
        status, project = get_json(f"{INDEX}/{pin.name}/json")
        if status != 200 or project is None:
            pin.error = f"project JSON answered {status}"
            return pin
        pin.newest = project["info"]["version"]
        pin.is_newest = pin.newest == pin.version
        status, release = get_json(f"{INDEX}/{pin.name}/{pin.version}/json")
        if status == 200 and release is not None:
            pin.vulnerabilities = release.get("vulnerabilities") or []
            pin.coverage = "exact (per-version JSON)"
        elif pin.is_newest:
            pin.vulnerabilities = project.get("vulnerabilities") or []
            pin.coverage = "exact (pin is the newest release)"
        else:
            pin.coverage = (
                f"unknown (per-version JSON answered {status}; the project JSON covers "
                f"{pin.newest} only)"
            )
    except (OSError, ValueError, KeyError) as error:
        pin.error = f"{error.__class__.__name__}: {error}"
    return pin


def pip_audit_reachable(sample: Pin) -> tuple[bool, str]:
    """Whether pip-audit's vulnerability services answer here, and what was seen."""
    status, _ = get_json(f"{INDEX}/{sample.name}/{sample.version}/json")
    if status == 200:
        return True, "PyPI per-version JSON answers"
    try:
        body = json.dumps({"package": {"name": "django", "ecosystem": "PyPI"}, "version": "1.0"})
        request = urllib.request.Request(
            OSV, data=body.encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            if response.status == 200:
                return True, "api.osv.dev answers"
    except OSError as error:
        osv = f"api.osv.dev: {error.__class__.__name__}"
    else:
        osv = "api.osv.dev: no answer"
    return False, f"PyPI per-version JSON answered {status}; {osv}"


def run_pip_audit(reachable_via: str) -> int:
    service = "osv" if "osv" in reachable_via else "pypi"
    pip_audit = shutil.which("pip-audit")
    command = (
        [pip_audit]
        if pip_audit
        else [sys.executable, "-m", "pip_audit"]
        if _importable("pip_audit")
        else None
    )
    if command is None:
        print(
            "pip-audit is not installed (it stays out of the project's environment). To run it:\n"
            "    python3 -m venv var/audit && var/audit/bin/pip install pip-audit\n"
            "    .venv/bin/python -m pip freeze --exclude-editable > var/requirements-frozen.txt\n"
            "    var/audit/bin/pip-audit -r var/requirements-frozen.txt --no-deps --disable-pip"
        )
        return 0
    frozen = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--exclude-editable"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    requirements = Path("var/requirements-frozen.txt")
    requirements.parent.mkdir(exist_ok=True)
    requirements.write_text(frozen)
    done = subprocess.run(
        [*command, "-r", str(requirements), "--no-deps", "--disable-pip", "-s", service],
        check=False,
    )
    return 1 if done.returncode else 0


def _importable(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyproject", type=Path, default=Path("pyproject.toml"))
    parser.add_argument("--no-pip-audit", action="store_true")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    args = parser.parse_args(argv)

    with ThreadPoolExecutor(max_workers=8) as pool:
        checked = list(pool.map(check, pins(args.pyproject)))
    vulnerable = [p for p in checked if any(affected(v, p.version) for v in p.vulnerabilities)]
    unknown = [p for p in checked if p.error or p.coverage.startswith("unknown")]
    if args.json:
        print(json.dumps([asdict(p) for p in checked], indent=2))
    else:
        width = max(len(p.name) for p in checked)
        print(f"{'package':<{width}}  {'pinned':<12} {'newest':<12} known vulnerabilities")
        for p in checked:
            if p.error:
                print(f"{p.name:<{width}}  {p.version:<12} {'?':<12} ERROR {p.error}")
                continue
            if p.coverage.startswith("exact"):
                ids = [v.get("id", "?") for v in p.vulnerabilities if affected(v, p.version)]
                verdict = ", ".join(ids) if ids else "none"
            else:
                verdict = "unknown (not the newest release; no per-version data here)"
            mark = "" if p.is_newest else " *"
            print(f"{p.name:<{width}}  {p.version:<12} {p.newest or '?':<12} {verdict}{mark}")
        print(
            f"\n{len(checked)} pins: {len(checked) - len(unknown)} checked exactly, "
            f"{len(vulnerable)} with a known vulnerability, {len(unknown)} unknown "
            f"(* = not the newest release: {sum(1 for p in checked if p.is_newest is False)})."
        )
    status = 1 if vulnerable else 0
    if not args.no_pip_audit:
        reachable, seen = pip_audit_reachable(checked[0])
        if reachable:
            print(
                f"\npip-audit: its database is reachable ({seen}); auditing every installed "
                "distribution..."
            )
            status = max(status, run_pip_audit(seen))
        else:
            print(
                f"\npip-audit: not run, its vulnerability databases are not reachable from "
                f"here ({seen}). The pins above are all this audit can see."
            )
    return status


if __name__ == "__main__":
    sys.exit(main())
