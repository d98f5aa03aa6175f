# One image for web, worker and beat; docker-compose.yml picks the command.

# The compiled engine (docs/architecture.md "The compiled engine"), built in a stage of its own:
# the image runs it without carrying the C compiler or mypy. It is built here, on the same base
# as the image, since extension modules fit one interpreter and C library only (.dockerignore
# keeps a checkout's own build out).
FROM python:3.11-slim AS engine

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# The C compiler and the C library's headers; the base has Python's own headers.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

# The runtime requirements, as the image installs them (the build compiles the training
# environment's modules only where numpy is installed), and mypy at the version
# requirements-dev.txt pins, whose mypyc compiles. The build's setup.py also imports setuptools,
# which python:3.11 images install (3.12 and later ones do not).
COPY requirements.txt requirements-dev.txt ./
RUN mypy="$(grep -x 'mypy==.*' requirements-dev.txt)" \
    && pip install -r requirements.txt "$mypy"

# Only what the build reads: the engine's sources, the build and its training run (both import
# nothing else of the project).
COPY engine/ engine/
COPY tools/build_engine.py tools/engine_training.py tools/
# A failed build leaves the pure engine, which `make` accepts; an image must not quietly run it
# (about half as fast: bench/engine.py, docs/performance.md), so the image's build stops unless
# the engine loads compiled.
RUN python tools/build_engine.py \
    && python -c "import engine, sys; sys.exit(0 if engine.COMPILED else 'engine not compiled')"

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, so a code change does not reinstall them.
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .

# The compiled modules and their manifest (the SHA-256 of the sources they were built from)
# beside the same engine sources.
COPY --from=engine /app/engine/*.so /app/engine/compiled.json engine/
COPY --from=engine /app/engine/rules/*.so engine/rules/
# `import engine` falls back to the pure engine when the manifest does not match the sources
# copied above; the image's build stops instead.
RUN python -c "import engine, sys; sys.exit(0 if engine.COMPILED else 'engine not compiled')"

# Settings refuse to load without a SECRET_KEY; collectstatic never signs anything with it.
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --no-input

RUN useradd --create-home --uid 10001 uno
# The open database's files (EXPORTS_DIR, docs/database.md): written by the worker, served by the
# web; docker-compose.yml mounts one volume here for both, which takes this owner.
RUN mkdir -p /var/lib/uno/exports && chown uno /var/lib/uno/exports
USER uno

EXPOSE 8000
# gthread, 3 processes x 2 threads: the shape bench/api.py measured best on 2 cores, with
# keep-alive (the sync worker opens a connection per request; docs/performance.md, "API").
# The access log's logger blanks secrets in URLs, e.g. a password-reset link's token
# (config/gunicorn_logger.py).
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "2", \
     "--worker-class", "gthread", "--access-logfile", "-", \
     "--logger-class", "config.gunicorn_logger.RedactingLogger"]
