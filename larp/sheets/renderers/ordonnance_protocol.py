"""«Ордонанс»: the contest protocol (протокол партии), docs/ordonnance.md "Pages and printing".

Players and seats, the first player and the dice fingerprint; per territory each player's cards
as symbol strips with their combinations, the winner with the marker numeral and the play that
decided it, the defeat markers and the points; both standings; the numbered log; signatures.
`data` is `larp.ordonnance.selectors.protocol(table)`: plain, translated data.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import KeepTogether, Spacer

from larp.dice.verify import chosen_note
from larp.sheets.renderers.base import Renderer, esc


def strip(card: list[dict]) -> str:
    return " ".join(s["name"] for s in card)


class OrdonnanceProtocolRenderer(Renderer):
    document = gettext_lazy("Contest protocol")
    filename_stem = "ordonnance-protocol"

    def filename(self) -> str:
        return f"{self.filename_stem}.pdf"

    def story(self) -> list:
        d = self.data
        right = [self.p(d["status"], "right_bold")]
        out = self.heading(_("Contest protocol") + " · " + _("Ordonnance"), d["title"], None, right, swatch=False)
        players = ", ".join(f"{i + 1}. {p['name']}" for i, p in enumerate(d["players"]))
        out.append(self.p(_("Players in seating order: %(players)s") % {"players": players}))
        out.append(self.p(_("First player: %(name)s") % {"name": d["first_player"] or "—"}))
        deck = d["deck_name"] or _("unknown (the rules do not give the deck)")
        if d["made_for_tests"]:
            deck = _("%(name)s (made up for tests)") % {"name": deck}
        out.append(self.p(_("Deck: %(deck)s; %(mode)s") % {
            "deck": deck, "mode": _("virtual deck") if d["virtual"] else _("physical deck")}))
        out.append(self.p(_("Dice fingerprint (SHA-256): %(fp)s") % {"fp": d["fingerprint"]}, "small"))
        if d.get("dice_chosen"):
            out.append(self.p(chosen_note(), "cell_bold"))
        out += self._standings(d)
        out.append(self.p(_("Territories"), "h2"))
        for row in d["rows"]:   # one small table a territory, a row a player: it fills pages, never leaves one empty
            if row["decided"]:
                head = _("%(name)s, marker %(m)s, play %(n)s") % {"name": row["winner"], "m": row["marker"],
                                                                 "n": row["decided_at"]}
            else:
                head = _("undecided")
            block = [self.p_markup(f"<b>{esc(row['label'])}</b> — {esc(head)}", "cell")]
            block += [self.p(w, "small") for w in row["why"]]
            rows = [[self.p(x, "head") for x in [_("Player"), _("Card"), _("Combinations"), _("Result")]]]
            for cell in row["cells"]:
                combos = cell["combinations"] + ([_("singles: %(s)s") % {"s": cell["singles"]}]
                                                 if cell["singles"] else [])
                marks = [f"{cell['size']}/4"]
                if cell["winner"]:
                    marks.append("<b>" + esc(_("victory marker %(m)s") % {"m": row["marker"]}) + "</b>")
                if cell["defeated"]:
                    marks.append(esc(_("defeat marker")))
                if cell["points"] is not None:
                    marks.append(esc(_("points: %(n)s") % {"n": cell["points"]}))
                rows.append([self.p(cell["name"], "cell_bold"),
                             self.p_markup("<br/>".join(esc(strip(c)) for c in cell["cards"]) or "—", "cell"),
                             self.p("; ".join(combos), "cell"), self.p_markup(", ".join(marks), "cell")])
            block.append(self.table(rows, [34, 58, 50, 38]))
            block.append(Spacer(1, self.mm(2)))
            out.append(KeepTogether(block))
        out.append(self.p(_("The log"), "h2"))
        lrows = [[self.p(x, "head") for x in [_("No."), _("Move"), _("Card"), _("Note")]]]
        for entry in d["log"]:
            note = "; ".join(entry["markers"])
            if entry["reason"]:
                note = (note + "; " if note else "") + _("reason: %(r)s") % {"r": entry["reason"]}
            if entry["undone"]:
                note = (note + "; " if note else "") + _("undone: %(r)s") % {"r": entry["undone_reason"]}
            lrows.append([entry["seq"], self.p(entry["text"], "cell"),
                          self.p(strip(entry["card"]) if entry["card"] else "", "cell"), self.p(note, "cell")])
        out.append(self.table(lrows, [10, 60, 40, 62]))
        if d.get("rolls"):
            out.append(self.p(_("Dice on the record"), "h2"))
            text = ", ".join(f"№{r['counter']}: {r['value']}/{r['sides']}" if r["counter"] is not None
                             else f"{r['value']}/{r['sides']}" for r in d["rolls"])
            out.append(self.p(text, "small"))
        out.append(Spacer(1, self.mm(9)))
        out.append(self.p(_("Moderator ________________    Players ________________________________"), "body"))
        return out

    def _standings(self, d) -> list:
        """The result first: the standings and both winners on the first page, where a reader looks."""
        st = d["standings"]
        out = [self.p(_("Standings"), "h2")]
        if st["game_over"]:
            out.append(self.p(_("Winner by territories: %(name)s") % {"name": st["winner"] or "—"}, "cell_bold"))
            out.append(self.p(_("Winner by points: %(name)s") % {"name": st["points_winner"] or "—"}, "cell_bold"))
            if st["tie_rule"]:
                out.append(self.p(_("Two players hold two territories each: the one who took the later "
                                    "marker loses the tie (C14)."), "small"))
        else:
            out.append(self.p(_("The contest is not over yet."), "small"))
        srows = [[self.p(x, "head") for x in [_("Place"), _("Player"), _("Territories"), _("Victory markers"),
                                               _("Points")]]]
        srows += [[self.p(str(x), "cell") for x in (r["place"], r["name"], r["territories"], r["markers"], r["points"])]
                  for r in st["rows"]]
        out.append(self.table(srows, [14, 50, 24, 40, 20]))
        return out
