# One image for web, worker and beat; docker-compose.yml picks the command.
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
