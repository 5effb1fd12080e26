"""Turn results (итоги хода, R6-R12): moves, battles, retreats, provinces that changed hands, the news."""
from __future__ import annotations

from django.utils.translation import gettext as _, pgettext
from django.utils.translation import gettext_lazy

from larp.dice.verify import chosen_note
from larp.sheets.renderers.base import Renderer, Section, esc


class TurnResultsRenderer(Renderer):
    """`data`: one dict as `larp.sheets.build.turn_results` makes it."""

    document = gettext_lazy("Turn results")
    filename_stem = "turn-results"
    move_columns_mm = (8, 34, 19, 26, 56, 43)
    refused_columns_mm = (34, 20, 132)
    battle_columns_mm = (7, 34, 50, 50, 45)
    retreat_columns_mm = (34, 20, 38, 38, 56)
    recolour_columns_mm = (40, 38, 38, 70)
    destroyed_columns_mm = (60, 126)

    def filename(self) -> str:
        return f"{self.filename_stem}-{self.data.get('turn') or 0}.pdf"

    def story(self) -> list:
        data = self.data
        out = [Section(_("Turn %(n)s") % {"n": data.get("turn")}, 1, 1)]
        out += self.heading(_("Turn results"), _("Turn %(n)s") % {"n": data.get("turn")}, None,
                            [self.p(data.get("date", ""), "right")], swatch=False)
        if data.get("awaiting"):
            out.append(self.p(_("Not every battle has its dice yet: these results are provisional."), "cell_bold"))
        if data.get("dice_fingerprint"):
            out.append(self.p(_("Fingerprint of the game's dice seed (SHA-256): %(fp)s")
                              % {"fp": data["dice_fingerprint"]}, "small"))
        if data.get("dice_chosen"):
            out.append(self.p(chosen_note(), "cell_bold"))
        out += self.moves(data)
        out += self.battles(data)
        out += self.changes(data)
        out += self.news(data)
        return out

    def moves(self, data: dict) -> list:
        out = [self.p(_("Movement"), "h2")]
        if data["moves"]:
            head = [self.p(t, "head") for t in ("№", _("Faction"), _("Who"), _("Order given"), _("Route"), _("Outcome"))]
            rows = [head] + [[self.p(m["seq"], "cell"), self.p(m["faction"], "cell_bold"), self.p(m["unit"], "cell"),
                              self.p(m["order"], "cell"), self.p(m["route"], "cell"), self.p(m["result"], "cell")]
                             for m in data["moves"]]
            out.append(self.table(rows, self.move_columns_mm))
        if data["held"]:
            out.append(self.p(_("Other armies and fleets stood still: %(n)s.") % {"n": data["held"]}, "small"))
        if data["refused"]:
            out.append(self.p(_("Refused orders (the unit stood still)"), "h2"))
            head = [self.p(t, "head") for t in (_("Faction"), _("Who"), _("Reason"))]
            rows = [head] + [[self.p(r["faction"], "cell_bold"), self.p(r["unit"], "cell"), self.p(r["reason"], "cell")]
                             for r in data["refused"]]
            out.append(self.table(rows, self.refused_columns_mm))
        return out

    def battles(self, data: dict) -> list:
        out = [self.p(_("Battles"), "h2")]
        if not data["battles"]:
            return out + [self.nothing(_("No battles this turn."))]
        head = [self.p(t, "head") for t in ("№", _("Where"), _("Attacker"), _("Defender"), _("Result"))]
        rows = [head]
        for b in data["battles"]:
            rows.append([
                self.p(b["number"], "cell"),
                [self.p(b["province"], "cell_bold"), self.p(b["kind"], "small")],
                self.side(b["attacker"], b.get("at_table")), self.side(b["defender"], b.get("at_table")),
                self.p(_("%(outcome)s; fought at the table «%(title)s» (%(system)s), lost there %(lost)s")
                       % {"outcome": b["outcome_text"], "title": b["at_table"]["title"],
                          "system": b["at_table"]["system"], "lost": b["at_table"]["lost"] or "—"}, "cell")
                if b.get("at_table") else
                [self.p(_("%(outcome)s; difference %(difference)s, band %(band)s")
                        % {"outcome": b["outcome_text"], "difference": b["difference"], "band": b["band"]}, "cell"),
                 *([self.p(b["dice_note"], "small")] if b.get("dice_note") else [])],
            ])
        out.append(self.table(rows, self.battle_columns_mm))
        return out

    def side(self, s: dict, at_table: dict | None = None) -> list:
        if at_table:
            return [self.p(s["name"], "cell_bold"), self.p(s["units"], "cell"),
                    self.p(_("at the table, losses %(losses)s") % {"losses": s["losses"]}, "small")]
        return [self.p(s["name"], "cell_bold"), self.p(s["units"], "cell"),
                self.p(_("total %(total)s (dice %(dice)s), losses %(losses)s")
                       % {"total": s["total"], "dice": s["dice"] or "—", "losses": s["losses"]}, "small")]

    @staticmethod
    def no_retreat(retreat: dict) -> str:
        if retreat.get("kind") == "fleet":
            return _("sunk: no free sea zone")
        return _("destroyed: nowhere to retreat")

    def changes(self, data: dict) -> list:
        out = [self.p(_("Retreats"), "h2")]
        if data["retreats"]:
            head = [self.p(t, "head") for t in (_("Faction"), _("Who"), _("From"), _("To"), _("Why"))]
            rows = [head] + [[self.p(r["faction"], "cell_bold"), self.p(r["unit"], "cell"), self.p(r["from"], "cell"),
                              self.p(r["to"] or self.no_retreat(r), "cell"), self.p(r["reason"], "cell")]
                             for r in data["retreats"]]
            out.append(self.table(rows, self.retreat_columns_mm))
        else:
            out.append(self.nothing(_("Nobody retreated.")))

        out.append(self.p(_("Provinces that changed hands"), "h2"))
        if data["recoloured"]:
            head = [self.p(t, "head") for t in (_("Province"), pgettext("owner", "Was"), pgettext("owner", "Now"), _("Taken by"))]
            rows = [head] + [[self.p(r["province"], "cell_bold"), self.p(r["from"], "cell"), self.p(r["to"], "cell_bold"),
                              self.p(r["by"], "cell")] for r in data["recoloured"]]
            out.append(self.table(rows, self.recolour_columns_mm))
        else:
            out.append(self.nothing(_("No province changed hands.")))

        out.append(self.p(_("Destroyed and raised"), "h2"))
        rows = []
        for u in data["destroyed_units"]:
            rows.append([self.p(_("Destroyed"), "cell_bold"), self.p(f"{u['faction']}, {u['unit']}", "cell")])
        for g in data["destroyed_garrisons"]:
            rows.append([self.p(_("Garrison destroyed"), "cell_bold"), self.p(g, "cell")])
        for r in data["raised"]:
            rows.append([self.p(_("Raised anew"), "cell_bold"),
                         self.p(f"{r['faction']}, {r['unit']} — {r['province']}", "cell")])
        for c in data["unattached"]:
            rows.append([self.p(_("Commander without an army"), "cell_bold"),
                         self.p(f"{c['name']} ({c['power']}) — {c['faction']}, {c['province']}", "cell")])
        if rows:
            out.append(self.table(rows, self.destroyed_columns_mm, header_rows=0))
        else:
            out.append(self.nothing(_("No army, fleet or garrison was destroyed or raised.")))
        return out

    def news(self, data: dict) -> list:
        out = [self.p(_("News"), "h2")]
        text = (data.get("news") or "").strip()
        if not text:
            return out + [self.nothing(_("No news this turn."))]
        for paragraph in [p.strip() for p in text.replace("\r\n", "\n").split("\n\n") if p.strip()]:
            out.append(self.p_markup("<br/>".join(esc(line) for line in paragraph.split("\n")), "paragraph"))
        return out
