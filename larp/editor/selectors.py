"""What the editor's pages show of a draft: the map as the editor draws it, the problems, the forms' choices."""
from __future__ import annotations

import re

from larp.campaign.access import moderated_games
from larp.editor.models import ScenarioDraft
from larp.scenarios import Problem, validate
from larp.scenarios.validate import label_font, name_box

TABS = ("map", "factions", "numbers", "try")


def can_edit(user) -> bool:
    """Scenarios are written by moderators: staff, superusers, and whoever moderates a game."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or user.is_staff or moderated_games(user).exists()


def problems(draft: ScenarioDraft) -> list[dict]:
    """Every problem in the user's language, its places and factions named by their names, not their ids."""
    data = draft.data
    names = {f.get("id"): f.get("name_ru") for f in data.get("factions") or [] if isinstance(f, dict)}
    names.update({p.get("id"): p.get("name_ru") for p in data.get("provinces") or [] if isinstance(p, dict)})
    names = {k: f"«{v}»" for k, v in names.items() if isinstance(k, str) and isinstance(v, str) and v.strip()}
    out = []
    for p in validate(data):
        # An id among the values is named; a translated word (validate._Word, a str subclass) stays as it is.
        params = {k: names.get(v, v) if type(v) is str else v for k, v in p.params.items()}
        text = Problem(p.where, p.message, params, place=p.place).localized()
        head, sep, rest = text.partition(": ")
        ident = p.target if p.where.startswith("provinces ") else p.faction
        if sep and ident in names:
            head = re.sub(rf"(?<![\w-]){re.escape(ident)}(?![\w-])", names[ident], head)
        out.append({"text": head + sep + rest, "place": p.target, "faction": p.faction})
    return out


def rows(data: dict, key: str) -> list[dict]:
    """The mappings of a list of the scenario (an imported file may hold anything there)."""
    value = data.get(key)
    return [row for row in value if isinstance(row, dict)] if isinstance(value, list) else []


def drawing(draft: ScenarioDraft, selected: str = "", marks: dict | None = None) -> dict:
    """The editor's map: places at their pixels, borders, names under the points (as validate measures them)."""
    width, height = draft.size
    font = label_font((width, height))
    data = draft.data
    factions = [f for f in rows(data, "factions") if isinstance(f.get("id"), str)]
    colours = {f["id"]: f.get("colour") or "#777" for f in factions}
    capitals = {f.get("capital") for f in factions if isinstance(f.get("capital"), str)}
    places, at = [], {}
    for p in rows(data, "provinces"):
        if not isinstance(p.get("id"), str) or not isinstance(p.get("x"), (int, float)) \
                or not isinstance(p.get("y"), (int, float)):
            continue
        sea = p.get("domain") == "sea"
        at[p["id"]] = (p["x"], p["y"], sea)
        box = name_box(p["x"], p["y"], p.get("name_ru") or p["id"], font)
        places.append({"id": p["id"], "x": p["x"], "y": p["y"], "name": p.get("name_ru") or p["id"], "sea": sea,
                       "colour": "#1e88e5" if sea else colours.get(p.get("owner"), "#9e9e9e"),
                       "fortress": bool(p.get("fortress")), "capital": p["id"] in capitals,
                       "selected": p["id"] == selected, "ly": round(box[1] + font * 0.95 - p["y"], 1),
                       "mark": (marks or {}).get(p["id"], "")})
    borders = []
    for pair in data.get("adjacency") or []:
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) and x in at for x in pair):
            (x1, y1, s1), (x2, y2, s2) = at[pair[0]], at[pair[1]]
            kind = "sea" if s1 and s2 else ("coast" if s1 or s2 else "land")
            borders.append({"a": pair[0], "b": pair[1], "x1": x1, "y1": y1, "x2": x2, "y2": y2, "kind": kind})
    coasts = {b["a"] for b in borders if b["kind"] == "coast"} | {b["b"] for b in borders if b["kind"] == "coast"}
    for p in places:
        p["coast"] = not p["sea"] and p["id"] in coasts
    r = font * 0.6
    return {"width": width, "height": height, "font": round(font, 1), "r": round(r, 1), "halo": round(r * 1.9, 1),
            "fort": round(r * 1.25, 1), "fort2": round(r * 2.5, 1), "cap": round(r * 1.5, 1),
            "coast": round(r * 0.4, 1), "places": places,
            "borders": borders, "stroke": round(font * 0.18, 1), "hit": round(font * 0.9, 1)}


def place_of(draft: ScenarioDraft, pid: str) -> dict | None:
    for p in rows(draft.data, "provinces"):
        if p.get("id") == pid:
            return p
    return None


def forces(draft: ScenarioDraft) -> list[dict]:
    """Each faction with its provinces, armies and fleets and their stacks counted by troop type."""
    data = draft.data
    types = {t.get("id"): t for t in rows(data, "troop_types")}
    names = {p.get("id"): p.get("name_ru") or p.get("id") for p in rows(data, "provinces")}
    out = []
    for f in rows(data, "factions"):
        units = []
        for kind, key, where in (("army", "armies", "province"), ("fleet", "fleets", "sea")):
            for u in rows(f, key):
                troops = [t for t in u.get("troops") or [] if isinstance(t, str)] \
                    if isinstance(u.get("troops"), list) else []
                counts = [{"id": tid, "name": t.get("name_ru"), "count": troops.count(tid)}
                          for tid, t in types.items() if t.get("domain") == ("naval" if kind == "fleet" else "land")]
                men = sum(int(types[t].get("men") or 0) for t in troops if t in types)
                units.append({"kind": kind, "number": u.get("number"), "where": u.get(where),
                              "where_name": names.get(u.get(where), u.get(where)), "counts": counts, "men": men})
        out.append({**f, "owned": [p.get("id") for p in rows(data, "provinces") if p.get("owner") == f.get("id")],
                    "units": units})
    return out


def minutes(data: dict) -> dict:
    """The phases' lengths in whole minutes, as the numbers page shows them."""
    rules = data.get("rules") if isinstance(data.get("rules"), dict) else {}
    seconds = rules.get("phase_seconds") if isinstance(rules.get("phase_seconds"), dict) else {}
    return {k: v // 60 for k, v in seconds.items() if isinstance(v, int) and not isinstance(v, bool)}


def relations(data: dict) -> list[dict]:
    """The relations at the start, in words: index (for taking one away), kind, and the two factions' names."""
    names = {f.get("id"): f.get("name_ru") or f.get("id") for f in rows(data, "factions")}
    out = []
    for i, r in enumerate(rows(data, "relations")):
        pair = r.get("factions") if r.get("kind") == "alliance" else [r.get("from"), r.get("to")]
        if isinstance(pair, list) and len(pair) == 2:
            out.append({"index": i, "kind": r.get("kind"), "a": names.get(pair[0], pair[0]),
                        "b": names.get(pair[1], pair[1])})
    return out
