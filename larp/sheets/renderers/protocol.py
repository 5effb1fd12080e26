"""The battle protocol (протокол автобоя, R8-R11): one battle per page, laid out like the original's example.

Both sides' totals item by item, the dice, the difference, the strength band,
the winner, the losses and the cards left: the sheet a moderator hands to the
players.
"""
from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import PageBreak, Spacer, Table, TableStyle

from larp.campaign.labels import destroyed, number, signed
from larp.sheets.renderers.base import GRID, SHADE, Renderer, Section, Swatch, esc

# Decisions the winner's line says in full; the others (a storm, a victor destroyed) are told in the engine's words.
PLAIN_DECISIONS = ("attacker_won", "defender_won", "tie")


class ProtocolRenderer(Renderer):
    """`data`: a list of protocols as `larp.sheets.build.protocol` makes them."""

    document = gettext_lazy("Battle protocol")
    filename_stem = "battle-protocols"
    item_columns_mm = (40, 50, 16, 50, 16)
    result_columns_mm = (70, 102)
    loss_columns_mm = (40, 18, 66, 48)

    def filename(self) -> str:
        if len(self.data) == 1 and self.data[0].get("number"):
            return f"battle-protocol-{self.data[0].get('turn') or 0}-{self.data[0]['number']}.pdf"
        return f"{self.filename_stem}.pdf"

    def story(self) -> list:
        story = []
        for i, protocol in enumerate(self.data):
            if i:
                story.append(PageBreak())
            story.append(Section(f"{protocol['province']}", i + 1, len(self.data)))
            story += self.protocol(protocol)
        return story

    def protocol(self, data: dict) -> list:
        if data.get("at_table"):
            title = _("Battle no. %(n)s at the table") % {"n": data["number"]}
        else:
            title = _("Autobattle no. %(n)s") % {"n": data["number"]} if data.get("number") else _("Autobattle")
        where = f"{data['province']} — {data['kind']}"
        right = self.turn_and_date(data)
        out = self.heading(_("Battle protocol"), title, None, right, swatch=False)
        out.append(self.p(where, "h2"))
        if data.get("at_table"):
            out.append(self.at_table(data))
        else:
            out.append(self.items_table(data))
            out.append(Spacer(1, self.mm(4)))
        out.append(self.result_table(data))
        out += self.dice_lines(data)
        out.append(self.p(_("Losses"), "h2"))
        out.append(self.losses_table(data))
        out.append(Spacer(1, self.mm(9)))
        out.append(self.p(_("Moderator ________________    Attacker ________________    Defender ________________"),
                          "body"))
        return out

    def dice_lines(self, data: dict) -> list:
        """How the dice were had, and the game's dice fingerprint (the seed itself stays secret until revealed)."""
        out = []
        if data.get("dice_note"):
            out.append(self.p(data["dice_note"], "small"))
        if data.get("dice_fingerprint"):
            out.append(self.p(_("Fingerprint of the game's dice seed (SHA-256): %(fp)s")
                              % {"fp": data["dice_fingerprint"]}, "small"))
        return out

    def side_header(self, side: dict) -> Table:
        size = self.mm(4.2)
        text = self.p_markup(f"<b>{esc(side['name'])}</b> — {esc(side['role_label'])}", "cell")
        t = Table([[Swatch(side["colour"], size), text]], colWidths=[size + self.mm(2), None], hAlign="LEFT")
        t.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                               ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                               ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
        return t

    def items_table(self, data: dict):
        a, d = data["sides"]
        rows = [["", self.side_header(a), "", self.side_header(d), ""]]
        rows.append([self.p(_("Stacks"), "cell_bold"), self.p(self._stacks_before(a), "cell"), "",
                     self.p(self._stacks_before(d), "cell"), ""])
        for row in data["rows"]:
            cells = [self.p(row["label"], "cell_bold")]
            for cell in row["cells"]:
                if cell is None:
                    cells += [self.p("—", "cell"), ""]
                else:
                    cells += [self.p(cell["detail"], "cell"), self.p(signed(cell["value"]) if row["source"] != "troops"
                                                                      else cell["value"], "cell_right")]
            rows.append(cells)
        rows.append([self.p(_("Men"), "cell"), self.p(number(a["men"]), "cell"), "", self.p(number(d["men"]), "cell"),
                     ""])
        rows.append([self.p(_("Final total"), "cell_bold"), "", self.p(a["total"], "big_number"), "",
                     self.p(d["total"], "big_number")])
        spans = [("SPAN", (1, 0), (2, 0)), ("SPAN", (3, 0), (4, 0)),
                 ("SPAN", (1, 1), (2, 1)), ("SPAN", (3, 1), (4, 1)),
                 ("SPAN", (1, len(rows) - 2), (2, len(rows) - 2)), ("SPAN", (3, len(rows) - 2), (4, len(rows) - 2)),
                 ("LINEABOVE", (0, -1), (-1, -1), 1.4, GRID), ("VALIGN", (0, -1), (-1, -1), "MIDDLE"),
                 ("BACKGROUND", (0, -1), (-1, -1), SHADE)]
        return self.table(rows, self.item_columns_mm, extra_style=spans)

    def at_table(self, data: dict):
        """A battle fought at a table of another rule system: the stacks, the table and what it gave."""
        a, d = data["sides"]
        t = data["at_table"]
        losses = t.get("losses") or {}
        rows = [["", self.side_header(a), self.side_header(d)],
                [self.p(_("Stacks"), "cell_bold"), self.p(self._stacks_before(a), "cell"),
                 self.p(self._stacks_before(d), "cell")],
                [self.p(_("Fought at the table"), "cell_bold"),
                 self.p(_("«%(title)s» (%(system)s), table no. %(n)s") % {
                     "title": t.get("title", ""), "system": t.get("system", ""), "n": t.get("table") or "—"}, "cell"),
                 ""],
                [self.p(_("Lost at the table"), "cell_bold"), self.p(t.get("lost") or "—", "cell"), ""],
                [self.p(_("Losses, power points"), "cell_bold"), self.p(losses.get("attacker", "—"), "big_number"),
                 self.p(losses.get("defender", "—"), "big_number")]]
        spans = [("SPAN", (1, 2), (2, 2)), ("SPAN", (1, 3), (2, 3))]
        return self.table(rows, [self.item_columns_mm[0], sum(self.item_columns_mm[1:3]),
                                 sum(self.item_columns_mm[3:5])], extra_style=spans)

    @staticmethod
    def _stacks_before(side: dict) -> str:
        return "; ".join(f"{s['label']}: {s['before_text']}" for s in side["stacks"]) or "—"

    def result_table(self, data: dict):
        decision = data.get("decision")
        if data["winner"]:
            winner = data["sides"][0 if data["winner"] == "attacker" else 1]
            verdict = _("%(name)s (%(role)s) wins") % {"name": winner["name"], "role": winner["role_label"]}
        else:
            verdict = _("A tie: the attack is repelled, both sides take losses")
        if decision == "fortress_taken":   # the engine's own words, after whose victory it is (R7, R10)
            verdict = f"{verdict}. {capfirst(data['decision_text'])}"
        elif decision and decision not in PLAIN_DECISIONS:
            verdict = capfirst(data["decision_text"])
        if data.get("at_table"):
            return self.table([[self.p(_("Result"), "cell_bold"), self.p(verdict, "cell_bold")]],
                              self.result_columns_mm, header_rows=0)
        rows = [
            [self.p(_("Difference"), "cell_bold"), self.p(data["difference"], "cell_bold")],
            [self.p(_("Strength of the sides (by the weaker side, %(total)s)") % {"total": data["weaker_total"]},
                    "cell_bold"),
             self.p(_("%(range)s — band %(band)s") % {"range": data["band_range"], "band": data["band"]}, "cell_bold")],
            [self.p(_("Result"), "cell_bold"), self.p(verdict, "cell_bold")],
        ]
        return self.table(rows, self.result_columns_mm, header_rows=0)

    def losses_table(self, data: dict):
        head = [self.p(t, "head") for t in (_("Side"), _("Losses"), _("Stacks after losses"), _("What next"))]
        rows = [head]
        for side in data["sides"]:
            after = "; ".join(
                f"{s['label']}: " + (destroyed(s["kind"]) if s["destroyed"] else s["after_text"]) for s in side["stacks"]
            ) or "—"
            rows.append([self.p(f"{side['name']} ({side['role_label']})", "cell_bold"),
                         self.p(side["losses"], "cell_right_bold"), self.p(after, "cell"), self.p(side["fate"], "cell")])
        return self.table(rows, self.loss_columns_mm)
