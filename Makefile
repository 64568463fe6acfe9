# TriPeaks Online. `make run` serves the site; `make test` runs the whole suite.
# Both create .venv and install the project from pyproject.toml (pinned) when it changed.

HOST ?= 127.0.0.1
PORT ?= 8000
PYTHON ?= python3
PYTEST_ARGS ?=

VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
# uv installs the pinned project into the venv: 7 s against pip's 78 s of CPU on a fresh venv here.
# Compiled to bytecode at install, as pip does: where PYTHONDONTWRITEBYTECODE is set (this
# machine) nothing is cached on import, and every process compiled Django anew (CI took 12.8 min).
UV_VERSION := 0.13.9
UV := $(VENV)/bin/uv
UV_PIP := $(UV) pip install --quiet --compile-bytecode --python $(PY)
# Stamps: reinstall only when pyproject.toml is newer than the last install.
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.DEFAULT_GOAL := help
.PHONY: help run test lint audit services clean

help:
	@echo "make run     the whole stack on http://$(HOST):$(PORT): embedded PostgreSQL and Redis"
	@echo "             (data in var/), the ASGI server, a Celery worker and beat; Ctrl-C stops"
	@echo "make test    the whole suite against PostgreSQL and Redis, make lint beside it"
	@echo "make lint    ruff (checks and format), the import contracts (import-linter), no import circles"
	@echo "             (scripts/check_cycles.py), no function over 60 lines"
	@echo "             (scripts/check_function_length.py), mypy --strict, ESLint and tsc"
	@echo "make audit   the pinned dependencies against PyPI's vulnerability data"
	@echo "             (scripts/audit.py, docs/operations.md)"

$(PY):
	$(PYTHON) -m venv $(VENV)

$(UV): | $(PY)
	$(PIP) install -qq uv==$(UV_VERSION)

$(STAMP_RUN): pyproject.toml | $(UV)
	@echo "Installing the project into $(VENV) (pinned, from pyproject.toml)..."
	$(UV_PIP) -e .
	@touch $@

$(STAMP_TEST): pyproject.toml | $(UV)
	@echo "Installing the project with its test extras into $(VENV)..."
	$(UV_PIP) -e '.[test]'
	@touch $@ $(STAMP_RUN)

# Development runs default to DEBUG=1 (random secrets made once and kept in var/); settings
# default to off.
run: export DEBUG ?= 1

# tripeaks/stack/run.py: PostgreSQL and Redis embedded (unless DATABASE_URL / REDIS_URL are set),
# migrate, collectstatic, the server, a worker and beat, all stopped by Ctrl-C.
run: $(STAMP_RUN)
	$(PY) -m tripeaks.stack.run --host $(HOST) --port $(PORT)

services:
	scripts/ensure-services.sh

# The front end's JavaScript: ESLint, and TypeScript as a checker of its JSDoc types (package.json,
# pinned in package-lock.json; `npm ci` again only when the lock file changed).
STAMP_NODE := node_modules/.installed
$(STAMP_NODE): package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

lint: $(STAMP_TEST) $(STAMP_NODE)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) scripts/check_cycles.py
	$(PY) scripts/check_function_length.py
	DEBUG=1 $(VENV)/bin/mypy $(wildcard tripeaks accounts frontend leaderboard)
	npx --no-install eslint .
	npx --no-install tsc -p jsconfig.json

# The project's own modules compiled once: where PYTHONDONTWRITEBYTECODE is set, each of the
# suite's dozens of processes (workers, servers, benches) would compile them again on import.
# pytest itself may write: it rewrites the asserts of every test module and of every package that
# ships a pytest plugin (schemathesis, hypothesis, ...), and caches the result only where bytecode
# may be written; without that cache each worker redid it (collection 7.7 s of CPU, cached 3.3 s).
#
# Three workers on two cores: the browser, server and bench tests spend much of their time waiting
# on other processes. Measured on a quiet machine: -n 2 (load) 323 s, the cores 60-80 % busy;
# -n 3 with work stealing 261 s, 83 % busy; -n 4 258 s, 94 % (no headroom left for timing).
# Measured again on a fresh clone after the suite got lighter: -n 3 215 s of pytest, -n 4 225 s.
#
# The lint runs beside the suite (its 13 s, mostly a cold mypy on one core, were the suite's wait
# on a fresh clone); its output comes after pytest's, and either failing fails `make test`.
LINT_LOG := test-artifacts/lint.log
# The whole-stack tests' prepared VAR_DIR (bench/stack_template.py), found or made beside the suite
# from its start: on a machine without it, its build (~7-10 s of CPU, 12-17 s of time) was the
# first whole-stack test's own wait (test_bench_first_card 31-39 s, over the goal's 30 s a file);
# begun here, it is made while the workers start and collect, and that test finds it made or
# waits for the rest under its lock.
TEMPLATE_LOG := test-artifacts/stack-template.log
# --file-durations (tests/conftest.py): the slowest files after the run, against the goal of none
# over 30 s on one worker.
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n 3 --dist worksteal --file-durations=10 $(PYTEST_ARGS)
# The Python install, the npm install and the services' check run side by side (they share
# nothing): 12.2 s on a fresh clone here, against 18.7 s one after another.
.PHONY: test-ready
test-ready: $(STAMP_TEST) $(STAMP_NODE) services
	@:

test:
	@$(MAKE) --no-print-directory -j3 test-ready
	@$(PY) -m compileall -q -j 0 tripeaks accounts frontend leaderboard tests bench
	@mkdir -p $(dir $(LINT_LOG))
	@$(MAKE) --no-print-directory lint >$(LINT_LOG) 2>&1 & lint=$$!; \
	$(PY) -m bench.stack_template >$(TEMPLATE_LOG) 2>&1 & template=$$!; \
	echo "$(PYTEST)  (make lint and the stack template beside it)"; \
	$(PYTEST); tests=$$?; \
	wait $$template || { echo "the stack template's build failed:"; tail -n 20 $(TEMPLATE_LOG); }; \
	wait $$lint; linted=$$?; cat $(LINT_LOG); \
	if [ $$linted -ne 0 ]; then echo "make lint failed (above)"; fi; \
	test $$tests -eq 0 && test $$linted -eq 0

# scripts/audit.py: every pin against PyPI's JSON API, then pip-audit where its databases answer.
audit: $(STAMP_RUN)
	$(PY) scripts/audit.py

clean:
	rm -rf $(VENV) var staticfiles
