"""Django settings, read from environment variables.

Every default is the safe production choice; `make run` sets DEBUG=1 for local work.
See README.md for the table of variables.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import dj_database_url
import django_stubs_ext
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

# Lets the classes django-stubs types as generic be subscripted at run time as well, as in
# `class GameAdmin(admin.ModelAdmin[Game])` (Django's own classes have no __class_getitem__).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    """Read a yes/no environment variable ("1", "true", "yes", "on" mean yes)."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    return value in {"1", "true", "yes", "on"}


def env_list(name: str) -> list[str]:
    """Read a comma-separated environment variable, dropping empty items."""
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DEBUG = env_bool("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    # Only ever used with DEBUG on, so a leaked copy protects nothing real.
    SECRET_KEY = "insecure-dev-key-do-not-use-in-production"

# Empty by default: with DEBUG off Django then refuses every host until the operator names it.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
# Needed behind a TLS-terminating proxy, e.g. "https://uno.example.org".
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# A form's POST refused for its CSRF token: JSON `csrf-failed` to a script, the page to a browser.
CSRF_FAILURE_VIEW = "web.csrf.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "games",
    "league",
    "api",
    "staff",
    "tables",
    "social",
    "chat",
    "ratings",
    "botcalls",
    "tournaments",
    "analysis",
    # Failed sign-ins counted and locked out (django-axes; AXES_* below).
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header on every response (CONTENT_SECURITY_POLICY below):
    # django-csp's, the header built once (frontdoor/csp.py).
    "frontdoor.csp.PolicyMiddleware",
    # A database or broker that is down answers 503 "unavailable", not a 500 (api/unavailable.py).
    "api.unavailable.UnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The input boundary (frontdoor/boundary.py): a NUL or a lone surrogate in the path, the query,
    # a form, a cookie or a header is 400 `invalid-characters` before the session or a view
    # reads it.
    "frontdoor.boundary.InputBoundaryMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Django's flash messages, for the pages only: an /api/ request skips them
    # (frontdoor/pages_only.py).
    "frontdoor.pages_only.PageMessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Where ladders rest while nobody visits (`make run`), the note that someone does
    # (frontdoor/visits.py); nothing otherwise.
    "frontdoor.visits.VisitMiddleware",
    # A signed-in person's page or API request: they are on the site, no turn email meanwhile
    # (frontdoor/activity.py; at most a write a minute per person).
    "frontdoor.activity.ActivityMiddleware",
    # Last, as axes asks: turns a sign-in refused for a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# HTTPS (docs/operations.md, "HTTPS and the browser's protections"): all off by default, so that
# `make run`, the tests and the soak work over plain HTTP; docker-compose.yml turns them on for a
# site served over HTTPS by a proxy that sends X-Forwarded-Proto. `manage.py check --deploy` is
# clean with its values (tests/test_deploy_settings.py).
# "HTTP_X_FORWARDED_PROTO,https": a request carrying that header with that value came over
# HTTPS. Only behind a proxy that sets (or strips) the header on every request.
_PROXY_SSL_HEADER = env_list("SECURE_PROXY_SSL_HEADER")
if _PROXY_SSL_HEADER:
    if len(_PROXY_SSL_HEADER) != 2 or not _PROXY_SSL_HEADER[0].startswith("HTTP_"):
        raise ImproperlyConfigured(
            "SECURE_PROXY_SSL_HEADER must be a header's META name and its value, "
            'e.g. "HTTP_X_FORWARDED_PROTO,https".'
        )
    SECURE_PROXY_SSL_HEADER = (_PROXY_SSL_HEADER[0], _PROXY_SSL_HEADER[1])
# Plain-HTTP requests redirected to HTTPS, except those the operator's own network makes: the
# container's healthcheck and Prometheus's scrape.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT")
SECURE_REDIRECT_EXEMPT = [r"^api/health$", r"^metrics$"]
# Strict-Transport-Security (sent on HTTPS responses only): seconds, and its two flags.
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS") or 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")
# The session and CSRF cookies sent over HTTPS only.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES")

