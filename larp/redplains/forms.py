"""The door of every Red Plains post: each field checked for shape, with a message in the user's language.

Whether a deployment or an order is legal is the engine's to say (situation.py); these forms only make sure
what arrives names a cell of the field, a unit of the side, an order the page offered, dice 1–6.
"""
from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Faction
from larp.redplains import labels
from larp.redplains import situation as sit

PICK = {"invalid_choice": _("No such choice: choose from the list."), "required": _("Choose from the list.")}
ARMY_ROWS = 6
EXAMPLE_CELLS = {"north": ["A11", "B12"], "south": ["C11", "D12"]}     # labels as the board writes them (W2.3)
# What the «new battle» page suggests (the moderator changes it): a small army on each side.
DEFAULT_ARMIES = {"north_type_1": "samurai_spears", "north_figures_1": 8, "north_type_2": "cavalry",
                  "north_figures_2": 6, "north_type_3": "samurai_bows", "north_figures_3": 8,
                  "south_type_1": "ashigaru_spears", "south_figures_1": 8, "south_type_2": "samurai_spears",
                  "south_figures_2": 8, "south_type_3": "ashigaru_arquebus", "south_figures_3": 8,
                  "north_messengers": 1, "south_messengers": 1, "defender": "south", "north_shinobi": 0,
                  "south_shinobi": 0}


# Up to two generals and the commander per side, each riding in a unit (W6.3; the commander only if he has
# Brawler or Charisma, else he watches from afar and is not set here)
LEADER_FIELDS = (("general", "general_1", "general_unit_1"), ("general", "general_2", "general_unit_2"),
                 ("commander", "commander", "commander_unit"))
LEADER_LABELS = {"general": _("General"), "commander": _("Commander (if he rides in a unit)")}


def type_choices():
    return [("", "—")] + [(k, v) for k, v in labels.TYPES.items()]


class TerrainCells:
    """The hills and forests a form names, as the field's cells, each refused by name when the field has no such
    cell (the new battle's form and the terrain set before play)."""

    def _cells(self, name):
        raw = (self.cleaned_data.get(name) or "").upper().replace(",", " ").split()
        known = {c["id"] for c in sit.cells()}
        if any(c not in known for c in raw):
            raise forms.ValidationError(no_such_cells([c for c in raw if c not in known], EXAMPLE_CELLS["south"]))
        return raw

    def clean_hills(self):
        return self._cells("hills")

    def clean_forests(self):
        return self._cells("forests")


