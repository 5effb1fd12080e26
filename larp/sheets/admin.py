from django.contrib import admin

from larp.campaign.admin_scope import GameScopedAdmin
from larp.sheets.models import PrintJob


@admin.register(PrintJob)
class PrintJobAdmin(GameScopedAdmin):
    """Read-only: jobs are made by the print buttons; a moderator may delete old ones."""

    list_display = ("game", "kind", "state", "progress", "requested_by", "created_at", "finished_at")
    list_filter = ("kind", "state")
    readonly_fields = ("game", "kind", "params", "language", "state", "progress", "error", "filename", "mimetype",
                       "requested_by", "created_at", "started_at", "finished_at")
    exclude = ("content", "dedup_key")

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False
