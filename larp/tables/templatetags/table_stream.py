"""{% table_stream game.pk table.pk %}: the table's stream for static/js/table-live.js, as an attribute of the
element that names the table's version (` data-table-stream-url="…"`), only when the server pushes
(settings.CLOCK_STREAM and settings.TABLE_STREAM); without it the page polls the version.
"""
from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def table_stream(game_id: int, table_id: int) -> str:
    if not (settings.CLOCK_STREAM and settings.TABLE_STREAM):
        return ""
    return format_html(' data-table-stream-url="{}"', reverse("tables:stream", args=[game_id, table_id]))