# Content-Security-Policy (django-csp), always on: scripts and styles from our own static files
# only, no inline script, style or event handler anywhere (templates/ and static/ have none; htmx
# is told not to add its indicator style, templates/games/_head.html), no eval. data: images for
# Swagger UI's icons at /api/docs/ (api/urls.py serves its init script as a file of its own).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Axes's backend first: it refuses a locked-out sign-in before the password is even checked.
# It needs the request, so every authenticate() call must pass it (Django's login views do).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's, with a name in any case (names are unique whatever their case).
    "accounts.backends.AnyCaseModelBackend",
    # Kept so that sessions signed in before the line above stay signed in (a session names the
    # backend that signed it in); never asked to sign anyone in (the line above ends every
    # sign-in with a name and a password).
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

# Signing in without a `next` lands on the lobby (/play/), where a person's games are; the home
# page is for who has not signed in yet.
LOGIN_REDIRECT_URL = "web:lobby"
LOGOUT_REDIRECT_URL = "/"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # The bell's unread count, counted only on pages that show it (web/bell.py).
                "web.bell.bell",
            ],
            # `|iso` for `<time datetime>`: whole seconds, as HTML allows (web/datetimes.py);
            # `{% once_field %}`, a creating form's one-time token (web/once.py).
            "builtins": ["web.datetimes", "web.once"],
        },
    },
]

# An empty DATABASE_URL counts as unset, so `DATABASE_URL= make run` still gets SQLite.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    )
}
# The role the web, workers and beat connect as, when migrations run as another that owns the
# tables: every `migrate` grants it what the service needs and no more (games/roles.py).
DATABASE_APP_ROLE = os.environ.get("DATABASE_APP_ROLE", "")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with a health check that makes no round trip while the socket is quiet.
    DATABASES["default"]["ENGINE"] = "config.postgresql"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # `make run` has two writers, the web process and the periodic runner (run_periodic): a
    # write transaction takes the lock when it begins (IMMEDIATE), so a second writer waits up to
    # `timeout` seconds for it instead of failing with "database is locked" when it upgrades a
    # read, and the write-ahead log lets pages read while the runner writes.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL",
        **DATABASES["default"].get("OPTIONS", {}),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The open database's files (games/export.py; docs/database.md): a folder per month, written by
# `manage.py export_games` and beat's monthly export, served by /data/.
EXPORTS_DIR = Path(os.environ.get("EXPORTS_DIR") or BASE_DIR / "data" / "exports")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed names so whitenoise can serve them with far-future cache headers.
    # The manifest comes from `collectstatic` (the Dockerfile runs it).
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# The site's address as people reach it, for links in emails (turn notices link to the game's
# play page).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# EMAIL_BACKEND names Django's email backend outright (the soak writes every email to a file
# under EMAIL_FILE_PATH with django.core.mail.backends.filebased.EmailBackend, to check it);
# unset, DEBUG prints emails on the console and production sends them by SMTP.
if os.environ.get("EMAIL_BACKEND"):
    EMAIL_BACKEND = os.environ["EMAIL_BACKEND"]
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
if os.environ.get("EMAIL_FILE_PATH"):
    EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]

# Containers log to stdout; Django's default sends errors nowhere when DEBUG is off.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    # No secret of a URL in any line: a reset token in "Not Found: <path>" (config/redact.py).
    "filters": {"redact": {"()": "config.redact.RedactSecrets"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["redact"]}
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # Replace Django's own handlers (console in DEBUG, runserver's) so every line goes once
    # through the root handler, in one format.
    "loggers": {"django": {"handlers": [], "level": "INFO"}},
}

REST_FRAMEWORK = {
    # JSON only: API clients, errors included, never get the browsable HTML pages. DRF's JSON,
    # written by orjson (api/renderers.py).
    "DEFAULT_RENDERER_CLASSES": ["api.renderers.JSONRenderer"],
    # DRF's JSON parser, refusing over-nested bodies with a 400 rather than a RecursionError.
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # DRF's, without parsing the Accept header of a request that asks for JSON or anything.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.JSONFirstNegotiation",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}

# The cache (rate limits count in it): Redis at CACHE_URL when set, so every web process shares
# the counts; otherwise each process keeps its own, in memory. Keep it apart from the broker's
# database (docker-compose.yml uses /1 for the cache, /0 for Celery).
# A Redis that does not answer costs a request at most a second (redis-py waits for ever by
# default): the command throttles then let commands through uncounted (frontdoor/throttles.py).
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }

