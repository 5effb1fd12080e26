import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "larp.settings")
application = get_wsgi_application()

from larp.checks import refuse_dev_key_without_debug  # noqa: E402  (needs settings loaded)

refuse_dev_key_without_debug()
