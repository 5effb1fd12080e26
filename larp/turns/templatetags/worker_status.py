"""{% worker_status game %}: the moderators' warning while the background worker is down (larp/turns/worker.py)."""
from django import template
from django.urls import reverse

from larp.turns import worker

register = template.Library()


@register.inclusion_tag("turns/partials/worker_status.html")
def worker_status(game=None):
    return {"alive": worker.worker_alive(),
            "status_url": reverse("turns:worker_status", args=[game.pk]) if game is not None else ""}
