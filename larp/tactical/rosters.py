"""Saved armies (rosters) and army files of «Тактические правила»: saved per game by a player or a moderator,
loaded into a table's builder, exported and imported as JSON (the schema: docs/tactical-rules.md).

What comes in — a saved army or a file — is validated exactly as the builder validates what is typed in: every
unit through the builder's own unit form, every general through its general form, then the whole army by the
engine (T5-T12) as at every change of the builder. A refusal names what is wrong in words and changes nothing."""
from __future__ import annotations

import json
import uuid

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from larp.tactical import forms as f
from larp.tactical import situation as sit
from larp.tactical.models import Roster

FORMAT = "larp-tactical-army"
VERSION = 1
UNIT_FIELDS = ("name", "entry", "specialty", "steadiness", "melee", "weapon", "armour", "shield", "horse_armour",
               "javelin", "formation", "count")
MAX_FILE = 200_000


def unit_data(u: dict, prefix: str = "") -> dict:
    """A unit as the builder's unit form's data (to edit it, or to validate a unit that comes in)."""
    data = {}
    for k in UNIT_FIELDS:
        v = u.get(k)
        if k == "javelin":
            if v:
                data[prefix + k] = "on"
            continue
        if k == "specialty" and v is None:
            v = 3
        data[prefix + k] = "" if v is None else str(v)
    return data


def document(doc: dict, name: str = "") -> dict:
    """An army as a file: the format's name and version, the army's name and the army as the builder stores it."""
    return {"format": FORMAT, "version": VERSION, "name": name, "army_list": doc["army_list"],
            "units": [{k: u.get(k) for k in ("id", *UNIT_FIELDS)} for u in doc["units"]],
            "generals": [{k: g.get(k) for k in ("id", "name", "entry", "type", "c_in_c", "mercenary", "method",
                                                "talents", "unit") if k in g} for g in doc["generals"]]}


def parse(raw: bytes | str) -> dict:
    """A file's text as a JSON object, or the refusal saying why not."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_FILE:
            raise ValidationError(_("The file is too large for an army."))
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError(_("The file is not text in UTF-8.")) from None
    try:
        data = json.loads(raw)
    except ValueError as error:
        raise ValidationError(_("The file is not valid JSON (line %(line)s): %(error)s") % {
            "line": getattr(error, "lineno", "?"), "error": getattr(error, "msg", str(error))}) from None
    if not isinstance(data, dict):
        raise ValidationError(_("The file does not describe an army: an object with «army_list» and «units» is "
                                "expected."))
    return data


def _errors(form) -> str:
    return "; ".join(f"{form.fields[k].label if k in form.fields else ''}: {e}".lstrip(": ")
                     for k, errs in form.errors.items() for e in errs)


def validate(data: dict, points_limit: int) -> tuple[dict, list[dict]]:
    """An army that comes in, validated as the builder validates: the army document for the table (new ids) and
    the generals whose talents are rolled on loading (their dice are this table's, on its record)."""
    if data.get("format") not in (None, FORMAT):
        raise ValidationError(_("The file is not an army of «Тактические правила»."))
    list_id = data.get("army_list")
    if not isinstance(list_id, str) or sit.army_list(list_id) is None:
        raise ValidationError(_("Unknown army list «%(list)s».") % {"list": list_id})
    units, generals = data.get("units"), data.get("generals") or []
    if not isinstance(units, list) or not isinstance(generals, list):
        raise ValidationError(_("«units» and «generals» must be lists."))
    if len(units) > sit.MAX_UNITS or len(generals) > sit.MAX_GENERALS:
        raise ValidationError(_("Too many units or generals in one army."))
    entries = {e["id"] for e in sit.army_list(list_id)["entries"]}
    doc = sit.empty_army(list_id, points_limit)
    ids, errors = {}, []
    for n, u in enumerate(units, start=1):
        if not isinstance(u, dict):
            errors.append(_("Unit %(n)s: not a unit.") % {"n": n})
            continue
        label = _("Unit %(n)s («%(name)s»)") % {"n": n, "name": u.get("name") or "?"}
        if u.get("entry") not in entries:
            errors.append(_("%(unit)s: unknown troop type «%(entry)s» in this army list.") % {
                "unit": label, "entry": u.get("entry")})
            continue
        form = f.UnitForm(unit_data(u), army_list=list_id)
        if not form.is_valid():
            errors.append(f"{label}: {_errors(form)}")
            continue
        new = form.unit(f"u{uuid.uuid4().hex[:6]}")
        ids[str(u.get("id") or n)] = new["id"]
        doc["units"].append(new)
    rolled = []
    for n, g in enumerate(generals, start=1):
        if not isinstance(g, dict):
            errors.append(_("General %(n)s: not a general.") % {"n": n})
            continue
        label = _("General %(n)s («%(name)s»)") % {"n": n, "name": g.get("name") or "?"}
        talents = g.get("talents") or {}
        form = f.GeneralForm({"name": g.get("name") or "", "entry": g.get("entry") or "",
                              "unit": ids.get(str(g.get("unit")), "") if g.get("unit") else "",
                              "type": g.get("type") or "", "method": g.get("method") or "",
                              **({"c_in_c": "on"} if g.get("c_in_c") else {}),
                              **({"mercenary": "on"} if g.get("mercenary") else {}),
                              **{f"t_{k}": str(talents.get(k, "")) for k in ("steadiness", "melee", "specialty")}},
                             army_list=list_id, units=doc["units"])
        if g.get("unit") and str(g.get("unit")) not in ids:
            errors.append(_("%(general)s leads a unit that is not in the army.") % {"general": label})
            continue
        if not form.is_valid():
            errors.append(f"{label}: {_errors(form)}")
            continue
        gen = form.general(f"g{uuid.uuid4().hex[:6]}")
        doc["generals"].append(gen)
        rolled.append({"general": gen["id"], "hand": None})
    if errors:
        raise ValidationError("; ".join(errors))
    return doc, rolled          # the whole army is judged by the engine as the builder saves it (services.save_army)


def visible(user, game):
    return Roster.objects.filter(owner=user, game=game)


def save(user, game, name: str, doc: dict) -> Roster:
    """The army saved under its name (a roster of the same name is replaced)."""
    name = name.strip()[:80]
    if not name:
        raise ValidationError(_("Name the army to save it."))
    if not doc["units"]:
        raise ValidationError(_("The army has no units to save."))
    roster, _created = Roster.objects.update_or_create(owner=user, game=game, name=name,
                                                       defaults={"army": document(doc, name)})
    return roster


def forget(user, game, roster_id: int) -> str:
    roster = visible(user, game).filter(pk=roster_id).first()
    if roster is None:
        raise ValidationError(_("No such saved army."))
    name = roster.name
    roster.delete()
    return name
