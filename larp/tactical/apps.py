from django.apps import AppConfig


class TacticalConfig(AppConfig):
    name = "larp.tactical"
    label = "tactical"
    verbose_name = "Тактические правила"
    default_auto_field = "django.db.models.BigAutoField"
