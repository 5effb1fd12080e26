from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from larp.campaign.admin_scope import GameScopedAdmin, GameScopedInline
from larp.campaign.models import Adjacency, Faction, Game, Membership, Province, Relation, SpecialState


def colour_swatch(colour: str):
    return format_html(
        '<span style="display:inline-block;width:1.2em;height:1.2em;border:1px solid #333;'
        'vertical-align:middle;background:{}"></span> {}',
        colour,
        colour,
    )


@admin.register(Game)
class GameAdmin(GameScopedAdmin):
    game_path = "pk"
    list_display = ["title", "scenario", "created_at"]
    search_fields = ["title"]
    readonly_fields = ["created_at"]
    exclude = ["seed"]  # the dice seed stays secret until a moderator reveals it (docs/dice.md)

    def get_queryset(self, request):
        qs = admin.ModelAdmin.get_queryset(self, request)
        if request.user.is_superuser:
            return qs
        return qs.filter(pk__in=self._games(request))

    def _allowed(self, request, obj=None):
        if obj is not None and not request.user.is_superuser:
            return request.user.is_staff and self._games(request).filter(pk=obj.pk).exists()
        return super()._allowed(request)

    def has_add_permission(self, request, *args):
        # New games come from a scenario (manage.py load_scenario): all of it or nothing.
        return request.user.is_superuser


@admin.register(Faction)
class FactionAdmin(GameScopedAdmin):
    list_display = ["name_ru", "name_en", "code", "swatch", "crusader", "capital", "game"]
    list_filter = ["game", "crusader"]
    search_fields = ["name_ru", "name_en", "code"]

    @admin.display(description=_("colour"))
    def swatch(self, obj):
        return colour_swatch(obj.colour)


@admin.register(Province)
class ProvinceAdmin(GameScopedAdmin):
    list_display = ["name_ru", "name_en", "code", "domain", "owner_swatch", "fortress", "special", "game"]
    list_filter = ["game", "domain", "fortress", "owner"]
    search_fields = ["name_ru", "name_en", "code"]

    @admin.display(description=_("owner"), ordering="owner")
    def owner_swatch(self, obj):
        if obj.owner is None:
            return "—"
        return format_html("{} {}", colour_swatch(obj.owner.colour), obj.owner.name)


@admin.register(Adjacency)
class AdjacencyAdmin(GameScopedAdmin):
    list_display = ["a", "b", "game"]
    list_filter = ["game"]
    search_fields = ["a__name_ru", "b__name_ru", "a__code", "b__code"]


@admin.register(Relation)
class RelationAdmin(GameScopedAdmin):
    list_display = ["kind", "from_faction", "to_faction", "game"]
    list_filter = ["game", "kind"]


@admin.register(SpecialState)
class SpecialStateAdmin(GameScopedAdmin):
    list_display = ["special", "state", "game"]
    list_filter = ["game"]


@admin.register(Membership)
class MembershipAdmin(GameScopedAdmin):
    list_display = ["user", "role", "faction", "game"]
    list_filter = ["game", "role"]
    search_fields = ["user__username"]


__all__ = ["GameScopedInline"]
