"""The Celery application: tasks take ids and call services (see each app's tasks.py)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "larp.settings")

app = Celery("larp")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
