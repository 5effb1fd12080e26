"""Environment for the test run, set before Django reads its settings."""
import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-" + "x" * 30)
os.environ.setdefault("LARP_PLAIN_STATIC", "1")  # no collectstatic manifest needed
os.environ.setdefault("CACHE_URL", "locmem")
