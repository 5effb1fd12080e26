#!/usr/bin/env bash
# Make sure what the tests need is on this machine, and running: start it, and
# install Debian's package when it is missing (as root, or through sudo when
# that works without a password). Whatever cannot be had is reported in one
# line saying what to install, and the script fails: nothing is skipped quietly.
#
#   scripts/services.sh redis              Redis on 127.0.0.1:6379 (a running service is used as it is)
#   scripts/services.sh postgres DBNAME    PostgreSQL on 127.0.0.1:5432 with database DBNAME
#   scripts/services.sh chromium           Debian's chromium and its headless shell (the browser tests drive it)
#   scripts/services.sh tools              openssl and redis-server (HTTPS and fault tests run them)
#   scripts/services.sh venv PYTHON        PYTHON can make a virtualenv (Debian splits off python3-venv)
#   scripts/services.sh make               GNU make (the README's two commands are make targets)
set -eu
cd "$(dirname "$0")/.."
have() { command -v "$1" >/dev/null 2>&1; }
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
missing() { echo "missing: $1 — $2" >&2; exit 1; }

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if have sudo && sudo -n true 2>/dev/null; then SUDO="sudo -n"; fi
fi

# apt_install WHAT PACKAGE...: install Debian's packages, or say in one line what to install.
apt_install() {
  local what="$1"; shift
  have apt-get || missing "$what" "install the package(s) $* with this system's package manager"
  if [ "$(id -u)" != 0 ] && [ -z "$SUDO" ]; then
    missing "$what" "run: sudo apt-get install $*"
  fi
  if [ -z "${_APT_UPDATED:-}" ]; then
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    _APT_UPDATED=1
  fi
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null \
    || missing "$what" "apt-get could not install $*; install it by hand"
}

# as_postgres CMD...: run a command as the postgres system user.
as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"
  elif [ "$(id -u)" = 0 ]; then su postgres -c "$(printf '%q ' "$@")"
  elif [ -n "$SUDO" ]; then $SUDO -u postgres "$@"
  else return 1
  fi
}

case "${1:-}" in
  redis)
    answers 6379 && exit 0
    have redis-server || apt_install "Redis" redis-server
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
      --dir /tmp --logfile /tmp/larp-redis.log
    for _ in $(seq 50); do answers 6379 && exit 0; sleep 0.1; done
    missing "a running Redis" "redis-server did not start (see /tmp/larp-redis.log)" ;;
  postgres)
    db="${2:-larp}"
    if ! answers 5432; then
      if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
        apt_install "PostgreSQL" postgresql
      fi
      ver=$(ls /etc/postgresql | sort -V | tail -1)
      if [ "$(id -u)" = 0 ]; then pg_ctlcluster --skip-systemctl-redirect "$ver" main start
      elif [ -n "$SUDO" ]; then $SUDO pg_ctlcluster --skip-systemctl-redirect "$ver" main start
      else missing "a running PostgreSQL" "start it (sudo pg_ctlcluster $ver main start)"
      fi
      for _ in $(seq 100); do answers 5432 && break; sleep 0.1; done
      answers 5432 || missing "a running PostgreSQL" "its cluster $ver/main did not start"
      # A fresh install asks for a password on 127.0.0.1: give postgres the one DATABASE_URL uses.
      as_postgres psql -qc "ALTER USER postgres PASSWORD 'postgres'" >/dev/null 2>&1 || true
    fi
    # The database is made through the project's own driver: no psql client needed.
    .venv/bin/python - "$db" <<'PY' || missing "PostgreSQL database $db" "could not connect as DATABASE_URL says"
import os, sys, urllib.parse as up
import psycopg
db = sys.argv[1]
url = up.urlparse(os.environ.get("DATABASE_URL") or "postgres://postgres:postgres@127.0.0.1:5432/larp")
params = dict(host=url.hostname or "127.0.0.1", port=url.port or 5432, user=url.username or "postgres",
              password=up.unquote(url.password or ""), dbname="postgres", autocommit=True, connect_timeout=10)
with psycopg.connect(**params) as conn:
    if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db]).fetchone():
        conn.execute(f'CREATE DATABASE "{db}"')
PY
    ;;
  chromium)
    # The tests drive Chromium's headless shell (a third of the full browser's CPU, tests/browser/conftest.py);
    # the full browser is for the tablet benchmark and people.
    [ -n "${CHROMIUM:-}" ] || { have chromium-headless-shell && have chromium; } \
      || apt_install "Chromium" chromium chromium-headless-shell ;;
  venv)
    py="${2:-python3}"
    "$py" -c "import ensurepip, venv" >/dev/null 2>&1 && exit 0
    ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    apt_install "python$ver's venv module" "python$ver-venv"
    "$py" -c "import ensurepip, venv" >/dev/null 2>&1 || missing "python$ver's venv module" "install python$ver-venv" ;;
  make)
    have make || apt_install "make" make ;;
  tools)
    have openssl || apt_install "openssl" openssl
    have redis-server || apt_install "redis-server" redis-server ;;
  *) echo "usage: $0 redis|postgres DBNAME|chromium|tools|venv PYTHON|make" >&2; exit 2 ;;
esac
