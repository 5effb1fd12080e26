"""Blank order forms (бланки приказов, R5) for players without a tablet: one faction per page.

The table is the original's (Фракция | Номер армии | Стартовая область |
Приказ …), each army and fleet already filled in with its number and place,
the steps left empty for the player's hand.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import Spacer

from larp.sheets.renderers.base import PerFactionRenderer


class OrderFormRenderer(PerFactionRenderer):
    """`data`: a list of order forms as `larp.sheets.selectors.order_forms` makes them."""

    document = gettext_lazy("Order form")
    filename_stem = "order-forms"
    landscape = True
    columns_mm = (40, 24, 44, 55, 55, 55)
    row_height_mm = 11.0
    spare_rows = 1   # for an army raised after the forms were printed (R2)

    def faction_pages(self, form: dict) -> list:
        faction = form["faction"]
        turn = form.get("turn")
        right = [self.p(_("Turn %(n)s") % {"n": turn} if turn else _("Turn ____"), "right_big"),
                 self.p(_("Hand in before the Strategy phase ends"), "right")]
        out = self.heading(_("Order form"), faction["name"], faction["colour"], right)
        head = [self.p(t, "head") for t in (_("Faction"), _("Army number"), _("Starting province"),
                                            _("Order: step 1"), _("Step 2"), _("Step 3"))]
        rows = [head]
        for unit in form["units"]:
            rows.append([self.p(faction["name"], "cell"), self.p(unit["number"], "cell_bold"),
                         self.p(unit["position"], "cell"), "", "", ""])
        for _i in range(self.spare_rows):
            rows.append([self.p(faction["name"], "cell"), "", "", "", "", ""])
        out.append(self.table(rows, self.columns_mm, row_height_mm=self.row_height_mm))
        out.append(Spacer(1, self.mm(3)))
        for line in self.legend():
            out.append(self.p(line, "small"))
        out.append(Spacer(1, self.mm(6)))
        out.append(self.p(_("Signature ____________________    Handed in at ____:____"), "body"))
        return out

    @staticmethod
    def legend() -> list[str]:
        return [
            _("Write each step as a province and, in brackets, what the army does there: (march), (attack), "
              "(fleet) for the sea zone where it boards its fleet, (landing)."),
            _("An army: one or two steps of march, or a march and an attack; by sea: the sea zone (fleet), then "
              "the target (attack), or one more sea zone and the place of landing (landing)."),
            _("A fleet without an army: a sea zone (march), or a sea zone (attack <faction>). An army carried by a "
              "fleet is written on the army's row only."),
            _("An empty row: the army or fleet stands still."),
        ]
