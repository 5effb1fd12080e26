"""The battle sheet (боевой лист, R1): one faction per page, every stack it holds."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import KeepTogether, Spacer

from larp.campaign.labels import number, signed
from larp.sheets.renderers.base import PerFactionRenderer, RuledLines


class BattleSheetRenderer(PerFactionRenderer):
    """`data`: a list of battle sheets as `larp.sheets.selectors.battle_sheets` makes them."""

    document = gettext_lazy("Battle sheet")
    filename_stem = "battle-sheets"
    # column widths in mm (relative; scaled to the frame)
    stack_columns_mm = (15, 38, 40, 16, 22, 55)
    garrison_columns_mm = (48, 56, 16, 22, 44)
    special_columns_mm = (44, 98, 44)

    def faction_pages(self, sheet: dict) -> list:
        faction = sheet["faction"]
        right = self.turn_and_date(sheet)
        out = self.heading(_("Battle sheet"), faction["name"], faction["colour"], right)
        if faction.get("capital"):
            out.append(self.p(_("Capital: %(capital)s") % {"capital": faction["capital"]}, "small"))
        out.append(self.p(_("Armies"), "h2"))
        out.append(self.stacks(sheet["armies"], _("Army"), _("Where it stands"), _("No armies.")))
        out.append(self.p(_("Fleets"), "h2"))
        out.append(self.stacks(sheet["fleets"], _("Fleet"), _("Sea zone"), _("No fleets.")))
        out.append(self.p(_("Fortress garrisons"), "h2"))
        out.append(self.garrisons(sheet["garrisons"]))
        out.append(self.p(_("Specials"), "h2"))
        out.append(self.specials(sheet["specials"]))
        if sheet.get("unattached_commanders"):
            out.append(self.p(_("Commanders without an army"), "h2"))
            out.append(self.p(", ".join(f"{c['name']} ({c['power']})" for c in sheet["unattached_commanders"])))
        out.append(Spacer(1, self.mm(3)))
        out.append(KeepTogether([
            self.p(_("Checked: moderator ____________________    player ____________________"), "body"),
        ]))
        out.append(Spacer(1, self.mm(3)))
        out.append(RuledLines(_("Moderator's notes"), self.styles["small"], self.mm(7), self.mm(50), self.mm(20)))
        return out

    def stacks(self, stacks: list[dict], kind: str, where: str, none: str):
        if not stacks:
            return self.nothing(none)
        head = [self.p(t, "head") for t in (kind, where, _("Stack (troop cards)"), _("Combat power"), _("Men"),
                                            _("Commanders (power)"))]
        rows = [head]
        for s in stacks:
            commanders = ", ".join(f"{c['name']} ({c['power']})" for c in s["commanders"]) or "—"
            rows.append([self.p(s["label"], "cell_bold"), self.p(s["location"], "cell"),
                         self.p(s["cards_text"], "cell"), self.p(s["power"], "cell_right"),
                         self.p(number(s["men"]), "cell_right"), self.p(commanders, "cell")])
        power = sum(s["power"] for s in stacks)
        men = sum(s["men"] for s in stacks)
        commanders_power = sum(s["commanders_power"] for s in stacks)
        rows.append([self.p(_("Total"), "cell_bold"), "", "", self.p(power, "cell_right_bold"),
                     self.p(number(men), "cell_right_bold"),
                     self.p(_("commanders %(power)s") % {"power": signed(commanders_power)}, "cell")])
        return self.table(rows, self.stack_columns_mm, total_row=True)

    def garrisons(self, garrisons: list[dict]):
        if not garrisons:
            return self.nothing(_("The faction holds no fortress."))
        head = [self.p(t, "head") for t in (_("Fortress"), _("Garrison"), _("Combat power"), _("Men"), _("Note"))]
        rows = [head]
        for g in garrisons:
            notes = []
            if g["capital"]:
                notes.append(_("capital"))
            if g["special"]:
                notes.append(_("city special: %(name)s") % {"name": g["special"]})
            rows.append([self.p(g["province"], "cell_bold"),
                         self.p(g["cards_text"] if g["cards"] else _("empty"), "cell"),
                         self.p(g["power"], "cell_right"), self.p(number(g["men"]), "cell_right"),
                         self.p("; ".join(notes), "cell")])
        return self.table(rows, self.garrison_columns_mm)

    def specials(self, specials: list[dict]):
        if not specials:
            return self.nothing(_("No specials."))
        head = [self.p(t, "head") for t in (_("Special"), _("Effect"), _("State"))]
        rows = [head] + [[self.p(s["name"], "cell_bold"), self.p(s["effect"], "cell"), self.p(s["state"], "cell")]
                         for s in specials]
        return self.table(rows, self.special_columns_mm)
