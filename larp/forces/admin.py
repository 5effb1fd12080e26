from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from larp.campaign.admin import ProvinceAdmin
from larp.campaign.admin_scope import GameScopedAdmin, GameScopedInline
from larp.campaign.models import Province
from larp.forces import services
from larp.forces.models import Army, Commander, Fleet, TroopCard, TroopType


class GameFormSet(forms.BaseInlineFormSet):
    """New rows belong to the parent's game."""

    def save_new(self, form, commit=True):
        form.instance.game_id = self.instance.game_id
        return super().save_new(form, commit=commit)


class StackFormSet(GameFormSet):
    """Check the whole stack as it would be after the edit (R1); refuse it all on a problem."""

    def clean(self):
        super().clean()
        if any(self.errors):
            return
        kept = [
            form.cleaned_data["troop_type"]
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE") and form.cleaned_data.get("troop_type")
        ]
        stack = self.instance
        if stack.pk is None and not kept:
            return
        problems = services.stack_problems(stack, kept)
        if problems:
            raise ValidationError(problems)


class CardInline(GameScopedInline, admin.TabularInline):
    model = TroopCard
    formset = StackFormSet
    extra = 1
    fields = ["troop_type"]
    verbose_name = _("troop card")
    verbose_name_plural = _("stack (troop cards)")

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "troop_type":
            from larp.campaign.access import moderated_games

            if not request.user.is_superuser:
                kwargs["queryset"] = TroopType.objects.filter(game__in=moderated_games(request.user))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ArmyCardInline(CardInline):
    fk_name = "army"
    exclude = ["fleet", "garrison"]


class FleetCardInline(CardInline):
    fk_name = "fleet"
    exclude = ["army", "garrison"]


class GarrisonCardInline(CardInline):
    fk_name = "garrison"
    exclude = ["army", "fleet"]
    verbose_name_plural = _("garrison (troop cards)")


class ProvinceWithGarrisonAdmin(ProvinceAdmin):
    """The province page with its fortress's garrison: the cards are forces', so the inline is added here."""
    inlines = [*ProvinceAdmin.inlines, GarrisonCardInline]


admin.site.unregister(Province)
admin.site.register(Province, ProvinceWithGarrisonAdmin)


class CommanderInline(GameScopedInline, admin.TabularInline):
    model = Commander
    formset = GameFormSet
    extra = 0
    fields = ["name_ru", "name_en", "power", "faction"]


class ArmyCommanderInline(CommanderInline):
    fk_name = "army"


class FleetCommanderInline(CommanderInline):
    fk_name = "fleet"


@admin.register(TroopType)
class TroopTypeAdmin(GameScopedAdmin):
    list_display = ["name_ru", "name_en", "code", "domain", "power", "men", "supply", "game"]
    list_filter = ["game", "domain"]


@admin.register(Army)
class ArmyAdmin(GameScopedAdmin):
    list_display = ["__str__", "faction", "number", "province", "destroyed", "game"]
    list_filter = ["game", "faction", "destroyed"]
    inlines = [ArmyCardInline, ArmyCommanderInline]


@admin.register(Fleet)
class FleetAdmin(GameScopedAdmin):
    list_display = ["__str__", "faction", "number", "sea", "destroyed", "game"]
    list_filter = ["game", "faction", "destroyed"]
    inlines = [FleetCardInline, FleetCommanderInline]


@admin.register(Commander)
class CommanderAdmin(GameScopedAdmin):
    list_display = ["name_ru", "name_en", "power", "faction", "army", "fleet", "game"]
    list_filter = ["game", "faction"]
    search_fields = ["name_ru", "name_en"]
