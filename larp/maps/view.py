"""The strategic map as SVG-ready geometry, for the tablets' map and the console's and projector's alike.

Below the pages that draw it (tablet, battles): it reads the game's provinces, owners and stacks, never a
stack's contents (R13); the geometry itself is pure (larp.maps.geometry).
"""
from __future__ import annotations

import hashlib
import json
from collections import defaultdict

from django.utils.translation import gettext as _

from larp.campaign import labels
from django.urls import reverse

from larp.campaign.models import Adjacency, Faction, Game, MapPicture, Province
from larp.engine.model import friendly_to
from larp.forces.models import Army, Fleet, roman
from larp.maps.geometry import (Projection, flag_box, focus_box, free_corner, label_box, picture_projection,
                                place_labels, project, ship_box, staff_box, text_width)
from larp.turns import situation

NEUTRAL_COLOUR = "#9e9e9e"
SEA_COLOUR = "#1e88e5"


def unit_label(kind: str, roman: str) -> str:
    return (_("Fleet %(n)s") if kind == "fleet" else _("Army %(n)s")) % {"n": roman}


class _Unit:
    """An army or fleet as the map draws it: its faction, number and place (a province's primary key)."""

    __slots__ = ("kind", "code", "faction", "faction_id", "number", "place")

    def __init__(self, kind: str, code: str, faction: Faction, number: int, place: int):
        self.kind, self.code, self.faction, self.faction_id = kind, code, faction, faction.pk
        self.number, self.place = number, place

    @property
    def roman(self) -> str:
        return roman(self.number)


def _units_now(game: Game) -> tuple[list[_Unit], list[_Unit]]:
    armies = [_Unit("army", a.code, a.faction, a.number, a.province_id)
              for a in Army.objects.filter(game=game, destroyed=False).select_related("faction")]
    fleets = [_Unit("fleet", f.code, f.faction, f.number, f.sea_id)
              for f in Fleet.objects.filter(game=game, destroyed=False).select_related("faction")]
    return armies, fleets


def state_rows(value) -> list[dict]:
    """A state document's provinces, armies or fleets as rows with their "id": a turn's start (the engine's case)
    lists them, the state after a regroup (`run_turn(...)["state"]`) keys them by id."""
    if isinstance(value, dict):
        return [{"id": key, **row} for key, row in value.items()]
    return list(value or [])


def _units_in(state: dict, factions: dict[str, Faction], pk_of: dict[str, int]) -> tuple[list[_Unit], list[_Unit]]:
    """The armies and fleets of an engine state document (a turn's start, or the state after its regroup)."""
    def units(kind: str, key: str, where: str) -> list[_Unit]:
        return [_Unit(kind, u["id"], factions[u["faction"]], u["number"], pk_of[u[where]])
                for u in state_rows(state.get(key)) if u.get("faction") in factions and u.get(where) in pk_of]
    return units("army", "armies", "province"), units("fleet", "fleets", "sea")


def _picture(game: Game) -> dict | None:
    """The game's map picture without its bytes (width, height, key), or None."""
    return MapPicture.objects.filter(game=game).values("width", "height", "key").first()


def _projection(game: Game, provinces) -> tuple[Projection, dict | None]:
    """Where each place is drawn: on the map picture at its pixels when the game has one (and every place its
    point), else projected from latitude and longitude."""
    picture = _picture(game)
    rows = [(p.pk, p.latitude, p.longitude, p.map_x, p.map_y) for p in provinces]
    if picture and all(x is not None and y is not None for _pk, _lat, _lon, x, y in rows):
        return picture_projection({pk: (x, y) for pk, _lat, _lon, x, y in rows}, picture["width"],
                                  picture["height"]), picture
    return project({pk: (lat, lon) for pk, lat, lon, _x, _y in rows}), None


def map_extent(game: Game) -> tuple[float, float, float]:
    """(width, height, scale) of the drawing `map_view` makes of this game's map, in its units, without placing
    anything: a page sizes its names from it before asking for the map (the map on paper)."""
    provinces = list(Province.objects.filter(game=game).only("latitude", "longitude", "map_x", "map_y"))
    if not provinces:
        return 100.0, 100.0, 1.0
    proj, _picture_row = _projection(game, provinces)
    return round(proj.width + 2 * proj.pad, 1), round(proj.height + 2 * proj.pad, 1), round(proj.radius / 10, 3)


