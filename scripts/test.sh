#!/usr/bin/env bash
# Start what the tests talk to, then run the suite in parallel (pytest-xdist).
#
#   scripts/test.sh [PYTEST ARGS...]      e.g. scripts/test.sh tests/orda -x
#
# The database is SQLite unless DATABASE_URL points at PostgreSQL. TEST_WORKERS
# sets the number of parallel test processes (default: two per core, at least 4:
# most browser and worker tests wait on a browser or a worker rather than compute).
# With -m "not browser" (make test-quick) Chromium is neither needed nor installed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh redis
scripts/services.sh tools
case "${DATABASE_URL:-}" in
  postgres*://*)
    db=$(.venv/bin/python -c "import os,urllib.parse as u; print(u.urlparse(os.environ['DATABASE_URL']).path.lstrip('/') or 'larp')")
    scripts/services.sh postgres "$db" ;;
esac
if [[ " $* " != *"not browser"* ]]; then
  scripts/services.sh chromium
fi
workers="${TEST_WORKERS:-}"
if [ -z "$workers" ]; then
  cores=$(nproc 2>/dev/null || echo 2)
  workers=$(( cores * 2 > 4 ? cores * 2 : 4 ))   # the browser and worker tests mostly wait: two per core
fi
parallel=(-n "$workers" --dist loadscope --no-loadscope-reorder)   # a module is a unit; longest first (tests/schedule.py). -n 0: one process
echo "tests on $( [[ "${DATABASE_URL:-}" == postgres* ]] && echo PostgreSQL || echo SQLite ), $workers parallel process(es)"
# Byte-code caches on, whatever the shell says: without them each of the parallel processes rewrites every test
# module's asserts again (about 6 s of CPU each), and every worker or command a test starts compiles the project.
unset PYTHONDONTWRITEBYTECODE
# The test modules' asserts rewritten once, before the parallel processes start (on a fresh clone each of them
# rewrote every module: about 10 s of CPU apiece).
.venv/bin/python scripts/warm_tests.py
exec .venv/bin/python -m pytest "${parallel[@]}" "$@"
