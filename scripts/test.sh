#!/usr/bin/env bash
# Start what the tests talk to, then run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh redis
case "${DATABASE_URL:-}" in
  postgres*://*)
    db=$(.venv/bin/python -c "import os,urllib.parse as u; print(u.urlparse(os.environ['DATABASE_URL']).path.lstrip('/') or 'larp')")
    scripts/services.sh postgres "$db" ;;
esac
if [ -z "${LARP_SKIP_BROWSER:-}" ]; then
  scripts/services.sh chromium
fi
exec .venv/bin/python -m pytest "$@"
