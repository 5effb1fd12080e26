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


@register.filter
def agree(word, name) -> str:
    """A flag or verb beside a unit's name agreeing with it: «Гипасписты — уничтожены», «Фаланга — бежит»."""
    return ru.agree(word, name)


@register.filter
def counted(n, word) -> str:
    """«32 фигурки»: the number and its noun (the nominative singular in Russian, the singular in English)."""
    return ru.counted(n, word)
