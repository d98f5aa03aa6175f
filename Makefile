# `make run` for a local site with demo data, `make test` for the whole suite.
# Needs GNU make and python3; nothing else (SQLite and in-process Celery are the defaults). With
# the C compiler Python's extensions build with, both also compile the engine's hot modules
# (`engine`, below); without one the engine runs pure Python.

VENV := .venv
BIN := $(VENV)/bin
# Lives inside the venv, so deleting .venv also forgets that it was installed.
STAMP := $(VENV)/requirements.stamp

.PHONY: .venv engine run test lint typecheck bench soak

.venv: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

# The compiled engine (docs/architecture.md "The compiled engine"): mypyc, from the pinned mypy,
# compiles the engine's hot modules into extension modules beside their sources, rebuilt when an
# engine source changes. A build that fails (no C compiler, no Python headers) says why and
# leaves the pure-Python engine, which runs the same games; UNO_ENGINE_PURE=1 forces it.
ENGINE_SOURCES := $(wildcard engine/*.py engine/*.c engine/rules/*.py)
engine/compiled.json: $(STAMP) $(ENGINE_SOURCES) tools/build_engine.py
	-$(BIN)/python tools/build_engine.py

engine: engine/compiled.json

# Without a broker nothing runs the beat schedule, so run_periodic runs it in a second process.
# The shell execs runserver, which so becomes run_periodic's parent: however runserver ends
# (Ctrl-C, a kill, a crash), run_periodic sees its parent gone and stops within a second.
# `make run PORT=8001` serves on another port (on 127.0.0.1 still); the links in its emails
# (SITE_URL) follow it unless SITE_URL is set.
PORT ?= 8000
run: export DEBUG := 1
run: export SITE_URL ?= http://127.0.0.1:$(PORT)
# The demo's ladder plays while someone visits the site and rests 10 minutes after the last
# visit (league/rest.py), so an idle `make run` stops growing.
run: export LEAGUE_LADDER_REST_SECONDS ?= 600
run: .venv engine
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py run_periodic --stop-with-parent & \
	exec $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# pytest itself shares the bytecode cache its children use (.pycache/, tests/conftest.py), even
# where PYTHONDONTWRITEBYTECODE is set: compiling the project, its packages and the tests' asserts
# from source took 21 s of CPU a run before the first test; from the cache, 7. A fresh checkout
# fills it on its first run.
test: .venv engine
	env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(CURDIR)/.pycache $(BIN)/pytest $(PYTEST_ARGS)

# html-validate for tests/web/test_html_valid.py (skipped without it, but under CI), exactly as
# package-lock.json pins it, from the npm registry; needs node and npm. .ci/run makes it.
node_modules: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@

# ruff, and the layers contract of .importlinter (engine <- store <- services <- workers <- web).
lint: .venv
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# mypy --strict (pyproject.toml) on every package and the soak, with django-stubs,
# djangorestframework-stubs and celery-types; not migrations, tests or bench/ (scripts run by
# path). DEBUG=1: the django-stubs plugin imports the settings, which need it (or a SECRET_KEY)
# to load.
typecheck: .venv
	DEBUG=1 $(BIN)/mypy engine bots clocks frontdoor games league accounts tables social chat ratings botcalls api web config staff soak tournaments analysis

$(VENV)/bench.stamp: requirements-bench.txt $(STAMP)
	$(BIN)/pip install --quiet -r requirements-bench.txt
	touch $@

# Every benchmark (docs/performance.md), on PostgreSQL and Redis found or started as CI does:
# bench/run prints each one's figures and, at the end, each one's last line with the load.
bench: $(VENV)/bench.stamp engine
	PYTHON=$(BIN)/python bash bench/run

# The soak (soak/, docs/reliability.md): 200 games of every family for 5 minutes on loopback,
# with gunicorn, Celery workers and beat, their own redis-server and their own PostgreSQL cluster
# (initdb'd in a temporary directory, migrated by an owner role, run as a non-superuser app role;
# SOAK_PG_BIN names initdb's directory if it is not /usr/lib/postgresql/N/bin), while a worker is
# killed, Redis restarted, the database's connections cut, PostgreSQL restarted and webhook bots
# fail; play pages and emails are checked for hidden cards too. Last line `lost: 0`.
# SOAK_ARGS="--games 50 --minutes 2" for less.
soak: .venv
	$(BIN)/python -m soak $(SOAK_ARGS)
