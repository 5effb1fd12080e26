"""Small template helpers: look up names by the engine's ids."""
from django import template

register = template.Library()


@register.filter
def lookup(mapping, key):
    """{{ names.provinces|lookup:code }} — the value, or the key itself when missing."""
    if mapping is None:
        return key
    try:
        return mapping.get(key, key)
    except AttributeError:
        return key


@register.filter
def signed(value):
    try:
        value = int(value)
    except (TypeError, ValueError):
        return value
    return f"+{value}" if value > 0 else str(value)
