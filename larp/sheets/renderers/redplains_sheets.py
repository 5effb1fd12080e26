"""«Warlords: Battle of Red Plains» on paper (W42.3): one renderer for its four documents.

Plain data in (already in the reader's language, built by larp/redplains/printing.py), PDF out:

    {"game": str, "document": str, "filename": str, "kicker": str, "title": str, "right": [str, ...],
     "pages": [[block, ...], ...]}          # each page starts on a new sheet

A block is {"h": heading} | {"p": paragraph} | {"small": text} |
{"table": [[cell, ...], ...], "widths": [mm, ...], "header": 1, "height": mm or None} |
{"grid": {"columns": 12, "rows": 6, "labels": {(col, row): text}, "marks": {(col, row): text}}}
(a field with added cells, W2.5, also gives "first_col", "first_row" — its top-left position — and "centre_row",
the first row of the south half).
"""
from __future__ import annotations

from reportlab.lib import colors
from reportlab.platypus import Flowable, PageBreak, Spacer

from larp.sheets import fonts
from larp.sheets.renderers.base import Renderer, esc


class FieldGrid(Flowable):
    """The field: columns × rows cells, each with its label (small, top left) and a mark (a unit, big)."""

    def __init__(self, spec: dict, width: float):
        super().__init__()
        self.spec, self.width = spec, width
        self.cell = width / spec["columns"]
        self.height = self.cell * spec["rows"]

    def wrap(self, avail_width, avail_height):
        return self.width, self.height

    def draw(self):
        c, s, cell = self.canv, self.spec, self.cell
        first_col, first_row = s.get("first_col", 1), s.get("first_row", 1)
        centre = s.get("centre_row", s["rows"] // 2 + 1)
        for (col, row), label in s["labels"].items():
            x, y = (col - first_col) * cell, self.height - (row - first_row + 1) * cell
            if (col, row) in s.get("shade", set()):
                c.setFillColor(colors.Color(0.9, 0.9, 0.9))
                c.rect(x, y, cell, cell, stroke=0, fill=1)
            c.setStrokeColor(colors.black)
            c.setLineWidth(1.4 if row == centre else 0.5)
            c.line(x, y + cell, x + cell, y + cell)
            c.setLineWidth(0.5)
            c.rect(x, y, cell, cell, stroke=1, fill=0)
            c.setFillColor(colors.black)
            c.setFont(fonts.REGULAR, 6)
            c.drawString(x + 2, y + cell - 7, label)
            mark = s.get("marks", {}).get((col, row))
            if mark:
                c.setFont(fonts.BOLD, 7)
                for i, line in enumerate(mark.split("\n")[:3]):
                    c.drawCentredString(x + cell / 2, y + cell / 2 - i * 8, line[:14])


class RedPlainsSheet(Renderer):
    document = "Red Plains"
    filename_stem = "red-plains"

    def title(self) -> str:
        return str(self.data.get("document") or self.document)

    def filename(self) -> str:
        return self.data.get("filename") or super().filename()

    def story(self) -> list:
        d = self.data
        story = []
        for i, page in enumerate(d["pages"]):
            if i:
                story.append(PageBreak())
            story += self.heading(d.get("kicker", ""), d.get("title", ""), None,
                                  [self.p(line, "right") for line in d.get("right", [])], swatch=False)
            for block in page:
                story += self.block(block)
        return story

    def block(self, b: dict) -> list:
        if "h" in b:
            return [self.p(b["h"], "h2")]
        if "p" in b:
            return [self.p(b["p"], "paragraph")]
        if "small" in b:
            return [self.p(b["small"], "small")]
        if "grid" in b:
            return [FieldGrid(b["grid"], self.frame_width), Spacer(1, self.mm(3))]
        if "table" in b:
            header = b.get("header", 1)
            rows = [[self.p_markup(esc(cell), "cell_bold" if r < header else "cell") for cell in row]
                    for r, row in enumerate(b["table"])]
            return [self.table(rows, b["widths"], header_rows=header, row_height_mm=b.get("height")),
                    Spacer(1, self.mm(2))]
        return []
