"""Is the game's «Орда» data set ready for the night (O23)? Said on the console's «Столы» and on the form that sends a
battle of the war to a table, so the moderator learns what is missing before the hall waits for it.

Two counts: what a battle of the war needs (the tokens the scenario's conversion uses — every printed value but the
health the conversion gives — and the capitals' durability, docs/bridge.md), and what a whole new game of each mode
would need (the data list's count). The data set a table of the war reads is the game's last edited one
(selectors.data_set_for); nothing is invented, only counted.
"""
from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from larp.orda import dataset, labels
from larp.orda.engine.data import STATS, load
from larp.orda.models import DataSet


def war_tokens(conversion: dict) -> list[tuple[str, str]]:
    """(faction, kind) of every token a battle of the war may put on an Orda table, in the conversion's order."""
    sides = conversion.get("sides") or {}
    out = []
    for role in ("attacker", "defender"):
        faction = sides.get(role)
        kinds = list((conversion.get("units") or {}).get(role, {}).values())
        leader = (conversion.get("leaders") or {}).get(role)
        for kind in ([leader] if leader else []) + kinds:
            if faction and (faction, kind) not in out:
                out.append((faction, kind))
    return out


def war_gaps(data: dict, conversion: dict) -> list[tuple[str, int]]:
    """What a battle of the war lacks in this data set: a line per token kind (and one for the capitals), each with
    the number of values it names."""
    engine = load()
    out = []
    for faction, kind_id in war_tokens(conversion):
        kind = engine.kinds.get(faction, {}).get(kind_id)
        if kind is None:
            continue
        given = ((data.get("stats") or {}).get(faction) or {}).get(kind_id) or {}
        lacks = [s for s in STATS if s != "health" and (s != "range" or kind.cls == "ranged")
                 and given.get(s) is None and kind.stats.get(s) is None]
        if lacks:
            out.append((_("%(faction)s, «%(kind)s»: %(params)s.") % {
                "faction": labels.faction(faction), "kind": kind.name_ru,
                "params": ", ".join(labels.param(s) for s in lacks)}, len(lacks)))
    if (data.get("durability") or {}).get("capital") is None:
        out.append((_("The capitals' durability is not entered."), 1))
    return out


def for_game(game, conversion: dict | None = None) -> dict:
    """larp.tables.registry: the data set's state for the «Столы» page and the send form. `ok`: a battle of the war
    (or, without a conversion, a new game) has every value it needs."""
    ds = DataSet.objects.filter(game_id=game.pk).order_by("-updated_at", "-pk").first()
    data_url = reverse("orda:data", args=[game.pk])
    if ds is None:
        return {"system": "orda", "name": _("Orda"), "ok": False, "data_set": None, "lines": [],
                "text": _("The game has no Orda data set: no printed value is entered yet."),
                "url": data_url, "url_label": _("Create the data set and enter the numbers")}
    whole = dataset.missing(ds.data, "conquest", list(load().faction_side), 4)     # a line per value
    war = war_gaps(ds.data, conversion) if conversion else None
    lines = [line for line, _n in war] if war is not None else whole
    n = sum(k for _line, k in war) if war is not None else len(whole)
    first = next((f for f, _k in war_tokens(conversion or {})
                  if any(line.startswith(labels.faction(f) + ",") for line in lines)), "")
    url = reverse("orda:data_edit", args=[game.pk, ds.pk]) + (f"?faction={first}" if first else "")
    if war is not None:
        text = (_("The data set «%(title)s» has every value a battle of the war needs.") % {"title": ds.title}
                if not war else _("The data set «%(title)s» lacks values a battle of the war needs: %(n)s.") % {
                    "title": ds.title, "n": n})
    else:
        text = (_("The data set «%(title)s» is complete.") % {"title": ds.title} if not whole else
                _("The data set «%(title)s» lacks values: %(n)s.") % {"title": ds.title, "n": n})
    if whole and war is not None:
        m = len(whole)
        text += " " + _("A whole new game would still lack values: %(n)s.") % {"n": m}
    return {"system": "orda", "name": _("Orda"), "ok": not lines, "data_set": ds.title, "lines": lines, "text": text,
            "url": url if lines else data_url, "url_label": _("Prepare the data set") if lines else _("Orda data"),
            "test_data": bool(ds.data.get("test_data"))}