def map_view(game: Game, focus: Faction | None = None, *, positions: dict[str, str] | None = None,
             route: list[str] | None = None, label_px: float = 10, flag_size: float = 1.0,
             panel_width: float = 0.0, state: dict | None = None, foci: bool = False) -> dict:
    """The map as SVG-ready geometry: positions, owners, flags, fortresses, sieges. No stack contents (R13).

    `positions` ({unit id: place id}) shows units where a movement step put them instead of where the
    database has them; `route` (place ids) is drawn as the path of the move being shown. `label_px` is the
    size of the provinces' names in the symbols' units (the projector's are larger); names are placed so
    that they do not cover each other (larp.maps.geometry). `flag_size` enlarges flags and ships (the
    projector's read from the back of the hall); `panel_width` (a share of the map's width) asks for a free
    corner of the map for a panel drawn over it: `panel` gives it in the map's units, and no name goes there.
    `state` (an engine state document: a turn's start as stored, or the state after its regroup) draws the
    owners and the armies and fleets as they stood then, not as the database has them now (History's replay).
    `foci` adds `foci`, every faction's corner ({faction code: view box}), so that one drawing serves every
    faction's tablets (`focus` is then that box of one of them).
    """
    provinces = list(Province.objects.filter(game=game).select_related("owner"))
    if not provinces:
        return {"width": 100, "height": 100, "nodes": [], "links": [], "flags": [], "ships": [], "legend": [],
                "panel": None}
    proj, picture = _projection(game, provinces)
    pts, r, pad, width, height = proj.points, proj.radius, proj.pad, proj.width, proj.height
    game_factions = list(Faction.objects.filter(game=game))  # read once: capitals, the legend, the corners
    capitals = {f.capital_id for f in game_factions if f.capital_id}
    alliances, passages = situation.relations(game)
    by_pk = {p.pk: p for p in provinces}
    pk_of = {p.code: p.pk for p in provinces}
    if state is not None:
        factions = {f.code: f for f in game_factions}
        owned = {row["id"]: factions.get(row.get("owner")) for row in state_rows(state.get("provinces"))}
        for p in provinces:
            if p.code in owned:
                p.owner = owned[p.code]
        armies, fleets = _units_in(state, factions, pk_of)
    else:
        armies, fleets = _units_now(game)
    owner_code = {p.pk: p.owner.code for p in provinces if p.owner}
    for unit in (*armies, *fleets):
        place = pk_of.get((positions or {}).get(unit.code))
        if place is not None:
            unit.place = place
    armies.sort(key=lambda a: (a.place, a.faction.code, a.number))
    fleets.sort(key=lambda f: (f.place, f.faction.code, f.number))
    besieged = {a.place for a in armies if (by_pk[a.place].fortress or a.place in capitals)
                and not friendly_to(alliances, passages, a.faction.code, owner_code.get(a.place))}
    nodes = []
    for p in provinces:
        x, y = pts[p.pk]
        nodes.append({
            "code": p.code, "name": p.name, "x": round(x + pad, 1), "y": round(y + pad, 1), "sea": p.is_sea,
            "colour": SEA_COLOUR if p.is_sea else (p.owner.colour if p.owner else NEUTRAL_COLOUR),
            "owner": p.owner.name if p.owner else (_("sea zone") if p.is_sea else _("neutral")),
            "fortress": p.fortress, "capital": p.pk in capitals, "besieged": p.pk in besieged,
        })
    scale = r / 10  # symbols are drawn for a node of radius 10
    links = []
    for a_id, b_id in Adjacency.objects.filter(game=game).values_list("a_id", "b_id"):
        a, b = by_pk[a_id], by_pk[b_id]
        kind = "sea" if a.is_sea and b.is_sea else ("coast" if a.is_sea or b.is_sea else "land")
        (x1, y1), (x2, y2) = pts[a_id], pts[b_id]
        links.append({"x1": round(x1 + pad, 1), "y1": round(y1 + pad, 1), "x2": round(x2 + pad, 1),
                      "y2": round(y2 + pad, 1), "kind": kind})
    marker = scale * 1.3 * flag_size  # flags and ships a little larger than the nodes' symbols, to read at a glance
    flags = []
    offset = defaultdict(float)
    for a in armies:
        x, y = pts[a.place]
        w = max(12, 5 * len(a.roman) + 5)
        flags.append({"x": round(x + pad + r * 1.05 + offset[a.place] * marker, 1), "y": round(y + pad - r * 0.2, 1),
                      "width": w, "mid": w / 2, "colour": a.faction.colour, "roman": a.roman,
                      "faction": a.faction.name, "faction_code": a.faction.code, "label": unit_label("army", a.roman),
                      "place": by_pk[a.place].name, "code": a.code})
        offset[a.place] += w + 3
    ships = []
    offset = defaultdict(float)
    for f in fleets:
        x, y = pts[f.place]
        ships.append({"x": round(x + pad + r * 2.6 + offset[f.place] * marker, 1), "y": round(y + pad + r * 0.3, 1),
                      "colour": f.faction.colour, "roman": f.roman, "faction": f.faction.name,
                      "faction_code": f.faction.code, "label": unit_label("fleet", f.roman),
                      "place": by_pk[f.place].name, "code": f.code})
        offset[f.place] += 24
    # Names beside their nodes, clear of each other and of the flags and ships (geometry in larp.maps.geometry).
    for f in flags:
        f["box"] = flag_box(f["x"], f["y"], f["width"], marker)
        f["staff"] = staff_box(f["x"], f["y"], marker)
    for s in ships:
        s["box"] = ship_box(s["x"], s["y"], marker)
    markers = [f["box"] for f in flags] + [f["staff"] for f in flags] + [s["box"] for s in ships]
    bounds = (width + 2 * pad, height + 2 * pad)
    panel = None
    if panel_width:
        panel = free_corner([(n["x"], n["y"]) for n in nodes], bounds, bounds[0] * panel_width,
                            r * 2 + label_px * scale * 1.5)
        if panel:
            markers.append(panel)
    # Capitals, sea zones and the move being shown are named first, next to their points; the rest give way.
    key = set(route or [])
    placed = place_labels([{"code": n["code"], "name": n["name"], "x": n["x"], "y": n["y"],
                            "key": n["capital"] or n["sea"] or n["fortress"] or n["code"] in key,
                            "first": n["capital"] or n["sea"] or n["code"] in key} for n in nodes], r,
                           label_px * scale,
                           obstacles=markers, bounds=bounds)
    font = label_px * scale
    for n in nodes:
        at = placed[n["code"]]
        n.update({"lx": round(at.dx / scale, 1), "ly": round(at.dy / scale, 1), "anchor": at.anchor, "minor": at.minor,
                  "box": label_box(n["x"], n["y"], at, text_width(n["name"], font), font),
                  "leader": [round(v / scale, 1) for v in at.leader] if at.leader else None})
    legend = [{"name": f.name, "colour": f.colour} for f in labels.by_name(game_factions)]
    by_code = {p.code: p.pk for p in provinces}
    path = [pts[by_code[c]] for c in (route or []) if c in by_code]
    route_points = " ".join(f"{x + pad:.1f},{y + pad:.1f}" for x, y in path) if len(path) > 1 else ""
    route_end = {"x": round(path[-1][0] + pad, 1), "y": round(path[-1][1] + pad, 1), "r": round(r * 2, 1)} \
        if path else None
    def corner(faction_pk) -> str:
        # The player's own corner of the map first (provinces, armies, fleets); the whole map is one tap away.
        if len(provinces) <= 20:
            return ""
        mine = [pts[p.pk] for p in provinces if p.owner_id == faction_pk]
        mine += [pts[a.place] for a in armies if a.faction_id == faction_pk]
        mine += [pts[f.place] for f in fleets if f.faction_id == faction_pk]
        return focus_box(mine, proj)

    focus_view = corner(focus.pk) if focus is not None else ""
    extra = {"foci": {f.code: corner(f.pk) for f in game_factions}} if foci else {}
    return {"width": round(width + 2 * pad, 1), "height": round(height + 2 * pad, 1), "r": round(r, 1),
            "scale": round(scale, 3), "marker": round(marker, 3), "focus": focus_view, "nodes": nodes, "links": links, "flags": flags, "ships": ships,
            "legend": legend, "route": route_points,
            "picture": picture and {"url": reverse("tablet:map_picture", args=[game.pk, picture["key"]]),
                                    "width": picture["width"], "height": picture["height"]}, "route_end": route_end, "label_px": label_px,
            "panel": panel and {"box": panel, "left": round(100 * panel[0] / bounds[0], 2),
                                "top": round(100 * panel[1] / bounds[1], 2),
                                "width": round(100 * (panel[2] - panel[0]) / bounds[0], 2),
                                "height": round(100 * (panel[3] - panel[1]) / bounds[1], 2)}, **extra}


def map_version(data: dict, language: str, focus: str) -> str:
    """A short name for exactly this picture of the map (in this language, from this faction's corner)."""
    raw = json.dumps([data, language, focus], sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def focus_version(shared_version: str, focus: str, box: str) -> str:
    """The version of one faction's picture of a drawing made for all (`map_view(foci=True)`, named by
    `map_version(data, language, "")`): its own flags marked and its corner shown first."""
    return hashlib.sha256(f"{shared_version}|{focus}|{box}".encode()).hexdigest()[:16]
