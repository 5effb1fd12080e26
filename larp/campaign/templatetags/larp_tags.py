"""Small template helpers: look up names by the engine's ids."""
from django import template

from larp.campaign import labels, people

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
def decision(entry):
    """{{ f|decision }} — what a battle decided, in the game's words (labels.DECISIONS)."""
    return labels.decision(entry)


@register.filter
def signed(value):
    try:
        value = int(value)
    except (TypeError, ValueError):
        return value
    return f"+{value}" if value > 0 else str(value)


@register.filter
def odds(value):
    """{{ a.odds.tie|odds }} -> «1 из 12 (8 %)»."""
    return labels.odds_text(value)


@register.filter
def dice(count):
    """{{ a.dice_count.attacker|dice }} -> «1к6»."""
    return labels.dice_count(count)


@register.filter
def person(user):
    """A player or moderator as people call them: the full name, else «игрок фракции «…»» / «модератор»."""
    return people.person(user)


@register.filter
def by_name(items):
    """{% for f in game.factions.all|by_name %}: alphabetical by the shown name (Russian collation)."""
    return labels.by_name(items)


@register.filter
def storm(storm_no):
    """{{ battle.storm_no|storm }} -> «штурм № 2», as the printed sheets say it."""
    return labels.storm_text(storm_no)


@register.filter
def order_text(payload, names):
    """{{ order.payload|order_text:names }} -> «Захват: Филиппополь»."""
    return labels.order_text(payload or {}, names or {})
