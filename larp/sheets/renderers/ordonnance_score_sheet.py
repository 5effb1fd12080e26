"""«Ордонанс»: the blank score sheet for a physical table (docs/ordonnance.md "Pages and printing").

Territories × players, four card boxes each with five symbol boxes to tick (spear, bow, swords,
helmet, flag, in rank order), and the marker boxes. `data` is the protocol's data (names only).
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from larp.sheets.renderers.base import Renderer


class OrdonnanceScoreSheetRenderer(Renderer):
    document = gettext_lazy("Score sheet")
    filename_stem = "ordonnance-score-sheet"
    landscape = True

    def story(self) -> list:
        d = self.data
        out = self.heading(_("Score sheet") + " · " + _("Ordonnance"), d["title"], None,
                           [self.p(_("Tick the symbols of each card as it is laid."), "right")], swatch=False)
        order = " · ".join(d["symbol_names"])
        out.append(self.p(_("Symbols in each box, weakest first: %(order)s") % {"order": order}, "small"))
        names = [p["name"] for p in d["players"]]
        box = "☐ ☐ ☐ ☐ ☐"
        rows = [[self.p(x, "head") for x in [_("Territory"), *names, _("Victory marker"), _("Defeat markers")]]]
        for row in d["rows"]:
            cells = [self.p(row["label"], "cell_bold")]
            for _name in names:
                cells.append(self.p_markup("<br/>".join(f"{k}. {box}" for k in range(1, 5)), "cell"))
            cells += [self.p("I  II  III  IV  V", "cell"), self.p("", "cell")]
            rows.append(cells)
        out.append(self.table(rows, [30] + [44] * len(names) + [30, 30], row_height_mm=26))
        out.append(self.p(_("Moderator ________________"), "body"))
        return out
