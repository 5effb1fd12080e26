"""Admin for moderators: each sees and edits only the games they moderate.

Moderators are staff users without Django model permissions; membership in a
game (larp.campaign.access) is what grants them the admin for that game.
"""
from django.contrib import admin
from django.contrib.admin.utils import get_fields_from_path
from django.contrib.auth import get_user_model
from django.db.models import Q

from larp.campaign.access import moderated_games
from larp.campaign.audit import audit


def scoped_accounts(games):
    """The accounts a moderator of `games` may pick: members of those games, and accounts in no game yet
    (never another game's players or moderators, never a superuser)."""
    from larp.campaign.models import Membership

    return get_user_model()._default_manager.filter(is_superuser=False).filter(
        Q(memberships__game__in=games) | ~Q(pk__in=Membership.objects.values("user_id"))
    ).distinct().order_by("username")


class GameScopedAdmin(admin.ModelAdmin):
    """Filter rows and foreign-key choices to the user's games (via `game_path`)."""

    game_path = "game"

    def _games(self, request):
        return moderated_games(request.user)

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.game_path}__in": self._games(request)})

    def get_list_filter(self, request):
        """Filters on a relation list only what the user's rows point at (never another game's title)."""
        filters = super().get_list_filter(request)
        if request.user.is_superuser:
            return filters
        scoped = []
        for item in filters:
            if isinstance(item, str) and get_fields_from_path(self.model, item)[-1].is_relation:
                item = (item, admin.RelatedOnlyFieldListFilter)
            scoped.append(item)
        return scoped

    def _allowed(self, request, obj=None) -> bool:
        if not request.user.is_active or not request.user.is_staff:
            return False
        if request.user.is_superuser:
            return True
        games = self._games(request)
        if obj is None:
            return games.exists()
        game = obj
        for part in self.game_path.split("__"):
            game = getattr(game, part)
        return games.filter(pk=game.pk).exists()

    def has_module_permission(self, request):
        return self._allowed(request)

    def has_view_permission(self, request, obj=None):
        return self._allowed(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._allowed(request, obj)

    def has_add_permission(self, request, *args):
        return self._allowed(request)

    def has_delete_permission(self, request, obj=None):
        return self._allowed(request, obj)

    def _game_of(self, obj):
        game = obj
        for part in self.game_path.split("__"):
            game = getattr(game, part, None)
        return game

    def _audit(self, request, obj, action, changed=()):
        """Every moderator edit through the admin lands in the game's audit log (R14)."""
        game = self._game_of(obj)
        if game is not None and getattr(game, "pk", None) and obj._meta.model_name != "game":
            audit(game, request.user, action, {"model": obj._meta.model_name, "object": str(obj),
                                               "id": obj.pk, "changed": list(changed)})

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self._audit(request, obj, "admin_changed" if change else "admin_added", form.changed_data)

    def delete_model(self, request, obj):
        self._audit(request, obj, "admin_deleted")
        super().delete_model(request, obj)

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.has_changed():
            self._audit(request, form.instance, "admin_stack_changed",
                        [formset.prefix])

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not request.user.is_superuser:
            model = db_field.related_model
            games = self._games(request)
            if model.__name__ == "Game":
                kwargs["queryset"] = games
            elif model is get_user_model():
                kwargs["queryset"] = scoped_accounts(games)
            elif any(f.name == "game" for f in model._meta.get_fields()):
                kwargs["queryset"] = model._default_manager.filter(game__in=games)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class GameScopedInline:
    """Inlines follow their parent admin's permissions."""

    def has_view_permission(self, request, obj=None):
        return request.user.is_staff and (request.user.is_superuser or moderated_games(request.user).exists())

    has_change_permission = has_view_permission
    has_delete_permission = has_view_permission

    def has_add_permission(self, request, obj=None):
        return self.has_view_permission(request, obj)
