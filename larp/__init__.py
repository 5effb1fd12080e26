"""The moderator toolkit for the military module of live historical role-play games."""
from .celery import app as celery_app

__all__ = ("celery_app",)
