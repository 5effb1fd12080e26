"""The Celery application: tasks take ids and call services (see each app's tasks.py)."""
import logging
import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "larp.settings")

app = Celery("larp")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

log = logging.getLogger(__name__)


@worker_ready.connect
def catch_up_on_start(**_kwargs) -> None:
    """A worker that (re)starts closes at once every deadline that passed while none ran (exactly once:
    the close is a conditional update), and says it is alive, without waiting for beat's next round."""
    from larp.turns import services, worker

    try:
        worker.record_heartbeat()
        closed = services.close_due()
    except Exception:  # noqa: BLE001 - beat's catch-up task retries every 2 s
        log.exception("catching up on missed deadlines at start failed; beat will retry")
    else:
        if closed:
            log.warning("closed %d phase(s) whose deadline passed while no worker ran", closed)