# Bot registrations, changes and validation requests a user may make (api/owners.py): each
# starts validation matches on the workers. DRF's rate syntax: "30/hour", "5/min".
API_BOT_CHANGES_RATE = os.environ.get("API_BOT_CHANGES_RATE", "30/hour")
# Game commands (frontdoor/throttles.py): a person's (API and play page together) and a pull bot's,
# over all their games. Above what a script playing flat out manages (each command waits for the
# bots' replies in its request: tests/api/test_play_script.py plays a newno match past 120 a
# minute), low enough that a runaway loop cannot flood the event log.
API_PERSON_COMMANDS_RATE = os.environ.get("API_PERSON_COMMANDS_RATE", "1200/min")
API_BOT_COMMANDS_RATE = os.environ.get("API_BOT_COMMANDS_RATE", "3000/min")
# Accounts made from one address (REMOTE_ADDR; an IPv6 /64) at /accounts/signup/.
SIGNUP_RATE = os.environ.get("SIGNUP_RATE", "10/hour")
# Opening, joining, leaving, cancelling and declining tables (frontdoor/throttles.py
# TableThrottle), the API's and the site's together, per person.
API_TABLES_RATE = os.environ.get("API_TABLES_RATE", "60/min")

# Sign-ins (django-axes, docs/operations.md "Security"): after AXES_FAILURE_LIMIT wrong passwords
# in a row for one username from one address, that pair is locked out for AXES_COOLOFF_MINUTES,
# counted from its last attempt (one made while locked out starts the wait again). Keyed on the
# pair, so someone who knows a username cannot lock its person out from their own address; the
# price is that one address may guess a few passwords for each of many usernames (operations.md).
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = datetime.timedelta(minutes=float(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The name counted case-folded, as sign-in takes it in any case (accounts/backends.py).
AXES_USERNAME_CALLABLE = "accounts.backends.lockout_name"
# The attempts live in the database (axes's AccessAttempt), shared by every web process.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
# A right password clears that pair's failures.
AXES_RESET_ON_SUCCESS = True
# The client is REMOTE_ADDR: a forwarded-for header is the client's to write.
AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)
# The page (or JSON) that says when to try again, with 429 (web/lockout.py).
AXES_LOCKOUT_CALLABLE = "web.lockout.locked_out"

SPECTACULAR_SETTINGS = {
    "TITLE": "UNO League API",
    "DESCRIPTION": "UNO leagues, asynchronous play and bot ladders.",
    "VERSION": "0.1.0",
    # 3.1: its schemas are JSON Schema 2020-12 (the bot schemas, api/decision_schemas.py), and
    # it has `webhooks`.
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The ids' path converter (frontdoor/converters.py): an integer no larger than a bigint.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
    },
    # Swagger UI's scripts from the drf-spectacular-sidecar package, not a CDN: /api/docs/ works
    # offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # drf-spectacular's own hook, then every operation's 400 from the input boundary.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.errors.boundary_errors",
        "api.published_schemas.postprocess",
    ],
    # What the server POSTs to a webhook bot (OpenAPI 3.1 webhooks).
    "WEBHOOKS": ["api.published_schemas.WEBHOOK"],
    # Outputs with a `status` of other values (health, bots, seasons, fixtures) get enums of their
    # own.
    "ENUM_NAME_OVERRIDES": {
        "BotStatusEnum": "games.models.Bot.Status",
        "BotKindEnum": "games.models.Bot.Kind",
        "GameStatusEnum": "games.models.Game.Status",
        "SeatKindEnum": ["person", "bot"],
        "SeasonStatusEnum": "league.models.Season.Status",
        "FixtureStatusEnum": ["scheduled", "playing", "finished"],
        "ChatChannelEnum": "chat.models.Message.Channel",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "TournamentFormatEnum": "tournaments.models.Tournament.Format",
    },
}

