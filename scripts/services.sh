#!/usr/bin/env bash
# Make sure a server the tests need is running on this machine; start it (and
# install Debian's package when missing). Usage: scripts/services.sh redis|postgres DBNAME|chromium
set -eu
have() { command -v "$1" >/dev/null 2>&1; }
apt_install() {
  if ! have apt-get; then echo "cannot install $* (no apt-get); install it by hand" >&2; exit 1; fi
  [ -n "${_APT_UPDATED:-}" ] || { apt-get update -qq >/dev/null 2>&1 || true; _APT_UPDATED=1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
case "${1:-}" in
  redis)
    if (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then exit 0; fi
    have redis-server || apt_install redis-server
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
      --dir /tmp --logfile /tmp/larp-redis.log
    for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null && exit 0; sleep 0.1; done
    echo "Redis did not start (see /tmp/larp-redis.log)" >&2; exit 1 ;;
  postgres)
    db="${2:-larp}"
    if ! (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
      if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
        apt_install postgresql
      fi
      ver=$(ls /etc/postgresql | sort -V | tail -1)
      pg_ctlcluster --skip-systemctl-redirect "$ver" main start
      for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null && break; sleep 0.1; done
      # A fresh install asks for a password on 127.0.0.1: give postgres the one DATABASE_URL uses.
      su postgres -c "psql -qc \"ALTER USER postgres PASSWORD 'postgres'\"" >/dev/null 2>&1 || true
    fi
    export PGPASSWORD=postgres
    if ! psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$db'" postgres | grep -q 1; then
      psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE \"$db\"" postgres
    fi ;;
  chromium)
    have chromium || apt_install chromium ;;
  *) echo "usage: $0 redis|postgres DBNAME|chromium" >&2; exit 2 ;;
esac
