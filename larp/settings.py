"""Settings, all from the environment, with defaults that run on one laptop.

DATABASE_URL   default: SQLite file under var/
REDIS_URL      default: redis://127.0.0.1:6379/0 (Celery broker and the cache)
CELERY_BROKER_URL  overrides the broker; "filesystem://" needs no server
                   (`manage.py rungame` picks it when Redis is unreachable)
CELERY_QUEUE   the Celery queue's name, default "celery"
CACHE_URL      "redis" (default when the broker is Redis) or "locmem"
SECRET_KEY     required to serve pages when DEBUG is off
DEBUG          off unless set to 1/true/yes
ALLOWED_HOSTS  comma-separated, default "localhost,127.0.0.1"
TIME_ZONE      default Europe/Moscow
LOGIN_FAILURE_LIMIT, LOGIN_COOLOFF_MINUTES  login throttling, default 5 failures, 5 minutes
REHEARSAL_URL  the address the console's rehearsal bots play against (default: the page's own address)
"""
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("LARP_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DEBUG")

# The development key lets command-line tools (adjudicate, load_scenario) run
# anywhere; serving pages with it and DEBUG off is refused (larp/wsgi.py,
# rungame, and the larp.E001 system check).
DEV_SECRET_KEY = "django-insecure-development-only-key-never-use-in-a-game"
SECRET_KEY = os.environ.get("SECRET_KEY", "") or DEV_SECRET_KEY
USING_DEV_SECRET_KEY = SECRET_KEY == DEV_SECRET_KEY

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "larp.campaign",
    "larp.dice",
    "larp.forces",
    "larp.turns",
    "larp.orders",
    "larp.battles",
    "larp.sheets",
    "larp.tablet",
    "larp.tables",
    "larp.redplains",
    "larp.orda",
    "larp.tactical",
    "larp.ordonnance",
    "larp.bridge",
    "larp.gamefile",
    "larp.editor",
    "larp.rehearsal",
    "axes",
]

MIDDLEWARE = [
    "larp.arrival.ArrivalMiddleware",  # first: when the request reached Django (an order's press is judged by it)
    "django.middleware.security.SecurityMiddleware",
    # Pages and fragments gzipped for the hall's Wi-Fi (static files: WhiteNoise's precompressed copies).
    # BREACH: Django masks the CSRF token anew on every response and this middleware pads each gzip
    # stream with random bytes; tablet pages reflect no text typed by anyone. README "Compression".
    "django.middleware.gzip.GZipMiddleware",
    # The clock and a table's version, polled by every tablet, answered before sessions and sign-in (issue 36).
    "larp.fastlane.FastLaneMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "larp.campaign.access.RolesOnceMiddleware",  # a user's role in a game read once a request
    "larp.tablet.middleware.JoinCodeSessionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "larp.middleware.OutOfRangeIdMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "larp.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
# Forms drawn by Django's templates, but a <select> written in Python (larp/forms_render.py: the same HTML).
FORM_RENDERER = "larp.forms_render.Renderer"

WSGI_APPLICATION = "larp.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'larp.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A game night has many writers at once: wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})
    # WAL: readers (pages, the backups) never wait for a writer, and a writer waits only for another writer.
    DATABASES["default"]["OPTIONS"].update({"timeout": 20, "transaction_mode": "IMMEDIATE",
                                            "init_command": "PRAGMA journal_mode=WAL;"})
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Moscow")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on a missing folder
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or env_flag("LARP_PLAIN_STATIC")
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
MEDIA_ROOT = VAR_DIR / "media"

# Login throttling (django-axes): failed sign-ins are counted per account and client address together
# in the database, so every gunicorn worker sees the same count and it holds when Redis is down; after
# LOGIN_FAILURE_LIMIT failures that account is refused from that address for LOGIN_COOLOFF_MINUTES,
# with a message in the user's language (templates/registration/locked_out.html). Other accounts on the
# same address (the hall's Wi-Fi) go on signing in. A successful password sign-in resets the count, a
# join code does not (larp/tablet/throttle.py); `manage.py axes_reset` lifts a block at once.
# Behind reverse proxies set TRUSTED_PROXIES to their number (larp/client_address.py).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("LOGIN_COOLOFF_MINUTES", "5")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "larp.tablet.throttle.ThrottleHandler"
AXES_CLIENT_IP_CALLABLE = "larp.client_address.client_address"
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")

# Players' tablets: the address printed in join QR codes (the laptop on the
# hall's Wi-Fi, e.g. http://192.168.1.10:8000; empty: the address the
# moderator's browser used) and how long a join code works.
TABLET_BASE_URL = os.environ.get("TABLET_BASE_URL", "")
# The address a rehearsal's bots play against (the console's «Репетиция», docs/rehearsal.md); empty: the address
# the moderator's page was served from (the worker runs on the same machine).
REHEARSAL_URL = os.environ.get("REHEARSAL_URL", "")
TABLET_JOIN_MAX_AGE = int(os.environ.get("TABLET_JOIN_MAX_AGE", str(3 * 24 * 3600)))

# Celery: tasks are small and write their results to the database.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Several apps (or a benchmark next to a game) may share one Redis database: each its own queue.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "celery-broker"
    for _sub in ("queue", "processed"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "store_processed": False,
    }
else:
    # Fail fast when Redis is down: filing an order must not hang on the broker.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "close-due-phases": {"task": "larp.turns.tasks.close_due_phases", "schedule": 2.0},
}
# Automatic backups of the running games (larp/gamefile/backups.py): a whole game file every
# BACKUP_EVERY_MINUTES under BACKUP_DIR, the last BACKUP_KEEP of each game kept.
BACKUP_EVERY_MINUTES = float(os.environ.get("BACKUP_EVERY_MINUTES", "5"))
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "12"))
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", VAR_DIR / "backups"))
CELERY_BEAT_SCHEDULE["back-up-running-games"] = {"task": "larp.gamefile.tasks.back_up_running_games",
                                                 "schedule": BACKUP_EVERY_MINUTES * 60}
