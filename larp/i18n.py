"""Names that people read exist in Russian and English; pick by the active language."""
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _


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
