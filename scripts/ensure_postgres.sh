#!/usr/bin/env bash
# The team-mode tests need PostgreSQL server binaries (Debian's `postgresql` package).
# Install them when missing and we are root; otherwise the PostgreSQL half is skipped
# by the tests with a message saying why.
set -u
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing PostgreSQL server binaries for the team-mode tests…" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
    || echo "Could not install PostgreSQL; its tests will be skipped." >&2
fi
exit 0
