"""Which models belong to a game, how to find a game's rows of each, and in what order to insert them.

A model belongs to a game when one of its foreign keys leads to `campaign.Game`,
directly or through another model that belongs to it (a roll through its dice
stream, a step through its table). Nothing here names an app's model: a model
added later is found the same way (tests/gamefile checks it is carried).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.apps import apps
from django.conf import settings
from django.db import models


@dataclass
class GameModel:
    model: type[models.Model]
    path: str                                   # the lookup from the model to the game, e.g. "stream__game"
    fks: dict[str, str] = field(default_factory=dict)   # FK field name -> target label (in the game or auth user)
    nullable: set[str] = field(default_factory=set)     # FK fields that may be left empty for a while

    @property
    def label(self) -> str:
        return self.model._meta.label_lower


def _foreign_keys(model) -> list[models.ForeignKey]:
    return [f for f in model._meta.concrete_fields if f.is_relation and (f.many_to_one or f.one_to_one)]


def _depth(path: str) -> int:
    return len(path.split("__")) if path else 0


def user_label() -> str:
    return apps.get_model(settings.AUTH_USER_MODEL)._meta.label_lower


def game_models() -> list[GameModel]:
    """Every model of a game, Game first, then in an order where each row's required references exist."""
    game = apps.get_model("campaign", "Game")
    found: dict[str, GameModel] = {game._meta.label_lower: GameModel(game, "")}
    changed = True
    while changed:  # breadth first: the shortest path to the game, required keys preferred
        changed = False
        for model in apps.get_models():
            label = model._meta.label_lower
            if label in found:
                continue
            via = [f for f in _foreign_keys(model) if f.related_model._meta.label_lower in found]
            if not via:
                continue
            via.sort(key=lambda f: (f.null, _depth(found[f.related_model._meta.label_lower].path), f.name))
            target = found[via[0].related_model._meta.label_lower]
            path = via[0].name + ("__" + target.path if target.path else "")
            found[label] = GameModel(model, path)
            changed = True
    users = user_label()
    for gm in found.values():
        for f in _foreign_keys(gm.model):
            target = f.related_model._meta.label_lower
            if target in found or target == users:
                gm.fks[f.name] = target
                if f.null:
                    gm.nullable.add(f.name)
    return _insert_order(found)


def _insert_order(found: dict[str, GameModel]) -> list[GameModel]:
    """Kahn's order on the required keys; among the ready models, one whose optional keys are met first."""
    done: list[GameModel] = []
    placed: set[str] = set()
    rest = dict(found)
    while rest:
        def needs(gm, optional):
            return {t for n, t in gm.fks.items() if t in found and t != gm.label
                    and (optional or n not in gm.nullable)} - placed
        ready = sorted((gm for gm in rest.values() if not needs(gm, False)), key=lambda gm: gm.label)
        if not ready:
            raise RuntimeError(f"a cycle of required foreign keys between {sorted(rest)}")
        best = next((gm for gm in ready if not needs(gm, True)), ready[0])
        done.append(best)
        placed.add(best.label)
        del rest[best.label]
    return done


def rows(gm: GameModel, game) -> models.QuerySet:
    """The game's rows of one model, oldest first (the order of their primary keys is kept on import)."""
    qs = gm.model._base_manager.all()
    qs = qs.filter(pk=game.pk) if not gm.path else qs.filter(**{gm.path: game})
    return qs.order_by("pk")
