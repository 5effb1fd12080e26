"""Every act at a table goes through its system's registry and the tables' one door (issue 33, docs/tables.md).

A table app's URLs at a table (those with a `table_id`) answer a POST only at its door (`Acts.view()`, routed
as `<table_id>/act/<action>` or, where a system's addresses name the act, one path per act to the same door);
every other page at a table answers a POST with 405. A view added at a table with its own POST handling fails
here. (Pages with no table yet — «new table», Ordonnance's deck lists — are not acts at a table.)
"""
import importlib

import pytest
from django.urls import URLPattern, reverse

from larp.tables.acts import Acts

SYSTEMS = ["redplains", "tactical", "orda", "ordonnance"]
CONVERTED = {"redplains", "ordonnance", "orda", "tactical"}


def patterns(app: str) -> list[URLPattern]:
    return [p for p in importlib.import_module(f"larp.{app}.urls").urlpatterns if isinstance(p, URLPattern)]


def args_for(pattern: URLPattern, game_id: int) -> dict:
    kwargs = {"game_id": game_id}
    for name, converter in pattern.pattern.converters.items():
        kwargs[name] = 999999 if type(converter).__name__ == "IntConverter" else "x"
    return kwargs


@pytest.mark.parametrize("app", [pytest.param(a, marks=() if a in CONVERTED else pytest.mark.xfail(
    strict=True, reason="acts not yet declared in a registry")) for a in SYSTEMS])
def test_a_table_app_answers_a_post_only_at_its_door(app, tiny_game, moderator, client_for):
    client = client_for(moderator)
    doors = [p for p in patterns(app) if isinstance(getattr(p.callback, "acts", None), Acts)]
    assert doors and len({id(p.callback.acts) for p in doors}) == 1, f"{app}: one door, from the system's registry"
    for p in patterns(app):
        if p in doors or "table_id" not in p.pattern.converters:
            continue
        url = reverse(f"{app}:{p.name}", kwargs=args_for(p, tiny_game.pk))
        assert client.post(url, {}).status_code == 405, f"{app}:{p.name} answers a POST outside the registry"


@pytest.mark.parametrize("app", sorted(CONVERTED))
def test_every_act_is_declared_once_with_who_may_press_it(app, tiny_game, moderator, client_for):
    door = next(p for p in patterns(app) if isinstance(getattr(p.callback, "acts", None), Acts))
    acts = door.callback.acts
    assert len({a.name for a in acts.acts}) == len(acts.acts)
    for act in acts.acts:
        assert act.who in ("moderator", "side", "both") and callable(act.open_when) and callable(act.service)
