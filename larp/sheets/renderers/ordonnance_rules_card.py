"""«Ордонанс»: the rules card (памятка, A5), docs/ordonnance.md "Pages and printing".

The symbol order; the combinations; the six comparison steps with the source's three examples;
early control; the end of the game and both scoring systems. `data`: {"game", "symbols"}.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from larp.sheets.renderers.base import Renderer


class OrdonnanceRulesCardRenderer(Renderer):
    document = gettext_lazy("Rules card")
    filename_stem = "ordonnance-rules-card"
    paper = "a5"

    def story(self) -> list:
        out = self.heading(_("Rules card") + " · " + _("Ordonnance"), _("Ordonnance"), None, [], swatch=False)
        out.append(self.p(_("Symbols, weakest first"), "h2"))
        out.append(self.p(" < ".join(self.data["symbols"]), "cell_bold"))
        out.append(self.p(_("Combinations of an army (four cards in one territory)"), "h2"))
        rows = [[self.p(_("cards with the symbol"), "head"), self.p(_("combination"), "head")],
                [self.p("2", "cell"), self.p(_("company (junior)"), "cell")],
                [self.p("3", "cell"), self.p(_("battalion (middle)"), "cell")],
                [self.p("4", "cell"), self.p(_("regiment (senior)"), "cell")],
                [self.p("1", "cell"), self.p(_("a single symbol"), "cell")]]
        out.append(self.table(rows, [40, 80]))
        out.append(self.p(_("Which army is stronger: the first step that differs decides"), "h2"))
        for line in (_("1. More regiments («два полка старше одного»)."),
                     _("2. The senior regiment («полк флагов старше полка луков»)."),
                     _("3. Battalions: count, then seniority («полки одинаковые, но два батальона старше одного»)."),
                     _("4. Companies: count, then seniority."),
                     _("5. The senior single symbol."),
                     _("6. Identical armies: the one completed first wins.")):
            out.append(self.p(line, "paragraph"))
        out.append(self.p(_("Early control"), "h2"))
        out.append(self.p(_("A territory is decided as soon as it is clear from the cards on the table that a "
                            "complete army can no longer be beaten; the others get their defeat marker with "
                            "their fourth card."), "paragraph"))
        out.append(self.p(_("End of the game and the winner"), "h2"))
        out.append(self.p(_("The game ends with the fifth victory marker. By territories: the most territories "
                            "wins; with three or four players a 2–2 tie is lost by the holder of the later "
                            "marker. By points: in each territory 3, 2 and 1 points for the first, second and "
                            "third complete army."), "paragraph"))
        return out
