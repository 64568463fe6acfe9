#!/bin/sh
# Screenshots of the table for docs/frontend.md: 360x640, 390x844, 844x390 and 1366x800, light
# and dark, into docs/img/ (PNG). Needs Debian's /usr/bin/chromium, PostgreSQL and Redis (as
# `make test` does). Usage: scripts/screenshots.sh
set -eu
cd "$(dirname "$0")/.."
TP_DOC_SHOTS=docs/img exec .venv/bin/python -m pytest tests/frontend/test_e2e_screens.py -q -p no:randomly "$@"