# Celery: Redis when REDIS_URL is set; otherwise tasks run eagerly in-process, so `make run`
# needs no broker. The memory broker is never reached then; it only keeps Celery from dialling
# a default AMQP server.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
# kombu's Redis transport with one client per channel, not one per task sent (config/broker.py).
# Only for redis://: kombu turns TLS on by the transport's name, `rediss`, so a rediss:// broker
# (or any other) keeps kombu's own. Named here, it is the transport of any broker URL given later
# (`celery -b`): give that a REDIS_URL instead.
if REDIS_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# Tasks are safe to run twice (docs/workers.md), so a task whose worker dies is redelivered rather
# than lost.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TIMEZONE = TIME_ZONE
# GET /api/health (api/views.py): seconds it waits for the broker to connect and answer, and
# again for the workers to answer a ping (each call waits that long when the broker is Redis).
HEALTH_TIMEOUT = float(os.environ.get("HEALTH_TIMEOUT", "0.5"))
# GET /metrics (api/metrics.py; docs/operations.md): the bearer token that opens it from any
# address, and the port a Celery worker serves its own metrics on (unset: none). Without the
# token only DEBUG lets direct callers on loopback or private addresses in, or
# METRICS_ALLOW_PRIVATE: a proxy that adds no forwarding header makes every caller look private,
# so trusting the address is a choice made explicitly, never the production default.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
METRICS_ALLOW_PRIVATE = env_bool("METRICS_ALLOW_PRIVATE")
METRICS_WORKER_PORT = int(os.environ.get("METRICS_WORKER_PORT") or 0)

