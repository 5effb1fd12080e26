"""`{% act_key %}`: the one-time key of a form that presses an act (larp.tables.acts), made as the page draws it."""
from django import template
from django.utils.html import format_html

from larp.tables.acts import KEY_FIELD, new_key

register = template.Library()


@register.simple_tag
def act_key() -> str:
    return format_html('<input type="hidden" name="{}" value="{}">', KEY_FIELD, new_key())
