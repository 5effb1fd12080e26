"""«Тактические правила» on paper (T41): the army roster, the unit cards (eight per A4) and the battle record.

Plain data in (larp/tactical/printing.py makes it); the same fonts, styles and footer as every document.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import Spacer, Table, TableStyle

from larp.dice.verify import chosen_note
from larp.sheets.renderers.base import GRID, SHADE, Renderer, esc


def whole_words(r: Renderer, headers: list, widths_mm: tuple) -> list[float]:
    """Column widths in which no header breaks mid-word: each column at least as wide as its header's longest word
    (with the cell's padding), the room taken from the columns with room to spare. Points, for `Renderer.table`."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    st = r.styles["head"]
    pad = 2 * 2.2 * r.scale + 2
    need = [max(stringWidth(w, st.fontName, st.fontSize) for w in str(h).split()) + pad for h in headers]
    total = sum(widths_mm)
    widths = [max(r.frame_width * w / total, n) for w, n in zip(widths_mm, need)]
    over = sum(widths) - r.frame_width
    while over > 0.01:
        spare = [i for i, (w, n) in enumerate(zip(widths, need)) if w - n > 0.01]
        if not spare:
            break
        share = over / len(spare)
        for i in spare:
            cut = min(share, widths[i] - need[i])
            widths[i] -= cut
            over -= cut
    return widths


class RosterRenderer(Renderer):
    document = gettext_lazy("Army roster")
    filename_stem = "army-roster"
    UNIT_COLUMNS = (34, 30, 14, 52, 22, 14, 18)
    GENERAL_COLUMNS = (50, 40, 60, 20)

    def story(self) -> list:
        d = self.data
        right = [self.p(d["date"], "right"),
                 self.p(_("approved by the moderator") if d["approved"] else _("not approved yet"), "right_bold")]
        out = self.heading(d["table"], _("Army of %(side)s") % {"side": d["side"]}, None, right, swatch=False)
        out.append(self.p(d["list"], "h2"))
        heads = [_("Unit"), _("Type"), _("Stats"), _("Weapon and protection"), _("Formation"), _("Figures"),
                 _("Points")]
        rows = [[self.p(x, "head") for x in heads]]
        for u in d["units"]:
            gear = ", ".join(x for x in (u["weapon"], u["equipment"], _("javelins") if u["javelin"] else "") if x)
            rows.append([self.p(u["name"], "cell_bold"), self.p(f"{u['entry']} ({u['role']})", "cell"),
                         self.p(u["stats"], "cell"), self.p(gear, "cell"), self.p(u["formation"], "cell"),
                         self.p(u["count"], "cell_right"), self.p(u["points"] if u["points"] is not None else "—",
                                                                   "cell_right")])
        rows.append([self.p(_("Total"), "cell_bold"), "", "", "", "", "",
                     self.p(f"{d['points'].get('total', 0)} / {d['points'].get('limit', 0)}", "cell_right_bold")])
        out.append(self.table(rows, whole_words(self, heads, self.UNIT_COLUMNS), total_row=True))
        out.append(self.p(_("Generals"), "h2"))
        if d["generals"]:
            heads = [_("General"), _("Leads"), _("Talents"), _("Initiative")]
            rows = [[self.p(x, "head") for x in heads]]
            for g in d["generals"]:
                t = g["talents"]
                talents = _("steadiness %(s)+d, melee %(m)+d, specialty %(p)+d") % {
                    "s": t.get("steadiness", 0), "m": t.get("melee", 0), "p": t.get("specialty", 0)}
                title = g["name"] + (" — " + _("commander-in-chief") if g["c_in_c"] else "")
                rows.append([self.p(title, "cell_bold"), self.p(g["unit"] or "—", "cell"), self.p(talents, "cell"),
                             self.p(g["initiative"], "cell_right")])
            out.append(self.table(rows, whole_words(self, heads, self.GENERAL_COLUMNS)))
        else:
            out.append(self.nothing(_("No generals yet.")))
        if d["refused"]:
            out.append(self.p(_("Refusals"), "h2"))
            out += [self.p(r, "small") for r in d["refused"]]
        return out


class CardsRenderer(Renderer):
    """Eight cards per A4 sheet, two columns, one to lay beside each base."""
    document = gettext_lazy("Unit cards")
    filename_stem = "unit-cards"

    def card(self, c: dict):
        lines = [self.p(c["name"], "head"), self.p(f"{c['entry']} · {c['stats']}", "body"),
                 self.p(_("Formation: %(f)s, front %(n)s") % {"f": c["formation"], "n": c["front"]}, "small"),
                 self.p(_("Figures: %(n)s on %(b)s bases") % {"n": c["figures"], "b": c["bases"]}, "small"),
                 self.p(_("Weapon: %(w)s") % {"w": c["weapon"]}, "small"),
                 self.p(_("Protection: %(p)s") % {"p": c["equipment"]}, "small"),
                 self.p(_("Ranks fighting in melee: %(r)s") % {"r": c["melee_ranks"]}, "small")]
        if c["shoots"]:
            lines.append(self.p(_("Shoots: 2 cm per figure in the first rank, at least 10 cm"), "small"))
        return lines

    def story(self) -> list:
        d = self.data
        out = self.heading(d["table"], _("Unit cards: %(side)s") % {"side": d["side"]}, None,
                           [self.p(d["date"], "right")], swatch=False)
        cards = [self.card(c) for c in d["cards"]] or [[self.nothing(_("No units yet."))]]
        if len(cards) % 2:
            cards.append("")
        rows = [cards[i:i + 2] for i in range(0, len(cards), 2)]
        width = self.frame_width / 2
        t = Table(rows, colWidths=[width, width], rowHeights=[self.mm(62)] * len(rows))
        t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.6, GRID), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("LEFTPADDING", (0, 0), (-1, -1), self.mm(3)),
                               ("TOPPADDING", (0, 0), (-1, -1), self.mm(2))]))
        out.append(t)
        return out