class NewTableForm(TerrainCells, forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200)
    north_name = forms.CharField(label=_("North side"), max_length=120)
    north_faction = forms.ModelChoiceField(label=_("Faction playing north"), queryset=Faction.objects.none(),
                                           required=False, error_messages=PICK)
    south_name = forms.CharField(label=_("South side"), max_length=120)
    south_faction = forms.ModelChoiceField(label=_("Faction playing south"), queryset=Faction.objects.none(),
                                           required=False, error_messages=PICK)
    defender = forms.ChoiceField(label=_("Defending army (places the terrain)"),
                                 choices=[(k, v) for k, v in labels.SIDE_WORDS.items()], initial="south",
                                 error_messages=PICK)
    north_messengers = forms.IntegerField(label=_("Messengers of the north"), min_value=0, max_value=5, initial=1)
    south_messengers = forms.IntegerField(label=_("Messengers of the south"), min_value=0, max_value=5, initial=1)
    north_shinobi = forms.IntegerField(label=_("Shinobi of the north"), min_value=0, max_value=10, initial=0,
                                       required=False)
    south_shinobi = forms.IntegerField(label=_("Shinobi of the south"), min_value=0, max_value=10, initial=0,
                                       required=False)
    hills = forms.CharField(label=_("Hills (cells, e.g. C23 D25)"), max_length=40, required=False)
    forests = forms.CharField(label=_("Forests (cells)"), max_length=40, required=False)
    river = forms.BooleanField(label=_("A river along the line of contact (W36.1)"), required=False)
    bridge = forms.ChoiceField(label=_("The bridge over the river (W36.3)"), required=False, error_messages=PICK)

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["bridge"].choices = [("", _("no bridge"))] + [
            (f"{a} {b}", f"{a} — {b}") for a, b in sit.bridge_places()]
        factions = Faction.objects.filter(game=game) if game else Faction.objects.none()
        self.fields["north_faction"].queryset = factions
        self.fields["south_faction"].queryset = factions
        for side in sit.SIDES:
            for banner in sit.ARMY_BANNERS:
                self.fields[f"{side}_banner_{banner}"] = forms.BooleanField(label=labels.BANNERS[banner],
                                                                            required=False)
            for i in range(1, ARMY_ROWS + 1):
                self.fields[f"{side}_type_{i}"] = forms.ChoiceField(label=_("Troop type"), choices=type_choices(),
                                                                    required=False, error_messages=PICK)
                self.fields[f"{side}_figures_{i}"] = forms.IntegerField(label=_("Figures"), min_value=4,
                                                                        max_value=16, required=False)
                self.fields[f"{side}_shields_{i}"] = forms.BooleanField(label=_("Shields"), required=False)
                self.fields[f"{side}_clan_{i}"] = forms.CharField(label=_("Minor clan"), max_length=60,
                                                                  required=False)
            for kind, name, unit in LEADER_FIELDS:
                self.fields[f"{side}_{name}"] = forms.CharField(label=LEADER_LABELS[kind], max_length=60,
                                                                required=False)
                self.fields[f"{side}_{unit}"] = forms.TypedChoiceField(
                    label=_("rides in unit"), coerce=int, required=False, empty_value=None, error_messages=PICK,
                    choices=[("", "—")] + [(i, str(i)) for i in range(1, ARMY_ROWS + 1)])
                add_trait_fields(self, f"{side}_{name}_")

    def banner_boxes(self, side):
        return [self[f"{side}_banner_{banner}"] for banner in sit.ARMY_BANNERS]

    def general_rows(self, side):
        return [(self[f"{side}_{name}"], self[f"{side}_{unit}"], trait_rows(self, f"{side}_{name}_"))
                for _kind, name, unit in LEADER_FIELDS]

    def army_rows(self, side):
        return [(self[f"{side}_type_{i}"], self[f"{side}_figures_{i}"], self[f"{side}_shields_{i}"],
                 self[f"{side}_clan_{i}"]) for i in range(1, ARMY_ROWS + 1)]

    def clean(self):
        data = super().clean()
        armies = {}
        for side in sit.SIDES:
            army, number_of_row = [], {}
            for i in range(1, ARMY_ROWS + 1):
                t, f = data.get(f"{side}_type_{i}"), data.get(f"{side}_figures_{i}")
                if t and not f:
                    self.add_error(f"{side}_figures_{i}", _("A unit has 4 to 16 figures."))
                elif t:
                    army.append({"type": t, "figures": f, "shields": bool(data.get(f"{side}_shields_{i}"))
                                 and t != "cavalry", "minor_clan": (data.get(f"{side}_clan_{i}") or "").strip()})
                    number_of_row[i] = len(army)
            gens = []
            for kind, field, unit in LEADER_FIELDS:
                name, number = (data.get(f"{side}_{field}") or "").strip(), data.get(f"{side}_{unit}")
                traits = traits_of(self, data, f"{side}_{field}_")
                if traits and not name:
                    self.add_error(f"{side}_{field}", _("Name the leader whose traits you gave."))
                if name and number not in number_of_row:
                    self.add_error(f"{side}_{unit}", _("Choose the unit the general rides in.") if kind == "general"
                                   else _("Choose the unit the commander rides in."))
                elif name and kind == "commander":
                    data.setdefault("commanders", {})[side] = (name, number_of_row[number], traits)
                elif name:
                    gens.append((name, number_of_row[number], traits))
            data.setdefault("generals", {})[side] = gens
            if len(army) < 2:
                self.add_error(None, _("Each army needs at least two units (the two central cells must be held)."))
            armies[side] = army
        if data.get("bridge") and not data.get("river"):
            self.add_error("bridge", _("A bridge stands over the river: tick the river too, or choose no bridge."))
        elif data.get("defender") in sit.SIDES:
            field = {"extra_cells": [], "river": bool(data.get("river")),
                     "bridge": (data.get("bridge") or "").split() or None,
                     "hills": data.get("hills") or [], "forests": data.get("forests") or []}
            for code in sit.terrain_refusals(field, data["defender"]):
                self.add_error(None, labels.TERRAIN_REFUSALS.get(code, labels.reason(code)))
        if data.get("north_faction") and data.get("north_faction") == data.get("south_faction"):
            self.add_error("south_faction", _("The two sides need different factions."))
        data["armies"] = armies
        return data

    def setup(self) -> dict:
        d = self.cleaned_data
        return sit.make_setup(d["armies"], defender=d["defender"],
                              messengers={"north": d["north_messengers"], "south": d["south_messengers"]},
                              hills=d["hills"], forests=d["forests"], river=d.get("river", False),
                              bridge=(d.get("bridge") or "").split() or None,
                              shinobi={"north": d["north_shinobi"] or 0, "south": d["south_shinobi"] or 0},
                              generals=d.get("generals"),
                              banners={side: {b: 1 for b in sit.ARMY_BANNERS if d.get(f"{side}_banner_{b}")}
                                       for side in sit.SIDES},
                              commanders=d.get("commanders"))


