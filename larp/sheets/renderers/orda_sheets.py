"""«Орда» paper (O25): the battle protocol, the state of the board, the faction sheets. Plain data in.

The data come from `larp.orda.printing` (already in the reader's language);
these renderers only lay them out on A4 with the Cyrillic fonts.
"""
from __future__ import annotations

from django.utils.translation import gettext as _, pgettext
from reportlab.lib import colors
from reportlab.platypus import Flowable, PageBreak, Spacer

from larp.dice.verify import chosen_note
from larp.sheets import fonts
from larp.sheets.renderers.base import Renderer, colour


class _Orda(Renderer):
    def top(self, kicker: str, colour: str | None = None) -> list:
        d = self.data
        right = [self.p(d.get("tour_text", ""), "right_bold"), self.p(d.get("date", ""), "right")]
        out = self.heading(kicker, d["title"], colour, right, swatch=colour is not None)
        if d.get("fingerprint"):
            out.append(self.p(_("Dice fingerprint (SHA-256 of the table's seed): %(f)s") % {"f": d["fingerprint"]},
                              "small"))
        if d.get("dice_chosen"):
            out.append(self.p(chosen_note(), "cell_bold"))
        if d.get("test_data"):
            out.append(self.p(_("The numbers of this table are a data set made up for tests."), "small"))
        return out


class OrdaProtocol(_Orda):
    document = "Orda battle protocol"
    filename_stem = "orda-protocol"

    def title(self) -> str:
        return _("Protocol of the battle")

    def story(self) -> list:
        d = self.data
        out = self.top(_("Orda · battle protocol"))
        out.append(self.p(d["mode_text"], "paragraph"))
        out.append(self.p(_("Sides"), "h2"))
        out.append(self.table([[self.p(_("Faction"), "head"), self.p(_("Played by"), "head"),
                                self.p(_("Tokens lost"), "head")]] +
                              [[self.p(s["name"]), self.p(s["players"]), self.p(s["losses"])] for s in d["sides"]],
                              [50, 70, 40]))
        out.append(self.p(_("Result"), "h2"))
        out.append(self.p(d["result_text"], "paragraph"))
        out.append(self.p(_("Every act, roll and ruling"), "h2"))
        rows = [[self.p("№", "head"), self.p(_("What happened"), "head"), self.p(_("Dice rolled"), "head"),
                 self.p(_("Who, when"), "head")]]
        for s in d["steps"]:
            rows.append([self.p(str(s["seq"])), self.p(s["text"]), self.p(s["dice"]), self.p(s["who"], "small")])
        out.append(self.table(rows, [8, 110, 30, 32]))
        return out


class OrdaState(_Orda):
    document = "Orda state of the board"
    filename_stem = "orda-state"

    def title(self) -> str:
        return _("State of the board")

    def story(self) -> list:
        d = self.data
        out = self.top(_("Orda · state of the board"))
        out.append(self.p(d["mode_text"], "paragraph"))
        out.append(self.p(_("Units"), "h2"))
        rows = [[self.p(pgettext("orda", "Unit"), "head"), self.p(_("Faction"), "head"), self.p(_("Where"), "head"),
                 self.p(_("Health"), "head"), self.p(_("Chips and effects"), "head")]]
        for u in d["units"]:
            rows.append([self.p(u["name"]), self.p(u["faction"]), self.p(u["where"]), self.p(u["health"]),
                         self.p(u["effects"])])
        out.append(self.table(rows, [50, 35, 35, 20, 50]))
        out.append(self.p(_("Capitals and cities"), "h2"))
        out.append(self.table([[self.p(_("Place"), "head"), self.p(_("Hex"), "head"), self.p(_("Durability"), "head")]] +
                              [[self.p(c["name"]), self.p(c["hex"]), self.p(c["left"])] for c in d["cities"]],
                              [80, 30, 40]))
        out.append(self.p(_("Summon indicators"), "h2"))
        for t in d["tracks"]:
            out.append(self.p(t))
        if d["traps"]:
            out.append(self.p(_("Traps"), "h2"))
            out.append(self.p(d["traps"]))
        return out