class RecordRenderer(Renderer):
    """The battle record: every step with its dice and numbers, then the tallies and the result."""
    document = gettext_lazy("Battle record")
    filename_stem = "battle-record"

    def story(self) -> list:
        d = self.data
        right = [self.p(d["date"], "right"), self.p(_("Dice fingerprint"), "small"),
                 self.p(d["fingerprint"][:32], "small"), self.p(d["fingerprint"][32:], "small")]
        out = self.heading(_("Battle record"), d["table"], None, right, swatch=False)
        if d.get("dice_chosen"):
            out.append(self.p(chosen_note(), "cell_bold"))
        rows = [[self.p(x, "head") for x in ("№", _("Time"), _("What happened"))]]
        for s in d["steps"]:
            text = esc(s["summary"])
            if s["undone"]:
                text = f"<strike>{text}</strike> — {esc(_('undone'))}"
            extra = [esc(x) for x in s["lines"]]
            if s["dice"]:
                extra.append(esc(_("Dice: %(d)s") % {"d": s["dice"]}))
            if s["reason"]:
                extra.append(esc(_("Reason: %(r)s") % {"r": s["reason"]}))
            markup = text + "".join(f"<br/><font size='7'>{x}</font>" for x in extra)
            rows.append([self.p(s["seq"], "cell"), self.p(s["at"], "cell"), self.p_markup(markup, "cell")])
        out.append(self.table(rows, (10, 14, 160)))
        out.append(Spacer(1, self.mm(4)))
        out.append(self.p(_("Tallies"), "h2"))
        rows = [[self.p(x, "head") for x in (_("Side"), _("Figures at the start"), _("Figures left"), _("Lost"),
                                              _("Units fleeing"), _("Units destroyed"))]]
        for s in d["sides"]:
            rows.append([self.p(s["name"], "cell_bold")] + [self.p(s[k], "cell_right") for k in
                                                             ("start", "now", "lost", "fleeing", "destroyed")])
        out.append(self.table(rows, (50, 26, 26, 20, 26, 26)))
        if d["ended_by"]:
            who = d["winner"] or _("a draw")
            out.append(self.p(_("Result: %(who)s — %(how)s") % {"who": who, "how": d["ended_by"]}, "h2"))
        return out


class ReferenceRenderer(Renderer):
    """The quick-reference sheet (T41): turn sequence, tests, formations, weapons, saves, speeds, weather.

    `data`: {"game", "formations": [...], "weapons": [...], "protection": [...], "weather": [...]} as
    larp/tactical/printing.reference makes it (the rules data's numbers in the players' words).
    """
    document = gettext_lazy("Quick reference")
    filename_stem = "tactical-reference"

    def story(self) -> list:
        d = self.data
        out = self.heading(_("Tactical rules"), _("Quick reference"), None, [], swatch=False)
        out.append(self.p(_("Turn sequence"), "h2"))
        for line in d["turn"]:
            out.append(self.p(line, "body"))
        out.append(self.p(_("Steadiness test"), "h2"))
        for line in d["tests"]:
            out.append(self.p(line, "body"))
        out.append(self.p(_("Formations"), "h2"))
        rows = [[self.p(x, "head") for x in (_("Formation"), _("Front, foot"), _("Front, mounted"),
                                              _("Ranks in melee"), _("Shooting"))]]
        rows += [[self.p(f["name"], "cell_bold"), self.p(f["foot"], "cell_right"), self.p(f["mounted"], "cell_right"),
                  self.p(f["melee"], "cell_right"), self.p(f["shooting"], "cell")] for f in d["formations"]]
        out.append(self.table(rows, (50, 30, 30, 30, 30)))
        out.append(self.p(_("Weapons"), "h2"))
        rows = [[self.p(x, "head") for x in (_("Weapon"), _("Ranks in a clash"), _("Range"), _("Notes"))]]
        rows += [[self.p(w["name"], "cell_bold"), self.p(w["clash"], "cell_right"), self.p(w["range"], "cell"),
                  self.p(w["notes"], "cell")] for w in d["weapons"]]
        out.append(self.table(rows, (40, 24, 40, 70)))
        out.append(self.p(_("Saves"), "h2"))
        rows = [[self.p(x, "head") for x in (_("Protection"), _("Saves"), _("Against"))]]
        rows += [[self.p(x["name"], "cell_bold"), self.p(x["save"], "cell"), self.p(x["against"], "cell")]
                 for x in d["protection"]]
        out.append(self.table(rows, (50, 50, 74)))
        out.append(self.p(_("Movement"), "h2"))
        for line in d["movement"]:
            out.append(self.p(line, "body"))
        out.append(self.p(_("Weather"), "h2"))
        for line in d["weather"]:
            out.append(self.p(line, "body"))
        return out


