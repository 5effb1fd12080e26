"""Settings for the test run: the app's own settings with test-friendly defaults.

Environment variables still win (CI points DATABASE_URL at PostgreSQL).
"""
import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-" + "x" * 30)
os.environ.setdefault("LARP_PLAIN_STATIC", "1")  # no collectstatic manifest needed
os.environ.setdefault("CACHE_URL", "locmem")

from larp.settings import *  # noqa: E402,F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast sign-ins in tests
