#!/bin/sh
# Run once by the postgres image when its data directory is new (/docker-entrypoint-initdb.d/).
# Two roles besides the image's superuser, neither of them a superuser (docs/operations.md,
# "Database roles"):
#   uno      owns the database and its tables; only the one-off `migrate` service logs in as it.
#   uno_app  the web, the workers and beat; `migrate` grants it what the service needs and no
#            more (games/roles.py): it may read and append game events, never UPDATE, DELETE or
#            TRUNCATE them, and it cannot drop the triggers that guard them.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v owner_password="$UNO_OWNER_PASSWORD" -v app_password="$UNO_APP_PASSWORD" <<'SQL'
CREATE ROLE uno LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'owner_password';
CREATE ROLE uno_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'app_password';
CREATE DATABASE uno OWNER uno;
REVOKE ALL ON DATABASE uno FROM PUBLIC;
GRANT CONNECT ON DATABASE uno TO uno_app;
SQL
