#!/usr/bin/env bash
# Make sure the services the test suite needs are up: PostgreSQL and Redis on 127.0.0.1
# (or wherever DATABASE_URL / REDIS_URL point), and Debian's Chromium for browser tests.
# Starts what is installed but down; fails with a clear message when something stays unreachable.
# Works as root without systemd.
set -euo pipefail

DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/tripeaks}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"

say() { printf 'ensure-services: %s\n' "$*"; }
fail() { printf 'ensure-services: ERROR: %s\n' "$*" >&2; exit 1; }

# host and port out of a URL like scheme://user:pw@host:port/db
url_host() { local rest="${1#*://}"; rest="${rest#*@}"; rest="${rest%%/*}"; echo "${rest%%:*}"; }
url_port() { local rest="${1#*://}"; rest="${rest#*@}"; rest="${rest%%/*}"
             if [[ "$rest" == *:* ]]; then echo "${rest##*:}"; else echo "$2"; fi; }

port_open() { timeout 3 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null; }

wait_port() { # host port seconds
  local i
  for ((i = 0; i < $3 * 4; i++)); do port_open "$1" "$2" && return 0; sleep 0.25; done
  return 1
}

is_local() { [[ "$1" == 127.* || "$1" == localhost || "$1" == "::1" ]]; }

# --- PostgreSQL
pg_host="$(url_host "$DATABASE_URL")"; pg_port="$(url_port "$DATABASE_URL" 5432)"
if ! port_open "$pg_host" "$pg_port"; then
  if is_local "$pg_host" && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    for ver in $(ls /etc/postgresql); do
      say "starting PostgreSQL $ver"
      pg_ctlcluster --skip-systemctl-redirect "$ver" main start || true
    done
    wait_port "$pg_host" "$pg_port" 20 || fail "PostgreSQL did not come up on $pg_host:$pg_port"
  else
    fail "PostgreSQL is not reachable at $pg_host:$pg_port and is not installed here to start.
  Install it (apt-get install -y postgresql) or point DATABASE_URL at a running server."
  fi
fi
say "PostgreSQL ok at $pg_host:$pg_port"

# --- Redis
rd_host="$(url_host "$REDIS_URL")"; rd_port="$(url_port "$REDIS_URL" 6379)"
if ! port_open "$rd_host" "$rd_port"; then
  if is_local "$rd_host" && command -v redis-server >/dev/null 2>&1; then
    say "starting Redis on port $rd_port"
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$rd_port" --save "" \
      --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log \
      || redis-server --daemonize yes --bind 127.0.0.1 --port "$rd_port" --save "" --appendonly no
    wait_port "$rd_host" "$rd_port" 10 || fail "Redis did not come up on $rd_host:$rd_port"
  else
    fail "Redis is not reachable at $rd_host:$rd_port and is not installed here to start.
  Install it (apt-get install -y redis-server) or point REDIS_URL at a running server."
  fi
fi
say "Redis ok at $rd_host:$rd_port"

# --- Chromium for the browser tests (Debian's; Playwright never downloads a browser): the
# headless build for tests/frontend, the full browser for the home page's test
for pkg in chromium chromium-headless-shell; do
  if [ ! -x "/usr/bin/$pkg" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      say "installing Debian's $pkg"
      export DEBIAN_FRONTEND=noninteractive
      if ! apt-get install -y -q "$pkg" >/dev/null 2>&1; then
        apt-get update -q >/dev/null
        apt-get install -y -q "$pkg" >/dev/null
      fi
    fi
    [ -x "/usr/bin/$pkg" ] && say "$pkg installed" \
      || say "WARNING: /usr/bin/$pkg missing; the browser (e2e) tests that use it will be skipped"
  else
    say "$pkg ok"
  fi
done
