# TriPeaks Online. `make run` serves the site; `make test` runs the whole suite.
# Both create .venv and install the project from pyproject.toml (pinned) when it changed.

HOST ?= 127.0.0.1
PORT ?= 8000
PYTHON ?= python3
PYTEST_ARGS ?=

VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
# Stamps: reinstall only when pyproject.toml is newer than the last install.
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.DEFAULT_GOAL := help
.PHONY: help run test lint worker beat services migrate clean

help:
	@echo "make run     serve the site and API on http://$(HOST):$(PORT) (ASGI: HTTP + WebSocket)"
	@echo "make test    lint, then run the whole suite against PostgreSQL and Redis"
	@echo "make lint    ruff and mypy"
	@echo "make worker  Celery worker (needs REDIS_URL)"
	@echo "make beat    Celery beat, the one scheduler (needs REDIS_URL)"

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP_RUN): pyproject.toml | $(PY)
	@echo "Installing the project into $(VENV) (pinned, from pyproject.toml)..."
	$(PIP) install -qq -e .
	@touch $@

$(STAMP_TEST): pyproject.toml | $(PY)
	@echo "Installing the project with its test extras into $(VENV)..."
	$(PIP) install -qq -e '.[test]'
	@touch $@ $(STAMP_RUN)

# Development runs default to DEBUG=1 (a dev SECRET_KEY and DEAL_SECRET); settings default to off.
run worker beat migrate: export DEBUG ?= 1

migrate: $(STAMP_RUN)
	$(PY) manage.py migrate --noinput

run: migrate
	$(PY) manage.py collectstatic --noinput -v0
	@echo "Serving on http://$(HOST):$(PORT)/  (Ctrl-C stops)"
	$(PY) -m tripeaks.serve --host $(HOST) --port $(PORT)

worker: $(STAMP_RUN)
	@test -n "$$REDIS_URL" || { echo "make worker: set REDIS_URL (and DATABASE_URL); without them tasks run in-process" >&2; exit 2; }
	$(VENV)/bin/celery -A tripeaks worker -l INFO

beat: $(STAMP_RUN)
	@test -n "$$REDIS_URL" || { echo "make beat: set REDIS_URL (and DATABASE_URL); without them tasks run in-process" >&2; exit 2; }
	@mkdir -p var
	$(VENV)/bin/celery -A tripeaks beat -l INFO -s var/celerybeat-schedule

services:
	scripts/ensure-services.sh

lint: $(STAMP_TEST)
	$(VENV)/bin/ruff check .
	DEBUG=1 $(VENV)/bin/mypy $(wildcard tripeaks accounts frontend leaderboard)

test: $(STAMP_TEST) services
	@$(MAKE) --no-print-directory lint
	$(PY) -m pytest -n 2 $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) var staticfiles
