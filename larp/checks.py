from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured


def refuse_dev_key_without_debug() -> None:
    """Serving pages with the development key is refused unless DEBUG is on."""
    if settings.USING_DEV_SECRET_KEY and not settings.DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set and DEBUG is off. Set SECRET_KEY in the environment "
            "(make run does this for you), or DEBUG=1 for development."
        )


@register("security", deploy=True)
def secret_key_check(app_configs, **kwargs):
    if settings.USING_DEV_SECRET_KEY and not settings.DEBUG:
        return [Error("SECRET_KEY is the development key while DEBUG is off.", id="larp.E001",
                      hint="Set SECRET_KEY in the environment.")]
    return []
