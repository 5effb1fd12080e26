"""Every write of the editor, each in one transaction (docs/scenarios.md, «The editor»)."""
from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from larp.editor import acts
from larp.scenarios import picture
from larp.editor.models import ScenarioDraft
from larp.scenarios import ScenarioError, files


@dataclass
class Outcome:
    draft: ScenarioDraft
    error: str = ""
    shown: str | None = None  # the place to show on the map after the act


def stale_message() -> str:
    return _("Someone changed this scenario while you were editing it (or the same click came twice): your last "
             "change was not made. The page now shows the scenario as it is; make the change again if it is still "
             "needed.")


def new_draft(by, title: str, data: dict | None = None) -> ScenarioDraft:
    title = (title or "").strip()[:200] or _("New scenario")
    return ScenarioDraft.objects.create(title=title, data=data or acts.blank(title), updated_by=_user(by))


def _user(by):
    return by if by is not None and getattr(by, "is_authenticated", False) else None


def act(draft_id: int, version, name: str, fields, by=None) -> Outcome:
    """One act of the editor on the version of the draft the page showed; a stale version changes nothing."""
    with transaction.atomic():
        draft = ScenarioDraft.objects.select_for_update().get(pk=draft_id)
        if str(version) != str(draft.version):
            return Outcome(draft, stale_message())
        data = copy.deepcopy(draft.data)
        try:
            shown = acts.apply(data, name, fields, draft.size)
        except acts.ActError as exc:
            return Outcome(draft, str(exc))
        except (KeyError, TypeError, AttributeError, ValueError):
            # An imported file of a shape the acts do not expect (a list where a mapping goes, ...).
            return Outcome(draft, _("This part of the scenario has a shape the editor cannot change: mend it in the "
                                    "file (the problems list says where) and open the file again."))
        draft.data = data
        draft.version += 1
        draft.updated_by = _user(by)
        draft.save()
        return Outcome(draft, shown=shown)


def set_picture(draft_id: int, version, raw: bytes, name: str, by=None) -> Outcome:
    """The map picture, checked and re-encoded; the places keep their pixels (moved inside a smaller picture)."""
    try:
        body, kind, width, height = picture.read(raw, name)
    except picture.PictureError as exc:
        return Outcome(ScenarioDraft.objects.get(pk=draft_id), str(exc))
    with transaction.atomic():
        draft = ScenarioDraft.objects.select_for_update().get(pk=draft_id)
        if str(version) != str(draft.version):
            return Outcome(draft, stale_message())
        data = copy.deepcopy(draft.data)
        for p in data.get("provinces") or []:
            if "x" in p and "y" in p:
                p["x"], p["y"] = min(p["x"], width), min(p["y"], height)
                acts._follow(p, (width, height))
        data["scenario"]["map"] = "map." + ("jpg" if kind == "jpeg" else kind)
        data["scenario"]["map_size"] = [width, height]
        draft.data = data
        draft.picture, draft.picture_type = body, kind
        draft.picture_width, draft.picture_height = width, height
        draft.picture_key = hashlib.sha256(body).hexdigest()[:16]
        draft.version += 1
        draft.updated_by = _user(by)
        draft.save()
        return Outcome(draft)


def import_file(by, raw: bytes, name: str, title: str = "") -> ScenarioDraft:
    """A draft from a scenario file (.yaml, or .zip with its picture); ScenarioError when it cannot be read.

    The scenario need not be valid: the editor is where it is mended.
    """
    if raw[:4] == b"PK\x03\x04":
        data, pic = files.parse_zip(raw, name)
    else:
        data, pic = files.parse_yaml(raw, name), None
    if not isinstance(data.get("scenario"), dict):
        data["scenario"] = {"id": "scenario", "name_ru": title or name}
    for key in ("troop_types", "factions", "provinces", "adjacency"):
        if not isinstance(data.get(key), list):
            data[key] = []
    draft = new_draft(by, title or str(data["scenario"].get("name_ru") or name), data)
    if pic is not None:
        out = set_picture(draft.pk, draft.version, pic[1], pic[0], by)
        if out.error:
            raise ScenarioError([files.Problem(f"{name}: {pic[0]}", out.error)])
        draft = out.draft
    return draft


def export(draft: ScenarioDraft) -> tuple[str, bytes, str]:
    """The draft as a scenario file: (file name, bytes, content type); a .zip when it has a picture."""
    sid = draft.data.get("scenario", {}).get("id") or "scenario"
    if draft.picture:
        name = draft.data["scenario"].get("map") or f"map.{draft.picture_type}"
        return f"{sid}.zip", files.pack_zip(draft.data, (name, bytes(draft.picture))), "application/zip"
    return f"{sid}.yaml", files.dump_yaml(draft.data).encode(), "application/yaml; charset=utf-8"


def delete(draft_id: int) -> None:
    ScenarioDraft.objects.filter(pk=draft_id).delete()


def make_game(by, draft_id: int, title: str):
    """A new game from the draft as it is now (larp.scenarios.loader.create_game), with its map picture; the
    moderator who made it runs it. ScenarioError lists every problem; nothing is made then."""
    from larp.campaign.audit import audit
    from larp.campaign.models import Membership
    from larp.scenarios.loader import create_game

    draft = ScenarioDraft.objects.get(pk=draft_id)
    picture_file = None
    if draft.picture:
        picture_file = (draft.data["scenario"].get("map") or f"map.{draft.picture_type}", bytes(draft.picture))
    with transaction.atomic():
        game = create_game(copy.deepcopy(draft.data), title=title, picture=picture_file)
        user = _user(by)
        if user is not None and not Membership.objects.filter(user=user, game=game).exists():
            Membership.objects.create(user=user, game=game, role=Membership.MODERATOR)
        audit(game, user, "game_created_from_editor", {"draft": draft.pk, "version": draft.version})
    return game
