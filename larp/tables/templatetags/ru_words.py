"""Russian that agrees, in templates (larp/ru.py): `{{ table|sides_versus }}`, `{{ name|case:"gent" }}`."""
from django import template

from larp import ru

register = template.Library()


@register.filter
def sides_versus(table) -> str:
    """«Болгария против Латинской империи» (two sides); «Анна, Борис и Вера» (more)."""
    return ru.versus([side.name for side in table.sides.all()])


@register.filter(name="case")
def case(name, which: str) -> str:
    return ru.decline(name, which)


@register.filter
def say(text) -> str:
    return ru.say(text)
