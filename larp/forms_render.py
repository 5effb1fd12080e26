"""The forms' renderer: Django's own, with its <select> written in Python.

Django draws a <select> by rendering a template for every <option> (and another for each option's attributes):
on the Tactical rules' pages, whose forms offer every troop type, weapon, armour and unit, that was a third of
the moderator's page. Here a select whose options are all Django's plain ones is written directly, character for
character as Django's templates write it (tests/words/test_forms_render.py compares the two on every kind of
choice); any other widget, or a select with a custom option template, is rendered by the templates as before.
"""
from __future__ import annotations

from django.forms.renderers import DjangoTemplates
from django.template import Context
from django.template.base import render_value_in_context
from django.utils.safestring import SafeData, mark_safe

SELECT = "django/forms/widgets/select.html"
OPTION = "django/forms/widgets/select_option.html"
_CONTEXT = Context(autoescape=True)  # read only: the escaping and localisation of a template's {{ value }}


def _text(value) -> str:
    """As a template writes {{ value }}: localised (a number's decimal comma in Russian) and escaped."""
    return render_value_in_context(value, _CONTEXT)


def _formatted(value) -> str:
    """As a template writes {{ value|stringformat:'s' }}: "%s" of it, escaped unless it was safe already."""
    text = "%s" % (value,)
    return render_value_in_context(mark_safe(text) if isinstance(value, SafeData) else text, _CONTEXT)


def _attrs(attrs: dict) -> str:
    """django/forms/widgets/attrs.html"""
    out = []
    for name, value in attrs.items():
        if value is False:
            continue
        out.append(f" {_text(name)}" if value is True else f' {_text(name)}="{_formatted(value)}"')
    return "".join(out)


def select(widget: dict) -> str | None:
    """django/forms/widgets/select.html with select_option.html, or None when an option has a template of its
    own (then the templates draw it)."""
    lines = [f'<select name="{_text(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            lines.append(f'\n  <optgroup label="{_text(group_name)}">')
        for option in group_choices:
            if option.get("template_name") != OPTION:
                return None
            lines.append(f'\n  <option value="{_formatted(option["value"])}"{_attrs(option["attrs"])}>'
                         f'{_text(option["label"])}</option>\n')  # the option's template ends with a newline
        if group_name:
            lines.append("\n  </optgroup>")
    lines.append("\n</select>")
    return mark_safe("".join(lines))  # noqa: S308 - every value above is escaped as the templates escape it


class Renderer(DjangoTemplates):
    def render(self, template_name, context, request=None):
        if template_name == SELECT:
            written = select(context["widget"])
            if written is not None:
                return written
        return super().render(template_name, context, request)