class OrdaFactions(_Orda):
    document = "Orda faction sheets"
    filename_stem = "orda-factions"

    def title(self) -> str:
        return _("Faction sheets")

    def story(self) -> list:
        out = []
        for i, f in enumerate(self.data["factions"]):
            if i:
                out.append(PageBreak())
            out += self.heading(_("Orda · faction sheet"), f["name"], f["colour"],
                                [self.p(self.data["title"], "right_bold")])
            rows = [[self.p(_("Token"), "head"), self.p(_("Class"), "head"), self.p(_("Numbers"), "head"),
                     self.p(_("Trait"), "head")]]
            for k in f["kinds"]:
                rows.append([self.p(k["name"]), self.p(k["cls"]), self.p(k["numbers"]), self.p(k["trait"], "small")])
            out.append(self.table(rows, [40, 22, 45, 90]))
            out.append(Spacer(1, self.mm(4)))
            out.append(self.p(_("Reserve slots: %(n)s · the summon indicator: a token goes on the cell equal to its "
                                "summon time and moves down one cell at the start of each of your turns.")
                              % {"n": f["reserve"]}, "small"))
        return out


class HexBoard(Flowable):
    """The board's hexes with their coordinates, capitals and cities filled, a line's side marked (O23)."""

    def __init__(self, cells: list[dict], width: float, max_height: float):
        super().__init__()
        self.cells = cells
        xs = [c["x"] for c in cells] or [0.0]
        ys = [c["y"] for c in cells] or [0.0]
        span_x = max(xs) - min(xs) + 2.0
        span_y = max(ys) - min(ys) + 2.0
        self.unit = min(width / (span_x * 1.0), max_height / (span_y * 1.0))
        self.min_x, self.min_y = min(xs) - 1.0, min(ys) - 1.0
        self.width, self.height = span_x * self.unit, span_y * self.unit

    def wrap(self, avail_width, avail_height):
        return self.width, self.height

    def draw(self):
        import math

        c = self.canv
        size = self.unit * 0.98
        for cell in self.cells:
            cx = (cell["x"] - self.min_x) * self.unit
            cy = self.height - (cell["y"] - self.min_y) * self.unit
            path = c.beginPath()
            for i in range(6):
                a = math.radians(60 * i - 30)
                px, py = cx + size * math.cos(a), cy + size * math.sin(a)
                if i == 0:
                    path.moveTo(px, py)
                else:
                    path.lineTo(px, py)
            path.close()
            fill = colour(cell.get("fill"))
            c.setStrokeColor(colors.black)
            c.setLineWidth(0.6 if not cell.get("fill") else 1.6)
            if fill is not None:
                c.setFillColor(fill)
            c.drawPath(path, stroke=1, fill=1 if fill is not None else 0)
            c.setFillColor(colors.white if fill is not None else colors.black)
            c.setFont(fonts.REGULAR, max(4.0, size * 0.16))
            c.drawCentredString(cx, cy - size * 0.05, cell["label"])
            if cell.get("mark"):
                c.setFont(fonts.BOLD, max(4.0, size * 0.14))
                c.drawCentredString(cx, cy - size * 0.25, cell["mark"])


class OrdaBoard(Renderer):
    document = "Orda board"
    filename_stem = "orda-board"

    def title(self) -> str:
        return _("The board with hex coordinates")

    def story(self) -> list:
        d = self.data
        out = self.heading(_("Orda · the board"), d["title"], None, [self.p(d.get("date", ""), "right")], swatch=False)
        out.append(self.p(d["legend"], "small"))
        out.append(Spacer(1, self.mm(3)))
        out.append(HexBoard(d["cells"], self.frame_width, self.mm(215)))
        return out


class OrdaReference(Renderer):
    document = "Orda reference card"
    filename_stem = "orda-reference"

    def title(self) -> str:
        return _("Reference card")

    def story(self) -> list:
        d = self.data
        out = self.heading(_("Orda · reference card"), d["title"], None, [self.p(d.get("date", ""), "right")],
                           swatch=False)
        out.append(self.p(_("Rules in brief"), "h2"))
        for line in d["summary"]:
            out.append(self.p("• " + line, "paragraph"))
        for f in d["factions"]:
            out.append(self.p(f["name"], "h2"))
            rows = [[self.p(_("Token"), "head"), self.p(_("Class"), "head"), self.p(_("Numbers"), "head"),
                     self.p(_("Trait"), "head")]]
            for k in f["kinds"]:
                rows.append([self.p(k["name"]), self.p(k["cls"]), self.p(k["numbers"], "small"),
                             self.p(k["trait"], "small")])
            out.append(self.table(rows, [38, 20, 42, 95]))
        return out
