#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL server on a Unix socket; TEST_POSTGRES_URL points at
# it. The server is stopped and removed afterwards. Root runs it as the postgres user.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ]; then
  if [ "${CI:-}" = true ]; then echo "PostgreSQL is not installed (CI=true: failing)." >&2; exit 1; fi
  echo "PostgreSQL not found: the PostgreSQL tests will be skipped." >&2
  exec "$@"
fi
base=$(mktemp -d /tmp/nsc-pg.XXXXXX)
port=${NSC_PG_PORT:-$(( 40000 + RANDOM % 20000 ))}
as=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres "$base"
  as=(runuser -u postgres --)
fi
cleanup() {
  "${as[@]}" "$bin/pg_ctl" -D "$base/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$base"
}
trap cleanup EXIT
"${as[@]}" "$bin/initdb" -D "$base/data" -U postgres -A trust --no-sync >/dev/null
"${as[@]}" "$bin/pg_ctl" -D "$base/data" -l "$base/log" -w -o "-k $base -p $port -c listen_addresses='' -c fsync=off -c max_connections=200" start >/dev/null
"${as[@]}" "$bin/createdb" -h "$base" -p "$port" -U postgres companion_test
export TEST_POSTGRES_URL="postgresql+psycopg://postgres@/companion_test?host=$base&port=$port"
export TEST_POSTGRES_ADMIN="postgresql+psycopg://postgres@/postgres?host=$base&port=$port"
set +e
"$@"
status=$?
set -e
exit $status