def add_trait_fields(form, prefix: str) -> None:
    """W11.3: a leader's Brawler and Charisma — a box each, and the values the moderator gives it (the rules give
    none, W40): to steadiness, impetus and armour, −5…+5."""
    for trait in sit.TRAITS:
        form.fields[f"{prefix}{trait}"] = forms.BooleanField(label=labels.TRAITS[trait], required=False)
        for stat in sit.TRAIT_STATS:
            form.fields[f"{prefix}{trait}_{stat}"] = forms.IntegerField(
                label=labels.STATS[stat], min_value=-sit.MAX_TRAIT_VALUE, max_value=sit.MAX_TRAIT_VALUE,
                required=False)


def trait_rows(form, prefix: str) -> list[tuple]:
    return [(form[f"{prefix}{trait}"], [form[f"{prefix}{trait}_{stat}"] for stat in sit.TRAIT_STATS])
            for trait in sit.TRAITS]


def traits_of(form, data: dict, prefix: str) -> dict:
    """The traits ticked, each with its values; a value given to a trait not ticked is an error."""
    out = {}
    for trait in sit.TRAITS:
        values = {stat: data[f"{prefix}{trait}_{stat}"] for stat in sit.TRAIT_STATS
                  if data.get(f"{prefix}{trait}_{stat}")}
        if data.get(f"{prefix}{trait}"):
            out[trait] = values
        elif values:
            form.add_error(f"{prefix}{trait}", _("Tick the trait whose values you gave."))
    return out


