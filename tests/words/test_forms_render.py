"""The forms' renderer (larp/forms_render.py) writes a <select> exactly as Django's templates write it."""
from decimal import Decimal

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from larp.forms_render import Renderer, select

LABELS = [("a", "Пехота"), ("b", "<b>&\"кавалерия\"'</b>"), ("", "—"), (3, 1.5), (Decimal("2.25"), 1000),
          ("safe", mark_safe("<i>уже безопасно</i>")), ("lazy", gettext_lazy("Cell")), ("none-label", None)]
GROUPED = [("Конница", [("k1", "Рыцари"), ("k2", "Сержанты")]), ("<Пехота>", [("p1", "Копейщики")]),
           ("solo", "Одиночка")]


class Everything(forms.Form):
    plain = forms.ChoiceField(choices=LABELS, required=False)
    required = forms.ChoiceField(choices=LABELS, label="Обязательное")
    grouped = forms.ChoiceField(choices=GROUPED, required=False)
    many = forms.MultipleChoiceField(choices=LABELS, required=False)
    yes_no = forms.NullBooleanField(required=False)
    attrs = forms.ChoiceField(choices=LABELS, required=False, widget=forms.Select(attrs={
        "data-x": 'a"b<c>', "disabled": True, "hidden": False, "data-n": 7, "class": mark_safe("a&amp;b")}))
    empty = forms.ChoiceField(choices=[], required=False)
    typed = forms.TypedChoiceField(choices=[(1, "один"), (2, "два")], coerce=int, required=False)


class OwnOption(forms.Select):
    option_template_name = "django/forms/widgets/radio_option.html"


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("data", [None, {"plain": "b", "required": "3", "grouped": "k2", "many": ["a", "lazy"],
                                         "yes_no": "true", "attrs": "safe", "typed": "2"},
                                  {"plain": "<script>", "grouped": "nope", "many": ["x"], "yes_no": "false"}])
def test_every_select_is_written_as_the_templates_write_it(language, data):
    with translation.override(language):
        for name in Everything.base_fields:
            django = Everything(data, renderer=DjangoTemplates())[name].as_widget()
            ours = Everything(data, renderer=Renderer())[name].as_widget()
            assert ours == django, name
            assert "<select" in ours
        assert Everything(data).as_p() == Everything(data, renderer=DjangoTemplates()).as_p()
        assert Everything(data).as_p().count("<select") == len(Everything.base_fields)


def test_the_figures_are_written_in_the_language_of_the_page():
    with translation.override("ru"):
        html = Everything(renderer=Renderer())["plain"].as_widget()
    assert '<option value="3">1,5</option>' in html and "&lt;b&gt;&amp;&quot;кавалерия&quot;&#x27;&lt;/b&gt;" in html


def test_a_select_with_an_option_template_of_its_own_is_left_to_the_templates():
    widget = OwnOption(choices=[("a", "A")]).get_context("f", None, {})["widget"]
    assert select(widget) is None
    field = forms.ChoiceField(choices=[("a", "A")], widget=OwnOption)
    drawn = {}
    for renderer in (Renderer(), DjangoTemplates()):
        form = forms.Form(renderer=renderer)
        form.fields["f"] = field
        drawn[type(renderer)] = form["f"].as_widget()
    assert drawn[Renderer] == drawn[DjangoTemplates] and "<label><input" in drawn[Renderer]


def test_the_app_uses_it(settings):
    from django.forms.renderers import get_default_renderer

    assert settings.FORM_RENDERER == "larp.forms_render.Renderer"
    assert isinstance(get_default_renderer(), Renderer)