class BlankListRenderer(Renderer):
    """The blank army list form for players without a tablet (T41)."""
    document = gettext_lazy("Army list form")
    filename_stem = "army-list-form"

    def story(self) -> list:
        d = self.data
        out = self.heading(d["table"], _("Army list form"), None, [self.p(_("Side: ____________"), "right")],
                           swatch=False)
        out.append(self.p(_("Points limit: %(n)s") % {"n": d["limit"]}, "body"))
        heads = [_("Unit"), _("Type"), _("Stats"), _("Weapon and protection"), _("Formation"), _("Figures"),
                 _("Points")]
        rows = [[self.p(x, "head") for x in heads]]
        rows += [[""] * 7 for _i in range(16)]
        out.append(self.table(rows, (34, 30, 14, 52, 22, 14, 18), row_height_mm=9))
        out.append(self.p(_("Generals"), "h2"))
        rows = [[self.p(x, "head") for x in (_("General"), _("Leads"), _("Talents"), _("Initiative"))]]
        rows += [[""] * 4 for _i in range(5)]
        out.append(self.table(rows, (50, 40, 60, 20), row_height_mm=9))
        return out


class CardsDeckRenderer(Renderer):
    """The operational cards (T41): nine per A4 sheet, to cut out, with the MP cost and the effect."""
    document = gettext_lazy("Operational cards")
    filename_stem = "operational-cards"

    def story(self) -> list:
        from reportlab.platypus import PageBreak
        cards = self.data["cards"]
        out = []
        width = self.frame_width / 3
        for start in range(0, len(cards), 9):
            if start:
                out.append(PageBreak())
            cells = [[self.p(c["name"], "head"), self.p(c["kind"] + (f" · {c['cost']}" if c["cost"] else ""),
                                                          "small"), self.p(c["effect"], "body")]
                     for c in cards[start:start + 9]]
            cells += [""] * (-len(cells) % 3)
            rows = [cells[i:i + 3] for i in range(0, len(cells), 3)]
            t = Table(rows, colWidths=[width] * 3, rowHeights=[self.mm(86)] * len(rows))
            t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.6, GRID), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                   ("LEFTPADDING", (0, 0), (-1, -1), self.mm(3)),
                                   ("TOPPADDING", (0, 0), (-1, -1), self.mm(3))]))
            out.append(t)
        return out


class BattlefieldRenderer(Renderer):
    """The battlefield sheet (T41): the 5x5 map at the moment of battle, the six chosen cards and their pieces."""
    document = gettext_lazy("Battlefield")
    filename_stem = "battlefield"

    def story(self) -> list:
        d = self.data
        out = self.heading(d["table"], _("Battlefield"), None, [], swatch=False)
        head = [""] + [self.p(x, "head") for x in "ABCDE"]
        rows = [head] + [[self.p(str(i + 1), "head")] + [self.p(c["card"] or "·", "cell_bold" if c["field"] else "cell")
                                                          for c in row] for i, row in enumerate(d["grid"])]
        style = [("BACKGROUND", (c + 1, r + 1), (c + 1, r + 1), SHADE) for r, row in enumerate(d["grid"])
                 for c, cell in enumerate(row) if cell["field"]]
        out.append(self.table(rows, (8, 30, 30, 30, 30, 30), extra_style=style, row_height_mm=22))
        if not d["chosen"]:
            out.append(self.nothing(_("No battlefield chosen yet.")))
        else:
            out.append(self.p(_("The six cards of the battle are shaded: each is a 40×40 cm square of the "
                                "120×80 cm table."), "small"))
        if d["weather"]:
            out.append(self.p(_("Weather: %(w)s") % {"w": ", ".join(d["weather"])}, "body"))
        out.append(self.p(_("Terrain pieces"), "h2"))
        if d["pieces"]:
            rows = [[self.p(x, "head") for x in (_("Card place"), _("Card"), _("Pieces"))]]
            rows += [[self.p(p["cell"], "cell"), self.p(p["card"], "cell"), self.p(f"{p['piece']}: {p['count']}", "cell")]
                     for p in d["pieces"]]
            out.append(self.table(rows, (20, 50, 100)))
        else:
            out.append(self.nothing(_("Clear ground only.")))
        return out