class LeaderTraitsForm(forms.Form):
    """W11.3 before play: one leader of the battle (by his place in its list) and his traits with their values."""
    leader = forms.TypedChoiceField(coerce=int, choices=(), error_messages=PICK)

    def __init__(self, *args, leaders=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["leader"].choices = [(g["index"], g["label"]) for g in leaders]
        add_trait_fields(self, "")

    def clean(self):
        data = super().clean()
        data["traits"] = traits_of(self, data, "")
        return data


class SideForm(forms.Form):
    """Which side a post is for (a moderator acts for either; a player's own side is forced by the view)."""
    side = forms.ChoiceField(choices=[(s, s) for s in sit.SIDES], required=False, error_messages=PICK)


class DeployForm(SideForm):
    infiltrate = forms.IntegerField(min_value=0, max_value=20, required=False)

    def __init__(self, *args, units=(), zone=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.unit_ids = list(units)
        for uid in self.unit_ids:
            self.fields[f"cell_{uid}"] = forms.ChoiceField(choices=[("", "—")] + [(c, c) for c in zone],
                                                           required=False, error_messages=PICK)

    def placed(self) -> dict[str, str]:
        return {uid: self.cleaned_data[f"cell_{uid}"] for uid in self.unit_ids if self.cleaned_data.get(f"cell_{uid}")}


class ScoutForm(SideForm):
    cells = forms.CharField(max_length=100)

    def __init__(self, *args, cells=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.known = set(cells) if cells is not None else {c["id"] for c in sit.cells()}   # the field as extended

    def clean_cells(self):
        raw = self.cleaned_data["cells"].upper().replace(",", " ").split()
        known = self.known
        if not raw:
            raise forms.ValidationError(_("Type the cells to scout as they are written on the board, e.g. %(cells)s.")
                                        % {"cells": " ".join(self.example())})
        if any(c not in known for c in raw):
            raise forms.ValidationError(no_such_cells([c for c in raw if c not in known], self.example()))
        return raw

    def example(self) -> list[str]:
        """Two cells of the enemy's first line, as the board labels them (a side scouts the enemy, W6.5)."""
        side = self.data.get("side") if self.data.get("side") in sit.SIDES else "north"
        return EXAMPLE_CELLS[sit.other(side)]


class StakeForm(SideForm):
    stake = forms.ChoiceField(choices=[(k, v) for k, v in labels.STAKES.items()], error_messages=PICK)


def no_such_cells(bad: list[str], example: list[str]) -> str:
    """A refusal naming the typed cells the field does not have, and real labels as the board writes them."""
    return _("The field has no cell %(bad)s: type the labels written in the board's cells, e.g. %(cells)s.") % {
        "bad": ", ".join(f"«{c[:12]}»" for c in bad[:4]), "cells": " ".join(example)}


def parse_dice(text: str, exactly: int | None = None) -> list[int]:
    text = (text or "").strip()
    if not re.fullmatch(r"[1-6](?:[\s,]+[1-6]){0,199}", text):
        raise forms.ValidationError(_("Type the dice as numbers 1 to 6, separated by spaces."))
    values = [int(v) for v in re.split(r"[\s,]+", text)]
    if exactly is not None and len(values) != exactly:
        raise forms.ValidationError(_("Type exactly %(n)s dice.") % {"n": exactly})
    return values


class RollForm(SideForm):
    source = forms.ChoiceField(choices=[("server", "server"), ("hand", "hand")], error_messages=PICK)
    dice = forms.CharField(max_length=20, required=False)

    def clean(self):
        data = super().clean()
        if data.get("source") == "hand":
            data["values"] = parse_dice(data.get("dice"), exactly=2)
        return data


class OrdersForm(SideForm):
    """Two slots per unit, each one of the orders the page offered for it (or none): the order in the first
    select (`o_<unit>_<slot>`), what it names in the second (`x_<unit>_<slot>`); the pair must be one the engine
    accepted for the unit (selectors.order_pickers). Choosing the Dragon move raises the Dragon banner (W12.4)."""

    general_retreat = forms.BooleanField(required=False)

    def __init__(self, *args, pickers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.pickers = list(pickers)
        for p in self.pickers:
            for slot in (1, 2):
                allowed = [("", "—")] + [(g["value"], g["label"]) for g in p["groups"]
                                         if g["legal"] and not (slot == 2 and g["first_only"])]
                self.fields[f"o_{p['unit']}_{slot}"] = forms.ChoiceField(choices=allowed, required=False,
                                                                         error_messages=PICK)
                self.fields[f"x_{p['unit']}_{slot}"] = forms.CharField(max_length=60, required=False)
            if p["may_withdraw"]:
                self.fields[f"w_{p['unit']}"] = forms.BooleanField(required=False)
            self.fields[f"b_{p['unit']}"] = forms.ChoiceField(choices=[("", "—")] + [(b, b) for b in p["banners"]],
                                                              required=False, error_messages=PICK)

    def clean(self):
        data = super().clean()
        self.chosen: list[dict] = []
        for p in self.pickers:
            for slot in (1, 2):
                group = data.get(f"o_{p['unit']}_{slot}")
                if not group:
                    continue
                detail = (data.get(f"x_{p['unit']}_{slot}") or "").strip()
                order = p["lookup"].get((group, detail))
                if order is None and not detail:           # a group of one legal choice needs no second select
                    legal = [o for (g, _d), o in p["lookup"].items() if g == group]
                    order = legal[0] if len(legal) == 1 else None
                if order is None:
                    self.add_error(f"x_{p['unit']}_{slot}", PICK["invalid_choice"])
                    continue
                self.chosen.append({**order, "slot": slot})
        return data

    def withdraw(self) -> list[str]:
        return [p["unit"] for p in self.pickers if self.cleaned_data.get(f"w_{p['unit']}")]

    def banners(self) -> list[dict]:
        dragon = [{"unit": o["unit"], "banner": "dragon"} for o in self.chosen if o["type"] == "dragon"]
        return dragon + [{"unit": p["unit"], "banner": self.cleaned_data[f"b_{p['unit']}"]} for p in self.pickers
                         if self.cleaned_data.get(f"b_{p['unit']}")]

    def orders(self) -> list[dict]:
        return [dict(o) for o in self.chosen]


class LeaderForm(SideForm):
    """W11.1: which leader (by his place in the battle's list) moves to which unit — one the page offered."""
    leader = forms.TypedChoiceField(coerce=int, choices=(), error_messages=PICK)
    unit = forms.ChoiceField(choices=(), error_messages=PICK)

    def __init__(self, *args, board=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.board = {g["index"]: g for g in board}
        self.fields["leader"].choices = [(i, g["name"]) for i, g in self.board.items()]
        self.fields["unit"].choices = sorted({(u, u) for g in self.board.values() for u in [g["unit"]] + g["targets"]})

    def clean(self):
        data = super().clean()
        g = self.board.get(data.get("leader"))
        if g is not None and data.get("unit") and data["unit"] != g["unit"] and data["unit"] not in g["targets"]:
            self.add_error("unit", PICK["invalid_choice"])
        return data


class ShinobiForm(SideForm):
    """W10: a shinobi's task and, for sabotage, panic and signals, the enemy unit it names (one the side sees)."""
    task = forms.ChoiceField(choices=[(k, v) for k, v in labels.TASKS.items()], error_messages=PICK)
    unit = forms.ChoiceField(choices=[], required=False, error_messages=PICK)
    source = forms.ChoiceField(choices=[("server", "server"), ("hand", "hand")], required=False, error_messages=PICK)
    dice = forms.CharField(max_length=20, required=False)

    def __init__(self, *args, targets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = [("", "—")] + [(uid, uid) for uid in targets]

    def clean(self):
        data = super().clean()
        if data.get("task") in sit.TARGETED_TASKS and not data.get("unit"):
            self.add_error("unit", _("Choose the enemy unit for the shinobi."))
        if data.get("task") == "sabotage" and data.get("source") == "hand":
            data["values"] = parse_dice(data.get("dice"), exactly=1)
        return data


class DiceForm(forms.Form):
    source = forms.ChoiceField(choices=[("server", "server"), ("hand", "hand")], error_messages=PICK)
    dice = forms.CharField(max_length=400, required=False)

    def clean(self):
        data = super().clean()
        if data.get("source") == "hand":
            data["values"] = parse_dice(data.get("dice"))
        return data


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500, error_messages={"required": _("Say why.")})


class PlanForm(ReasonForm, SideForm):
    """W9.3: the extra orders the moderator grants a side for this turn (kind, number) and/or the Cunning plan's
    order for next turn for one of its units (W10.2), with the reason."""
    kind = forms.ChoiceField(choices=[("", "—")] + [(k, labels.KINDS[k]) for k in sit.KINDS], required=False,
                             error_messages=PICK)
    count = forms.IntegerField(min_value=0, max_value=sit.MAX_PLAN, required=False,
                               error_messages={"min_value": _("From 1 to 5 extra orders."),
                                               "max_value": _("From 1 to 5 extra orders."),
                                               "invalid": _("From 1 to 5 extra orders.")})
    unit = forms.ChoiceField(choices=(), required=False, error_messages=PICK)
    next = forms.CharField(max_length=sit.MAX_NOTE, required=False)

    def __init__(self, *args, units=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = [("", "—")] + [(u, u) for u in units]

    def clean(self):
        data = super().clean()
        count = data.get("count") or 0
        if count and not data.get("kind"):
            self.add_error("kind", _("Choose the kind of the extra orders."))
        if data.get("unit") and not (data.get("next") or "").strip():
            self.add_error("next", _("Write the order for next turn."))
        if not count and not data.get("unit") and not self.errors:
            raise forms.ValidationError(_("Give the number of extra orders, or a unit with the order for next turn."))
        return data


class OverrideForm(ReasonForm):
    unit = forms.CharField(max_length=20)
    figures = forms.IntegerField(min_value=0, max_value=16, required=False)
    status = forms.ChoiceField(choices=[("", "—")] + [(k, v) for k, v in labels.STATUSES.items()], required=False,
                               error_messages=PICK)
    cell = forms.ChoiceField(choices=[("", "—")] + [(c["id"], c["id"]) for c in sit.cells()], required=False,
                             error_messages=PICK)
    facing = forms.ChoiceField(choices=[("", "—")] + [(k, v) for k, v in labels.FACINGS.items()], required=False,
                               error_messages=PICK)

    def __init__(self, *args, cells=None, **kwargs):
        super().__init__(*args, **kwargs)
        if cells is not None:                                   # the field as extended (W2.5)
            self.fields["cell"].choices = [("", "—")] + [(c, c) for c in cells]

    def changes(self) -> dict:
        d = self.cleaned_data
        out = {k: d[k] for k in ("status", "cell", "facing") if d.get(k)}
        if d.get("figures") is not None:
            out["figures"] = d["figures"]
        return out


class TerrainForm(TerrainCells, forms.Form):
    """W6.2, W36–W38 before play (a table the bridge made has none): the river, the bridge, hills and forests."""
    river = forms.BooleanField(required=False)
    bridge = forms.ChoiceField(required=False, error_messages=PICK)
    hills = forms.CharField(max_length=40, required=False)
    forests = forms.CharField(max_length=40, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["bridge"].choices = [("", "—")] + [(f"{a} {b}", f"{a} — {b}") for a, b in sit.bridge_places()]

    def clean(self):
        data = super().clean()
        if data.get("bridge") and not data.get("river"):
            self.add_error("bridge", _("A bridge stands over the river: tick the river too, or choose no bridge."))
        return data

    def payload(self) -> dict:
        d = self.cleaned_data
        return {"terrain": {"river": bool(d.get("river")), "bridge": (d.get("bridge") or "").split() or None,
                            "hills": d.get("hills") or [], "forests": d.get("forests") or []}}


class RosterForm(forms.Form):
    """One unit of an army before play: a unit to change or remove, or a new one for a side."""
    unit = forms.CharField(max_length=20, required=False)
    side = forms.ChoiceField(choices=[("", "—")] + [(s, s) for s in sit.SIDES], required=False, error_messages=PICK)
    type = forms.ChoiceField(choices=type_choices(), required=False, error_messages=PICK)
    figures = forms.IntegerField(min_value=4, max_value=16, required=False)
    shields = forms.BooleanField(required=False)
    remove = forms.BooleanField(required=False)
    cell = forms.ChoiceField(choices=[("", "—")] + [(c["id"], c["id"]) for c in sit.cells()], required=False,
                             error_messages=PICK)

    def clean(self):
        data = super().clean()
        if not data.get("remove") and (not data.get("type") or not data.get("figures")):
            raise forms.ValidationError(_("Choose the troop type and 4 to 16 figures."))
        if not data.get("unit") and not data.get("side"):
            raise forms.ValidationError(_("Choose a unit to change, or the side of a new one."))
        return data

    def payload(self) -> dict:
        d = self.cleaned_data
        out = {"unit": d.get("unit") or None, "side": d.get("side") or None}
        if d.get("remove"):
            return {**out, "remove": True}
        out.update({"type": d["type"], "figures": d["figures"], "shields": bool(d.get("shields"))})
        if d.get("cell"):
            out["cell"] = d["cell"]
        return out


class ExtendForm(ReasonForm):
    """W2.5: the cells to add, each one of the places next to the field the page offered."""
    cells = forms.MultipleChoiceField(error_messages={**PICK, "invalid_list": PICK["invalid_choice"],
                                                      "required": _("Pick the cells to add.")})

    def __init__(self, *args, options=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.options = {c["id"]: (c["col"], c["row"]) for c in options}
        self.fields["cells"].choices = [(c, c) for c in self.options]

    def positions(self) -> list[tuple[int, int]]:
        return [self.options[c] for c in self.cleaned_data["cells"]]


def errors_text(form) -> str:
    return " ".join(str(m) for errors in form.errors.values() for m in errors)


# ---------------------------------------------------------------------------- the calculators (W42.1)
STATS = ("steadiness", "impetus", "armour")
ATTACK_SIDES = {"front": _("on the front"), "left": _("on the left flank"), "right": _("on the right flank"),
                "rear": _("in the rear")}
MELEE_FLAGS = {"hold": _("Hold the position! (its bonus stands)"), "moved": _("moved this turn"),
               "decisive": _("decisive attack"), "across_river": _("attacks across the river"),
               "uphill": _("attacks uphill"), "into_forest": _("attacks into a forest"),
               "crab": _("Crab banner"), "tiger": _("Tiger banner"),
               "no_defence_bonuses": _("no defence bonuses (the Dragon's target)")}
TARGET_FLAGS = {"has_move_order": _("has an order to move in this step"),
                "move_is_decisive": _("that move is a decisive attack"), "crosses_bridge": _("crosses the bridge"),
                "on_hill": _("on a hill"), "in_forest": _("in a forest"),
                "moved_or_turned": _("moved or turned this turn (no shields)"),
                "hold": _("Hold the position! (its bonus stands)"), "crab": _("Crab banner")}
SHOOTER_FLAGS = {"massed": _("massed shooting"), "straight": _("the target is straight ahead"),
                 "at_attacker": _("shoots at its attacker (automatic)"), "from_hill": _("shoots from a hill"),
                 "crab": _("Crab banner")}
COUNTS = {"panic": _("panic markers"), "shooting_losses": _("losses from shooting this turn"),
          "rallies": _("times rallied")}


class CalcUnits(forms.Form):
    """Units typed into a calculator: troop type, figures (the ranks follow), shields, the flags and counts of
    W41.5–W41.6 and the moderator's modifiers; each unit's fields are named `<key>_<field>`."""

    UNITS: tuple = ()          # (key, role label, required, troop types, flags, counts, attacks)
    # The units that may be marked fleeing: only those that are attacked or shot at (W35.4). An attacker or a
    # shooter that flees does not act (W35.1), so the page never offers one; destroyed, dispersed and withdrawn
    # units have left the battle and are never offered at all (W26.5, W34.4, W14.1).
    MAY_FLEE: tuple = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, _role, required, types, flags, counts, attacks in self.UNITS:
            self.fields[f"{key}_type"] = forms.ChoiceField(
                label=_("Troop type"), choices=[("", "—")] + [(t, labels.TYPES[t]) for t in types],
                required=required, error_messages=PICK)
            self.fields[f"{key}_figures"] = forms.IntegerField(label=_("Figures"), min_value=1, max_value=16,
                                                               required=False)
            if attacks:
                self.fields[f"{key}_attacks"] = forms.ChoiceField(label=_("Attacks"), choices=list(ATTACK_SIDES.items()),
                                                                  required=False, error_messages=PICK)
            self.fields[f"{key}_shields"] = forms.BooleanField(label=_("Shields"), required=False)
            if key in self.MAY_FLEE:
                self.fields[f"{key}_fleeing"] = forms.BooleanField(label=_("fleeing"), required=False)
            for name in counts:
                self.fields[f"{key}_{name}"] = forms.IntegerField(label=COUNTS[name], min_value=0, max_value=16,
                                                                  required=False)
            for stat in STATS:
                self.fields[f"{key}_mod_{stat}"] = forms.IntegerField(
                    label=_("modifier to %(stat)s") % {"stat": STAT_WORDS[stat]}, min_value=-5, max_value=5,
                    required=False)
            for name, label in flags.items():
                self.fields[f"{key}_{name}"] = forms.BooleanField(label=label, required=False)

    def present(self, key: str) -> bool:
        return bool(self.cleaned_data.get(f"{key}_type"))

    def clean(self):
        data = super().clean()
        for key, _role, _required, _types, _flags, _counts, attacks in self.UNITS:
            if data.get(f"{key}_type") and not data.get(f"{key}_figures"):
                self.add_error(f"{key}_figures", _("A unit has 1 to 16 figures."))
            if attacks and data.get(f"{key}_type") and not data.get(f"{key}_attacks"):
                self.add_error(f"{key}_attacks", PICK["required"])
        return data

    def unit(self, key: str, side: str) -> dict:
        """The unit as the engine's case takes it (W41.3 with the mode's flags)."""
        d = self.cleaned_data
        spec = next(u for u in self.UNITS if u[0] == key)
        # a fleeing mark the page did not offer (a hand-made address) still says fleeing: the engine refuses it
        # (W35.1) instead of counting the unit as whole
        fleeing = (d.get(f"{key}_fleeing") if key in self.MAY_FLEE
                   else self.data.get(self.add_prefix(f"{key}_fleeing")) not in (None, "", "off", "false"))
        node = {"id": key, "side": side, "type": d[f"{key}_type"], "figures": d[f"{key}_figures"],
                "shields": bool(d.get(f"{key}_shields")), "status": "fleeing" if fleeing else "ready",
                "modifiers": [{"stat": stat, "value": d[f"{key}_mod_{stat}"], "source": "moderator"}
                              for stat in STATS if d.get(f"{key}_mod_{stat}")]}
        for name in spec[5]:
            node[name] = d.get(f"{key}_{name}") or 0
        for name in spec[4]:
            node[name] = bool(d.get(f"{key}_{name}"))
        if spec[6]:
            node["attacks"] = d[f"{key}_attacks"]
        return node

    def groups(self) -> list[dict]:
        """The page's fieldsets: per unit its role, the main fields, the numbers and the boxes."""
        out = []
        for key, role, _required, _types, flags, counts, attacks in self.UNITS:
            main = [self[f"{key}_type"], self[f"{key}_figures"]] + ([self[f"{key}_attacks"]] if attacks else [])
            numbers = [self[f"{key}_{name}"] for name in counts] + [self[f"{key}_mod_{stat}"] for stat in STATS]
            boxes = ([self[f"{key}_shields"]] + ([self[f"{key}_fleeing"]] if key in self.MAY_FLEE else [])
                     + [self[f"{key}_{name}"] for name in flags])
            out.append({"key": key, "role": role, "main": main, "numbers": numbers, "boxes": boxes})
        return out


STAT_WORDS = labels.STATS
ROLES = {"a": _("Attacker (unit A in a meeting)"), "c": _("Second attacker (attacks only)"),
         "b": _("Defender (unit B in a meeting)"), "t": _("Target"), "s1": _("Shooter"), "s2": _("Second shooter")}


class MeleeCalcForm(CalcUnits):
    kind = forms.ChoiceField(label=_("Melee"), choices=[("attack", _("an attack on a defending unit")),
                                                        ("meeting", _("a meeting engagement"))],
                             initial="attack", error_messages=PICK)
    same_cell = forms.BooleanField(label=_("both went for the same cell (a meeting engagement)"), required=False)
    UNITS = (("a", ROLES["a"], True, sit.TYPES, MELEE_FLAGS, ("panic", "shooting_losses", "rallies"), True),
             ("c", ROLES["c"], False, sit.TYPES, MELEE_FLAGS, ("panic", "shooting_losses", "rallies"), True),
             ("b", ROLES["b"], True, sit.TYPES, MELEE_FLAGS, ("panic", "shooting_losses", "rallies"), False))
    MAY_FLEE = ("b",)          # the defender; in a meeting engagement B attacks too and is refused below

    def clean(self):
        data = super().clean()
        if data.get("kind") == "attack" and data.get("c_type") and data.get("a_attacks") == data.get("c_attacks"):
            self.add_error("c_attacks", _("Two attackers cannot attack on the same side of the defender."))
        if data.get("kind") == "meeting" and data.get("b_fleeing"):
            self.add_error(None, _("A fleeing unit does not fight a meeting engagement (W35)."))
        return data


class VolleyCalcForm(CalcUnits):
    UNITS = (("t", ROLES["t"], True, sit.TYPES, TARGET_FLAGS, ("panic", "rallies"), False),
             ("s1", ROLES["s1"], True, sit.SHOOTERS, SHOOTER_FLAGS, (), False),
             ("s2", ROLES["s2"], False, sit.SHOOTERS, SHOOTER_FLAGS, (), False))
    MAY_FLEE = ("t",)          # the target; a fleeing shooter shoots no figure (W35.1)


class CommandCalcForm(forms.Form):
    rerolls = forms.IntegerField(label=_("Re-rolls left (messengers)"), min_value=0, max_value=10, initial=0)


CALC_INITIAL = {"m": {"kind": "attack", "a_type": "cavalry", "a_figures": 8, "a_attacks": "front",
                      "b_type": "ashigaru_spears", "b_figures": 8, "c_attacks": "left"},
                "v": {"t_type": "samurai_spears", "t_figures": 8, "s1_type": "samurai_bows", "s1_figures": 8},
                "c": {"rerolls": 0}}
