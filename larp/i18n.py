"""Names that people read exist in Russian and English; pick by the active language."""
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop


class BilingualName(models.Model):
    name_ru = models.CharField(_("name (Russian)"), max_length=200)
    name_en = models.CharField(_("name (English)"), max_length=200, blank=True)

    class Meta:
        abstract = True

    @property
    def name(self) -> str:
        if (get_language() or "ru").startswith("en") and self.name_en:
            return self.name_en
        return self.name_ru

    def __str__(self) -> str:
        return self.name


# Django's own texts the pages show whose Russian Django's catalogue lacks: marked here so makemessages puts
# them in the project's catalogue (locale/ru/translations/django_words.json), which Django reads before its own.
# "- Select an option -" is the empty choice of every select made from a model field or a ModelChoiceField
# (django.db.models.fields.BLANK_CHOICE_LABEL, lazy: translated where the select is drawn).
DJANGO_TEXTS = (gettext_noop("- Select an option -"),)