# The console warns moderators when the worker has not run beat's task for this long (larp/turns/worker.py).
WORKER_STALE_SECONDS = float(os.environ.get("WORKER_STALE_SECONDS", "10"))
# A print job that has not progressed for this long is given up as failed (larp/sheets/services.py).
PRINT_STALL_SECONDS = float(os.environ.get("PRINT_STALL_SECONDS", "20"))

_cache = os.environ.get("CACHE_URL", "redis" if CELERY_BROKER_URL.startswith("redis") else "locmem")
if _cache == "redis":
    CACHES = {
        "default": {
            "BACKEND": "larp.cache.SharedClientRedisCache",  # Django's, one client per pool (larp/cache.py)
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "larp"),
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# A game night over HTTPS (`HTTPS=1 make run`, README "HTTPS on the hall's Wi-Fi"): gunicorn serves TLS
# with the laptop's certificate; cookies are then sent only over TLS and browsers are told to stay on it.
HTTPS = env_flag("HTTPS")
TLS_CERT = os.environ.get("TLS_CERT", str(VAR_DIR / "tls" / "cert.pem"))
TLS_KEY = os.environ.get("TLS_KEY", str(VAR_DIR / "tls" / "key.pem"))
if HTTPS:
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", "86400"))

# Sessions in the database and, in front of it, the shared cache (larp/sessions.py: cached_db that keeps
# working while Redis is down). Without Redis the cache is each process's own (locmem): then sessions are read
# from the database only, since a sign-out in one process could not reach another's copy. A session deleted
# while Redis is down (a sign-out then) stays in Redis's copy until it expires, if Redis kept its data.
SESSION_ENGINE = "larp.sessions" if _cache == "redis" else "django.contrib.sessions.backends.db"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 3  # a whole game weekend
SESSION_COOKIE_HTTPONLY = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"one_line_forbidden": {"()": "larp.log.OneLineForbidden"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {"django.request": {"filters": ["one_line_forbidden"]}},
}

# R3's hard deadline with a grace: an order that reaches the server up to ORDER_GRACE_SECONDS after the
# deadline still counts (the hall's Wi-Fi and the server's queue), and is recorded as in the grace; players
# see the real deadline. The Strategy phase closes at deadline + grace. REQUEST_START_HEADER names a header
# the proxy in front sets to when the request reached it (nginx: X-Request-Start "t=${msec}"); when set, a
# press is judged by it instead of by when Django began handling it (larp/arrival.py). Never set it without
# a proxy that overwrites the header: clients could then date their own presses.
ORDER_GRACE_SECONDS = float(os.environ.get("ORDER_GRACE_SECONDS", "2"))
# Presses that reached the server in time may still wait for a thread or a lock on a busy laptop: the phase
# closes (implicit holds, orders revealed) this much after deadline + grace; presses arriving meanwhile
# are refused like any late one.
ORDER_SETTLE_SECONDS = float(os.environ.get("ORDER_SETTLE_SECONDS", "3"))
REQUEST_START_HEADER = os.environ.get("REQUEST_START_HEADER", "")
REQUEST_START_MAX_AGE = 60  # seconds: an older stamp is not believed (a clock that is wrong, a replay)
REQUEST_START_SKEW = 1.0  # seconds a proxy's clock may run ahead of ours

# The clock pushed to tablets as server-sent events (issue 36; benchmarks/README.md "Sixty tablets at a phase
# change"): on unless CLOCK_STREAM=0, which makes every tablet poll the clock as before (polling is also each
# tablet's fallback while its stream is down). Each open stream holds one of gunicorn's threads: a web worker
# serves at most CLOCK_STREAM_SLOTS streams (the tablets past that are told to poll) and `rungame` gives each
# worker 4 threads for pages plus that many (WEB_THREADS overrides). A battle table's pages follow the table's
# version the same way, from the same slots (larp/streams.py), and poll it when this is off.
CLOCK_STREAM = env_flag("CLOCK_STREAM", True)
# 60: sixty tablets' clocks and ten table pages fit in two workers (one a core here) with room for the uneven
# share of connections each worker is handed.
CLOCK_STREAM_SLOTS = int(os.environ.get("CLOCK_STREAM_SLOTS", "60"))
# A battle table's pages follow their table's version the same way unless TABLE_STREAM=0 (then they poll it).
TABLE_STREAM = env_flag("TABLE_STREAM", True)
# After a phase change, every faction's board is drawn once by a thread of the process that made it, before the
# tablets ask (larp.tablet.warm); BOARDS_DRAWN_AT_CHANGE=0 leaves it to the tablets' requests.
BOARDS_DRAWN_AT_CHANGE = env_flag("BOARDS_DRAWN_AT_CHANGE", True)
CLOCK_STREAM_SECONDS = 55  # a stream ends after this and the tablet reconnects (proxies and threads come back)
