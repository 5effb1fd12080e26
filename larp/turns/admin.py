from django.contrib import admin

from larp.campaign.admin_scope import GameScopedAdmin
from larp.campaign.models import AuditEntry
from larp.turns.models import Phase, Turn, TurnSettings


@admin.register(TurnSettings)
class TurnSettingsAdmin(GameScopedAdmin):
    list_display = ["game", "auto_advance", "redraw_between_turns", "draw", "current_phase"]
    readonly_fields = ["draw", "draw_manual", "current_phase"]
    exclude = ["draw_seed"]  # derived from the game's secret seed (docs/dice.md)


@admin.register(Turn)
class TurnAdmin(GameScopedAdmin):
    list_display = ["game", "number", "started_at", "orders_revealed"]
    list_filter = ["game"]
    readonly_fields = ["start_state", "draw"]


@admin.register(Phase)
class PhaseAdmin(GameScopedAdmin):
    game_path = "turn__game"
    list_display = ["turn", "kind", "state", "started_at", "deadline", "closed_at", "closed_how"]
    list_filter = ["turn__game", "kind", "state"]


@admin.register(AuditEntry)
class AuditEntryAdmin(GameScopedAdmin):
    list_display = ["at", "game", "user", "action", "reason"]
    list_filter = ["game", "action"]

    def has_change_permission(self, request, obj=None):
        return False  # the log is kept, not edited

    def has_delete_permission(self, request, obj=None):
        return False
