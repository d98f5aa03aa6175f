# Sourced by .ci/run and bench/run: find PostgreSQL and Redis on 127.0.0.1 or start them, give
# PostgreSQL the role and database `uno`, and export DATABASE_URL and REDIS_URL for them.
# A service that cannot be started stops the caller with a message saying which and how.

postgres_up() { pg_isready -h 127.0.0.1 -q; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 ping 2>/dev/null)" = "PONG" ]; }

# wait_for NAME CHECK: poll CHECK for up to 30 seconds; fail loudly if it never passes.
wait_for() {
  local name=$1 check=$2
  for _ in $(seq 30); do
    if "$check"; then
      return 0
    fi
    sleep 1
  done
  echo "$0: $name is still not answering on 127.0.0.1 after 30 s; stopping." >&2
  exit 1
}

if ! postgres_up; then
  echo "$0: starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start
  wait_for PostgreSQL postgres_up
fi

if ! redis_up; then
  echo "$0: starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for Redis redis_up
fi

psql_admin() { psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -qtAc "$1"; }

# The tests run as `uno`, which owns the tables as migrations do in production: no superuser.
# CREATEDB for the test databases; CREATEROLE so that tests/games/test_database_role.py can make
# the service's role (games/roles.py) and prove it cannot rewrite game events. ALTER every time:
# a cluster left with an older, superuser `uno` is brought down to these powers.
if [ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname = 'uno'")" != "1" ]; then
  psql_admin "CREATE ROLE uno LOGIN"
fi
psql_admin "ALTER ROLE uno LOGIN CREATEDB CREATEROLE NOSUPERUSER"
if [ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname = 'uno'")" != "1" ]; then
  psql_admin "CREATE DATABASE uno OWNER uno"
fi

export DATABASE_URL=postgres://uno@127.0.0.1:5432/uno
export REDIS_URL=redis://127.0.0.1:6379/0
