"""No select says «- Select an option -» in Russian (issue 34).

Django's empty choice (django.db.models.fields.BLANK_CHOICE_LABEL, the default empty label of a
ModelChoiceField and of a model field's select) has no Russian in Django's catalogue; the project's catalogue
gives it one (larp/i18n.py). Checked twice: every form class's fields, and every page with only the game in
its address, drawn for a moderator and for a player.
"""
import importlib
import pkgutil

import pytest
from django import forms
from django.urls import NoReverseMatch, get_resolver, reverse
from django.utils import translation

import larp

ENGLISH = "Select an option"


def _form_classes() -> list[type]:
    for info in pkgutil.walk_packages(larp.__path__, "larp."):
        if ".migrations" not in info.name and ".engine" not in info.name and info.name.endswith("forms"):
            importlib.import_module(info.name)

    def below(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from below(sub)
    return sorted({c for c in below(forms.BaseForm) if c.__module__.startswith("larp.")}, key=lambda c: c.__qualname__)


def _labels(field) -> list[str]:
    out = [str(field.empty_label)] if getattr(field, "empty_label", None) is not None else []
    if isinstance(field, forms.ChoiceField) and not isinstance(field, forms.ModelChoiceField):
        out += [str(label) for _value, label in field.choices if not isinstance(label, (list, tuple))]
    return out


def test_the_empty_choice_is_russian():
    with translation.override("ru"):
        assert str(forms.ModelChoiceField(queryset=None).empty_label) == "— выберите —"


def test_no_form_class_offers_the_english_empty_choice():
    classes = _form_classes()
    assert len(classes) > 20
    blanks = 0
    with translation.override("ru"):
        for cls in classes:
            for name, field in cls.base_fields.items():
                labels = _labels(field)
                blanks += "— выберите —" in labels
                assert not any(ENGLISH in label for label in labels), (cls, name)
    assert blanks  # the Red Plains new-table form's factions have one: the check reads real selects


def _game_pages(game_id: int) -> list[str]:
    """Every named page whose address takes the game alone, or the game and a faction (the north's tablet);
    a table's pages, which take its id too, are drawn by each system's own tests."""
    resolver, out = get_resolver(), set()
    for ns, (_prefix, sub) in resolver.namespace_dict.items():
        for name in sub.reverse_dict.keys():
            if isinstance(name, str):
                for args in ([game_id], [game_id, "north"]):
                    try:
                        out.add(reverse(f"{ns}:{name}", args=args))
                    except NoReverseMatch:
                        pass
    return sorted(out)


@pytest.mark.parametrize("who", ["moderator", "player"])
def test_no_page_of_the_game_shows_the_english_empty_choice(who, tiny_game, request, client_for):
    from larp.turns import services

    mod = request.getfixturevalue("moderator")
    services.start_game(tiny_game, mod)
    client = client_for(request.getfixturevalue(who))
    drawn = russian = 0
    for url in _game_pages(tiny_game.pk):
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        body = response.content.decode()
        drawn += 1
        russian += body.count("— выберите —")
        assert ENGLISH not in body, url
    assert drawn > 5
    if who == "moderator":  # the new tables' forms (Red Plains' factions) have an empty choice, in Russian
        assert russian > 0