# Workers (bots/turns.py, games/tasks.py; docs/workers.md).
# Bot commands per append when a worker plays a run of bot turns; the next run is dispatched
# after each append.
GAMES_ADVANCE_BATCH = int(os.environ.get("GAMES_ADVANCE_BATCH", "2000"))
# Games whose newest state each process keeps in memory (games/recent.py); 0: none.
RECENT_STATES = int(os.environ.get("RECENT_STATES", "1000"))
# Seconds a game a bot should move may sit still before the reconciler re-drives it.
GAMES_RECONCILE_IDLE = int(os.environ.get("GAMES_RECONCILE_IDLE", "30"))
# Seconds a newno open choice waits for a person before the system closes it (Youngest Rule).
GAMES_OPEN_CHOICE_TIMEOUT = int(os.environ.get("GAMES_OPEN_CHOICE_TIMEOUT", "30"))
# People's turns (clocks/deadlines.py, clocks/overdue.py): seconds a person has for a turn (a
# game's settings may set {"turn_seconds": s}), and the timeouts after which the seat is
# forfeited: the default bot plays it and it is placed last.
GAMES_TURN_SECONDS = int(os.environ.get("GAMES_TURN_SECONDS", str(3 * 24 * 3600)))
GAMES_TIMEOUTS_TO_FORFEIT = int(os.environ.get("GAMES_TIMEOUTS_TO_FORFEIT", "3"))
# Days a finished game stays still before its events are archived into one compressed row
# (games/archive.py; docs/event-store.md, "Archived streams"); the sweep runs hourly.
GAMES_ARCHIVE_AFTER_DAYS = float(os.environ.get("GAMES_ARCHIVE_AFTER_DAYS", "7"))
# Seconds a turn email may wait unsent (its task lost) before the sweep sends it again.
GAMES_NOTICE_RESEND = int(os.environ.get("GAMES_NOTICE_RESEND", "600"))
# Presence (clocks/presence.py): seconds after a person was last seen at a game (its page, its
# poll, a command) during which they count as there, and no turn email of that game is sent;
# and seconds between two writes of that moment per person, game and web process.
GAMES_PRESENCE_SECONDS = int(os.environ.get("GAMES_PRESENCE_SECONDS", "300"))
GAMES_PRESENCE_WRITE_SECONDS = int(os.environ.get("GAMES_PRESENCE_WRITE_SECONDS", "15"))
# Activity on the whole site (clocks/presence.py `active`): seconds after a person's last page or
# API request during which they count as on the site, and no turn email goes to them (nor within
# that time of their last turn email: the turns meanwhile go in one email); and seconds between
# two writes of that moment per person.
GAMES_SITE_ACTIVE_SECONDS = int(os.environ.get("GAMES_SITE_ACTIVE_SECONDS", "600"))
GAMES_SITE_WRITE_SECONDS = int(os.environ.get("GAMES_SITE_WRITE_SECONDS", "60"))
# The summary of what waits under the bell while a person is away (social/summaries.py): seconds
# a notice waits before it may go in one (one back soon reads it under the bell), and the least
# seconds between two summaries to one person.
SOCIAL_SUMMARY_DELAY_SECONDS = int(os.environ.get("SOCIAL_SUMMARY_DELAY_SECONDS", "1800"))
SOCIAL_SUMMARY_EVERY_SECONDS = int(os.environ.get("SOCIAL_SUMMARY_EVERY_SECONDS", "21600"))
# Out-of-turn grace for people (bots/turns.py, docs/rules.md "What the service adds"): seconds
# bots wait before they move while a person at the table has an out-of-turn chance (a jump-in,
# the newno open start, a catch, an uno call; a game's settings, from its competition, may set
# {"grace_seconds": s}); and seconds after a person was last seen at the game (its page or its
# poll) during which they count as at the table. The presence write comes at most every
# GAMES_PRESENCE_WRITE_SECONDS, so this is longer than that.
GAMES_GRACE_SECONDS = float(os.environ.get("GAMES_GRACE_SECONDS", "4"))
GAMES_AT_TABLE_SECONDS = int(os.environ.get("GAMES_AT_TABLE_SECONDS", "20"))
# Practice matches (games of bots alone that a bot's owner starts to watch: games/lobby.py) one
# person may have running at once, so nobody fills the workers with bots' games.
GAMES_MAX_PRACTICE_MATCHES = int(os.environ.get("GAMES_MAX_PRACTICE_MATCHES", "3"))
# Registered bots (bots/remote/, bots/remote/webhook.py; docs/workers.md).
# Seconds a webhook bot has to answer (a game's context may set {"bot_timeout": s}).
BOTS_WEBHOOK_TIMEOUT = float(os.environ.get("BOTS_WEBHOOK_TIMEOUT", "1.0"))
# Bytes of a webhook answer read at most (fixed: bots/remote/wire.py MAX_ANSWER, which the
# standalone runner shares).
BOTS_WEBHOOK_MAX_ANSWER = 64 * 1024
# Seconds a pull bot has for a decision after the game last moved ({"pull_timeout": s}).
BOTS_PULL_TIMEOUT = float(os.environ.get("BOTS_PULL_TIMEOUT", "30"))
# Out-of-turn windows (uno calls, catches, newno jump-ins; bots/remote/windows.py): seconds a
# webhook bot has to answer one (at most its game's webhook limit), and seconds the game holds
# for a pull bot's, after the append that opened it.
BOTS_WINDOW_SECONDS = float(os.environ.get("BOTS_WINDOW_SECONDS", "0.3"))
BOTS_PULL_WINDOW_SECONDS = float(os.environ.get("BOTS_PULL_WINDOW_SECONDS", "2"))
# Whole seconds a pull bot waits after a poll that gave it nothing to send before it polls
# again: every 200 of GET /api/bot/decisions says so in its Retry-After header. Shorter than a
# pull window, so that a bot polling at this pace sees every window while it is open.
BOTS_POLL_SECONDS = int(os.environ.get("BOTS_POLL_SECONDS", "1"))
# Strikes in a row (timeouts, errors, illegal answers) that suspend a bot.
BOTS_STRIKES_TO_SUSPEND = int(os.environ.get("BOTS_STRIKES_TO_SUSPEND", "3"))
# The built-in strategy that moves for a bot that gave no (legal) answer.
BOTS_FALLBACK_STRATEGY = "greedy"
# Bot URLs on loopback addresses (127.0.0.0/8, ::1): only for tests and local development. No
# setting opens the other private, link-local, CGNAT or unique-local ranges
# (bots/remote/webhook.py).
# BOTS_ALLOW_PRIVATE_URLS is the deprecated name of the same switch: it opens loopback only now.
BOTS_ALLOW_LOOPBACK_URLS = env_bool("BOTS_ALLOW_LOOPBACK_URLS") or env_bool(
    "BOTS_ALLOW_PRIVATE_URLS"
)
# Validation: matches a new bot plays, their rules and its built-in opponents.
BOTS_VALIDATION_MATCHES = int(os.environ.get("BOTS_VALIDATION_MATCHES", "3"))
BOTS_VALIDATION_SPEC = {"rules": "official", "options": {"target": 50}}
BOTS_VALIDATION_OPPONENTS = ["greedy", "colour-control", "random"]
# Advances (each one remote decision, or a run of built-in turns) before a validation gives up.
BOTS_VALIDATION_MAX_ADVANCES = 3000
# Seconds a validation round may take before it fails (a pull bot that stopped polling is
# failed sooner, by its first decision's deadline).
BOTS_VALIDATION_TIMEOUT = int(os.environ.get("BOTS_VALIDATION_TIMEOUT", "3600"))
# Seconds a built-in or webhook bot's validation round may sit still (its task lost, a worker
# killed) before the sweep sends it again.
BOTS_VALIDATION_RESEND = int(os.environ.get("BOTS_VALIDATION_RESEND", "120"))
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
# Leagues (league/services.py; docs/league.md): seconds between two ladder matchmaking runs.
LEAGUE_MATCHMAKING_SECONDS = int(os.environ.get("LEAGUE_MATCHMAKING_SECONDS", "30"))
# The ladders' brakes (league/rest.py; docs/ladders.md, "Budget and rest"): sets (tables) an
# entrant may start in a ladder in any 24 hours (0: no budget); seconds without a visit to the
# site after which beat's matchmaking seats no new table (0: never rests; `make run` sets 600),
# and how often a process records a visit while it serves requests.
LEAGUE_LADDER_SETS_PER_DAY = int(os.environ.get("LEAGUE_LADDER_SETS_PER_DAY", "100"))
LEAGUE_LADDER_REST_SECONDS = int(os.environ.get("LEAGUE_LADDER_REST_SECONDS", "0"))
LEAGUE_VISIT_WRITE_SECONDS = int(os.environ.get("LEAGUE_VISIT_WRITE_SECONDS", "30"))
# Ladders for bots only (league/ladders.py, ladder_enter): their slugs. A person's own entry is
# refused there (403 `ladder-for-bots`); every other ladder mixes people and bots.
LEAGUE_BOT_LADDERS = env_list("LEAGUE_BOT_LADDERS") or ["bot-arena"]
# Seconds between two runs of the task that opens seasons' rounds (league/seasons.py).
LEAGUE_ROUNDS_SECONDS = int(os.environ.get("LEAGUE_ROUNDS_SECONDS", "30"))
# People's ratings (ratings/; docs/ratings.md): a person is provisional in a pool, the figure
# marked and left off the ranked leaderboard, until this many rated games there.
RATINGS_PROVISIONAL_GAMES = int(os.environ.get("RATINGS_PROVISIONAL_GAMES", "10"))
# Open tables (tables/services.py; docs/web.md "Open tables"): minutes an open table waits for
# its people before it expires, minutes a challenge waits for its answer, how many open tables
# one person may have at once, and seconds between two runs of the sweep that fills tables with
# bots and expires the rest.
TABLES_OPEN_MINUTES = int(os.environ.get("TABLES_OPEN_MINUTES", "30"))
TABLES_CHALLENGE_MINUTES = int(os.environ.get("TABLES_CHALLENGE_MINUTES", str(24 * 60)))
TABLES_MAX_OPEN = int(os.environ.get("TABLES_MAX_OPEN", "5"))
TABLES_SWEEP_SECONDS = int(os.environ.get("TABLES_SWEEP_SECONDS", "15"))
# Finished games' analyses (analysis/; docs/analysis.md): playouts per option of each decision,
# seconds between two writes of a run's progress, seconds before a queued analysis whose task
# was lost (or a run whose worker died) is sent again, and seconds between two sweeps.
ANALYSIS_PLAYOUTS = int(os.environ.get("ANALYSIS_PLAYOUTS", "16"))
ANALYSIS_PROGRESS_SECONDS = float(os.environ.get("ANALYSIS_PROGRESS_SECONDS", "1.0"))
ANALYSIS_RESEND_SECONDS = int(os.environ.get("ANALYSIS_RESEND_SECONDS", "900"))
ANALYSIS_SWEEP_SECONDS = float(os.environ.get("ANALYSIS_SWEEP_SECONDS", "10"))
# The replay page marks a decision costly from this many of a hand's points.
ANALYSIS_COSTLY_POINTS = float(os.environ.get("ANALYSIS_COSTLY_POINTS", "5"))
# The safety nets; exactly one `celery beat` runs them (docs/workers.md).
CELERY_BEAT_SCHEDULE = {
    "reconcile-games": {"task": "games.tasks.reconcile_games", "schedule": 15.0},
    "close-open-choices": {"task": "games.tasks.close_open_choices", "schedule": 5.0},
    # Games whose grace for a person's out-of-turn chance is over (with a broker the advance's
    # countdown comes first; without one, under make run, this is what ends a grace).
    "end-graces": {"task": "games.tasks.end_graces", "schedule": 5.0},
    "run-projections": {"task": "games.tasks.run_projections", "schedule": 10.0},
    "settle-validations": {"task": "games.tasks.settle_validations", "schedule": 60.0},
    # Finished games still for GAMES_ARCHIVE_AFTER_DAYS move into the archive (games/archive.py).
    "archive-games": {"task": "games.tasks.archive_games", "schedule": 3600.0},
    # The open database: last month's finished games, on the 1st (games/export.py).
    "export-games": {
        "task": "games.tasks.export_games",
        "schedule": crontab(day_of_month="1", hour=3, minute=30),
    },
    # People's deadlines and pull bots' (5 s: a pull bot's limit is seconds).
    "expire-turns": {"task": "games.tasks.expire_turns", "schedule": 5.0},
    "send-turn-digests": {
        "task": "games.tasks.send_turn_digests",
        "schedule": crontab(hour=7, minute=0),
    },
    # What waits under the bell of people away (social/summaries.py).
    "notice-summaries": {"task": "games.tasks.send_notice_summaries", "schedule": 300.0},
    "ladder-matchmaking": {
        "task": "league.tasks.ladder_matchmaking",
        "schedule": LEAGUE_MATCHMAKING_SECONDS,
    },
    # A season's next round opens on its date, or once the round before it has finished.
    "open-rounds": {"task": "league.tasks.open_rounds", "schedule": LEAGUE_ROUNDS_SECONDS},
    # Open tables whose bot-fill time came start with bots; the rest expire in their time.
    "sweep-tables": {"task": "tables.tasks.sweep_tables", "schedule": TABLES_SWEEP_SECONDS},
    # Tournaments start when entry closes, forfeit at a round's deadline and open the next
    # round when one has ended (tournaments/tasks.py; the last also on a game's end).
    "sweep-tournaments": {"task": "tournaments.tasks.sweep", "schedule": 30.0},
    # Finished games' analyses (analysis/tasks.py): in-process (make run) this runs them, one a
    # tick; with a broker it sends again what a lost task left queued.
    "sweep-analyses": {
        "task": "analysis.tasks.sweep_analyses",
        "schedule": ANALYSIS_SWEEP_SECONDS,
    },
}
# The analysis' runs go to a queue of their own, served by workers of their own
# (`celery -A config worker -Q analysis`, docker-compose.yml's analysis-worker).
ANALYSIS_QUEUE = os.environ.get("ANALYSIS_QUEUE", "analysis")
CELERY_TASK_ROUTES = {"analysis.tasks.run_analysis": {"queue": ANALYSIS_QUEUE}}
